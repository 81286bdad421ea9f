/** Keyset paging and totals summing shared by the storage adapters (pure, driver-free). */
import { asAmount, parseStoredAmount } from '../../domain/money/amount.js';
import type { Totals } from '../../domain/types.js';
import type { DailyTotals, Keyset, StorePage } from '../../service/ports/ledger-store.js';

/** Rows are fetched with LIMIT limit + 1: one more row than asked means another page follows. */
export function page<T>(rows: T[], limit: number, keyOf: (row: T) => Keyset): StorePage<T> {
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  return { items, next: hasMore ? keyOf(items[items.length - 1]!) : undefined };
}

export function mapPage<A, B>(source: StorePage<A>, map: (item: A) => B): StorePage<B> {
  return { items: source.items.map(map), next: source.next };
}

export interface TotalsRow {
  account_id: string;
  debit_total: string;
  credit_total: string;
}

/** Sums stored totals rows per account, exactly (each stored value is range-checked on the way). */
export function sumByAccount(rows: readonly TotalsRow[]): Map<string, Totals> {
  const sums = new Map<string, { debits: bigint; credits: bigint }>();
  for (const row of rows) {
    const debits = parseStoredAmount(row.debit_total);
    const credits = parseStoredAmount(row.credit_total);
    const sum = sums.get(row.account_id);
    if (sum) {
      sum.debits += debits;
      sum.credits += credits;
    } else {
      sums.set(row.account_id, { debits, credits });
    }
  }
  const totals = new Map<string, Totals>();
  for (const [accountId, sum] of sums) {
    totals.set(accountId, { debit_total: asAmount(sum.debits), credit_total: asAmount(sum.credits) });
  }
  return totals;
}

/** Debit and credit sums per account of an entry's lines: what the entry adds to each total. */
export function entryTotalsByAccount(lines: readonly { account_id: string; debit_amount: bigint; credit_amount: bigint }[]) {
  const perAccount = new Map<string, { debits: bigint; credits: bigint }>();
  for (const line of lines) {
    const sums = perAccount.get(line.account_id) ?? { debits: 0n, credits: 0n };
    sums.debits += line.debit_amount;
    sums.credits += line.credit_amount;
    perAccount.set(line.account_id, sums);
  }
  // Sorted so that every writer touches totals rows in the same order (no lock-order deadlocks).
  return new Map([...perAccount].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function entryDebitTotal(lines: readonly { debit_amount: bigint }[]): bigint {
  let total = 0n;
  for (const line of lines) total += line.debit_amount;
  return total;
}

export interface DailyTotalsRow extends TotalsRow {
  entry_date: string;
}

/** Rows of amounts per account and day (several per pair, e.g. closing lines), summed per pair. */
export function sumByAccountAndDay(rows: readonly DailyTotalsRow[]): DailyTotals[] {
  const sums = new Map<string, DailyTotals>();
  for (const row of rows) {
    const key = `${row.account_id}\u0000${row.entry_date}`;
    const debits = parseStoredAmount(row.debit_total);
    const credits = parseStoredAmount(row.credit_total);
    const sum = sums.get(key);
    if (sum) {
      sum.debit_total = asAmount(sum.debit_total + debits);
      sum.credit_total = asAmount(sum.credit_total + credits);
    } else {
      sums.set(key, { account_id: row.account_id, entry_date: row.entry_date, debit_total: debits, credit_total: credits });
    }
  }
  return [...sums.values()];
}
