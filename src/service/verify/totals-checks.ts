/**
 * The maintained totals the reports read (all time, per period, "balance before a date", per
 * currency) must equal the totals recomputed from the journal lines. They are read through the
 * same port calls the reports use, so what is checked is exactly what a report would show.
 */
import { nextDay } from '../../domain/dates.js';
import type { Totals } from '../../domain/types.js';
import type { CheckContext, CheckDefinition } from './check.js';
import { addSums, type Sums, type SumsByAccount } from './line-tally.js';
import { describeTotals } from './problems.js';

interface Difference {
  accountId: string;
  expected: Sums | undefined;
  found: Totals | undefined;
}

function same(expected: Sums | undefined, found: Totals | undefined): boolean {
  return (expected?.debits ?? 0n) === (found?.debit_total ?? 0n) && (expected?.credits ?? 0n) === (found?.credit_total ?? 0n);
}

/** Accounts whose maintained totals differ from the lines' (an absent row counts as zero). */
function differences(expected: SumsByAccount, found: ReadonlyMap<string, Totals>): Difference[] {
  const result: Difference[] = [];
  for (const [accountId, sums] of expected) {
    if (!same(sums, found.get(accountId))) result.push({ accountId, expected: sums, found: found.get(accountId) });
  }
  for (const [accountId, totals] of found) {
    if (!expected.has(accountId) && !same(undefined, totals)) result.push({ accountId, expected: undefined, found: totals });
  }
  return result;
}

function fromLines(sums: Sums | undefined): string {
  return describeTotals(sums === undefined ? undefined : { debit_total: sums.debits, credit_total: sums.credits });
}

function accountName(context: CheckContext, accountId: string): string {
  return context.books.accounts.get(accountId)?.account_number ?? accountId;
}

export const accountTotalsCheck: CheckDefinition = {
  name: 'account_totals',
  description: 'every account\'s all-time debit and credit totals equal the sums of its lines',
  create: (context) => ({
    async finish() {
      for (const difference of differences(context.tally.allTime(), await context.reads.accountTotals({}))) {
        context.report({ account_id: difference.accountId,
          message: `The all-time totals of account ${accountName(context, difference.accountId)} differ from the sums of its lines`,
          expected: fromLines(difference.expected), found: describeTotals(difference.found) });
      }
    },
  }),
};

export const periodTotalsCheck: CheckDefinition = {
  name: 'period_totals',
  description: 'every account\'s totals in each period equal the sums of its lines in the period\'s entries',
  create: (context) => ({
    async finish() {
      for (const period of context.books.periods) {
        const found = await context.reads.accountTotals({ period_id: period.id });
        for (const difference of differences(context.tally.period(period.id), found)) {
          context.report({ account_id: difference.accountId, period_id: period.id,
            message: `The totals of account ${accountName(context, difference.accountId)} in period ${period.name} differ from the sums of its lines`,
            expected: fromLines(difference.expected), found: describeTotals(difference.found) });
        }
      }
    },
  }),
};

/**
 * The dates at which "balance before date" is asked. A store answers it from whole periods before
 * the date plus the days of the date's own period before it, so its answer changes only the day
 * after a day with totals, and at period boundaries. Asking the day after every date with lines,
 * and every period's first day, last day and the day after it, therefore reads every answer the
 * store can give (each day's totals, each period's), which makes the check exact: the one day it
 * cannot see, a period's last day with no lines, no report can see either.
 */
export function balanceDates(lineDates: readonly string[], periods: readonly { start_date: string; end_date: string }[]): string[] {
  const dates = new Set<string>();
  for (const date of lineDates) dates.add(nextDay(date));
  for (const period of periods) {
    dates.add(period.start_date);
    dates.add(period.end_date);
    dates.add(nextDay(period.end_date));
  }
  return [...dates].sort();
}

function difference(expected: Sums | undefined, found: Totals | undefined): string {
  return `${(found?.debit_total ?? 0n) - (expected?.debits ?? 0n)} ${(found?.credit_total ?? 0n) - (expected?.credits ?? 0n)}`;
}

export const dailyTotalsCheck: CheckDefinition = {
  name: 'daily_totals',
  description: 'every account\'s balance before each date equals the sums of its lines dated earlier',
  create: (context) => ({
    async finish() {
      const days = context.tally.days();
      const running: SumsByAccount = new Map();
      // A damaged day shows in every later balance of its period; report where it starts (and
      // where the difference changes), not every date after it.
      const lastDifference = new Map<string, string>();
      let next = 0;
      let previousDate: string | undefined;
      for (const date of balanceDates(days.map((day) => day.date), context.books.periods)) {
        while (next < days.length && days[next]!.date < date) {
          for (const [accountId, sums] of days[next]!.accounts) addSums(running, accountId, sums.debits, sums.credits);
          next += 1;
        }
        const found = await context.reads.accountTotals({ before_date: date });
        const accounts = new Set([...running.keys(), ...found.keys()]);
        for (const accountId of accounts) {
          const expected = running.get(accountId);
          const stored = found.get(accountId);
          const now = same(expected, stored) ? '0 0' : difference(expected, stored);
          const before = lastDifference.get(accountId) ?? '0 0';
          if (now === before) continue;
          lastDifference.set(accountId, now);
          if (now === '0 0') continue;
          const since = previousDate === undefined ? ''
            : before === '0 0' ? `; the balance before ${previousDate} agrees` : `; the difference changed since the balance before ${previousDate}`;
          context.report({ account_id: accountId, date,
            message: `The balance of account ${accountName(context, accountId)} before ${date} differs from the sums of its lines dated earlier${since}`,
            expected: fromLines(expected), found: describeTotals(stored) });
        }
        previousDate = date;
      }
    },
  }),
};

export const currencyTotalsCheck: CheckDefinition = {
  name: 'currency_totals',
  description: 'every currency\'s all-time debit total equals the sum of its entries\' debits',
  create: (context) => ({
    async finish() {
      const found = await context.reads.allCurrencyDebitTotals();
      const expected = context.tally.currencyDebits;
      for (const currencyId of new Set([...expected.keys(), ...found.keys()])) {
        const [lines, stored] = [expected.get(currencyId) ?? 0n, found.get(currencyId) ?? 0n];
        if (lines !== stored) {
          context.report({ currency_id: currencyId, message: `The debit total of currency ${currencyId} differs from the sum of its entries' debits`,
            expected: String(lines), found: String(stored) });
        }
      }
    },
  }),
};
