/**
 * What a SQLite write transaction's entries add, kept in memory (storage/shared/pending-writes.ts)
 * and written once before COMMIT:
 *
 * - The maintained totals, written once per row: an entry adds its sums here instead of reading
 *   and rewriting six totals rows and its currency's row. With many entries in one transaction (a
 *   group of requests, a batch, an import) most of them touch the same rows.
 * - The entries' words for the FTS5 index. FTS5 writes the terms it holds as a new index segment
 *   at every savepoint, so a words row inserted under each job's savepoint made one segment per
 *   entry (about 10 µs a post, most of the search index's cost); written together before COMMIT
 *   they make one segment per transaction.
 *
 * The entries and lines themselves are written at once (SQLite's statements are calls, not round
 * trips). The write queue runs each job under a savepoint. Any statement of the transaction that
 * touches a pending table (`SQLITE_PENDING_TABLES`) first writes everything pending (sqlite-store.ts);
 * group rows written while a job runs are written inside its savepoint, so if that job is rolled
 * back they become pending again.
 *
 * A currency's row holds absolute values (its debit total and the head of its hash chain), so it
 * is simply written again whenever pending rows are written.
 */
import { parseStoredAmount, toDecimalString } from '../../domain/money/amount.js';
import { PendingLayer, PendingSet, type Sums, type TotalsDelta, type TotalsRow } from '../shared/pending-writes.js';
import { INSERT_ENTRY_WORDS } from './entry-search.js';
import type { SqliteQueries } from './queries.js';

export interface CurrencyState {
  /** The currency's debit total with every entry so far. */
  total: bigint;
  /** The hash of its latest entry, or null before the first. */
  head: string | null;
}

/** The tables whose rows a transaction keeps pending: a statement that touches one writes them first. */
export const SQLITE_PENDING_TABLES = ['account_balances', 'account_period_totals', 'account_daily_totals', 'currency_totals', 'entry_words'];

/** One totals table: how a row is found and how a new one is inserted. */
interface TotalsTable {
  select: string;
  update: string;
  insert: string;
}

function totalsTable(table: string, keyColumns: readonly string[]): TotalsTable {
  const where = keyColumns.map((column) => `${column} = ?`).join(' AND ');
  return {
    select: `SELECT debit_total, credit_total FROM ${table} WHERE ${where}`,
    update: `UPDATE ${table} SET debit_total = ?, credit_total = ? WHERE ${where}`,
    insert: `INSERT INTO ${table} (${keyColumns.join(', ')}, debit_total, credit_total) VALUES (${keyColumns.map(() => '?').join(', ')}, ?, ?)`,
  };
}

const ACCOUNT_BALANCES = totalsTable('account_balances', ['account_id']);
const ACCOUNT_PERIOD_TOTALS = totalsTable('account_period_totals', ['account_id', 'period_id']);
const ACCOUNT_DAILY_TOTALS = totalsTable('account_daily_totals', ['account_id', 'entry_date']);

const WRITE_CURRENCY = `INSERT INTO currency_totals (currency_id, debit_total, chain_hash) VALUES (?, ?, ?)
  ON CONFLICT (currency_id) DO UPDATE SET debit_total = excluded.debit_total, chain_hash = excluded.chain_hash`;

/** Past this many pending totals rows or words rows in one job (a long import), they are written at once. */
const MAX_PENDING_ROWS = 20_000;

/** An entry's words, under its seq. */
type WordsRow = [seq: number | bigint, words: string];

class Layer extends PendingLayer<WordsRow, CurrencyState> {}

/** Read-modify-write of each totals row; exact bigint arithmetic (SQLite has no 128-bit integers). */
function writeTotals(q: SqliteQueries, totals: TotalsDelta): void {
  const { accounts, periods, days } = totals.rows();
  const write = (table: TotalsTable, keys: (row: TotalsRow) => string[], rows: TotalsRow[]) => {
    for (const row of rows) {
      const key = keys(row);
      const stored = q.get<{ debit_total: string; credit_total: string }>(table.select, ...key);
      if (stored) {
        q.run(table.update, toDecimalString(parseStoredAmount(stored.debit_total) + row.sums.debits),
          toDecimalString(parseStoredAmount(stored.credit_total) + row.sums.credits), ...key);
      } else {
        q.run(table.insert, ...key, toDecimalString(row.sums.debits), toDecimalString(row.sums.credits));
      }
    }
  };
  write(ACCOUNT_BALANCES, (row) => [row.accountId], accounts);
  write(ACCOUNT_PERIOD_TOTALS, (row) => [row.accountId, row.second], periods);
  write(ACCOUNT_DAILY_TOTALS, (row) => [row.accountId, row.second], days);
}

export class PendingWrites {
  private readonly layers = new PendingSet(() => new Layer());
  /** The group's rows written while the running job ran (inside its savepoint): pending again if it is rolled back. */
  private groupWrittenInJob = new Layer();

  /** `q` runs the statements that write what is pending; it must not be the transaction's own hooked runner. */
  constructor(private readonly q: SqliteQueries) {}

  /** As a transaction begins: nothing is pending, and currency rows are read afresh. */
  begin(): void {
    this.layers.reset();
    this.groupWrittenInJob = new Layer();
  }

  /** The currency's total and chain head as this transaction has left them so far. */
  currency(currencyId: string): CurrencyState {
    const known = this.layers.currency(currencyId);
    if (known) return known;
    const stored = this.q.get<{ debit_total: string; chain_hash: string | null }>(
      'SELECT debit_total, chain_hash FROM currency_totals WHERE currency_id = ?', currencyId);
    return { total: stored ? parseStoredAmount(stored.debit_total) : 0n, head: stored?.chain_hash ?? null };
  }

  /** An entry of the running job: its currency's new state, its sums per account and its words. */
  addEntry(currencyId: string, state: CurrencyState, periodId: string, entryDate: string, perAccount: ReadonlyMap<string, Sums>,
    words: WordsRow): void {
    const { job } = this.layers;
    job.currencies.set(currencyId, state);
    job.totals.addEntry(periodId, entryDate, perAccount);
    job.rows.push(words);
    if (job.totals.size >= MAX_PENDING_ROWS || job.rows.length >= MAX_PENDING_ROWS) this.write();
  }

  /** Writes every pending row, so that the statement about to run sees them. */
  write(): void {
    const { group, job } = this.layers;
    // Totals first, words last: a later statement that opens a savepoint of its own would make
    // FTS5 write the terms it holds early.
    writeTotals(this.q, group.totals);
    writeTotals(this.q, job.totals);
    for (const layer of [group, job]) {
      for (const [currencyId, state] of layer.currencies) this.q.run(WRITE_CURRENCY, currencyId, toDecimalString(state.total), state.head);
    }
    for (const layer of [group, job]) {
      for (const row of layer.rows) this.q.run(INSERT_ENTRY_WORDS, ...row);
    }
    if (!group.empty) {
      this.groupWrittenInJob.absorb(group);
      group.clearRows();
    }
    job.clearRows();
  }

  /** The running job is kept: its sums and words join the group's. */
  keepJob(): void {
    this.layers.keepJob();
    this.groupWrittenInJob = new Layer();
    // Between jobs no savepoint is open: a group of large batches writes its words here, for good.
    const { group } = this.layers;
    if (group.rows.length >= MAX_PENDING_ROWS) {
      for (const row of group.rows) this.q.run(INSERT_ENTRY_WORDS, ...row);
      group.rows = [];
    }
  }

  /** The running job was rolled back to its savepoint: its sums and words are forgotten, and the group's rows it wrote are pending again. */
  dropJob(): void {
    this.layers.dropJob();
    this.layers.group.absorb(this.groupWrittenInJob);
    this.groupWrittenInJob = new Layer();
  }
}
