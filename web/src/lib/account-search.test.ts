import { describe, expect, it } from 'vitest';
import type { AccountView } from '../api/types.js';
import { prepareAccounts, searchAccounts } from './account-search.js';

function account(account_number: string, name: string, extra: Partial<AccountView> = {}): AccountView {
  return {
    id: `id-${account_number}`, account_number, name, currency_id: 'usd', account_type: 'asset', normal_balance: 'debit',
    has_subledger: false, parent_id: null, entity_id: null, xbrl_tag: null, is_active: true, ...extra,
  } as AccountView;
}

const chart = prepareAccounts([
  account('4000', 'Sales'),
  account('1000', 'Cash'),
  account('1010', 'Petty cash'),
  account('6100', 'Café supplies'),
  account('10000', 'Cash in transit'),
  account('2000', 'Accounts payable', { is_active: false }),
]);
const numbers = (query: string, filter?: (row: AccountView) => boolean) =>
  searchAccounts(chart, query, 50, filter).shown.map((row) => row.account_number);

describe('searchAccounts', () => {
  it('lists everything by account number for an empty query', () => {
    expect(numbers('')).toEqual(['1000', '1010', '2000', '4000', '6100', '10000']);
  });

  it('puts the exact number first, then numbers that start with the query, then numbers that contain it', () => {
    expect(numbers('1000')).toEqual(['1000', '10000']);
    expect(numbers('10')).toEqual(['1000', '1010', '10000', '6100']);
  });

  it('finds names by any part, names starting with the query first, ignoring case and accents', () => {
    expect(numbers('cash')).toEqual(['1000', '10000', '1010']);
    expect(numbers('cafe')).toEqual(['6100']);
    expect(numbers('CASH TRANS')).toEqual(['10000']);
  });

  it('finds an account by its label as the picker shows it', () => {
    expect(numbers('1010 · Petty cash')).toEqual(['1010']);
  });

  it('offers only what the filter allows', () => {
    expect(numbers('a', (row) => row.is_active)).not.toContain('2000');
  });

  // No timing here (a unit test cannot time reliably on a loaded machine): the search works on the
  // prepared chart, and a chart of 20,000 accounts shows what the picker shows.
  it('renders at most the limit and counts all matches on a large chart', () => {
    const large = prepareAccounts(Array.from({ length: 20_000 }, (_, index) => account(`K${index}`, `Customer ${index}`)));
    const result = searchAccounts(large, 'customer 7', 50);
    expect(result.shown).toHaveLength(50);
    // The numbers 0 to 19,999 without a 7: 2 * 9^4 of them.
    expect(result.total).toBe(20_000 - 2 * 9 ** 4);
    expect(searchAccounts(large, 'k19999', 50).shown.map((row) => row.name)).toEqual(['Customer 19999']);
  });
});
