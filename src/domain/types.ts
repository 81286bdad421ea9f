/** The records of the ledger as the core sees them. Amounts are bigint; ids are strings. */
import type { CredentialType } from './audit.js';
import type { AmountMinor } from './money/amount.js';

export type AssetType = 'fiat' | 'crypto';
export type AccountType = 'asset' | 'liability' | 'equity' | 'revenue' | 'expense';
export type NormalBalance = 'debit' | 'credit';
export type PeriodStatus = 'open' | 'closed';
export type EntryType = 'standard' | 'reversal' | 'closing';
export type UserType = 'human' | 'service';
/**
 * The canonical form an entry's hash covers (service/entry-hash.ts): 1 for entries posted before
 * SQLite schema version 17 / PostgreSQL 18, whose audit records are rows of the audit log; 2 since
 * then, which covers who posted as well: such an entry is its own audit record (docs/audit.md).
 */
export type EntryHashVersion = 1 | 2;

export const ACCOUNT_TYPES: readonly AccountType[] = ['asset', 'liability', 'equity', 'revenue', 'expense'];
export const NORMAL_BALANCES: readonly NormalBalance[] = ['debit', 'credit'];
export const ASSET_TYPES: readonly AssetType[] = ['fiat', 'crypto'];

export interface Currency {
  id: string;
  code: string;
  name: string;
  symbol: string;
  asset_scale: number;
  asset_type: AssetType;
  caip19_id: string;
  created_at: string;
}

export interface Account {
  id: string;
  account_number: string;
  name: string;
  currency_id: string;
  account_type: AccountType;
  normal_balance: NormalBalance;
  has_subledger: boolean;
  parent_id: string | null;
  entity_id: string | null;
  xbrl_tag: string | null;
  is_active: boolean;
  created_at: string;
}

export interface Period {
  id: string;
  name: string;
  start_date: string;
  end_date: string;
  status: PeriodStatus;
  closed_at: string | null;
  closed_by: string | null;
  closing_entry_id: string | null;
  created_at: string;
}

export interface JournalLine {
  id: string;
  account_id: string;
  debit_amount: AmountMinor;
  credit_amount: AmountMinor;
  description: string | null;
}

export interface JournalEntry {
  id: string;
  entry_date: string;
  description: string;
  reference: string | null;
  metadata: Record<string, unknown> | null;
  period_id: string;
  entry_type: EntryType;
  reverses_id: string | null;
  reversed_by_id: string | null;
  created_by: string | null;
  posted_at: string;
  currency_id: string;
  /** Why an entry dated on or before the lock date was posted anyway (periods:override), else null. */
  override_reason: string | null;
  hash_version: EntryHashVersion;
  /**
   * How the poster (`created_by`) proved who they are, and the HTTP request they posted in, as an
   * audit record names them (docs/audit.md); null from the command line, and on entries of hash
   * version 1, whose audit record holds them.
   */
  credential_type: CredentialType | null;
  credential_id: string | null;
  request_id: string | null;
  lines: JournalLine[];
}

/** A line as stored together with the account facts a reader needs to show it. */
export interface JournalLineView extends JournalLine {
  account_number: string;
  account_name: string;
}

export interface JournalEntryView extends Omit<JournalEntry, 'lines'> {
  lines: JournalLineView[];
  /** The entry's place in posting order across the whole ledger: 1, 2, ... without gaps. */
  entry_number: number;
  /** SHA-256 of the entry in its currency's chain (service/entry-hash.ts), and of the entry before it. */
  hash: string;
  previous_hash: string;
}

export interface Totals {
  debit_total: AmountMinor;
  credit_total: AmountMinor;
}

export type Permissions = Record<string, boolean>;

export interface User {
  id: string;
  name: string;
  email: string | null;
  user_type: UserType;
  permissions: Permissions;
  is_active: boolean;
  created_at: string;
}
