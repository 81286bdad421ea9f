import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiFixture, balanceOf, createCurrency, createPeriod, dataOf, expectError, startApi,
} from '../helpers/api-fixture.js';
import {
  type QueryValue, accountOpener, closeRequest, getReport, lineEffect, post, report, reverse, setRetainedEarnings,
  subAccount, walkGeneralLedger,
} from '../helpers/report-helpers.js';

/**
 * One ledger for the file (USD, scale 2), posted in this order:
 *   e1  01-05  cash dr 1000.00 / loan cr 1000.00
 *   e2  01-05  acme dr 200.00 / sales cr 200.00
 *   e3  02-10  rent dr 300.00 / cash cr 300.00
 *   e4  02-10  cash dr 150.00 / acme cr 150.00
 *   e5  03-31  globex dr 75.00 / sales cr 75.00
 *   e6  04-01  cash dr 50.00 / sales cr 50.00
 *   e7  04-15  reversal of e6: sales dr 50.00 / cash cr 50.00
 *   e8  06-30  rent dr 100.00 / cash cr 100.00
 *   e9  02-01  cash dr 20.00 / sales cr 20.00          (posted late, dated early)
 *   e10 07-01  cash dr 5.00 / acme cr 5.00
 *   close Q1 (03-31): sales dr 295.00 / rent cr 300.00, retained dr 5.00 (a loss of 5.00)
 *
 * Cash in date order (date, then posting order), running balance after each line:
 *   01-05 e1 +1000.00 = 1000.00 | 02-01 e9 +20.00 = 1020.00 | 02-10 e3 -300.00 = 720.00 |
 *   02-10 e4 +150.00 = 870.00 | 04-01 e6 +50.00 = 920.00 | 04-15 e7 -50.00 = 870.00 |
 *   06-30 e8 -100.00 = 770.00 | 07-01 e10 +5.00 = 775.00
 */
describe('general ledger', () => {
  let api: ApiFixture;
  let q1: { id: string };
  let q2: { id: string };
  let a: Record<'cash' | 'receivables' | 'acme' | 'globex' | 'loan' | 'retained' | 'sales' | 'rent', any>;
  const e: Record<string, any> = {};

  beforeAll(async () => {
    api = await startApi();
    const usd = await createCurrency(api, { asset_scale: 2 });
    q1 = await createPeriod(api, 'Q1 2026', '2026-01-01', '2026-03-31');
    q2 = await createPeriod(api, 'Q2 2026', '2026-04-01', '2026-06-30');
    await createPeriod(api, 'Q3 2026', '2026-07-01', '2026-09-30');
    const open = accountOpener(api, usd.id);
    const receivables = await open('1200', 'Receivables', 'asset', 'debit', { has_subledger: true });
    a = {
      cash: await open('1000', 'Cash', 'asset', 'debit'),
      receivables,
      acme: await subAccount(api, receivables.id, '1200-01', 'Receivables: Acme', 'acme'),
      globex: await subAccount(api, receivables.id, '1200-02', 'Receivables: Globex', 'globex'),
      loan: await open('2000', 'Loan', 'liability', 'credit'),
      retained: await open('3100', 'Retained Earnings', 'equity', 'credit'),
      sales: await open('4000', 'Sales', 'revenue', 'credit'),
      rent: await open('6000', 'Rent', 'expense', 'debit'),
    };
    await setRetainedEarnings(api, a.retained.id);
    const { cash, acme, globex, loan, sales, rent } = a;
    e.e1 = dataOf(await api.request('POST', '/api/v1/journal-entries', {
      entry_date: '2026-01-05', description: 'Loan received', reference: 'LOAN-1',
      lines: [{ account_id: cash.id, debit_amount: '100000', description: 'bank transfer' }, { account_id: loan.id, credit_amount: '100000' }],
    }), 201);
    e.e2 = await post(api, '2026-01-05', [[acme.id, 'dr', '20000'], [sales.id, 'cr', '20000']], 'Invoice Acme');
    e.e3 = await post(api, '2026-02-10', [[rent.id, 'dr', '30000'], [cash.id, 'cr', '30000']], 'Rent Q1');
    e.e4 = await post(api, '2026-02-10', [[cash.id, 'dr', '15000'], [acme.id, 'cr', '15000']], 'Acme pays');
    e.e5 = await post(api, '2026-03-31', [[globex.id, 'dr', '7500'], [sales.id, 'cr', '7500']], 'Invoice Globex');
    e.e6 = await post(api, '2026-04-01', [[cash.id, 'dr', '5000'], [sales.id, 'cr', '5000']], 'Cash sale');
    e.e7 = await reverse(api, e.e6.id, '2026-04-15');
    e.e8 = await post(api, '2026-06-30', [[rent.id, 'dr', '10000'], [cash.id, 'cr', '10000']], 'Rent Q2');
    e.e9 = await post(api, '2026-02-01', [[cash.id, 'dr', '2000'], [sales.id, 'cr', '2000']], 'Late cash sale');
    e.e10 = await post(api, '2026-07-01', [[cash.id, 'dr', '500'], [acme.id, 'cr', '500']], 'Acme pays the rest');
    e.closing = dataOf(await closeRequest(api, q1.id)).closing_entry;
  });
  afterAll(async () => { await api.close(); });

  /** Lines reduced to [entry, date, debit, credit, running balance]. */
  function compact(lines: any[]) {
    const names = new Map(Object.entries(e).map(([name, entry]) => [entry.id, name]));
    return lines.map((line) => [names.get(line.journal_entry_id), line.entry_date, line.debit_amount, line.credit_amount, line.running_balance]);
  }

  const CASH_ALL_TIME = [
    ['e1', '2026-01-05', '100000', '0', '100000'],
    ['e9', '2026-02-01', '2000', '0', '102000'],
    ['e3', '2026-02-10', '0', '30000', '72000'],
    ['e4', '2026-02-10', '15000', '0', '87000'],
    ['e6', '2026-04-01', '5000', '0', '92000'],
    ['e7', '2026-04-15', '0', '5000', '87000'],
    ['e8', '2026-06-30', '0', '10000', '77000'],
    ['e10', '2026-07-01', '500', '0', '77500'],
  ];

  describe('parameters', () => {
    it('refuses a request without account_id with 400 VALIDATION_ERROR on account_id', async () => {
      expectError(await getReport(api, 'general-ledger'), 400, 'VALIDATION_ERROR', 'account_id');
      expectError(await getReport(api, 'general-ledger', { start_date: '2026-01-01' }), 400, 'VALIDATION_ERROR', 'account_id');
    });

    it('answers 404 NOT_FOUND for an unknown account_id or period_id', async () => {
      expectError(await getReport(api, 'general-ledger', { account_id: 'no-such-account' }), 404, 'NOT_FOUND', 'account_id');
      expectError(await getReport(api, 'general-ledger', { account_id: a.cash.id, period_id: 'no-such-period' }), 404, 'NOT_FOUND', 'period_id');
    });

    it.each([
      ['period_id with start_date', { period_id: 'q1', start_date: '2026-01-01' }, 'period_id'],
      ['period_id with end_date', { period_id: 'q1', end_date: '2026-01-31' }, 'period_id'],
      ['start_date after end_date', { start_date: '2026-03-02', end_date: '2026-03-01' }, 'end_date'],
      ['start_date that is not a calendar date', { start_date: '2026-02-30' }, 'start_date'],
      ['end_date that is not a date', { end_date: 'tomorrow' }, 'end_date'],
      ['sort neither asc nor desc', { sort: 'newest' }, 'sort'],
      ['limit 0', { limit: 0 }, 'limit'],
      ['limit that is not an integer', { limit: 1.5 }, 'limit'],
      ['a cursor that was never issued', { cursor: 'bm90LWEtY3Vyc29y.c2lnbmF0dXJl' }, 'cursor'],
      ['an unknown parameter', { order: 'desc' }, 'order'],
    ] as [string, Record<string, QueryValue>, string | undefined][])('refuses %s with 400 VALIDATION_ERROR', async (_case, query, field) => {
      const params: Record<string, QueryValue> = { account_id: a.cash.id, ...query };
      if (params.period_id === 'q1') params.period_id = q1.id;
      expectError(await getReport(api, 'general-ledger', params), 400, 'VALIDATION_ERROR', field);
    });

    it('accepts an end_date equal to the start_date (a single day)', async () => {
      const ledger = await report(api, 'general-ledger', { account_id: a.cash.id, start_date: '2026-02-10', end_date: '2026-02-10' });
      expect(compact(ledger.lines)).toEqual([['e3', '2026-02-10', '0', '30000', '72000'], ['e4', '2026-02-10', '15000', '0', '87000']]);
      expect(ledger).toMatchObject({ starting_balance: '102000', ending_balance: '87000' });
    });
  });

  describe('one account', () => {
    it('lists every line oldest first (by date, then posting order) with running balances from zero', async () => {
      const ledger = await report(api, 'general-ledger', { account_id: a.cash.id });
      expect(ledger).toMatchObject({
        account_id: a.cash.id, account_number: '1000', account_name: 'Cash', normal_balance: 'debit',
        starting_balance: '0', ending_balance: '77500', display_starting_balance: '0.00', display_ending_balance: '775.00',
        has_more: false, next_cursor: null,
      });
      expect(compact(ledger.lines)).toEqual(CASH_ALL_TIME);
    });

    it('shows each line with its entry, amounts and display forms', async () => {
      const ledger = await report(api, 'general-ledger', { account_id: a.cash.id });
      expect(ledger.lines[0]).toMatchObject({
        line_id: e.e1.lines[0].id, journal_entry_id: e.e1.id, entry_date: '2026-01-05', description: 'Loan received',
        reference: 'LOAN-1', debit_amount: '100000', credit_amount: '0', running_balance: '100000',
        display_debit: '1000.00', display_credit: '0.00', display_running_balance: '1000.00',
      });
    });

    it('is the same with sort=asc as by default', async () => {
      expect(await report(api, 'general-ledger', { account_id: a.cash.id, sort: 'asc' }))
        .toEqual({ ...await report(api, 'general-ledger', { account_id: a.cash.id }), sort: 'asc' });
    });

    it('lists newest first with sort=desc, each line keeping the balance after it', async () => {
      const ledger = await report(api, 'general-ledger', { account_id: a.cash.id, sort: 'desc' });
      expect(ledger).toMatchObject({ starting_balance: '0', ending_balance: '77500' });
      expect(compact(ledger.lines)).toEqual([...CASH_ALL_TIME].reverse());
    });

    it('covers one period with period_id, starting from the balance before it', async () => {
      const ledger = await report(api, 'general-ledger', { account_id: a.cash.id, period_id: q2.id });
      // Before 04-01: 870.00; after Q2: 870.00 + 50.00 - 50.00 - 100.00 = 770.00.
      expect(ledger).toMatchObject({ start_date: '2026-04-01', end_date: '2026-06-30', starting_balance: '87000', ending_balance: '77000' });
      expect(compact(ledger.lines)).toEqual(CASH_ALL_TIME.slice(4, 7));
    });

    it.each([
      ['start_date and end_date (both inclusive)', { start_date: '2026-02-10', end_date: '2026-04-15' }, '102000', '87000', [2, 6]],
      ['start_date only', { start_date: '2026-04-01' }, '87000', '77500', [4, 8]],
      ['end_date only', { end_date: '2026-02-10' }, '0', '87000', [0, 4]],
      ['a range without lines', { start_date: '2026-08-01', end_date: '2026-08-31' }, '77500', '77500', [0, 0]],
      ['a range before every line', { end_date: '2026-01-04' }, '0', '0', [0, 0]],
    ] as [string, Record<string, string>, string, string, [number, number]][])(
      'covers %s', async (_case, range, starting, ending, [from, to]) => {
        const ledger = await report(api, 'general-ledger', { account_id: a.cash.id, ...range });
        expect(ledger).toMatchObject({ starting_balance: starting, ending_balance: ending });
        expect(compact(ledger.lines)).toEqual(CASH_ALL_TIME.slice(from, to));
      });

    it('signs running balances of a credit-normal account by its normal side, closing entry and reversal included', async () => {
      const ledger = await report(api, 'general-ledger', { account_id: a.sales.id });
      expect(ledger.normal_balance).toBe('credit');
      expect(compact(ledger.lines)).toEqual([
        ['e2', '2026-01-05', '0', '20000', '20000'],
        ['e9', '2026-02-01', '0', '2000', '22000'],
        ['e5', '2026-03-31', '0', '7500', '29500'],
        // The closing entry is dated the period's last day and posted after e5.
        ['closing', '2026-03-31', '29500', '0', '0'],
        ['e6', '2026-04-01', '0', '5000', '5000'],
        ['e7', '2026-04-15', '5000', '0', '0'],
      ]);
      expect(ledger).toMatchObject({ starting_balance: '0', ending_balance: '0' });
    });

    it('ends every range at the balance the balance endpoint reports', async () => {
      for (const account of Object.values(a)) {
        const ledger = await report(api, 'general-ledger', { account_id: account.id });
        expect(ledger.ending_balance, account.account_number).toBe((await balanceOf(api, account.id)).net_balance);
        const quarter = await report(api, 'general-ledger', { account_id: account.id, period_id: q2.id });
        const movement = BigInt(quarter.ending_balance) - BigInt(quarter.starting_balance);
        expect(movement.toString(), account.account_number).toBe((await balanceOf(api, account.id, q2.id)).net_balance);
      }
    });
  });

  describe('a control account', () => {
    it('includes the lines of all its sub-accounts, each naming its sub-account', async () => {
      const ledger = await report(api, 'general-ledger', { account_id: a.receivables.id });
      expect(ledger).toMatchObject({ account_number: '1200', normal_balance: 'debit', starting_balance: '0', ending_balance: '12000' });
      expect(ledger.lines.map((line: any) => [line.account_number, line.debit_amount, line.credit_amount, line.running_balance])).toEqual([
        ['1200-01', '20000', '0', '20000'],
        ['1200-01', '0', '15000', '5000'],
        ['1200-02', '7500', '0', '12500'],
        ['1200-01', '0', '500', '12000'],
      ]);
      expect(ledger.lines.map((line: any) => line.account_id)).toEqual([a.acme.id, a.acme.id, a.globex.id, a.acme.id]);
      // acme 200.00 - 150.00 - 5.00 = 45.00 plus globex 75.00 = 120.00.
      expect((await balanceOf(api, a.receivables.id)).net_balance).toBe('12000');
    });

    it('covers a range of its sub-accounts too', async () => {
      const ledger = await report(api, 'general-ledger', { account_id: a.receivables.id, start_date: '2026-02-01', end_date: '2026-06-30' });
      expect(ledger).toMatchObject({ starting_balance: '20000', ending_balance: '12500' });
      expect(ledger.lines.map((line: any) => line.running_balance)).toEqual(['5000', '12500']);
    });
  });

  describe('pagination', () => {
    const accounts = ['cash', 'receivables', 'sales', 'acme'] as const;
    const ranges: [string, () => Record<string, QueryValue>][] = [
      ['all time', () => ({})],
      ['a period', () => ({ period_id: q2.id })],
      ['a date range', () => ({ start_date: '2026-02-10', end_date: '2026-04-15' })],
      ['an open-ended range', () => ({ start_date: '2026-03-31' })],
    ];
    const cases = accounts.flatMap((account) => ranges.flatMap(([rangeName, range]) =>
      (['asc', 'desc'] as const).flatMap((sort) => [1, 2, 3].map((limit) => ({ account, rangeName, range, sort, limit })))));

    it.each(cases)('walks $account over $rangeName, sort=$sort, limit=$limit: every line once, balances continuous',
      async ({ account, range, sort, limit }) => {
        const params = { account_id: a[account].id, sort, ...range() };
        const whole = await report(api, 'general-ledger', { ...params, limit: 200 });
        expect(whole.has_more).toBe(false);
        const { pages, lines } = await walkGeneralLedger(api, params, limit);

        // Every line exactly once, in the same order as the unpaged listing.
        expect(lines.map((line) => line.line_id)).toEqual(whole.lines.map((line: any) => line.line_id));
        expect(new Set(lines.map((line) => line.line_id)).size).toBe(lines.length);
        expect(lines).toEqual(whole.lines);
        expect(pages.length).toBe(Math.max(1, Math.ceil(lines.length / limit)));
        for (const page of pages.slice(0, -1)) expect(page.lines).toHaveLength(limit);

        // Starting and ending balance describe the whole range, on every page.
        for (const page of pages) {
          expect([page.starting_balance, page.ending_balance]).toEqual([whole.starting_balance, whole.ending_balance]);
        }

        // Continuity: each line moves the running balance by its own effect.
        const normal = whole.normal_balance;
        const chronological = sort === 'asc' ? lines : [...lines].reverse();
        let balance = BigInt(whole.starting_balance);
        for (const line of chronological) {
          balance += lineEffect(normal, line);
          expect(line.running_balance).toBe(balance.toString());
        }
        expect(balance.toString()).toBe(whole.ending_balance);
        if (lines.length > 0 && sort === 'desc') expect(lines[0].running_balance).toBe(whole.ending_balance);
      });

    it('continues a walk when the limit changes between pages', async () => {
      const first = await report(api, 'general-ledger', { account_id: a.cash.id, limit: 3 });
      const rest = await report(api, 'general-ledger', { account_id: a.cash.id, limit: 200, cursor: first.next_cursor });
      expect(compact([...first.lines, ...rest.lines])).toEqual(CASH_ALL_TIME);
    });

    describe('a cursor used with different query parameters', () => {
      let cursor: string;
      beforeAll(async () => {
        const page = await report(api, 'general-ledger', { account_id: a.cash.id, start_date: '2026-01-01', end_date: '2026-06-30', limit: 2 });
        expect(page.has_more).toBe(true);
        cursor = page.next_cursor;
      });

      it.each([
        ['another account', () => ({ account_id: a.loan.id, start_date: '2026-01-01', end_date: '2026-06-30' })],
        ['the other sort order', () => ({ account_id: a.cash.id, start_date: '2026-01-01', end_date: '2026-06-30', sort: 'desc' })],
        ['another start_date', () => ({ account_id: a.cash.id, start_date: '2026-01-02', end_date: '2026-06-30' })],
        ['another end_date', () => ({ account_id: a.cash.id, start_date: '2026-01-01', end_date: '2026-06-29' })],
        ['no range', () => ({ account_id: a.cash.id })],
        ['a period_id', () => ({ account_id: a.cash.id, period_id: q1.id })],
      ] as [string, () => Record<string, QueryValue>][])('is refused for %s with 400 VALIDATION_ERROR', async (_case, params) => {
        expectError(await getReport(api, 'general-ledger', { ...params(), limit: 2, cursor }), 400, 'VALIDATION_ERROR', 'cursor');
      });

      it('is refused when it comes from another list', async () => {
        const entries = (await api.request('GET', '/api/v1/journal-entries?limit=1')).body;
        expect(entries.has_more).toBe(true);
        expectError(await getReport(api, 'general-ledger', { account_id: a.cash.id, cursor: entries.next_cursor }), 400, 'VALIDATION_ERROR', 'cursor');
      });

      it('is accepted with the same parameters', async () => {
        const page = await report(api, 'general-ledger', { account_id: a.cash.id, start_date: '2026-01-01', end_date: '2026-06-30', limit: 2, cursor });
        expect(compact(page.lines)).toEqual(CASH_ALL_TIME.slice(2, 4));
      });
    });
  });
});
