/** Banking resources on the wire: amounts as integer strings beside their display strings. */
import type { BankAccountLine, BankLine, BankRule, BankStatement, Reconciliation } from '../../domain/bank/banking.js';
import { formatAmount } from '../../domain/money/amount.js';
import type { NormalBalance } from '../../domain/types.js';
import type { BankLineView, BankRuleView, BankStatementView, ReconciliationView } from '../../schemas/bank.js';

export type SuggestionView = NonNullable<BankLineView['suggestion']>;

export function bankStatementView(statement: BankStatement, scale: number): BankStatementView {
  const display = (value: bigint | null) => (value === null ? null : formatAmount(value, scale));
  return {
    id: statement.id, account_id: statement.account_id, format: statement.format, file_sha256: statement.file_sha256,
    imported_at: statement.imported_at, imported_by: statement.imported_by, start_date: statement.start_date, end_date: statement.end_date,
    opening_balance: statement.opening_balance?.toString() ?? null, closing_balance: statement.closing_balance?.toString() ?? null,
    display_opening_balance: display(statement.opening_balance), display_closing_balance: display(statement.closing_balance),
    line_count: statement.line_count, new_count: statement.new_count, duplicate_count: statement.duplicate_count,
  };
}

export function bankLineView(line: BankLine, scale: number, suggestion: SuggestionView | null): BankLineView {
  return {
    id: line.id, statement_id: line.statement_id, account_id: line.account_id, posted_date: line.posted_date,
    amount: line.amount.toString(), display_amount: formatAmount(line.amount, scale), description: line.description,
    external_id: line.external_id, line_number: line.line_number, status: line.status, excluded_reason: line.excluded_reason,
    journal_entry_ids: line.journal_entry_ids, reconciliation_id: line.reconciliation_id, suggestion,
  };
}

export function bankRuleView(rule: BankRule): BankRuleView {
  const match: BankRuleView['match'] = {};
  if (rule.match.description_contains !== undefined) match.description_contains = rule.match.description_contains;
  if (rule.match.description_regex !== undefined) match.description_regex = rule.match.description_regex;
  if (rule.match.amount_min !== undefined) match.amount_min = rule.match.amount_min.toString();
  if (rule.match.amount_max !== undefined) match.amount_max = rule.match.amount_max.toString();
  if (rule.match.direction !== undefined) match.direction = rule.match.direction;
  return {
    id: rule.id, name: rule.name, priority: rule.priority, account_id: rule.account_id, match, counter_account_id: rule.counter_account_id,
    description: rule.description, created_at: rule.created_at,
  };
}

/** A journal line's amount signed by the account's normal side (what reconciliation sums). */
export function normalSigned(line: Pick<BankAccountLine, 'debit_amount' | 'credit_amount'>, normal: NormalBalance): bigint {
  const net = line.debit_amount - line.credit_amount;
  return normal === 'debit' ? net : -net;
}

export function reconciliationLineView(line: BankAccountLine & { bank_line_id?: string | null }, normal: NormalBalance, scale: number,
  clearedBy: 'bank_match' | 'mark' | null = null) {
  const amount = normalSigned(line, normal);
  return {
    journal_line_id: line.journal_line_id, journal_entry_id: line.journal_entry_id, entry_date: line.entry_date,
    description: line.description, reference: line.reference, amount: amount.toString(), display_amount: formatAmount(amount, scale),
    cleared_by: clearedBy, bank_line_id: line.bank_line_id ?? null,
  };
}

export function reconciliationView(reconciliation: Reconciliation, clearedBalance: bigint, scale: number): ReconciliationView {
  const difference = reconciliation.statement_balance - clearedBalance;
  return {
    id: reconciliation.id, account_id: reconciliation.account_id, statement_date: reconciliation.statement_date,
    statement_balance: reconciliation.statement_balance.toString(), display_statement_balance: formatAmount(reconciliation.statement_balance, scale),
    status: reconciliation.status, cleared_balance: clearedBalance.toString(), display_cleared_balance: formatAmount(clearedBalance, scale),
    difference: difference.toString(), display_difference: formatAmount(difference, scale), created_at: reconciliation.created_at,
    created_by: reconciliation.created_by, finished_at: reconciliation.finished_at, finished_by: reconciliation.finished_by,
  };
}
