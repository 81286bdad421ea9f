/** Bank statements, bank lines, rules, matches and reconciliations (service/ports/banking-store.ts). */
import type { BankingReads, BankingWrites, BankLineFilter, BankRuleChanges, UnreconciledLine } from '../../service/ports/banking-store.js';
import { parseStoredAmount, toDecimalString } from '../../domain/money/amount.js';
import {
  type BankAccountLineRow, type BankLineRow, type BankRuleRow, type BankStatementRow, matchToText, type ReconciliationRow,
  toBankAccountLine, toBankLine, toBankRule, toBankStatement, toReconciliation,
} from '../shared/banking-rows.js';
import { mapPage, page } from '../shared/paging.js';
import { type Param, placeholders, type SqliteQueries } from './queries.js';
import type { BankAccountLine, BankLine, BankMatchLine, BankRule, BankStatement, NewBankLine, Reconciliation } from '../../domain/bank/banking.js';
import type { PageRequest, StorePage } from '../../service/ports/store-pages.js';

/** A bank line with the ids of the entries it is matched to, in match order. */
const LINE_SELECT = `SELECT b.*, (SELECT group_concat(m.journal_entry_id, ',' ORDER BY m.position)
  FROM bank_line_matches m WHERE m.bank_line_id = b.id) AS entry_ids FROM bank_lines b`;

const ACCOUNT_LINE_COLUMNS = `l.id AS journal_line_id, e.id AS journal_entry_id, l.entry_date, e.description, e.reference,
  l.debit_amount, l.credit_amount`;

/** In chunks under SQLite's limit of bound parameters. */
function inChunks<T>(ids: readonly string[], read: (chunk: readonly string[]) => T[]): T[] {
  const found: T[] = [];
  for (let start = 0; start < ids.length; start += 500) found.push(...read(ids.slice(start, start + 500)));
  return found;
}

export abstract class SqliteBankingReads implements BankingReads {
  declare readonly q: SqliteQueries;

  async getBankStatement(id: string): Promise<BankStatement | undefined> {
    const row = this.q.get<BankStatementRow>('SELECT * FROM bank_statements WHERE id = ?', id);
    return row && toBankStatement(row);
  }

  async findBankStatementByFile(accountId: string, fileSha256: string): Promise<BankStatement | undefined> {
    const row = this.q.get<BankStatementRow>('SELECT * FROM bank_statements WHERE account_id = ? AND file_sha256 = ?', accountId, fileSha256);
    return row && toBankStatement(row);
  }

  async listBankStatements(filter: { account_id?: string | undefined; }, request: PageRequest): Promise<StorePage<BankStatement>> {
    const where = ['(imported_at, id) > (?, ?)'];
    const params: Param[] = [String(request.after?.[0] ?? ''), String(request.after?.[1] ?? '')];
    if (filter.account_id !== undefined) { where.push('account_id = ?'); params.push(filter.account_id); }
    const rows = this.q.all<BankStatementRow>(`SELECT * FROM bank_statements WHERE ${where.join(' AND ')} ORDER BY imported_at, id LIMIT ?`,
      ...params, request.limit + 1);
    return mapPage(page(rows, request.limit, (row) => [row.imported_at, row.id]), toBankStatement);
  }

  async existingFingerprints(accountId: string, fingerprints: readonly string[]): Promise<Set<string>> {
    const rows = inChunks(fingerprints, (chunk) => this.q.all<{ fingerprint: string }>(
      `SELECT fingerprint FROM bank_lines WHERE account_id = ? AND fingerprint IN (${placeholders(chunk.length)})`, accountId, ...chunk));
    return new Set(rows.map((row) => row.fingerprint));
  }

  async getBankLine(id: string): Promise<BankLine | undefined> {
    const row = this.q.get<BankLineRow>(`${LINE_SELECT} WHERE b.id = ?`, id);
    return row && toBankLine(row);
  }

  async getBankLines(ids: readonly string[]): Promise<BankLine[]> {
    const rows = inChunks(ids, (chunk) => this.q.all<BankLineRow>(`${LINE_SELECT} WHERE b.id IN (${placeholders(chunk.length)})`, ...chunk));
    const byId = new Map(rows.map((row) => [row.id, toBankLine(row)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async listBankLines(filter: BankLineFilter, request: PageRequest): Promise<StorePage<BankLine>> {
    const where: string[] = [];
    const params: Param[] = [];
    if (request.after !== undefined) {
      where.push('(b.posted_date, b.seq) > (?, ?)');
      params.push(String(request.after[0]), Number(request.after[1]));
    }
    if (filter.account_id !== undefined) { where.push('b.account_id = ?'); params.push(filter.account_id); }
    if (filter.statement_id !== undefined) { where.push('b.statement_id = ?'); params.push(filter.statement_id); }
    if (filter.status !== undefined) { where.push('b.status = ?'); params.push(filter.status); }
    if (filter.start_date !== undefined) { where.push('b.posted_date >= ?'); params.push(filter.start_date); }
    if (filter.end_date !== undefined) { where.push('b.posted_date <= ?'); params.push(filter.end_date); }
    const rows = this.q.all<BankLineRow>(`${LINE_SELECT}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}
      ORDER BY b.posted_date, b.seq LIMIT ?`, ...params, request.limit + 1);
    return mapPage(page(rows, request.limit, (row) => [row.posted_date, Number(row.seq)]), toBankLine);
  }

  async getBankRule(id: string): Promise<BankRule | undefined> {
    const row = this.q.get<BankRuleRow>('SELECT * FROM bank_rules WHERE id = ?', id);
    return row && toBankRule(row);
  }

  async allBankRules(): Promise<BankRule[]> {
    return this.q.all<BankRuleRow>('SELECT * FROM bank_rules ORDER BY priority, created_at, id').map(toBankRule);
  }

  async countBankRulesUsingAccount(accountId: string): Promise<number> {
    return this.q.get<{ count: number }>('SELECT count(*) AS count FROM bank_rules WHERE account_id = ? OR counter_account_id = ?',
      accountId, accountId)!.count;
  }

  async listUnmatchedAccountLines(accountId: string, amount: bigint, fromDate: string, throughDate: string, limit: number): Promise<BankAccountLine[]> {
    const [debit, credit] = amount >= 0n ? [toDecimalString(amount), '0'] : ['0', toDecimalString(-amount)];
    const rows = this.q.all<BankAccountLineRow>(`SELECT ${ACCOUNT_LINE_COLUMNS} FROM journal_lines l JOIN journal_entries e ON e.seq = l.entry_seq
      WHERE l.account_id = ? AND l.entry_date BETWEEN ? AND ? AND l.debit_amount = ? AND l.credit_amount = ?
        AND NOT EXISTS (SELECT 1 FROM bank_line_matches m WHERE m.journal_line_id = l.id)
      ORDER BY l.entry_date, l.seq LIMIT ?`, accountId, fromDate, throughDate, debit, credit, limit);
    return rows.map(toBankAccountLine);
  }

  async accountLinesOfEntries(accountId: string, entryIds: readonly string[]): Promise<(BankAccountLine & { bank_line_id: string | null; })[]> {
    const rows = inChunks(entryIds, (chunk) => this.q.all<BankAccountLineRow & { bank_line_id: string | null }>(
      `SELECT ${ACCOUNT_LINE_COLUMNS}, m.bank_line_id FROM journal_entries e JOIN journal_lines l ON l.entry_seq = e.seq
       LEFT JOIN bank_line_matches m ON m.journal_line_id = l.id
       WHERE e.id IN (${placeholders(chunk.length)}) AND l.account_id = ? ORDER BY l.seq`, ...chunk, accountId));
    return rows.map((row) => ({ ...toBankAccountLine(row), bank_line_id: row.bank_line_id }));
  }

  async getReconciliation(id: string): Promise<Reconciliation | undefined> {
    const row = this.q.get<ReconciliationRow>('SELECT * FROM reconciliations WHERE id = ?', id);
    return row && toReconciliation(row);
  }

  async listReconciliations(filter: { account_id?: string | undefined; }, request: PageRequest): Promise<StorePage<Reconciliation>> {
    const where: string[] = [];
    const params: Param[] = [];
    if (request.after !== undefined) { where.push('(statement_date, id) < (?, ?)'); params.push(String(request.after[0]), String(request.after[1])); }
    if (filter.account_id !== undefined) { where.push('account_id = ?'); params.push(filter.account_id); }
    const rows = this.q.all<ReconciliationRow>(`SELECT * FROM reconciliations${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}
      ORDER BY statement_date DESC, id DESC LIMIT ?`, ...params, request.limit + 1);
    return mapPage(page(rows, request.limit, (row) => [row.statement_date, row.id]), toReconciliation);
  }

  async findOpenReconciliation(accountId: string): Promise<Reconciliation | undefined> {
    const row = this.q.get<ReconciliationRow>("SELECT * FROM reconciliations WHERE account_id = ? AND status = 'open'", accountId);
    return row && toReconciliation(row);
  }

  async lastFinishedReconciliation(accountId: string): Promise<Reconciliation | undefined> {
    const row = this.q.get<ReconciliationRow>(`SELECT * FROM reconciliations WHERE account_id = ? AND status = 'finished'
      ORDER BY statement_date DESC, id DESC LIMIT 1`, accountId);
    return row && toReconciliation(row);
  }

  async unreconciledLines(accountId: string, statementDate: string, reconciliationId: string): Promise<UnreconciledLine[]> {
    const rows = this.q.all<BankAccountLineRow & { matched_on_or_before: number; marked: number; bank_line_id: string | null }>(
      `SELECT ${ACCOUNT_LINE_COLUMNS},
         EXISTS (SELECT 1 FROM bank_line_matches m JOIN bank_lines b ON b.id = m.bank_line_id
                 WHERE m.journal_line_id = l.id AND b.posted_date <= ?) AS matched_on_or_before,
         (SELECT m.bank_line_id FROM bank_line_matches m WHERE m.journal_line_id = l.id) AS bank_line_id,
         EXISTS (SELECT 1 FROM reconciliation_marks k WHERE k.reconciliation_id = ? AND k.journal_line_id = l.id) AS marked
       FROM journal_lines l JOIN journal_entries e ON e.seq = l.entry_seq
       WHERE l.account_id = ? AND NOT EXISTS (SELECT 1 FROM reconciled_lines r WHERE r.journal_line_id = l.id)
       ORDER BY l.entry_date, l.seq`, statementDate, reconciliationId, accountId);
    const lines: UnreconciledLine[] = [];
    for (const row of rows) {
      const matched = row.matched_on_or_before === 1;
      if (row.entry_date > statementDate && !matched) continue;
      lines.push({ ...toBankAccountLine(row), matched_on_or_before: matched, marked: row.marked === 1, bank_line_id: row.bank_line_id });
    }
    return lines;
  }

  async reconciledLinesOf(reconciliationId: string): Promise<BankAccountLine[]> {
    return this.q.all<BankAccountLineRow>(`SELECT ${ACCOUNT_LINE_COLUMNS} FROM reconciled_lines r
      JOIN journal_lines l ON l.id = r.journal_line_id JOIN journal_entries e ON e.seq = l.entry_seq
      WHERE r.reconciliation_id = ? ORDER BY l.entry_date, l.seq`, reconciliationId).map(toBankAccountLine);
  }

  async reconciledTotal(accountId: string): Promise<bigint> {
    const rows = this.q.all<{ debit_amount: string; credit_amount: string }>(`SELECT l.debit_amount, l.credit_amount FROM reconciled_lines r
      JOIN journal_lines l ON l.id = r.journal_line_id WHERE r.account_id = ?`, accountId);
    let total = 0n;
    for (const row of rows) total += parseStoredAmount(row.debit_amount) - parseStoredAmount(row.credit_amount);
    return total;
  }

  async reconciledLineIds(journalLineIds: readonly string[]): Promise<Set<string>> {
    const rows = inChunks(journalLineIds, (chunk) => this.q.all<{ journal_line_id: string }>(
      `SELECT journal_line_id FROM reconciled_lines WHERE journal_line_id IN (${placeholders(chunk.length)})`, ...chunk));
    return new Set(rows.map((row) => row.journal_line_id));
  }
}

function amountOrNull(value: bigint | null): string | null {
  return value === null ? null : toDecimalString(value);
}

export abstract class SqliteBankingWrites implements BankingWrites {
  declare readonly q: SqliteQueries;

  // SQLite's write transaction (BEGIN IMMEDIATE) already holds every row against other writers.
  async lockBankAccount(): Promise<void> {}

  async insertBankStatement(statement: BankStatement, lines: readonly NewBankLine[]): Promise<void> {
    this.q.run(`INSERT INTO bank_statements (id, account_id, format, file_sha256, imported_at, imported_by, start_date, end_date,
      opening_balance, closing_balance, line_count, new_count, duplicate_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    statement.id, statement.account_id, statement.format, statement.file_sha256, statement.imported_at, statement.imported_by,
    statement.start_date, statement.end_date, amountOrNull(statement.opening_balance), amountOrNull(statement.closing_balance),
    statement.line_count, statement.new_count, statement.duplicate_count);
    const insert = this.q.statement(`INSERT INTO bank_lines (id, statement_id, account_id, posted_date, amount, description, external_id,
      fingerprint, line_number, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'unmatched')`);
    for (const line of lines) {
      insert.run(line.id, line.statement_id, line.account_id, line.posted_date, toDecimalString(line.amount), line.description,
        line.external_id, line.fingerprint, line.line_number);
    }
  }

  async matchBankLine(id: string, lines: readonly BankMatchLine[]): Promise<void> {
    const insert = this.q.statement('INSERT INTO bank_line_matches (journal_line_id, bank_line_id, journal_entry_id, position) VALUES (?, ?, ?, ?)');
    lines.forEach((line, position) => insert.run(line.journal_line_id, id, line.journal_entry_id, position));
    this.q.run("UPDATE bank_lines SET status = 'matched', excluded_reason = NULL WHERE id = ?", id);
  }

  async excludeBankLine(id: string, reason: string): Promise<void> {
    this.q.run("UPDATE bank_lines SET status = 'excluded', excluded_reason = ? WHERE id = ?", reason, id);
  }

  async unmatchBankLine(id: string): Promise<void> {
    this.q.run('DELETE FROM bank_line_matches WHERE bank_line_id = ?', id);
    this.q.run("UPDATE bank_lines SET status = 'unmatched', excluded_reason = NULL WHERE id = ?", id);
  }

  async insertBankRule(rule: BankRule): Promise<void> {
    this.q.run(`INSERT INTO bank_rules (id, name, priority, account_id, match, counter_account_id, description, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, rule.id, rule.name, rule.priority, rule.account_id, matchToText(rule.match),
    rule.counter_account_id, rule.description, rule.created_at);
  }

  async updateBankRule(id: string, changes: BankRuleChanges): Promise<void> {
    const { match, ...rest } = changes;
    this.q.update('bank_rules', id, { ...rest, ...(match === undefined ? {} : { match: matchToText(match) }) });
  }

  async deleteBankRule(id: string): Promise<void> {
    this.q.run('DELETE FROM bank_rules WHERE id = ?', id);
  }

  async insertReconciliation(reconciliation: Reconciliation): Promise<void> {
    this.q.run(`INSERT INTO reconciliations (id, account_id, statement_date, statement_balance, status, created_at, created_by)
      VALUES (?, ?, ?, ?, ?, ?, ?)`, reconciliation.id, reconciliation.account_id, reconciliation.statement_date,
    toDecimalString(reconciliation.statement_balance), reconciliation.status, reconciliation.created_at, reconciliation.created_by);
  }

  async markReconciliationLines(reconciliationId: string, journalLineIds: readonly string[]): Promise<void> {
    const insert = this.q.statement('INSERT OR IGNORE INTO reconciliation_marks (reconciliation_id, journal_line_id) VALUES (?, ?)');
    for (const lineId of journalLineIds) insert.run(reconciliationId, lineId);
  }

  async unmarkReconciliationLines(reconciliationId: string, journalLineIds: readonly string[]): Promise<void> {
    const remove = this.q.statement('DELETE FROM reconciliation_marks WHERE reconciliation_id = ? AND journal_line_id = ?');
    for (const lineId of journalLineIds) remove.run(reconciliationId, lineId);
  }

  async finishReconciliation(id: string, finishedAt: string, finishedBy: string | null, journalLineIds: readonly string[], lockedBankLineIds: readonly string[], report: string): Promise<void> {
    const accountId = this.q.get<{ account_id: string }>('SELECT account_id FROM reconciliations WHERE id = ?', id)!.account_id;
    const reconcile = this.q.statement('INSERT INTO reconciled_lines (journal_line_id, reconciliation_id, account_id) VALUES (?, ?, ?)');
    for (const lineId of journalLineIds) reconcile.run(lineId, id, accountId);
    const lock = this.q.statement('UPDATE bank_lines SET reconciliation_id = ? WHERE id = ?');
    for (const lineId of lockedBankLineIds) lock.run(id, lineId);
    this.q.run('DELETE FROM reconciliation_marks WHERE reconciliation_id = ?', id);
    this.q.run("UPDATE reconciliations SET status = 'finished', finished_at = ?, finished_by = ?, finished_report = ? WHERE id = ?",
      finishedAt, finishedBy, report, id);
  }
}
