/**
 * What the books keep of the bank: imported statements (immutable, with the file's SHA-256), their
 * lines (immutable facts with a mutable status: unmatched, matched to entries, or excluded with a
 * reason), the rules that suggest how to post a line, and reconciliations of a bank or card
 * account against a statement balance. Amounts are minor units of the account's currency.
 *
 * Signs: a bank line's `amount` is positive when money came into the account (a deposit; for a
 * card, a payment) and is the sum of `debit - credit` of the journal lines it is matched to, on
 * an asset and a liability account alike. Statement and reconciliation balances are signed by
 * the account's normal side, as `net_balance` is (a card's balance owed is positive).
 */
import type { StatementFormat } from './statement.js';

export interface BankStatement {
  id: string;
  account_id: string;
  format: StatementFormat;
  file_sha256: string;
  imported_at: string;
  /** The importing user; null for the command line's local operator. */
  imported_by: string | null;
  start_date: string | null;
  end_date: string | null;
  opening_balance: bigint | null;
  closing_balance: bigint | null;
  line_count: number;
  new_count: number;
  duplicate_count: number;
}

export type BankLineStatus = 'unmatched' | 'matched' | 'excluded';
export const BANK_LINE_STATUSES: readonly BankLineStatus[] = ['unmatched', 'matched', 'excluded'];

export interface BankLine {
  id: string;
  statement_id: string;
  account_id: string;
  posted_date: string;
  amount: bigint;
  description: string;
  external_id: string | null;
  fingerprint: string;
  /** Where the transaction starts in the statement's file. */
  line_number: number;
  status: BankLineStatus;
  /** Why it was excluded; null unless excluded. */
  excluded_reason: string | null;
  /** The entries it is matched to, in the order given; [] unless matched. */
  journal_entry_ids: string[];
  /** The finished reconciliation that holds it (locked against unmatch and exclude), or null. */
  reconciliation_id: string | null;
}

/** A bank line as imported, before any decision about it. */
export type NewBankLine = Omit<BankLine, 'status' | 'excluded_reason' | 'journal_entry_ids' | 'reconciliation_id'>;

export type BankDirection = 'in' | 'out';

export interface BankRuleMatch {
  description_contains?: string | undefined;
  description_regex?: string | undefined;
  /** Compared with the absolute amount, in minor units. */
  amount_min?: bigint | undefined;
  amount_max?: bigint | undefined;
  direction?: BankDirection | undefined;
}

export interface BankRule {
  id: string;
  name: string;
  /** Lower first; ties in creation order. */
  priority: number;
  /** null: every bank account. */
  account_id: string | null;
  match: BankRuleMatch;
  counter_account_id: string;
  /** The posted entry's description; the bank line's when null. */
  description: string | null;
  created_at: string;
}

/** A journal line that matching a bank line links it to. */
export interface BankMatchLine {
  journal_line_id: string;
  journal_entry_id: string;
}

export type ReconciliationStatus = 'open' | 'finished';

export interface Reconciliation {
  id: string;
  account_id: string;
  statement_date: string;
  statement_balance: bigint;
  status: ReconciliationStatus;
  created_at: string;
  created_by: string | null;
  finished_at: string | null;
  finished_by: string | null;
  /** What was outstanding when it was finished, kept as it was then (JSON, service/bank/reconciliations.ts); null while open. */
  finished_report: string | null;
}

/** A journal line of a bank or card account, as reconciliation and matching read it. */
export interface BankAccountLine {
  journal_line_id: string;
  journal_entry_id: string;
  entry_date: string;
  description: string | null;
  reference: string | null;
  debit_amount: bigint;
  credit_amount: bigint;
}
