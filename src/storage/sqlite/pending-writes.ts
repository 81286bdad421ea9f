/**
 * What a write transaction's entries add, kept in memory and written once before COMMIT:
 *
 * - The maintained totals, written once per row: an entry adds its sums here instead of reading
 *   and rewriting six totals rows and its currency's row. With many entries in one transaction (a
 *   group of requests, a batch, an import) most of them touch the same rows.
 * - The entries' words for the FTS5 index. FTS5 writes the terms it holds as a new index segment
 *   at every savepoint, so a words row inserted under each job's savepoint made one segment per
 *   entry (about 10 µs a post, most of the search index's cost); written together before COMMIT
 *   they make one segment per transaction.
 *
 * The write queue runs each job under a savepoint. A job's sums and words are kept apart until the
 * job is kept (they join the group's) or rolled back (they are forgotten). A read of totals or
 * words inside the transaction first writes everything pending (see `flushedReads`); group rows
 * written while a job runs are written inside its savepoint, so if that job is rolled back they
 * become pending again.
 *
 * A currency's row holds absolute values (its debit total and the head of its hash chain), so it
 * is simply written again whenever pending rows are written.
 */
import { parseStoredAmount, toDecimalString } from '../../domain/money/amount.js';
import type { LedgerReads } from '../../service/ports/ledger-store.js';
import { INSERT_ENTRY_WORDS } from './entry-search.js';
import type { Param, SqliteQueries } from './queries.js';

interface Sums {
  debits: bigint;
  credits: bigint;
}

export interface CurrencyState {
  /** The currency's debit total with every entry so far. */
  total: bigint;
  /** The hash of its latest entry, or null before the first. */
  head: string | null;
}

/** One totals table: how a row is found and how a new one is inserted. */
interface TotalsTable {
  name: string;
  select: string;
  update: string;
  insert: string;
}

function totalsTable(table: string, keyColumns: readonly string[]): TotalsTable {
  const where = keyColumns.map((column) => `${column} = ?`).join(' AND ');
  return {
    name: table,
    select: `SELECT debit_total, credit_total FROM ${table} WHERE ${where}`,
    update: `UPDATE ${table} SET debit_total = ?, credit_total = ? WHERE ${where}`,
    insert: `INSERT INTO ${table} (${keyColumns.join(', ')}, debit_total, credit_total) VALUES (${keyColumns.map(() => '?').join(', ')}, ?, ?)`,
  };
}

const ACCOUNT_BALANCES = totalsTable('account_balances', ['account_id']);
const ACCOUNT_PERIOD_TOTALS = totalsTable('account_period_totals', ['account_id', 'period_id']);
const ACCOUNT_DAILY_TOTALS = totalsTable('account_daily_totals', ['account_id', 'entry_date']);

/** Past this many pending totals rows or words rows in one job (a long import), they are written at once. */
const MAX_PENDING_ROWS = 20_000;

/** An entry's words, under its seq. */
type WordsRow = [seq: number | bigint, words: string];

class TotalsDelta {
  readonly rows = new Map<string, { table: TotalsTable; keys: Param[]; sums: Sums }>();

  add(table: TotalsTable, keys: Param[], sums: Sums): void {
    const key = `${table.name}\u0000${keys.join('\u0000')}`;
    const row = this.rows.get(key);
    if (row) {
      row.sums.debits += sums.debits;
      row.sums.credits += sums.credits;
    } else {
      this.rows.set(key, { table, keys, sums: { ...sums } });
    }
  }

  mergeInto(other: TotalsDelta): void {
    for (const { table, keys, sums } of this.rows.values()) other.add(table, keys, sums);
  }

  /** Read-modify-write of each row; exact bigint arithmetic (SQLite has no 128-bit integers). */
  write(q: SqliteQueries): void {
    // Sorted, so that the rows are written in one order whatever the entries' order.
    for (const key of [...this.rows.keys()].sort()) {
      const { table, keys, sums } = this.rows.get(key)!;
      const row = q.get<{ debit_total: string; credit_total: string }>(table.select, ...keys);
      if (row) {
        q.run(table.update, toDecimalString(parseStoredAmount(row.debit_total) + sums.debits),
          toDecimalString(parseStoredAmount(row.credit_total) + sums.credits), ...keys);
      } else {
        q.run(table.insert, ...keys, toDecimalString(sums.debits), toDecimalString(sums.credits));
      }
    }
  }
}

export class PendingWrites {
  private group = new TotalsDelta();
  private job = new TotalsDelta();
  /** The group's rows written while the running job ran (inside its savepoint). */
  private groupWrittenInJob: TotalsDelta | undefined;
  private groupCurrencies = new Map<string, CurrencyState>();
  private jobCurrencies = new Map<string, CurrencyState>();
  private groupWords: WordsRow[] = [];
  private jobWords: WordsRow[] = [];
  /** The group's words written while the running job ran (inside its savepoint). */
  private groupWordsWrittenInJob: WordsRow[] = [];

  constructor(private readonly q: SqliteQueries) {}

  /** As a transaction begins: nothing is pending, and currency rows are read afresh. */
  begin(): void {
    this.group = new TotalsDelta();
    this.job = new TotalsDelta();
    this.groupWrittenInJob = undefined;
    this.groupCurrencies = new Map();
    this.jobCurrencies = new Map();
    this.groupWords = [];
    this.jobWords = [];
    this.groupWordsWrittenInJob = [];
  }

  /** The currency's total and chain head as this transaction has left them so far. */
  currency(currencyId: string): CurrencyState {
    const known = this.jobCurrencies.get(currencyId) ?? this.groupCurrencies.get(currencyId);
    if (known) return known;
    const stored = this.q.get<{ debit_total: string; chain_hash: string | null }>(
      'SELECT debit_total, chain_hash FROM currency_totals WHERE currency_id = ?', currencyId);
    return { total: stored ? parseStoredAmount(stored.debit_total) : 0n, head: stored?.chain_hash ?? null };
  }

  /** An entry of the running job: its currency's new state and its sums per account. */
  addEntry(currencyId: string, state: CurrencyState, periodId: string, entryDate: string, perAccount: ReadonlyMap<string, Sums>): void {
    this.jobCurrencies.set(currencyId, state);
    for (const [accountId, sums] of perAccount) {
      this.job.add(ACCOUNT_BALANCES, [accountId], sums);
      this.job.add(ACCOUNT_PERIOD_TOTALS, [accountId, periodId], sums);
      this.job.add(ACCOUNT_DAILY_TOTALS, [accountId, entryDate], sums);
    }
    if (this.job.rows.size >= MAX_PENDING_ROWS) this.write();
  }

  /** An entry's words for the search index, inserted with the totals. */
  addWords(seq: number | bigint, words: string): void {
    this.jobWords.push([seq, words]);
    if (this.jobWords.length >= MAX_PENDING_ROWS) this.write();
  }

  /** Writes every pending row, so that reads in this transaction see them. */
  write(): void {
    if (this.group.rows.size > 0) {
      this.group.write(this.q);
      if (this.groupWrittenInJob) this.group.mergeInto(this.groupWrittenInJob);
      else this.groupWrittenInJob = this.group;
      this.group = new TotalsDelta();
    }
    this.job.write(this.q);
    this.job = new TotalsDelta();
    for (const currencies of [this.groupCurrencies, this.jobCurrencies]) {
      for (const [currencyId, state] of currencies) {
        this.q.run(`INSERT INTO currency_totals (currency_id, debit_total, chain_hash) VALUES (?, ?, ?)
          ON CONFLICT (currency_id) DO UPDATE SET debit_total = excluded.debit_total, chain_hash = excluded.chain_hash`,
        currencyId, toDecimalString(state.total), state.head);
      }
    }
    // Words last: a later statement that opens a savepoint of its own would make FTS5 write
    // the terms it holds early.
    this.insertWords(this.groupWords);
    this.insertWords(this.jobWords);
    for (const row of this.groupWords) this.groupWordsWrittenInJob.push(row);
    this.groupWords = [];
    this.jobWords = [];
  }

  private insertWords(rows: readonly WordsRow[]): void {
    for (const row of rows) this.q.run(INSERT_ENTRY_WORDS, ...row);
  }

  /** The running job is kept: its sums and words join the group's. */
  keepJob(): void {
    for (const row of this.jobWords) this.groupWords.push(row);
    this.jobWords = [];
    this.groupWordsWrittenInJob = [];
    // Between jobs no savepoint is open: a group of large batches writes its words here, for good.
    if (this.groupWords.length >= MAX_PENDING_ROWS) {
      this.insertWords(this.groupWords);
      this.groupWords = [];
    }
    this.job.mergeInto(this.group);
    this.job = new TotalsDelta();
    for (const [currencyId, state] of this.jobCurrencies) this.groupCurrencies.set(currencyId, state);
    this.jobCurrencies = new Map();
    this.groupWrittenInJob = undefined;
  }

  /** The running job was rolled back to its savepoint: its sums and words are forgotten, and the group's rows it wrote are pending again. */
  dropJob(): void {
    this.jobWords = [];
    for (const row of this.groupWordsWrittenInJob) this.groupWords.push(row);
    this.groupWordsWrittenInJob = [];
    this.job = new TotalsDelta();
    this.jobCurrencies = new Map();
    if (this.groupWrittenInJob) {
      this.groupWrittenInJob.mergeInto(this.group);
      this.groupWrittenInJob = undefined;
    }
  }
}

/** The reads of a write transaction that read totals or words rows: they first write what is pending. */
export function flushedReads(reads: LedgerReads, pending: PendingWrites): Partial<LedgerReads> {
  const flushed = <K extends 'accountTotals' | 'currencyDebitTotal' | 'allCurrencyDebitTotals' | 'currencyChainHeads' | 'listEntries'>(name: K) =>
    ((...args: Parameters<LedgerReads[K]>) => {
      pending.write();
      return (reads[name] as (...a: Parameters<LedgerReads[K]>) => ReturnType<LedgerReads[K]>)(...args);
    }) as LedgerReads[K];
  return {
    accountTotals: flushed('accountTotals'),
    currencyDebitTotal: flushed('currencyDebitTotal'),
    allCurrencyDebitTotals: flushed('allCurrencyDebitTotals'),
    currencyChainHeads: flushed('currencyChainHeads'),
    listEntries: flushed('listEntries'),
  };
}
