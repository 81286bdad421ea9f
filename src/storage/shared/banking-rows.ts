/**
 * Row shapes of the banking tables (the same in both schemas) and their mapping to domain
 * records. Amounts are read through parseStoredAmount; a rule's conditions are JSON text with its
 * amounts as integer strings.
 */
import type {
  BankAccountLine, BankLine, BankLineStatus, BankRule, BankRuleMatch, BankStatement, Reconciliation, ReconciliationStatus,
} from '../../domain/bank/banking.js';
import type { StatementFormat } from '../../domain/bank/statement.js';
import { parseStoredAmount } from '../../domain/money/amount.js';

export interface BankStatementRow {
  id: string; account_id: string; format: string; file_sha256: string; imported_at: string; imported_by: string | null;
  start_date: string | null; end_date: string | null; opening_balance: string | null; closing_balance: string | null;
  line_count: number | string; new_count: number | string; duplicate_count: number | string;
}

export function toBankStatement(row: BankStatementRow): BankStatement {
  return {
    ...row, format: row.format as StatementFormat,
    opening_balance: row.opening_balance === null ? null : parseStoredAmount(row.opening_balance),
    closing_balance: row.closing_balance === null ? null : parseStoredAmount(row.closing_balance),
    line_count: Number(row.line_count), new_count: Number(row.new_count), duplicate_count: Number(row.duplicate_count),
  };
}

export interface BankLineRow {
  seq: number | string; id: string; statement_id: string; account_id: string; posted_date: string; amount: string; description: string;
  external_id: string | null; fingerprint: string; line_number: number | string; status: string; excluded_reason: string | null;
  reconciliation_id: string | null;
  /** The matched entries' ids, comma-separated in match order (ids hold no commas), or null. */
  entry_ids: string | null;
}

export function toBankLine(row: BankLineRow): BankLine {
  return {
    id: row.id, statement_id: row.statement_id, account_id: row.account_id, posted_date: row.posted_date,
    amount: parseStoredAmount(row.amount), description: row.description, external_id: row.external_id, fingerprint: row.fingerprint,
    line_number: Number(row.line_number), status: row.status as BankLineStatus, excluded_reason: row.excluded_reason,
    journal_entry_ids: row.entry_ids === null || row.entry_ids === '' ? [] : unique(row.entry_ids.split(',')),
    reconciliation_id: row.reconciliation_id,
  };
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)];
}

export interface BankRuleRow {
  id: string; name: string; priority: number | string; account_id: string | null; match: string; counter_account_id: string;
  description: string | null; created_at: string;
}

interface StoredMatch {
  description_contains?: string; description_regex?: string; amount_min?: string; amount_max?: string; direction?: 'in' | 'out';
}

export function matchToText(match: BankRuleMatch): string {
  const stored: StoredMatch = {};
  if (match.description_contains !== undefined) stored.description_contains = match.description_contains;
  if (match.description_regex !== undefined) stored.description_regex = match.description_regex;
  if (match.amount_min !== undefined) stored.amount_min = match.amount_min.toString();
  if (match.amount_max !== undefined) stored.amount_max = match.amount_max.toString();
  if (match.direction !== undefined) stored.direction = match.direction;
  return JSON.stringify(stored);
}

export function toBankRule(row: BankRuleRow): BankRule {
  const stored = JSON.parse(row.match) as StoredMatch;
  const match: BankRuleMatch = {};
  if (stored.description_contains !== undefined) match.description_contains = stored.description_contains;
  if (stored.description_regex !== undefined) match.description_regex = stored.description_regex;
  if (stored.amount_min !== undefined) match.amount_min = parseStoredAmount(stored.amount_min);
  if (stored.amount_max !== undefined) match.amount_max = parseStoredAmount(stored.amount_max);
  if (stored.direction !== undefined) match.direction = stored.direction;
  return {
    id: row.id, name: row.name, priority: Number(row.priority), account_id: row.account_id, match,
    counter_account_id: row.counter_account_id, description: row.description, created_at: row.created_at,
  };
}

export interface ReconciliationRow {
  id: string; account_id: string; statement_date: string; statement_balance: string; status: string; created_at: string;
  created_by: string | null; finished_at: string | null; finished_by: string | null; finished_report: string | null;
}

export function toReconciliation(row: ReconciliationRow): Reconciliation {
  return { ...row, statement_balance: parseStoredAmount(row.statement_balance), status: row.status as ReconciliationStatus };
}

export interface BankAccountLineRow {
  journal_line_id: string; journal_entry_id: string; entry_date: string; description: string | null; reference: string | null;
  debit_amount: string; credit_amount: string;
}

export function toBankAccountLine(row: BankAccountLineRow): BankAccountLine {
  return {
    journal_line_id: row.journal_line_id, journal_entry_id: row.journal_entry_id, entry_date: row.entry_date, description: row.description,
    reference: row.reference, debit_amount: parseStoredAmount(row.debit_amount), credit_amount: parseStoredAmount(row.credit_amount),
  };
}
