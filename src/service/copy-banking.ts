/**
 * The bank's side of a ledger copied with it (`ledger copy`): statements with their lines (ids,
 * fingerprints, statuses, matches to the very same journal lines), rules, and reconciliations (an
 * open one with its marks; finished ones with their reconciled lines, locked bank lines and kept
 * report, finished in statement order). Runs after the entries are copied, in the same target
 * transaction.
 */
import type { BankLine, BankStatement, NewBankLine, Reconciliation } from '../domain/bank/banking.js';
import type { LedgerReads, LedgerTx } from './ports/ledger-store.js';
import type { PageRequest, StorePage } from './ports/store-pages.js';

export interface BankingCopySummary {
  bank_statements: number;
  bank_lines: number;
  bank_rules: number;
  reconciliations: number;
}

async function all<T>(list: (page: PageRequest) => Promise<StorePage<T>>): Promise<T[]> {
  const items: T[] = [];
  let page = await list({ limit: 500 });
  items.push(...page.items);
  while (page.next !== undefined) {
    page = await list({ limit: 500, after: page.next });
    items.push(...page.items);
  }
  return items;
}

function newLine(line: BankLine): NewBankLine {
  return { id: line.id, statement_id: line.statement_id, account_id: line.account_id, posted_date: line.posted_date, amount: line.amount,
    description: line.description, external_id: line.external_id, fingerprint: line.fingerprint, line_number: line.line_number };
}

export async function copyBanking(reads: LedgerReads, tx: LedgerTx): Promise<BankingCopySummary> {
  const statements: BankStatement[] = await all((page) => reads.listBankStatements({}, page));
  const lines: BankLine[] = [];
  for (const statement of statements) {
    const ofStatement = await all((page) => reads.listBankLines({ statement_id: statement.id }, page));
    await tx.insertBankStatement(statement, ofStatement.map(newLine));
    lines.push(...ofStatement);
  }
  for (const line of lines) {
    if (line.status === 'excluded') await tx.excludeBankLine(line.id, line.excluded_reason ?? '');
    if (line.status !== 'matched') continue;
    const matched = (await reads.accountLinesOfEntries(line.account_id, line.journal_entry_ids)).filter((entryLine) => entryLine.bank_line_id === line.id);
    await tx.matchBankLine(line.id, matched.map((entryLine) => ({ journal_line_id: entryLine.journal_line_id, journal_entry_id: entryLine.journal_entry_id })));
  }
  const rules = await reads.allBankRules();
  for (const rule of rules) await tx.insertBankRule(rule);
  const reconciliations: Reconciliation[] = (await all((page) => reads.listReconciliations({}, page))).reverse();
  for (const reconciliation of reconciliations) {
    await tx.insertReconciliation({ ...reconciliation, status: 'open', finished_at: null, finished_by: null, finished_report: null });
    if (reconciliation.status === 'open') {
      const marked = (await reads.unreconciledLines(reconciliation.account_id, reconciliation.statement_date, reconciliation.id))
        .filter((line) => line.marked).map((line) => line.journal_line_id);
      if (marked.length > 0) await tx.markReconciliationLines(reconciliation.id, marked);
      continue;
    }
    const reconciled = (await reads.reconciledLinesOf(reconciliation.id)).map((line) => line.journal_line_id);
    const locked = lines.filter((line) => line.reconciliation_id === reconciliation.id).map((line) => line.id);
    await tx.finishReconciliation(reconciliation.id, reconciliation.finished_at!, reconciliation.finished_by, reconciled, locked,
      reconciliation.finished_report ?? '{"outstanding":[],"unmatched_bank_lines":[]}');
  }
  return { bank_statements: statements.length, bank_lines: lines.length, bank_rules: rules.length, reconciliations: reconciliations.length };
}
