/**
 * Row shapes of the ledger's tables (the same in both adapters' schemas) and their mapping to
 * domain records. Booleans arrive as 0/1 from SQLite and as booleans from PostgreSQL; sequence
 * numbers as numbers or as int8 strings. Every stored amount is parsed by parseStoredAmount.
 */
import type { CredentialType } from '../../domain/audit.js';
import { parseStoredAmount } from '../../domain/money/amount.js';
import type {
  Account, AccountType, AssetType, Currency, EntryHashVersion, EntryType, JournalEntryView, JournalLineView, NormalBalance, Period, PeriodStatus, UserType,
} from '../../domain/types.js';
import type { AccountLine, SideAmount, StoredUser } from '../../service/ports/ledger-store.js';

export interface CurrencyRow {
  id: string; code: string; name: string; symbol: string; asset_scale: number; asset_type: string;
  caip19_id: string; created_at: string;
}

export function toCurrency(row: CurrencyRow): Currency {
  return { ...row, asset_type: row.asset_type as AssetType };
}

export interface AccountRow {
  id: string; account_number: string; name: string; currency_id: string; account_type: string;
  normal_balance: string; has_subledger: number | boolean; parent_id: string | null; entity_id: string | null;
  xbrl_tag: string | null; is_active: number | boolean; created_at: string;
}

export function toAccount(row: AccountRow): Account {
  return {
    ...row,
    account_type: row.account_type as AccountType,
    normal_balance: row.normal_balance as NormalBalance,
    has_subledger: row.has_subledger === 1 || row.has_subledger === true,
    is_active: row.is_active === 1 || row.is_active === true,
  };
}

export interface PeriodRow {
  id: string; name: string; start_date: string; end_date: string; status: string; closed_at: string | null;
  closed_by: string | null; closing_entry_id: string | null; created_at: string;
}

export function toPeriod(row: PeriodRow): Period {
  return { ...row, status: row.status as PeriodStatus };
}

export interface EntryRow {
  seq: number; id: string; entry_date: string; description: string; reference: string | null;
  metadata: string | null; period_id: string; entry_type: string; reverses_id: string | null;
  reversed_by_id: string | null; created_by: string | null; posted_at: string; currency_id: string;
  entry_number: number | string; override_reason: string | null; previous_hash: string; hash: string;
  hash_version: number; credential_type: string | null; credential_id: string | null; request_id: string | null;
}

export interface LineRow {
  seq: number; id: string; entry_seq: number; account_id: string; account_number: string; account_name: string;
  debit_amount: string; credit_amount: string; description: string | null;
}

export function toLine(row: LineRow): JournalLineView {
  return {
    id: row.id,
    account_id: row.account_id,
    account_number: row.account_number,
    account_name: row.account_name,
    debit_amount: parseStoredAmount(row.debit_amount),
    credit_amount: parseStoredAmount(row.credit_amount),
    description: row.description,
  };
}

/** A line's amount on one side, with the keyset of its place in the account's lines. */
export interface SideAmountRow {
  entry_date: string; seq: number | string; amount: string; due_date: unknown;
}

export function toSideAmount(row: SideAmountRow): SideAmount {
  return { entry_date: row.entry_date, amount: parseStoredAmount(row.amount), due_date: row.due_date ?? null };
}

export interface AccountLineRow extends LineRow {
  journal_entry_id: string; entry_number: number | string; entry_date: string; entry_description: string; reference: string | null;
}

export function toAccountLine(row: AccountLineRow): AccountLine {
  return {
    ...toLine(row),
    journal_entry_id: row.journal_entry_id,
    entry_number: Number(row.entry_number),
    entry_date: row.entry_date,
    entry_description: row.entry_description,
    reference: row.reference,
  };
}

export interface UserRow {
  id: string; name: string; email: string | null; user_type: string; password_hash: string | null;
  permissions: string; is_active: number | boolean; created_at: string;
}

export function toUser(row: UserRow): StoredUser {
  return {
    ...row,
    user_type: row.user_type as UserType,
    permissions: JSON.parse(row.permissions) as Record<string, boolean>,
    is_active: row.is_active === 1 || row.is_active === true,
  };
}

/**
 * The columns of an entry as read by both adapters (from ENTRY_FROM), and of its lines (from
 * journal_lines l joined to accounts a). Amounts come back as decimal text from either driver.
 */
export const ENTRY_COLUMNS = `e.seq, e.id, e.entry_date, e.description, e.reference, e.metadata, e.period_id, e.entry_type,
  e.reverses_id, (SELECT r.id FROM journal_entries r WHERE r.reverses_id = e.id) AS reversed_by_id,
  e.created_by, e.posted_at, e.currency_id, e.entry_number, e.override_reason, e.previous_hash, e.hash,
  e.hash_version, e.credential_type, e.credential_id, e.request_id`;

/** Every entry carries its chain link (backfilled for entries from before the chain, moved onto the entry by migration 15 / 16). */
export const ENTRY_FROM = 'journal_entries e';

export const LINE_COLUMNS = `l.seq, l.id, l.entry_seq, l.account_id, a.account_number, a.name AS account_name,
  l.debit_amount, l.credit_amount, l.description`;

/** Entries with their lines (read in one query for all of them, in line order), in the entries' order. */
export function entriesWithLines(rows: readonly EntryRow[], lines: readonly LineRow[]): JournalEntryView[] {
  const byEntry = new Map<number, LineRow[]>();
  for (const line of lines) {
    const list = byEntry.get(line.entry_seq);
    if (list) list.push(line);
    else byEntry.set(line.entry_seq, [line]);
  }
  return rows.map((row) => toEntry(row, byEntry.get(row.seq) ?? []));
}

export function toEntry(row: EntryRow, lines: readonly LineRow[]): JournalEntryView {
  return {
    id: row.id,
    entry_date: row.entry_date,
    description: row.description,
    reference: row.reference,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
    period_id: row.period_id,
    entry_type: row.entry_type as EntryType,
    reverses_id: row.reverses_id,
    reversed_by_id: row.reversed_by_id,
    created_by: row.created_by,
    posted_at: row.posted_at,
    currency_id: row.currency_id,
    override_reason: row.override_reason,
    // Read as stored: verify finds a version changed to one that does not exist by the hash.
    hash_version: Number(row.hash_version) as EntryHashVersion,
    credential_type: row.credential_type as CredentialType | null,
    credential_id: row.credential_id,
    request_id: row.request_id,
    entry_number: Number(row.entry_number),
    previous_hash: row.previous_hash,
    hash: row.hash,
    lines: lines.map(toLine),
  };
}
