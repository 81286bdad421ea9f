/**
 * How the bank commands show statements, bank lines, candidates and rules to people: aligned
 * tables, amounts with their currency code. `--json` prints the API's answers instead.
 */
import { formatAmount } from '../../domain/money/amount.js';
import type { BankLineView, BankRuleView, BankStatementView, CandidateView } from '../../schemas/bank.js';
import type { AccountLabels } from '../account-labels.js';
import { printFields, withCode } from './format.js';
import { printTable } from './table.js';

/** A description on one line: a bank may put line breaks or runs of spaces in it, which would break the table. */
export function oneLine(text: string | null): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

export function printStatements(statements: readonly BankStatementView[], labels: AccountLabels): void {
  printTable(['ID', 'ACCOUNT', 'FORMAT', 'IMPORTED AT', 'FROM', 'TO', 'LINES', 'NEW', 'DUPLICATE', 'OPENING', 'CLOSING'],
    statements.map((statement) => {
      const code = labels.currencyCode(statement.account_id);
      return [statement.id, labels.name(statement.account_id), statement.format, statement.imported_at, statement.start_date ?? '',
        statement.end_date ?? '', String(statement.line_count), String(statement.new_count), String(statement.duplicate_count),
        withCode(statement.display_opening_balance, code), withCode(statement.display_closing_balance, code)];
    }), { rightAligned: [6, 7, 8, 9, 10] });
}

/** An import's statement; `dryRun`: what an import would store (nothing was). */
export function printStatementSummary(statement: BankStatementView, labels: AccountLabels, dryRun = false): void {
  const code = labels.currencyCode(statement.account_id);
  process.stdout.write(dryRun ? 'Dry run, nothing imported. The import would store this statement:\n' : 'Imported bank statement:\n');
  printFields([
    ...(dryRun ? [] : [['Statement', statement.id] as [string, string]]),
    ['Account', labels.name(statement.account_id)],
    ['Format', statement.format],
    ['Period', statement.start_date === null ? null : `${statement.start_date} to ${statement.end_date}`],
    ['Lines', `${statement.line_count} in the file: ${statement.new_count} new, ${statement.duplicate_count} duplicate`],
    ['Opening balance', withCode(statement.display_opening_balance, code)],
    ['Closing balance', withCode(statement.display_closing_balance, code)],
  ]);
}

export function printBankLines(lines: readonly BankLineView[], labels: AccountLabels): void {
  printTable(['ID', 'DATE', 'AMOUNT', 'DESCRIPTION', 'STATUS', 'SUGGESTION', 'RULE'], lines.map((line) => [
    line.id, line.posted_date, withCode(line.display_amount, labels.currencyCode(line.account_id)), oneLine(line.description), line.status,
    line.suggestion === null ? '' : `${line.suggestion.counter_account_number} ${line.suggestion.counter_account_name}`,
    line.suggestion?.rule_name ?? '',
  ]), { rightAligned: [2] });
}

export function printBankLine(line: BankLineView, labels: AccountLabels): void {
  printFields([
    ['Bank line', line.id],
    ['Account', labels.name(line.account_id)],
    ['Statement', `${line.statement_id} (line ${line.line_number} of the file)`],
    ['Date', line.posted_date],
    ['Amount', withCode(line.display_amount, labels.currencyCode(line.account_id))],
    ['Description', oneLine(line.description)],
    ['Bank reference', line.external_id],
    ['Status', line.status],
    ...(line.status === 'matched' ? [['Entries', line.journal_entry_ids.join(', ')] as const] : []),
    ...(line.status === 'excluded' ? [['Excluded because', line.excluded_reason] as const] : []),
    ...(line.reconciliation_id === null ? [] : [['Reconciled in', line.reconciliation_id] as const]),
    ...(line.suggestion === null ? [] : [
      ['Suggestion', `post against ${line.suggestion.counter_account_number} ${line.suggestion.counter_account_name} as "${line.suggestion.description}"`] as const,
      ['Because', line.suggestion.reason] as const,
    ]),
  ]);
}

export function printCandidates(candidates: readonly CandidateView[]): void {
  printTable(['ENTRY', 'DATE', 'DESCRIPTION', 'REFERENCE', 'SCORE', 'REASON'], candidates.map((candidate) => [
    candidate.journal_entry_id, candidate.entry_date, oneLine(candidate.description), candidate.reference ?? '', String(candidate.score),
    candidate.reason,
  ]), { rightAligned: [4] });
}

/**
 * A rule's conditions in words, its amount bounds in major units of `scale` (the currency of the
 * rule's bank account, else of its counter account).
 */
export function ruleConditions(rule: BankRuleView, scale: number | undefined): string {
  const amount = (minor: string) => (scale === undefined ? `${minor} (minor units)` : formatAmount(BigInt(minor), scale));
  const { match } = rule;
  const parts: string[] = [];
  if (match.description_contains !== undefined) parts.push(`contains "${match.description_contains}"`);
  if (match.description_regex !== undefined) parts.push(`matches /${match.description_regex}/`);
  if (match.amount_min !== undefined && match.amount_max !== undefined) parts.push(`amount ${amount(match.amount_min)} to ${amount(match.amount_max)}`);
  else if (match.amount_min !== undefined) parts.push(`amount at least ${amount(match.amount_min)}`);
  else if (match.amount_max !== undefined) parts.push(`amount at most ${amount(match.amount_max)}`);
  if (match.direction !== undefined) parts.push(match.direction === 'in' ? 'money in' : 'money out');
  return parts.length === 0 ? 'every line' : parts.join(', ');
}

/** The scale a rule's amounts are shown in: its bank account's currency, else its counter account's. */
export function ruleScale(rule: Pick<BankRuleView, 'account_id' | 'counter_account_id'>, labels: AccountLabels): number | undefined {
  return labels.of(rule.account_id ?? rule.counter_account_id)?.scale ?? labels.of(rule.counter_account_id)?.scale;
}

export function printRules(rules: readonly BankRuleView[], labels: AccountLabels): void {
  printTable(['ID', 'PRIORITY', 'NAME', 'BANK ACCOUNT', 'CONDITIONS', 'COUNTER ACCOUNT', 'DESCRIPTION'], rules.map((rule) => [
    rule.id, String(rule.priority), rule.name, rule.account_id === null ? '(every one)' : labels.name(rule.account_id),
    ruleConditions(rule, ruleScale(rule, labels)), labels.name(rule.counter_account_id), rule.description ?? '',
  ]), { rightAligned: [1] });
}
