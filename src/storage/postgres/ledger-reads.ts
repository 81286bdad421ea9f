/** Reads of the books (currencies, accounts, periods, entries) and the totals reports are built from. */
import { FIRST_DATE, LAST_DATE } from '../../domain/dates.js';
import { parseStoredAmount, toDecimalString } from '../../domain/money/amount.js';
import type { Account, Currency, JournalEntryView, NormalBalance, Period, Totals } from '../../domain/types.js';
import type { LedgerReads } from '../../service/ports/ledger-store.js';
import { type DailyTotalsRow, mapPage, page, sumByAccount, sumByAccountAndDay, type TotalsRow } from '../shared/paging.js';
import {
  type AccountLineRow, type AccountRow, type CurrencyRow, type EntryRow, type LineRow, type PeriodRow, type SideAmountRow,
  ENTRY_COLUMNS, ENTRY_FROM, entriesWithLines, LINE_COLUMNS, toAccount, toAccountLine, toCurrency, toPeriod, toSideAmount,
} from '../shared/rows.js';
import { wordsQuery } from './entry-search.js';
import type { Param, PgQueries } from './queries.js';
import type { AccountFilter, AccountLine, DailyTotals, DateRange, EntryFilter, LineScope, SideAmount, SortOrder, TotalsQuery } from '../../service/ports/books-store.js';
import type { PageRequest, StorePage } from '../../service/ports/store-pages.js';

/** Entries with their lines (one query for the lines of all of them), in the rows' order. */
async function withLines(q: PgQueries, rows: EntryRow[]): Promise<JournalEntryView[]> {
  if (rows.length === 0) return [];
  const lines = await q.all<LineRow>(
    `SELECT ${LINE_COLUMNS} FROM journal_lines l JOIN accounts a ON a.id = l.account_id
     WHERE l.entry_seq = ANY($1::bigint[]) ORDER BY l.entry_seq, l.seq`, rows.map((row) => String(row.seq)));
  return entriesWithLines(rows, lines);
}

const TOTALS = 'account_id, debit_total::text AS debit_total, credit_total::text AS credit_total';
/**
 * Totals over many rows (periods and days) summed by the database, one row per account: numeric
 * sums are exact at any size, and a report reads about 200 rows instead of thousands.
 */
const SUMMED = 'SELECT account_id, sum(debit_total)::text AS debit_total, sum(credit_total)::text AS credit_total';

export abstract class PostgresBooksReads implements Partial<LedgerReads> {
  declare readonly q: PgQueries;

  async getCurrency(id: string): Promise<Currency | undefined> {
    const row = await this.q.get<CurrencyRow>('SELECT * FROM currencies WHERE id = $1', id);
    return row && toCurrency(row);
  }

  async listCurrencies(request: PageRequest): Promise<StorePage<Currency>> {
    // Ordered as SQLite orders its COLLATE NOCASE column: ASCII letters folded to lower case.
    const rows = await this.q.all<CurrencyRow>('SELECT * FROM currencies WHERE lower(code) > lower($1) ORDER BY lower(code) LIMIT $2',
      String(request.after?.[0] ?? ''), request.limit + 1);
    return page(rows.map(toCurrency), request.limit, (c) => [c.code]);
  }

  async getAccount(id: string): Promise<Account | undefined> {
    const row = await this.q.get<AccountRow>('SELECT * FROM accounts WHERE id = $1', id);
    return row && toAccount(row);
  }

  async getAccounts(ids: readonly string[]): Promise<Map<string, Account>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await this.q.all<AccountRow>('SELECT * FROM accounts WHERE id = ANY($1::text[])', unique);
    return new Map(rows.map((row) => [row.id, toAccount(row)]));
  }

  async listAccounts(filter: AccountFilter, request: PageRequest): Promise<StorePage<Account>> {
    const where = ['account_number > $1'];
    const params: Param[] = [String(request.after?.[0] ?? '')];
    const add = (condition: string, value: Param) => { params.push(value); where.push(`${condition} $${params.length}`); };
    if (filter.account_type !== undefined) add('account_type =', filter.account_type);
    if (filter.currency_id !== undefined) add('currency_id =', filter.currency_id);
    if (filter.is_active !== undefined) add('is_active =', filter.is_active);
    if (filter.parent_id !== undefined) add('parent_id =', filter.parent_id);
    params.push(request.limit + 1);
    const rows = await this.q.all<AccountRow>(
      `SELECT * FROM accounts WHERE ${where.join(' AND ')} ORDER BY account_number LIMIT $${params.length}`, ...params);
    return page(rows.map(toAccount), request.limit, (a) => [a.account_number]);
  }

  async listSubAccounts(parentId: string): Promise<Account[]> {
    return (await this.q.all<AccountRow>('SELECT * FROM accounts WHERE parent_id = $1 ORDER BY account_number', parentId)).map(toAccount);
  }

  async allAccounts(): Promise<Account[]> {
    return (await this.q.all<AccountRow>('SELECT * FROM accounts ORDER BY account_number')).map(toAccount);
  }

  async accountTotals(query: TotalsQuery): Promise<Map<string, Totals>> {
    const ids = query.account_ids;
    if (ids !== undefined && ids.length === 0) return new Map();
    // Two statement texts, with and without the accounts: a filter that may be null would keep a
    // cached plan from using the accounts' keys.
    const params: Param[] = [];
    const accounts = ids === undefined ? '' : ` AND account_id = ANY($${params.push([...ids])}::text[])`;
    let rows: TotalsRow[];
    if (query.period_id !== undefined) {
      rows = await this.q.all<TotalsRow>(`SELECT ${TOTALS} FROM account_period_totals WHERE period_id = $${params.push(query.period_id)}${accounts}`,
        ...params);
    } else if (query.before_date !== undefined) {
      // Whole periods that ended before the date, then the days of the date's own period before it.
      const before = `$${params.push(query.before_date)}`;
      rows = await this.q.all<TotalsRow>(`${SUMMED} FROM (
          SELECT account_id, debit_total, credit_total FROM account_period_totals
          WHERE period_id = ANY(ARRAY(SELECT id FROM periods WHERE end_date < ${before}))${accounts}
        UNION ALL
          SELECT account_id, debit_total, credit_total FROM account_daily_totals
          WHERE entry_date > (SELECT coalesce(max(end_date), '') FROM periods WHERE end_date < ${before})
            AND entry_date < ${before}${accounts}) AS parts GROUP BY account_id`, ...params);
    } else if (query.between !== undefined) {
      // Periods wholly inside the range by their totals; the days of the range before and after
      // them (its partial periods) by daily totals, as two ranges of the date index. Any period
      // between two inside ones is inside. Without a period inside, the first range is the whole.
      const start = `$${params.push(query.between.start_date)}`;
      const end = `$${params.push(query.between.end_date)}`;
      const inside = `FROM periods WHERE start_date >= ${start} AND end_date <= ${end}`;
      rows = await this.q.all<TotalsRow>(`${SUMMED} FROM (
          SELECT account_id, debit_total, credit_total FROM account_period_totals
          WHERE period_id = ANY(ARRAY(SELECT id ${inside}))${accounts}
        UNION ALL
          SELECT account_id, debit_total, credit_total FROM account_daily_totals
          WHERE entry_date >= ${start} AND entry_date <= ${end}
            AND entry_date < coalesce((SELECT min(start_date) ${inside}), '9999-12-31')${accounts}
        UNION ALL
          SELECT account_id, debit_total, credit_total FROM account_daily_totals
          WHERE entry_date > (SELECT max(end_date) ${inside}) AND entry_date <= ${end}${accounts}) AS parts GROUP BY account_id`,
      ...params);
    } else {
      rows = await this.q.all<TotalsRow>(`SELECT ${TOTALS} FROM account_balances WHERE true${accounts}`, ...params);
    }
    return sumByAccount(rows);
  }

  async accountDailyTotals(accountIds: readonly string[], range: DateRange): Promise<DailyTotals[]> {
    if (accountIds.length === 0) return [];
    return sumByAccountAndDay(await this.q.all<DailyTotalsRow>(`SELECT account_id, entry_date, debit_total::text AS debit_total,
      credit_total::text AS credit_total FROM account_daily_totals
      WHERE account_id = ANY($1::text[]) AND entry_date >= $2 AND entry_date <= $3`,
    [...accountIds], range.start_date ?? FIRST_DATE, range.end_date ?? LAST_DATE));
  }

  async closingDailyTotals(accountIds: readonly string[], range: DateRange): Promise<DailyTotals[]> {
    if (accountIds.length === 0) return [];
    return sumByAccountAndDay(await this.q.all<DailyTotalsRow>(`SELECT l.account_id, e.entry_date, l.debit_amount::text AS debit_total,
      l.credit_amount::text AS credit_total FROM journal_entries e JOIN journal_lines l ON l.entry_seq = e.seq
      WHERE e.entry_type = 'closing' AND e.entry_date >= $1 AND e.entry_date <= $2 AND l.account_id = ANY($3::text[])`,
    range.start_date ?? FIRST_DATE, range.end_date ?? LAST_DATE, [...accountIds]));
  }

  async closingTotals(scope: { period_id?: string | undefined; range?: DateRange | undefined; }): Promise<Map<string, Totals>> {
    const rows = await this.q.all<TotalsRow>(`SELECT l.account_id, l.debit_amount::text AS debit_total, l.credit_amount::text AS credit_total
      FROM journal_entries e JOIN journal_lines l ON l.entry_seq = e.seq
      WHERE e.entry_type = 'closing' AND ($1::text IS NULL OR e.period_id = $1)
        AND ($2::text IS NULL OR e.entry_date >= $2) AND ($3::text IS NULL OR e.entry_date <= $3)`,
    scope.period_id ?? null, scope.range?.start_date ?? null, scope.range?.end_date ?? null);
    return sumByAccount(rows);
  }

  async listAccountLines(scope: LineScope, range: DateRange, order: SortOrder, request: PageRequest): Promise<StorePage<AccountLine>> {
    const [scopeColumn, scopeId] = 'account_id' in scope ? ['l.account_id', scope.account_id] : ['l.parent_account_id', scope.parent_id];
    const where = [`${scopeColumn} = $1`];
    const params: Param[] = [scopeId];
    const add = (condition: string, value: Param) => { params.push(value); where.push(`${condition} $${params.length}`); };
    if (range.start_date !== undefined) add('l.entry_date >=', range.start_date);
    if (range.end_date !== undefined) add('l.entry_date <=', range.end_date);
    if (request.after !== undefined) {
      params.push(String(request.after[0]), String(request.after[1]));
      where.push(`(l.entry_date, l.seq) ${order === 'asc' ? '>' : '<'} ($${params.length - 1}, $${params.length}::bigint)`);
    }
    const direction = order === 'asc' ? 'ASC' : 'DESC';
    params.push(request.limit + 1);
    const rows = await this.q.all<AccountLineRow>(
      `SELECT ${LINE_COLUMNS}, e.id AS journal_entry_id, e.entry_number, l.entry_date, e.description AS entry_description, e.reference
       FROM journal_lines l
       JOIN accounts a ON a.id = l.account_id
       JOIN journal_entries e ON e.seq = l.entry_seq
       WHERE ${where.join(' AND ')}
       ORDER BY l.entry_date ${direction}, l.seq ${direction} LIMIT $${params.length}`, ...params);
    return mapPage(page(rows, request.limit, (row) => [row.entry_date, row.seq]), toAccountLine);
  }

  async listSideAmounts(accountId: string, side: NormalBalance, throughDate: string, request: PageRequest): Promise<StorePage<SideAmount>> {
    const amount = side === 'debit' ? 'l.debit_amount' : 'l.credit_amount';
    const params: Param[] = [accountId, throughDate];
    let after = '';
    if (request.after !== undefined) {
      params.push(String(request.after[0]), String(request.after[1]));
      after = ` AND (l.entry_date, l.seq) < ($3, $4::bigint)`;
    }
    params.push(request.limit + 1);
    // The account's index range read backwards from the date; a reversed entry and its reversal
    // are found by their unique ids (both indexed), so skipping them costs two lookups a line.
    const rows = await this.q.all<SideAmountRow>(
      `SELECT l.entry_date, l.seq, ${amount}::text AS amount, e.metadata::jsonb -> 'due_date' AS due_date
       FROM journal_lines l
       JOIN journal_entries e ON e.seq = l.entry_seq
       WHERE l.account_id = $1 AND l.entry_date <= $2${after} AND ${amount} <> 0
         AND NOT EXISTS (SELECT 1 FROM journal_entries original WHERE original.id = e.reverses_id AND original.entry_date <= $2)
         AND NOT EXISTS (SELECT 1 FROM journal_entries reversal WHERE reversal.reverses_id = e.id AND reversal.entry_date <= $2)
       ORDER BY l.entry_date DESC, l.seq DESC LIMIT $${params.length}`, ...params);
    return mapPage(page(rows, request.limit, (row) => [row.entry_date, row.seq]), toSideAmount);
  }

  async getPeriod(id: string): Promise<Period | undefined> {
    // In a write transaction this holds the period against every post and close (a close reads it first).
    const row = await this.q.get<PeriodRow>(`SELECT * FROM periods WHERE id = $1${this.q.locking ? ' FOR UPDATE' : ''}`, id);
    return row && toPeriod(row);
  }

  async findPeriodContaining(date: string): Promise<Period | undefined> {
    // In a write transaction a post holds its period in share mode: posts run side by side, and a
    // close (FOR UPDATE) waits for them and is waited for, so no entry lands in a closing period.
    const row = await this.q.get<PeriodRow>(
      `SELECT * FROM periods WHERE start_date <= $1 ORDER BY start_date DESC LIMIT 1${this.q.locking ? ' FOR SHARE' : ''}`, date);
    return row && row.end_date >= date ? toPeriod(row) : undefined;
  }

  async findOverlappingPeriods(startDate: string, endDate: string): Promise<Period[]> {
    // Two processes creating overlapping periods at once: the second waits and then sees the first.
    if (this.q.locking) await this.q.run("SELECT pg_advisory_xact_lock(hashtext('ledger.periods'))");
    return (await this.q.all<PeriodRow>('SELECT * FROM periods WHERE start_date <= $1 AND end_date >= $2 ORDER BY start_date',
      endDate, startDate)).map(toPeriod);
  }

  async listPeriods(request: PageRequest): Promise<StorePage<Period>> {
    const rows = await this.q.all<PeriodRow>('SELECT * FROM periods WHERE start_date > $1 ORDER BY start_date LIMIT $2',
      String(request.after?.[0] ?? ''), request.limit + 1);
    return page(rows.map(toPeriod), request.limit, (p) => [p.start_date]);
  }

  async periodHasEntries(periodId: string): Promise<boolean> {
    return (await this.q.get('SELECT 1 AS found FROM journal_entries WHERE period_id = $1 LIMIT 1', periodId)) !== undefined;
  }

  async accountUses(accountId: string): Promise<string[]> {
    const row = (await this.q.get<{ lines: boolean; subs: boolean; rules: boolean; statements: boolean; reconciliations: boolean }>(`SELECT
      EXISTS (SELECT 1 FROM journal_lines WHERE account_id = $1) AS lines,
      EXISTS (SELECT 1 FROM accounts WHERE parent_id = $1) AS subs,
      EXISTS (SELECT 1 FROM bank_rules WHERE account_id = $1 OR counter_account_id = $1) AS rules,
      EXISTS (SELECT 1 FROM bank_statements WHERE account_id = $1) AS statements,
      EXISTS (SELECT 1 FROM reconciliations WHERE account_id = $1) AS reconciliations`, accountId))!;
    return [[row.lines, 'journal lines'], [row.subs, 'sub-accounts'], [row.rules, 'bank rules'], [row.statements, 'bank statements'],
      [row.reconciliations, 'reconciliations']].filter(([used]) => used).map(([, what]) => what as string);
  }

  async getEntry(id: string): Promise<JournalEntryView | undefined> {
    const row = await this.q.get<EntryRow>(`SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_FROM} WHERE e.id = $1`, id);
    return row && (await withLines(this.q, [row]))[0];
  }

  async getEntries(ids: readonly string[]): Promise<JournalEntryView[]> {
    const rows = await this.q.all<EntryRow>(`SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_FROM} WHERE e.id = ANY($1::text[])`, [...ids]);
    const found = new Map((await withLines(this.q, rows)).map((entry) => [entry.id, entry]));
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  async listEntries(filter: EntryFilter, order: SortOrder, request: PageRequest): Promise<StorePage<JournalEntryView>> {
    const where: string[] = [];
    const params: Param[] = [];
    const add = (condition: string, value: Param) => { params.push(value); where.push(`${condition} $${params.length}`); };
    if (request.after !== undefined) {
      params.push(String(request.after[0]), String(request.after[1]));
      where.push(`(e.entry_date, e.seq) ${order === 'asc' ? '>' : '<'} ($${params.length - 1}, $${params.length}::bigint)`);
    }
    if (filter.period_id !== undefined) add('e.period_id =', filter.period_id);
    if (filter.start_date !== undefined) add('e.entry_date >=', filter.start_date);
    if (filter.end_date !== undefined) add('e.entry_date <=', filter.end_date);
    if (filter.lines !== undefined) {
      const [column, id] = 'account_id' in filter.lines ? ['account_id', filter.lines.account_id] : ['parent_account_id', filter.lines.parent_id];
      params.push(id);
      where.push(`e.seq IN (SELECT l.entry_seq FROM journal_lines l WHERE l.${column} = $${params.length})`);
    }
    if (filter.words !== undefined) {
      params.push(wordsQuery(filter.words));
      const found = `e.seq IN (SELECT entry_seq FROM entry_search WHERE words @@ $${params.length}::tsquery)`;
      if (filter.or_entry_number === undefined) where.push(found);
      else {
        params.push(filter.or_entry_number);
        where.push(`(e.entry_number = $${params.length} OR ${found})`);
      }
    }
    if (filter.entry_number !== undefined) add('e.entry_number =', filter.entry_number);
    if (filter.reference !== undefined) add('e.reference =', filter.reference);
    if (filter.entry_type !== undefined) add('e.entry_type =', filter.entry_type);
    if (filter.min_amount !== undefined || filter.max_amount !== undefined) {
      const bounds: string[] = [];
      for (const [operator, value] of [['>=', filter.min_amount], ['<=', filter.max_amount]] as const) {
        if (value === undefined) continue;
        params.push(toDecimalString(value));
        bounds.push(`e.debit_total ${operator} $${params.length}::numeric`);
      }
      where.push(...bounds);
    }
    const direction = order === 'asc' ? 'ASC' : 'DESC';
    params.push(request.limit + 1);
    const rows = await this.q.all<EntryRow>(
      `SELECT ${ENTRY_COLUMNS} FROM ${ENTRY_FROM} ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY e.entry_date ${direction}, e.seq ${direction} LIMIT $${params.length}`, ...params);
    const result = page(rows, request.limit, (row) => [row.entry_date, row.seq]);
    return { items: await withLines(this.q, result.items), next: result.next };
  }

  async currencyDebitTotal(currencyId: string): Promise<bigint> {
    const row = await this.q.get<{ debit_total: string }>('SELECT debit_total::text AS debit_total FROM currency_totals WHERE currency_id = $1', currencyId);
    return row ? parseStoredAmount(row.debit_total) : 0n;
  }

  async allCurrencyDebitTotals(): Promise<Map<string, bigint>> {
    const rows = await this.q.all<{ currency_id: string; debit_total: string }>('SELECT currency_id, debit_total::text AS debit_total FROM currency_totals');
    return new Map(rows.map((row) => [row.currency_id, parseStoredAmount(row.debit_total) as bigint]));
  }

  async currencyChainHeads(): Promise<Map<string, string>> {
    const rows = await this.q.all<{ currency_id: string; chain_hash: string }>(
      'SELECT currency_id, chain_hash FROM currency_totals WHERE chain_hash IS NOT NULL');
    return new Map(rows.map((row) => [row.currency_id, row.chain_hash]));
  }

  async getSetting(key: string): Promise<string | undefined> {
    return (await this.q.get<{ value: string }>('SELECT value FROM settings WHERE key = $1', key))?.value;
  }

  async allSettings(): Promise<Map<string, string>> {
    const rows = await this.q.all<{ key: string; value: string }>('SELECT key, value FROM settings ORDER BY key');
    return new Map(rows.map((row) => [row.key, row.value]));
  }

  async listEntriesInPostingOrder(request: PageRequest): Promise<StorePage<JournalEntryView>> {
    const rows = await this.q.all<EntryRow>(`SELECT ${ENTRY_COLUMNS}
      FROM ${ENTRY_FROM} WHERE e.seq > $1::bigint ORDER BY e.seq LIMIT $2`,
    String(request.after?.[0] ?? 0), request.limit + 1);
    const result = page(rows, request.limit, (row) => [row.seq]);
    return { items: await withLines(this.q, result.items), next: result.next };
  }

  async countEntries(): Promise<number> {
    return (await this.q.get<{ count: number }>('SELECT count(*) AS count FROM journal_entries'))!.count;
  }
}
