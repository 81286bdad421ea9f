/**
 * Translating accounts' totals into the base currency (docs/currencies.md). Balance-sheet accounts
 * are translated at one rate (the report date's); revenue and expense at the rate of each day with
 * activity. Each figure is summed exactly (integer units of 10^-12 of a rate) and rounded once,
 * half to even, to the base currency's scale. A closed period's revenue and expense are closed at
 * the rates they were translated at: its closing entry takes back exactly what its days added, so
 * a closed period leaves nothing on them, translated as in the account's own currency.
 */
import { type RateUnits, RATE_SCALE, divideHalfEven, rateUnits } from '../currencies/exchange-rate.js';
import { asAmount } from '../money/amount.js';
import type { Totals } from '../types.js';

const RATE_UNIT = 10n ** BigInt(RATE_SCALE);

export const TRANSLATION_DIFFERENCE_NAME = 'Exchange differences on translation';

/** A stored rate: the value of one major unit of `currency_id` in the base currency from `rate_date` on. */
export interface DatedRate {
  currency_id: string;
  rate_date: string;
  rate: string;
}

/**
 * The rates a report may use: for a day, the latest on or before it. Asking for a day with none
 * records it, so the report can name each currency's earliest such day at once (RATE_MISSING).
 */
export class RateBook {
  private readonly byCurrency = new Map<string, { date: string; units: RateUnits }[]>();
  /** Per currency, the earliest day a rate was asked for and none was on or before it. */
  readonly missing = new Map<string, string>();

  constructor(readonly baseCurrencyId: string, rates: readonly DatedRate[]) {
    for (const rate of rates) {
      const list = this.byCurrency.get(rate.currency_id) ?? [];
      list.push({ date: rate.rate_date, units: rateUnits(rate.rate) });
      this.byCurrency.set(rate.currency_id, list);
    }
    for (const list of this.byCurrency.values()) list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  }

  /** The rate of `currencyId` on `date` (1 for the base currency), or undefined, recorded as missing. */
  rateOn(currencyId: string, date: string): RateUnits | undefined {
    if (currencyId === this.baseCurrencyId) return RATE_UNIT as RateUnits;
    const list = this.byCurrency.get(currencyId) ?? [];
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (list[middle]!.date <= date) low = middle + 1;
      else high = middle;
    }
    if (low === 0) {
      const earliest = this.missing.get(currencyId);
      if (earliest === undefined || date < earliest) this.missing.set(currencyId, date);
      return undefined;
    }
    return list[low - 1]!.units;
  }
}

/** Sums amount × rate exactly, then rounds once to the target scale. */
export class TranslatedSum {
  private numerator = 0n;
  private readonly scaleUp: bigint;
  private readonly denominator: bigint;

  constructor(fromScale: number, toScale: number) {
    const shift = toScale - fromScale;
    this.scaleUp = shift > 0 ? 10n ** BigInt(shift) : 1n;
    this.denominator = RATE_UNIT * (shift < 0 ? 10n ** BigInt(-shift) : 1n);
  }

  add(amount: bigint, rate: RateUnits): void {
    this.numerator += amount * rate * this.scaleUp;
  }

  get rounded(): bigint {
    return divideHalfEven(this.numerator, this.denominator);
  }
}

/** Gross totals translated at one rate: debits and credits each rounded once. */
export function translateAtRate(totals: Totals, rate: RateUnits, fromScale: number, toScale: number): Totals {
  const debit = new TranslatedSum(fromScale, toScale);
  const credit = new TranslatedSum(fromScale, toScale);
  debit.add(totals.debit_total, rate);
  credit.add(totals.credit_total, rate);
  return { debit_total: asAmount(debit.rounded), credit_total: asAmount(credit.rounded) };
}

/** One account's activity on one day. */
export interface DayTotals extends Totals {
  entry_date: string;
}

/** A closed period whose closing entry falls in the report's range: its days. */
export interface ClosedSpan {
  start_date: string;
  end_date: string;
}

/**
 * A revenue or expense account's gross totals over a range, translated day by day:
 * - `activity`: its days without closing entries, each at that day's rate;
 * - `closings`: closed periods whose closing entry falls in the range. Each closing entry is taken
 *   as the exact opposite of its period's translated activity (all of the period's days, which
 *   `activity` must hold even when they start before the range), put on the side the closing entry
 *   puts it. The days of each such period are summed and rounded on their own, so a closed period
 *   inside the range nets to exactly zero, as it does in the account's currency; the other days are
 *   summed and rounded once.
 * Answers the translated gross totals, or undefined when a day had no rate (RateBook.missing says which).
 */
export function translateDays(
  currencyId: string, activity: readonly DayTotals[], range: { start_date: string; end_date: string },
  closings: readonly ClosedSpan[], rates: RateBook, fromScale: number, toScale: number,
): Totals | undefined {
  const sums = () => ({ debit: new TranslatedSum(fromScale, toScale), credit: new TranslatedSum(fromScale, toScale) });
  const open = sums();
  const closedInRange = closings.map(sums);
  const closedWhole = closings.map(sums);
  let complete = true;
  for (const day of activity) {
    const inRange = day.entry_date >= range.start_date && day.entry_date <= range.end_date;
    const closed = closings.findIndex((span) => day.entry_date >= span.start_date && day.entry_date <= span.end_date);
    if (!inRange && closed < 0) continue;
    const rate = rates.rateOn(currencyId, day.entry_date);
    if (rate === undefined) {
      complete = false;
      continue;
    }
    const add = (target: { debit: TranslatedSum; credit: TranslatedSum }) => {
      target.debit.add(day.debit_total, rate);
      target.credit.add(day.credit_total, rate);
    };
    if (closed >= 0) add(closedWhole[closed]!);
    if (inRange) add(closed >= 0 ? closedInRange[closed]! : open);
  }
  if (!complete) return undefined;
  let debitTotal = open.debit.rounded;
  let creditTotal = open.credit.rounded;
  for (const [index, whole] of closedWhole.entries()) {
    debitTotal += closedInRange[index]!.debit.rounded;
    creditTotal += closedInRange[index]!.credit.rounded;
    // The closing entry takes the period's translated net back, on the other side.
    const net = whole.debit.rounded - whole.credit.rounded;
    if (net > 0n) creditTotal += net;
    else debitTotal -= net;
  }
  return { debit_total: asAmount(debitTotal), credit_total: asAmount(creditTotal) };
}
