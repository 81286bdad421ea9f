/**
 * Totals recomputed from the journal lines while the entries stream past: per account, per
 * period (the entry's period_id) and per day (the entry's date). Memory grows with accounts ×
 * days with activity, never with lines: every line is added to one running sum and dropped.
 * All-time and per-period totals are sums of the daily ones, so each line costs one addition.
 */
import type { JournalEntryView } from '../../domain/types.js';

export interface Sums {
  debits: bigint;
  credits: bigint;
}

export type SumsByAccount = Map<string, Sums>;

export interface DayTally {
  date: string;
  accounts: SumsByAccount;
}

export function addSums(target: SumsByAccount, accountId: string, debits: bigint, credits: bigint): void {
  const sums = target.get(accountId);
  if (sums === undefined) target.set(accountId, { debits, credits });
  else {
    sums.debits += debits;
    sums.credits += credits;
  }
}

function addAll(target: SumsByAccount, source: SumsByAccount): void {
  for (const [accountId, sums] of source) addSums(target, accountId, sums.debits, sums.credits);
}

export class LineTally {
  /** period_id → entry_date → account → sums. In a sound ledger each date belongs to one period. */
  private readonly byPeriod = new Map<string, Map<string, SumsByAccount>>();
  /** Every debit posted in each currency (the entry's currency). */
  readonly currencyDebits = new Map<string, bigint>();
  entries = 0;
  lines = 0;

  add(entry: JournalEntryView): void {
    let days = this.byPeriod.get(entry.period_id);
    if (days === undefined) {
      days = new Map();
      this.byPeriod.set(entry.period_id, days);
    }
    let day = days.get(entry.entry_date);
    if (day === undefined) {
      day = new Map();
      days.set(entry.entry_date, day);
    }
    let debits = 0n;
    for (const line of entry.lines) {
      addSums(day, line.account_id, line.debit_amount, line.credit_amount);
      debits += line.debit_amount;
    }
    this.currencyDebits.set(entry.currency_id, (this.currencyDebits.get(entry.currency_id) ?? 0n) + debits);
    this.entries += 1;
    this.lines += entry.lines.length;
  }

  allTime(): SumsByAccount {
    const totals: SumsByAccount = new Map();
    for (const days of this.byPeriod.values()) for (const day of days.values()) addAll(totals, day);
    return totals;
  }

  /** Totals of the entries whose period_id is the period, whatever their dates. */
  period(periodId: string): SumsByAccount {
    const totals: SumsByAccount = new Map();
    for (const day of this.byPeriod.get(periodId)?.values() ?? []) addAll(totals, day);
    return totals;
  }

  /** Every date with lines, ascending, with its totals (whatever the entries' period_id). */
  days(): DayTally[] {
    const byDate = new Map<string, SumsByAccount>();
    for (const days of this.byPeriod.values()) {
      for (const [date, accounts] of days) {
        const first = byDate.get(date);
        if (first === undefined) {
          byDate.set(date, accounts);
        } else {
          // A date under two period_ids (a damaged ledger): sum into a fresh map, leaving the
          // per-period sums as they are.
          const merged: SumsByAccount = new Map();
          addAll(merged, first);
          addAll(merged, accounts);
          byDate.set(date, merged);
        }
      }
    }
    return [...byDate].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([date, accounts]) => ({ date, accounts }));
  }
}
