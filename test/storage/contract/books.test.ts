/**
 * Storage contract: currencies, accounts and periods (insert, get, update, list with keyset paging,
 * filters, and the uniqueness rules the database keeps).
 */
import { describe, expect, it } from 'vitest';
import type { Account, Currency, Period } from '../../../src/domain/types.js';
import {
  accountFixture, controlAccountFixture, currencyFixture, FIXTURE_TIME, insertBooks, monthPeriod, periodFixture,
  standardBooks, subAccountFixture,
} from './fixtures.js';
import { expectLedgerError, freshStorePerTest, walkPages } from './support.js';

const codes = (currencies: readonly Currency[]) => currencies.map((currency) => currency.code);
const numbers = (accounts: readonly Account[]) => accounts.map((account) => account.account_number);
const starts = (periods: readonly Period[]) => periods.map((period) => period.start_date);

describe('storage contract: currencies', () => {
  const context = freshStorePerTest();

  it('returns an inserted currency exactly as it was given, and nothing for an unknown id', async () => {
    const crypto = currencyFixture('WBTC', {
      name: 'Wrapped Bitcoin', symbol: '₿', asset_scale: 38, asset_type: 'crypto',
      caip19_id: 'eip155:1/erc20:0x2260fac5e5542a773aa44fbcfedf7c193bc2c599', created_at: '2026-04-01T08:30:00.123Z',
    });
    const zeroScale = currencyFixture('JPY', { asset_scale: 0, symbol: '¥' });
    await context.store.write(async (tx) => {
      await tx.insertCurrency(crypto);
      await tx.insertCurrency(zeroScale);
    });
    expect(await context.store.getCurrency(crypto.id)).toEqual(crypto);
    expect(await context.store.getCurrency(zeroScale.id)).toEqual(zeroScale);
    expect(await context.store.getCurrency('currency-unknown')).toBeUndefined();
  });

  it('lists currencies by code, walking keyset pages to the end', async () => {
    const inserted = ['USD', 'AUD', 'JPY', 'CHF', 'EUR', 'BTC', 'GBP'].map((code) => currencyFixture(code));
    await context.store.write(async (tx) => {
      for (const currency of inserted) await tx.insertCurrency(currency);
    });
    const expected = ['AUD', 'BTC', 'CHF', 'EUR', 'GBP', 'JPY', 'USD'];
    for (const limit of [1, 2, 3, 7, 50]) {
      const walked = await walkPages((request) => context.store.listCurrencies(request), limit);
      expect(codes(walked.items), `limit ${limit}`).toEqual(expected);
    }
    const firstPage = await context.store.listCurrencies({ limit: 3 });
    expect(firstPage.next).toEqual(['CHF']);
    expect(codes((await context.store.listCurrencies({ limit: 10, after: ['CHF'] })).items)).toEqual(['EUR', 'GBP', 'JPY', 'USD']);
    expect(await context.store.listCurrencies({ limit: 10, after: ['USD'] })).toEqual({ items: [], next: undefined });
  });

  it('answers an empty page when there are no currencies', async () => {
    expect(await context.store.listCurrencies({ limit: 5 })).toEqual({ items: [], next: undefined });
  });

  it('orders codes that differ in case as the uniqueness rule compares them, case-insensitively', async () => {
    await context.store.write(async (tx) => {
      for (const code of ['usdc', 'BTC', 'eth', 'EUR', 'Dai']) await tx.insertCurrency(currencyFixture(code));
    });
    const walked = await walkPages((request) => context.store.listCurrencies(request), 2);
    expect(codes(walked.items)).toEqual(['BTC', 'Dai', 'eth', 'EUR', 'usdc']);
  });

  it('refuses a second currency with the same code in another case as DUPLICATE on code, and keeps the first', async () => {
    const usd = currencyFixture('USD');
    await context.store.write((tx) => tx.insertCurrency(usd));
    await expectLedgerError(context.store.write((tx) => tx.insertCurrency(currencyFixture('usd'))), 'DUPLICATE', 'code');
    await expectLedgerError(context.store.write((tx) => tx.insertCurrency(currencyFixture('USD', { id: 'currency-other', caip19_id: 'test:0/token:other' }))),
      'DUPLICATE', 'code');
    expect((await context.store.listCurrencies({ limit: 10 })).items).toEqual([usd]);
  });

  it('refuses a second currency with the same CAIP-19 id as DUPLICATE on caip19_id', async () => {
    const usd = currencyFixture('USD');
    await context.store.write((tx) => tx.insertCurrency(usd));
    await expectLedgerError(context.store.write((tx) => tx.insertCurrency(currencyFixture('USDX', { caip19_id: usd.caip19_id }))),
      'DUPLICATE', 'caip19_id');
    expect(await context.store.getCurrency('currency-USDX')).toBeUndefined();
  });

  it('updates only the name and symbol it is given', async () => {
    const usd = currencyFixture('USD');
    await context.store.write((tx) => tx.insertCurrency(usd));
    await context.store.write((tx) => tx.updateCurrency(usd.id, { name: 'US dollar' }));
    expect(await context.store.getCurrency(usd.id)).toEqual({ ...usd, name: 'US dollar' });
    await context.store.write((tx) => tx.updateCurrency(usd.id, { symbol: 'US$' }));
    expect(await context.store.getCurrency(usd.id)).toEqual({ ...usd, name: 'US dollar', symbol: 'US$' });
    await context.store.write((tx) => tx.updateCurrency(usd.id, {}));
    expect(await context.store.getCurrency(usd.id)).toEqual({ ...usd, name: 'US dollar', symbol: 'US$' });
  });
});

describe('storage contract: accounts', () => {
  const context = freshStorePerTest();
  const books = standardBooks();
  const insertStandardBooks = () => context.store.write((tx) => insertBooks(tx, books));

  it('returns inserted posting, control and sub-accounts exactly as given', async () => {
    const tagged = accountFixture('1300', books.usd, { xbrl_tag: 'ifrs-full:Inventories', is_active: false, created_at: '2026-05-06T07:08:09.010Z' });
    await insertStandardBooks();
    await context.store.write((tx) => tx.insertAccount(tagged));
    for (const account of [...books.accounts, tagged]) expect(await context.store.getAccount(account.id)).toEqual(account);
    expect(await context.store.getAccount('account-unknown')).toBeUndefined();
    expect(await context.store.getAccount(books.bank.id)).toMatchObject({ has_subledger: true, parent_id: null });
    expect(await context.store.getAccount(books.bankNorth.id)).toMatchObject({ parent_id: books.bank.id, entity_id: 'north-bank' });
  });

  it('gets several accounts at once: each known id once, unknown and repeated ids ignored, none for no ids', async () => {
    await insertStandardBooks();
    const found = await context.store.getAccounts([books.sales.id, books.cash.id, 'account-unknown', books.sales.id, books.cash.id]);
    expect([...found.keys()].sort()).toEqual([books.cash.id, books.sales.id]);
    expect(found.get(books.cash.id)).toEqual(books.cash);
    expect(found.get(books.sales.id)).toEqual(books.sales);
    expect((await context.store.getAccounts([])).size).toBe(0);
    expect((await context.store.getAccounts(['account-unknown'])).size).toBe(0);
  });

  it('lists accounts by account number compared bytewise, walking keyset pages to the end', async () => {
    const usd = currencyFixture('USD');
    const inserted = ['2000', '1000-01', '200', '10000', '1000', '1000-1', 'A100', '0999'].map((number) => accountFixture(number, usd));
    await context.store.write(async (tx) => {
      await tx.insertCurrency(usd);
      for (const account of inserted) await tx.insertAccount(account);
    });
    const expected = ['0999', '1000', '1000-01', '1000-1', '10000', '200', '2000', 'A100'];
    for (const limit of [1, 3, 8, 100]) {
      const walked = await walkPages((request) => context.store.listAccounts({}, request), limit);
      expect(numbers(walked.items), `limit ${limit}`).toEqual(expected);
    }
    expect((await context.store.listAccounts({}, { limit: 2 })).next).toEqual(['1000']);
    expect(numbers((await context.store.listAccounts({}, { limit: 3, after: ['10000'] })).items)).toEqual(['200', '2000', 'A100']);
    expect(numbers(await context.store.allAccounts())).toEqual(expected);
  });

  it('filters the account list by type, currency, activity and parent, alone and together, across pages', async () => {
    await insertStandardBooks();
    const closedBank = subAccountFixture('1100-03', books.bank, 'west-bank', { is_active: false });
    await context.store.write(async (tx) => {
      await tx.insertAccount(closedBank);
      await tx.updateAccount(books.rent.id, { is_active: false });
    });
    const list = async (filter: Parameters<typeof context.store.listAccounts>[0]) =>
      numbers((await walkPages((request) => context.store.listAccounts(filter, request), 2)).items);
    expect(await list({})).toEqual(['1000', '1100', '1100-01', '1100-02', '1100-03', '1200', '3000', '4000', '4100', '5000']);
    expect(await list({ account_type: 'asset' })).toEqual(['1000', '1100', '1100-01', '1100-02', '1100-03', '1200']);
    expect(await list({ account_type: 'revenue' })).toEqual(['4000', '4100']);
    expect(await list({ currency_id: books.eur.id })).toEqual(['1200', '4100']);
    expect(await list({ is_active: false })).toEqual(['1100-03', '5000']);
    expect(await list({ is_active: true, account_type: 'asset' })).toEqual(['1000', '1100', '1100-01', '1100-02', '1200']);
    expect(await list({ parent_id: books.bank.id })).toEqual(['1100-01', '1100-02', '1100-03']);
    expect(await list({ parent_id: books.bank.id, is_active: true })).toEqual(['1100-01', '1100-02']);
    expect(await list({ account_type: 'asset', currency_id: books.eur.id })).toEqual(['1200']);
    expect(await list({ account_type: 'liability' })).toEqual([]);
    expect(await list({ parent_id: books.cash.id })).toEqual([]);
  });

  it('lists the sub-accounts of a control account by account number, and none for other accounts', async () => {
    await insertStandardBooks();
    const first = subAccountFixture('1100-00', books.bank, 'east-bank');
    await context.store.write((tx) => tx.insertAccount(first));
    expect(await context.store.listSubAccounts(books.bank.id)).toEqual([first, books.bankNorth, books.bankSouth]);
    expect(await context.store.listSubAccounts(books.cash.id)).toEqual([]);
    expect(await context.store.listSubAccounts('account-unknown')).toEqual([]);
  });

  it('refuses a second account with the same account number as DUPLICATE on account_number', async () => {
    await insertStandardBooks();
    await expectLedgerError(context.store.write((tx) => tx.insertAccount(accountFixture('1000', books.usd, { id: 'account-again' }))),
      'DUPLICATE', 'account_number');
    expect(await context.store.getAccount('account-again')).toBeUndefined();
    expect(await context.store.allAccounts()).toHaveLength(books.accounts.length);
  });

  it('updates only the name, activity and XBRL tag it is given', async () => {
    await insertStandardBooks();
    await context.store.write((tx) => tx.updateAccount(books.cash.id, { name: 'Petty cash' }));
    expect(await context.store.getAccount(books.cash.id)).toEqual({ ...books.cash, name: 'Petty cash' });
    await context.store.write((tx) => tx.updateAccount(books.cash.id, { is_active: false, xbrl_tag: 'ifrs-full:Cash' }));
    expect(await context.store.getAccount(books.cash.id)).toEqual({ ...books.cash, name: 'Petty cash', is_active: false, xbrl_tag: 'ifrs-full:Cash' });
    await context.store.write((tx) => tx.updateAccount(books.cash.id, { is_active: true, xbrl_tag: null }));
    expect(await context.store.getAccount(books.cash.id)).toEqual({ ...books.cash, name: 'Petty cash' });
    expect(await context.store.getAccount(books.sales.id)).toEqual(books.sales);
  });

  it('keeps the flags of a control account that has no sub-accounts yet', async () => {
    const usd = currencyFixture('USD');
    const receivables = controlAccountFixture('1400', usd, { account_type: 'asset' });
    await context.store.write(async (tx) => {
      await tx.insertCurrency(usd);
      await tx.insertAccount(receivables);
    });
    expect(await context.store.getAccount(receivables.id)).toEqual(receivables);
    expect(await context.store.listSubAccounts(receivables.id)).toEqual([]);
  });
});

describe('storage contract: periods', () => {
  const context = freshStorePerTest();

  const quarter = [monthPeriod('2026-03'), monthPeriod('2026-01'), periodFixture('2026-02-01', '2026-02-01'), periodFixture('2026-02-02', '2026-02-28')];
  const insertQuarter = () => context.store.write(async (tx) => {
    for (const period of quarter) await tx.insertPeriod(period);
  });

  it('returns an inserted period exactly as given, open or closed, and nothing for an unknown id', async () => {
    const closed = periodFixture('2025-12-01', '2025-12-31', {
      status: 'closed', closed_at: '2026-01-05T10:00:00.000Z', closed_by: 'user-alice', closing_entry_id: 'entry-closing',
    });
    await insertQuarter();
    await context.store.write((tx) => tx.insertPeriod(closed));
    for (const period of [...quarter, closed]) expect(await context.store.getPeriod(period.id)).toEqual(period);
    expect(await context.store.getPeriod('period-unknown')).toBeUndefined();
  });

  it('lists periods by start date, walking keyset pages to the end', async () => {
    await insertQuarter();
    const expected = ['2026-01-01', '2026-02-01', '2026-02-02', '2026-03-01'];
    for (const limit of [1, 2, 3, 4, 10]) {
      const walked = await walkPages((request) => context.store.listPeriods(request), limit);
      expect(starts(walked.items), `limit ${limit}`).toEqual(expected);
    }
    expect((await context.store.listPeriods({ limit: 2 })).next).toEqual(['2026-02-01']);
    expect(starts((await context.store.listPeriods({ limit: 5, after: ['2026-02-01'] })).items)).toEqual(['2026-02-02', '2026-03-01']);
  });

  it('finds the period containing a date, bounds included, whatever its status, and none in a gap', async () => {
    await insertQuarter();
    const may = monthPeriod('2026-05', { status: 'closed', closed_at: FIXTURE_TIME });
    await context.store.write((tx) => tx.insertPeriod(may));
    const containing = async (date: string) => (await context.store.findPeriodContaining(date))?.id;
    expect(await containing('2026-01-01')).toBe('period-2026-01-01');
    expect(await containing('2026-01-31')).toBe('period-2026-01-01');
    expect(await containing('2026-02-01')).toBe('period-2026-02-01');
    expect(await containing('2026-02-02')).toBe('period-2026-02-02');
    expect(await containing('2026-03-31')).toBe('period-2026-03-01');
    expect(await containing('2026-05-15')).toBe(may.id);
    expect(await containing('2025-12-31')).toBeUndefined();
    expect(await containing('2026-04-01')).toBeUndefined();
    expect(await containing('2026-06-01')).toBeUndefined();
    expect(await context.store.findPeriodContaining('2026-05-31')).toEqual(may);
  });

  it('finds every period overlapping a range, sharing a single day included, by start date', async () => {
    await insertQuarter();
    const overlapping = async (start: string, end: string) => starts(await context.store.findOverlappingPeriods(start, end));
    expect(await overlapping('2026-01-31', '2026-02-01')).toEqual(['2026-01-01', '2026-02-01']);
    expect(await overlapping('2026-02-28', '2026-03-01')).toEqual(['2026-02-02', '2026-03-01']);
    expect(await overlapping('2025-01-01', '2027-01-01')).toEqual(['2026-01-01', '2026-02-01', '2026-02-02', '2026-03-01']);
    expect(await overlapping('2026-03-31', '2026-03-31')).toEqual(['2026-03-01']);
    expect(await overlapping('2026-02-10', '2026-02-12')).toEqual(['2026-02-02']);
    expect(await overlapping('2025-12-01', '2025-12-31')).toEqual([]);
    expect(await overlapping('2026-04-01', '2026-04-30')).toEqual([]);
    expect(await context.store.findOverlappingPeriods('2026-01-15', '2026-01-15')).toEqual([quarter[1]]);
  });

  it('updates only the status and closing facts it is given', async () => {
    await insertQuarter();
    const january = quarter[1]!;
    const closing = { status: 'closed' as const, closed_at: '2026-02-03T09:00:00.000Z', closed_by: 'user-alice', closing_entry_id: 'entry-0042' };
    await context.store.write((tx) => tx.updatePeriod(january.id, closing));
    expect(await context.store.getPeriod(january.id)).toEqual({ ...january, ...closing });
    await context.store.write((tx) => tx.updatePeriod(january.id, { closing_entry_id: null }));
    expect(await context.store.getPeriod(january.id)).toEqual({ ...january, ...closing, closing_entry_id: null });
    expect(await context.store.getPeriod(quarter[0]!.id)).toEqual(quarter[0]);
  });
});
