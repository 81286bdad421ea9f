/**
 * What a write transaction's jobs have added but not written yet, the same for both stores: the
 * sums their entries add to the maintained totals, the state of each currency they posted to (its
 * total and chain head), and rows of the store's own kind (SQLite: the entries' search words;
 * PostgreSQL: the entries themselves and audit records). Writing them once per group instead of
 * once per entry is most of what grouping saves: a totals row touched by many entries is written
 * once.
 *
 * Two layers (`PendingSet`): the group's, what the jobs that succeeded left, and the running job's.
 * A job that succeeds adds its layer to the group's; one that fails drops its layer. When a layer
 * is written is the store's choice (SQLite: before COMMIT and before a read of a pending table;
 * PostgreSQL: the same, plus before a job's first other write, see write-transaction.ts).
 *
 * Which reads see pending rows is the port's rule (LedgerTx): every one. Each store names the
 * tables it keeps rows of in memory (`PendingTables`), and its statement runner writes what is
 * pending before any statement that reads or writes one of them, so no read can miss a row
 * whatever its name or its query.
 */

export interface Sums {
  debits: bigint;
  credits: bigint;
}

const KEY_SEPARATOR = '\u0000';

function addTo(map: Map<string, Sums>, key: string, sums: Sums): void {
  const sum = map.get(key);
  if (sum) {
    sum.debits += sums.debits;
    sum.credits += sums.credits;
  } else {
    map.set(key, { debits: sums.debits, credits: sums.credits });
  }
}

/** A totals row's key and what is added to it. `second` is the period id or the entry date. */
export interface TotalsRow {
  accountId: string;
  second: string;
  sums: Sums;
}

/** Sorted by key, so that every writer touches totals rows in the same order (no lock-order deadlocks). */
function sortedRows(map: Map<string, Sums>): TotalsRow[] {
  return [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, sums]) => {
    const [accountId, second = ''] = key.split(KEY_SEPARATOR) as [string, string?];
    return { accountId, second, sums };
  });
}

/** What entries add to the three maintained totals: per account, per account and period, per account and day. */
export class TotalsDelta {
  private readonly accounts = new Map<string, Sums>();
  private readonly periods = new Map<string, Sums>();
  private readonly days = new Map<string, Sums>();

  /** Rows pending, all three totals together. */
  get size(): number {
    return this.accounts.size + this.periods.size + this.days.size;
  }

  /** An entry's sums per account (entryTotalsByAccount), in its period and on its date. */
  addEntry(periodId: string, entryDate: string, perAccount: ReadonlyMap<string, Sums>): void {
    for (const [accountId, sums] of perAccount) {
      addTo(this.accounts, accountId, sums);
      addTo(this.periods, accountId + KEY_SEPARATOR + periodId, sums);
      addTo(this.days, accountId + KEY_SEPARATOR + entryDate, sums);
    }
  }

  absorb(later: TotalsDelta): void {
    for (const [key, sums] of later.accounts) addTo(this.accounts, key, sums);
    for (const [key, sums] of later.periods) addTo(this.periods, key, sums);
    for (const [key, sums] of later.days) addTo(this.days, key, sums);
  }

  clear(): void {
    this.accounts.clear();
    this.periods.clear();
    this.days.clear();
  }

  /** The rows of each total, each sorted by key. */
  rows(): { accounts: TotalsRow[]; periods: TotalsRow[]; days: TotalsRow[] } {
    return { accounts: sortedRows(this.accounts), periods: sortedRows(this.periods), days: sortedRows(this.days) };
  }
}

/** One layer: totals, the currencies' state as of this layer, and the store's own rows. */
export class PendingLayer<Row, Currency> {
  readonly totals = new TotalsDelta();
  /** The currencies this layer posted to (PostgreSQL: or locked), as they stand after it. */
  readonly currencies = new Map<string, Currency>();
  rows: Row[] = [];

  /** True when nothing is left to write but the currencies' state. */
  get empty(): boolean {
    return this.rows.length === 0 && this.totals.size === 0;
  }

  /** Takes over a later layer (a job that succeeded): its rows follow this layer's. */
  absorb(later: PendingLayer<Row, Currency>): void {
    this.totals.absorb(later.totals);
    for (const [id, state] of later.currencies) this.currencies.set(id, state);
    for (const row of later.rows) this.rows.push(row);
  }

  /** After the rows and totals are written: the currencies' state stays (it is absolute, and PostgreSQL's locks last until COMMIT). */
  clearRows(): void {
    this.totals.clear();
    this.rows = [];
  }
}

/** The group's layer and the running job's. */
export class PendingSet<Layer extends PendingLayer<unknown, unknown>> {
  group: Layer;
  job: Layer;

  constructor(private readonly newLayer: () => Layer) {
    this.group = newLayer();
    this.job = newLayer();
  }

  /** As a transaction begins: nothing is pending. */
  reset(): void {
    this.group = this.newLayer();
    this.job = this.newLayer();
  }

  /** The currency as the running job sees it (its own posts, then the group's), if either touched it. */
  currency(currencyId: string): (Layer extends PendingLayer<unknown, infer C> ? C : never) | undefined {
    return (this.job.currencies.get(currencyId) ?? this.group.currencies.get(currencyId)) as never;
  }

  /** The running job succeeded: its layer joins the group's. */
  keepJob(): void {
    this.group.absorb(this.job);
    this.job = this.newLayer();
  }

  /** The running job failed: what it added is forgotten. */
  dropJob(): void {
    this.job = this.newLayer();
  }
}

/**
 * The tables a store keeps pending rows of, and whether a statement reads or writes one of them
 * (by its text, remembered per statement: statement texts are a small fixed set).
 */
export class PendingTables {
  private readonly pattern: RegExp;
  private readonly known = new Map<string, boolean>();

  constructor(tables: readonly string[]) {
    this.pattern = new RegExp(`\\b(?:${tables.join('|')})\\b`, 'i');
  }

  touchedBy(sql: string): boolean {
    let touches = this.known.get(sql);
    if (touches === undefined) {
      touches = this.pattern.test(sql);
      this.known.set(sql, touches);
    }
    return touches;
  }
}
