/**
 * What every check needs besides the entries: the chart of accounts, the periods, the currencies
 * and the retained earnings setting, read once at the start of the snapshot. All of them are small
 * next to the journal (hundreds or thousands of rows, not millions).
 */
import type { Account, Currency, Period } from '../../domain/types.js';
import type { LedgerReads, PageRequest, StorePage } from '../ports/ledger-store.js';
import { RETAINED_EARNINGS_KEY, perCurrencyRetainedEarnings } from '../settings.js';

export interface Books {
  accounts: ReadonlyMap<string, Account>;
  /** Every period, by start_date. */
  periods: readonly Period[];
  periodsById: ReadonlyMap<string, Period>;
  currencies: readonly Currency[];
  currencyIds: ReadonlySet<string>;
  retainedEarningsId: string | undefined;
  /** The per-currency retained earnings accounts of the settings, by currency id. */
  retainedEarningsIds: Readonly<Record<string, string>>;
  /** The period whose inclusive bounds contain the date: the last one starting on or before it, as the stores find it. */
  periodContaining(date: string): Period | undefined;
}

async function everyItem<T>(list: (page: PageRequest) => Promise<StorePage<T>>): Promise<T[]> {
  const items: T[] = [];
  let page = await list({ limit: 200 });
  items.push(...page.items);
  while (page.next !== undefined) {
    page = await list({ limit: 200, after: page.next });
    items.push(...page.items);
  }
  return items;
}

export async function readBooks(reads: LedgerReads): Promise<Books> {
  const accounts = await reads.allAccounts();
  const periods = await everyItem((page) => reads.listPeriods(page));
  const currencies = await everyItem((page) => reads.listCurrencies(page));
  const settings = await reads.allSettings();
  const retainedEarningsId = settings.get(RETAINED_EARNINGS_KEY);
  return {
    accounts: new Map(accounts.map((account) => [account.id, account])),
    periods,
    periodsById: new Map(periods.map((period) => [period.id, period])),
    currencies,
    currencyIds: new Set(currencies.map((currency) => currency.id)),
    retainedEarningsId,
    retainedEarningsIds: perCurrencyRetainedEarnings(settings),
    periodContaining(date) {
      // Binary search for the last period starting on or before the date.
      let low = 0;
      let high = periods.length - 1;
      let found: Period | undefined;
      while (low <= high) {
        const middle = (low + high) >> 1;
        const period = periods[middle]!;
        if (period.start_date <= date) {
          found = period;
          low = middle + 1;
        } else {
          high = middle - 1;
        }
      }
      return found !== undefined && found.end_date >= date ? found : undefined;
    },
  };
}
