/**
 * The printable reconciliation report: the statement balance against the books' cleared balance,
 * line by line, then the lines behind each figure. Every figure is signed by the account's normal
 * side, as the balance is (a card's amount owed is positive), so the summary adds up:
 * cleared balance = previously reconciled + cleared lines, difference = statement - cleared.
 */
import { formatAmount } from '../../domain/money/amount.js';
import type { ReconciliationDetailView, ReconciliationView } from '../../schemas/bank.js';
import type { AccountLabels } from '../account-labels.js';
import { oneLine } from './bank.js';
import { withCode } from './format.js';
import { printTable } from './table.js';

type ReconciliationLine = ReconciliationDetailView['outstanding'][number];

const sum = (amounts: readonly string[]) => amounts.reduce((total, amount) => total + BigInt(amount), 0n);

export function printReconciliations(reconciliations: readonly ReconciliationView[], labels: AccountLabels): void {
  printTable(['ID', 'ACCOUNT', 'STATEMENT DATE', 'STATEMENT BALANCE', 'CLEARED BALANCE', 'DIFFERENCE', 'STATUS'],
    reconciliations.map((reconciliation) => {
      const code = labels.currencyCode(reconciliation.account_id);
      return [reconciliation.id, labels.name(reconciliation.account_id), reconciliation.statement_date,
        withCode(reconciliation.display_statement_balance, code), withCode(reconciliation.display_cleared_balance, code),
        withCode(reconciliation.display_difference, code), reconciliation.status];
    }), { rightAligned: [3, 4, 5] });
}

function printLines(title: string, lines: readonly ReconciliationLine[], code: string): void {
  process.stdout.write(`\n${title}:\n`);
  printTable(['DATE', 'ENTRY', 'JOURNAL LINE', 'DESCRIPTION', 'REFERENCE', 'AMOUNT'], lines.map((line) => [
    line.entry_date, line.journal_entry_id, line.journal_line_id, oneLine(line.description), line.reference ?? '',
    withCode(line.display_amount, code),
  ]), { rightAligned: [5] });
}

export function printReconciliationReport(report: ReconciliationDetailView, labels: AccountLabels): void {
  const account = labels.of(report.account_id);
  const code = account?.currencyCode ?? '';
  const scale = account?.scale ?? 0;
  const money = (amount: bigint) => withCode(formatAmount(amount, scale), code);
  // Bank lines carry the bank's sign (money in is positive); a credit-normal account (a card) counts them the other way.
  const normalSign = account?.normalBalance === 'credit' ? -1n : 1n;
  const clearedNow = BigInt(report.cleared_balance) - BigInt(report.previously_reconciled_balance);
  process.stdout.write(`Reconciliation ${report.id} of ${labels.name(report.account_id)}, statement of ${report.statement_date}: `
    + `${report.status}${report.finished_at === null ? '' : ` (finished ${report.finished_at})`}\n`);
  printTable(['ITEM', 'AMOUNT'], [
    ['Statement balance', withCode(report.display_statement_balance, code)],
    ['Previously reconciled', withCode(report.display_previously_reconciled_balance, code)],
    [`Cleared lines (${report.cleared.length})`, money(clearedNow)],
    ['Cleared balance', withCode(report.display_cleared_balance, code)],
    [`Outstanding items (${report.outstanding.length})`, money(sum(report.outstanding.map((line) => line.amount)))],
    [`Unmatched bank lines (${report.unmatched_bank_lines.length})`,
      money(normalSign * sum(report.unmatched_bank_lines.map((line) => line.amount)))],
    ['Difference', withCode(report.display_difference, code)],
  ], { rightAligned: [1] });
  if (report.cleared.length > 0) printLines('Cleared lines', report.cleared, code);
  if (report.outstanding.length > 0) printLines('Outstanding items (in the books, not on the statement)', report.outstanding, code);
  if (report.unmatched_bank_lines.length > 0) {
    process.stdout.write('\nUnmatched bank lines (on the statement, not in the books; the bank\'s sign: money in is positive):\n');
    printTable(['BANK LINE', 'DATE', 'DESCRIPTION', 'AMOUNT'], report.unmatched_bank_lines.map((line) => [
      line.id, line.posted_date, oneLine(line.description), withCode(line.display_amount, code),
    ]), { rightAligned: [3] });
  }
}

