/** Bank statements, bank lines, rules, matches and reconciliations (service/ports/banking-store.ts). */
import type { BankingReads, BankingWrites, BankLineFilter, BankRuleChanges, UnreconciledLine } from '../../service/ports/banking-store.js';
import { parseStoredAmount, toDecimalString } from '../../domain/money/amount.js';
import {
  type BankAccountLineRow, type BankLineRow, type BankRuleRow, type BankStatementRow, matchToText, type ReconciliationRow,
  toBankAccountLine, toBankLine, toBankRule, toBankStatement, toReconciliation,
} from '../shared/banking-rows.js';
import { mapPage, page } from '../shared/paging.js';
import type { Param, PgQueries } from './queries.js';
import type { BankAccountLine, BankLine, BankMatchLine, BankRule, BankStatement, NewBankLine, Reconciliation } from '../../domain/bank/banking.js';
import type { PageRequest, StorePage } from '../../service/ports/store-pages.js';

const STATEMENT_COLUMNS = `id, account_id, format, file_sha256, imported_at, imported_by, start_date, end_date,
  opening_balance::text AS opening_balance, closing_balance::text AS closing_balance, line_count, new_count, duplicate_count`;

/** A bank line with the ids of the entries it is matched to, in match order. */
const LINE_SELECT = `SELECT b.seq, b.id, b.statement_id, b.account_id, b.posted_date, b.amount::text AS amount, b.description, b.external_id,
  b.fingerprint, b.line_number, b.status, b.excluded_reason, b.reconciliation_id,
  (SELECT string_agg(m.journal_entry_id, ',' ORDER BY m.position) FROM bank_line_matches m WHERE m.bank_line_id = b.id) AS entry_ids
  FROM bank_lines b`;

const RECONCILIATION_COLUMNS = `id, account_id, statement_date, statement_balance::text AS statement_balance, status, created_at, created_by,
  finished_at, finished_by, finished_report`;

const ACCOUNT_LINE_COLUMNS = `l.id AS journal_line_id, e.id AS journal_entry_id, l.entry_date, e.description, e.reference,
  l.debit_amount::text AS debit_amount, l.credit_amount::text AS credit_amount`;

export abstract class PostgresBankingReads implements BankingReads {
  declare readonly q: PgQueries;

  /** In a write transaction, a line read to decide what to do with it is held until the transaction ends. */
  protected lockLine(): string {
    return this.q.locking ? ' FOR UPDATE OF b' : '';
  }

  async getBankStatement(id: string): Promise<BankStatement | undefined> {
    const row = await this.q.get<BankStatementRow>(`SELECT ${STATEMENT_COLUMNS} FROM bank_statements WHERE id = $1`, id);
    return row && toBankStatement(row);
  }

  async findBankStatementByFile(accountId: string, fileSha256: string): Promise<BankStatement | undefined> {
    const row = await this.q.get<BankStatementRow>(`SELECT ${STATEMENT_COLUMNS} FROM bank_statements WHERE account_id = $1 AND file_sha256 = $2`,
      accountId, fileSha256);
    return row && toBankStatement(row);
  }

  async listBankStatements(filter: { account_id?: string | undefined; }, request: PageRequest): Promise<StorePage<BankStatement>> {
    const params: Param[] = [String(request.after?.[0] ?? ''), String(request.after?.[1] ?? '')];
    let where = '(imported_at, id) > ($1, $2)';
    if (filter.account_id !== undefined) where += ` AND account_id = $${params.push(filter.account_id)}`;
    const rows = await this.q.all<BankStatementRow>(`SELECT ${STATEMENT_COLUMNS} FROM bank_statements WHERE ${where}
      ORDER BY imported_at, id LIMIT $${params.push(request.limit + 1)}`, ...params);
    return mapPage(page(rows, request.limit, (row) => [row.imported_at, row.id]), toBankStatement);
  }

  async existingFingerprints(accountId: string, fingerprints: readonly string[]): Promise<Set<string>> {
    const rows = await this.q.all<{ fingerprint: string }>('SELECT fingerprint FROM bank_lines WHERE account_id = $1 AND fingerprint = ANY($2::text[])',
      accountId, [...fingerprints]);
    return new Set(rows.map((row) => row.fingerprint));
  }

  async getBankLine(id: string): Promise<BankLine | undefined> {
    const row = await this.q.get<BankLineRow>(`${LINE_SELECT} WHERE b.id = $1${this.lockLine()}`, id);
    return row && toBankLine(row);
  }

  async getBankLines(ids: readonly string[]): Promise<BankLine[]> {
    const rows = await this.q.all<BankLineRow>(`${LINE_SELECT} WHERE b.id = ANY($1::text[]) ORDER BY b.seq${this.lockLine()}`, [...ids]);
    const byId = new Map(rows.map((row) => [row.id, toBankLine(row)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async listBankLines(filter: BankLineFilter, request: PageRequest): Promise<StorePage<BankLine>> {
    const where: string[] = [];
    const params: Param[] = [];
    if (request.after !== undefined) {
      where.push(`(b.posted_date, b.seq) > ($${params.push(String(request.after[0]))}, $${params.push(String(request.after[1]))}::bigint)`);
    }
    if (filter.account_id !== undefined) where.push(`b.account_id = $${params.push(filter.account_id)}`);
    if (filter.statement_id !== undefined) where.push(`b.statement_id = $${params.push(filter.statement_id)}`);
    if (filter.status !== undefined) where.push(`b.status = $${params.push(filter.status)}`);
    if (filter.start_date !== undefined) where.push(`b.posted_date >= $${params.push(filter.start_date)}`);
    if (filter.end_date !== undefined) where.push(`b.posted_date <= $${params.push(filter.end_date)}`);
    const rows = await this.q.all<BankLineRow>(`${LINE_SELECT}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}
      ORDER BY b.posted_date, b.seq LIMIT $${params.push(request.limit + 1)}`, ...params);
    return mapPage(page(rows, request.limit, (row) => [row.posted_date, Number(row.seq)]), toBankLine);
  }

  async getBankRule(id: string): Promise<BankRule | undefined> {
    const row = await this.q.get<BankRuleRow>('SELECT * FROM bank_rules WHERE id = $1', id);
    return row && toBankRule(row);
  }

  async allBankRules(): Promise<BankRule[]> {
    return (await this.q.all<BankRuleRow>('SELECT * FROM bank_rules ORDER BY priority, created_at, id')).map(toBankRule);
  }

  async countBankRulesUsingAccount(accountId: string): Promise<number> {
    return Number((await this.q.get<{ count: number }>('SELECT count(*) AS count FROM bank_rules WHERE account_id = $1 OR counter_account_id = $1',
      accountId))!.count);
  }

  async listUnmatchedAccountLines(accountId: string, amount: bigint, fromDate: string, throughDate: string, limit: number): Promise<BankAccountLine[]> {
    const [debit, credit] = amount >= 0n ? [toDecimalString(amount), '0'] : ['0', toDecimalString(-amount)];
    const rows = await this.q.all<BankAccountLineRow>(`SELECT ${ACCOUNT_LINE_COLUMNS} FROM journal_lines l JOIN journal_entries e ON e.seq = l.entry_seq
      WHERE l.account_id = $1 AND l.entry_date BETWEEN $2 AND $3 AND l.debit_amount = $4::numeric AND l.credit_amount = $5::numeric
        AND NOT EXISTS (SELECT 1 FROM bank_line_matches m WHERE m.journal_line_id = l.id)
      ORDER BY l.entry_date, l.seq LIMIT $6`, accountId, fromDate, throughDate, debit, credit, limit);
    return rows.map(toBankAccountLine);
  }

  async accountLinesOfEntries(accountId: string, entryIds: readonly string[]): Promise<(BankAccountLine & { bank_line_id: string | null; })[]> {
    const rows = await this.q.all<BankAccountLineRow & { bank_line_id: string | null }>(`SELECT ${ACCOUNT_LINE_COLUMNS}, m.bank_line_id
      FROM journal_entries e JOIN journal_lines l ON l.entry_seq = e.seq LEFT JOIN bank_line_matches m ON m.journal_line_id = l.id
      WHERE e.id = ANY($1::text[]) AND l.account_id = $2 ORDER BY l.seq`, [...entryIds], accountId);
    return rows.map((row) => ({ ...toBankAccountLine(row), bank_line_id: row.bank_line_id }));
  }

  async getReconciliation(id: string): Promise<Reconciliation | undefined> {
    const row = await this.q.get<ReconciliationRow>(`SELECT ${RECONCILIATION_COLUMNS} FROM reconciliations WHERE id = $1${this.q.locking ? ' FOR UPDATE' : ''}`, id);
    return row && toReconciliation(row);
  }

  async listReconciliations(filter: { account_id?: string | undefined; }, request: PageRequest): Promise<StorePage<Reconciliation>> {
    const where: string[] = [];
    const params: Param[] = [];
    if (request.after !== undefined) {
      where.push(`(statement_date, id) < ($${params.push(String(request.after[0]))}, $${params.push(String(request.after[1]))})`);
    }
    if (filter.account_id !== undefined) where.push(`account_id = $${params.push(filter.account_id)}`);
    const rows = await this.q.all<ReconciliationRow>(`SELECT ${RECONCILIATION_COLUMNS} FROM reconciliations${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}
      ORDER BY statement_date DESC, id DESC LIMIT $${params.push(request.limit + 1)}`, ...params);
    return mapPage(page(rows, request.limit, (row) => [row.statement_date, row.id]), toReconciliation);
  }

  async findOpenReconciliation(accountId: string): Promise<Reconciliation | undefined> {
    const row = await this.q.get<ReconciliationRow>(`SELECT ${RECONCILIATION_COLUMNS} FROM reconciliations WHERE account_id = $1 AND status = 'open'`,
      accountId);
    return row && toReconciliation(row);
  }

  async lastFinishedReconciliation(accountId: string): Promise<Reconciliation | undefined> {
    const row = await this.q.get<ReconciliationRow>(`SELECT ${RECONCILIATION_COLUMNS} FROM reconciliations WHERE account_id = $1 AND status = 'finished'
      ORDER BY statement_date DESC, id DESC LIMIT 1`, accountId);
    return row && toReconciliation(row);
  }

  async unreconciledLines(accountId: string, statementDate: string, reconciliationId: string): Promise<UnreconciledLine[]> {
    const rows = await this.q.all<BankAccountLineRow & { matched_on_or_before: boolean; marked: boolean; bank_line_id: string | null }>(
      `SELECT ${ACCOUNT_LINE_COLUMNS},
         EXISTS (SELECT 1 FROM bank_line_matches m JOIN bank_lines b ON b.id = m.bank_line_id
                 WHERE m.journal_line_id = l.id AND b.posted_date <= $1) AS matched_on_or_before,
         (SELECT m.bank_line_id FROM bank_line_matches m WHERE m.journal_line_id = l.id) AS bank_line_id,
         EXISTS (SELECT 1 FROM reconciliation_marks k WHERE k.reconciliation_id = $2 AND k.journal_line_id = l.id) AS marked
       FROM journal_lines l JOIN journal_entries e ON e.seq = l.entry_seq
       WHERE l.account_id = $3 AND NOT EXISTS (SELECT 1 FROM reconciled_lines r WHERE r.journal_line_id = l.id)
       ORDER BY l.entry_date, l.seq`, statementDate, reconciliationId, accountId);
    const lines: UnreconciledLine[] = [];
    for (const row of rows) {
      if (row.entry_date > statementDate && !row.matched_on_or_before) continue;
      lines.push({ ...toBankAccountLine(row), matched_on_or_before: row.matched_on_or_before, marked: row.marked, bank_line_id: row.bank_line_id });
    }
    return lines;
  }

  async reconciledLinesOf(reconciliationId: string): Promise<BankAccountLine[]> {
    return (await this.q.all<BankAccountLineRow>(`SELECT ${ACCOUNT_LINE_COLUMNS} FROM reconciled_lines r
      JOIN journal_lines l ON l.id = r.journal_line_id JOIN journal_entries e ON e.seq = l.entry_seq
      WHERE r.reconciliation_id = $1 ORDER BY l.entry_date, l.seq`, reconciliationId)).map(toBankAccountLine);
  }

  async reconciledTotal(accountId: string): Promise<bigint> {
    const row = await this.q.get<{ total: string | null }>(`SELECT sum(l.debit_amount - l.credit_amount)::text AS total FROM reconciled_lines r
      JOIN journal_lines l ON l.id = r.journal_line_id WHERE r.account_id = $1`, accountId);
    return row?.total === null || row?.total === undefined ? 0n : parseStoredAmount(row.total);
  }

  async reconciledLineIds(journalLineIds: readonly string[]): Promise<Set<string>> {
    const rows = await this.q.all<{ journal_line_id: string }>('SELECT journal_line_id FROM reconciled_lines WHERE journal_line_id = ANY($1::text[])',
      [...journalLineIds]);
    return new Set(rows.map((row) => row.journal_line_id));
  }
}

function amountOrNull(value: bigint | null): string | null {
  return value === null ? null : toDecimalString(value);
}

export abstract class PostgresBankingWrites implements BankingWrites {
  declare readonly q: PgQueries;

  async lockBankAccount(accountId: string): Promise<void> {
    await this.q.run('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', `ledger.bank\n${accountId}`);
  }

  async insertBankStatement(statement: BankStatement, lines: readonly NewBankLine[]): Promise<void> {
    await this.q.run(`INSERT INTO bank_statements (id, account_id, format, file_sha256, imported_at, imported_by, start_date, end_date,
      opening_balance, closing_balance, line_count, new_count, duplicate_count) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    statement.id, statement.account_id, statement.format, statement.file_sha256, statement.imported_at, statement.imported_by,
    statement.start_date, statement.end_date, amountOrNull(statement.opening_balance), amountOrNull(statement.closing_balance),
    statement.line_count, statement.new_count, statement.duplicate_count);
    // Columns as arrays, a thousand lines a statement: one round trip per thousand lines.
    for (let start = 0; start < lines.length; start += 1000) {
      const chunk = lines.slice(start, start + 1000);
      await this.q.run(`INSERT INTO bank_lines (id, statement_id, account_id, posted_date, amount, description, external_id, fingerprint,
        line_number, status)
        SELECT id, $2, $3, posted_date, amount::numeric, description, external_id, fingerprint, line_number::integer, 'unmatched'
        FROM unnest($1::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
          AS t(id, posted_date, amount, description, external_id, fingerprint, line_number)`,
      chunk.map((line) => line.id), statement.id, statement.account_id, chunk.map((line) => line.posted_date),
      chunk.map((line) => toDecimalString(line.amount)), chunk.map((line) => line.description), chunk.map((line) => line.external_id),
      chunk.map((line) => line.fingerprint), chunk.map((line) => String(line.line_number)));
    }
  }

  async matchBankLine(id: string, lines: readonly BankMatchLine[]): Promise<void> {
    await this.q.run(`INSERT INTO bank_line_matches (journal_line_id, bank_line_id, journal_entry_id, position)
      SELECT journal_line_id, $1, journal_entry_id, position - 1 FROM unnest($2::text[], $3::text[]) WITH ORDINALITY
        AS t(journal_line_id, journal_entry_id, position)`,
    id, lines.map((line) => line.journal_line_id), lines.map((line) => line.journal_entry_id));
    await this.q.run("UPDATE bank_lines SET status = 'matched', excluded_reason = NULL WHERE id = $1", id);
  }

  async excludeBankLine(id: string, reason: string): Promise<void> {
    await this.q.run("UPDATE bank_lines SET status = 'excluded', excluded_reason = $1 WHERE id = $2", reason, id);
  }

  async unmatchBankLine(id: string): Promise<void> {
    await this.q.run('DELETE FROM bank_line_matches WHERE bank_line_id = $1', id);
    await this.q.run("UPDATE bank_lines SET status = 'unmatched', excluded_reason = NULL WHERE id = $1", id);
  }

  async insertBankRule(rule: BankRule): Promise<void> {
    await this.q.run(`INSERT INTO bank_rules (id, name, priority, account_id, match, counter_account_id, description, created_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, rule.id, rule.name, rule.priority, rule.account_id, matchToText(rule.match),
    rule.counter_account_id, rule.description, rule.created_at);
  }

  async updateBankRule(id: string, changes: BankRuleChanges): Promise<void> {
    const { match, ...rest } = changes;
    await this.q.update('bank_rules', id, { ...rest, ...(match === undefined ? {} : { match: matchToText(match) }) });
  }

  async deleteBankRule(id: string): Promise<void> {
    await this.q.run('DELETE FROM bank_rules WHERE id = $1', id);
  }

  async insertReconciliation(reconciliation: Reconciliation): Promise<void> {
    await this.q.run(`INSERT INTO reconciliations (id, account_id, statement_date, statement_balance, status, created_at, created_by)
      VALUES ($1, $2, $3, $4, $5, $6, $7)`, reconciliation.id, reconciliation.account_id, reconciliation.statement_date,
    toDecimalString(reconciliation.statement_balance), reconciliation.status, reconciliation.created_at, reconciliation.created_by);
  }

  async markReconciliationLines(reconciliationId: string, journalLineIds: readonly string[]): Promise<void> {
    await this.q.run(`INSERT INTO reconciliation_marks (reconciliation_id, journal_line_id) SELECT $1, id FROM unnest($2::text[]) AS t(id)
      ON CONFLICT DO NOTHING`, reconciliationId, [...journalLineIds]);
  }

  async unmarkReconciliationLines(reconciliationId: string, journalLineIds: readonly string[]): Promise<void> {
    await this.q.run('DELETE FROM reconciliation_marks WHERE reconciliation_id = $1 AND journal_line_id = ANY($2::text[])',
      reconciliationId, [...journalLineIds]);
  }

  async finishReconciliation(id: string, finishedAt: string, finishedBy: string | null, journalLineIds: readonly string[], lockedBankLineIds: readonly string[], report: string): Promise<void> {
    await this.q.run(`INSERT INTO reconciled_lines (journal_line_id, reconciliation_id, account_id)
      SELECT line_id, $1, (SELECT account_id FROM reconciliations WHERE id = $1) FROM unnest($2::text[]) AS t(line_id)`,
    id, [...journalLineIds]);
    await this.q.run('UPDATE bank_lines SET reconciliation_id = $1 WHERE id = ANY($2::text[])', id, [...lockedBankLineIds]);
    await this.q.run('DELETE FROM reconciliation_marks WHERE reconciliation_id = $1', id);
    await this.q.run("UPDATE reconciliations SET status = 'finished', finished_at = $1, finished_by = $2, finished_report = $3 WHERE id = $4",
      finishedAt, finishedBy, report, id);
  }
}
