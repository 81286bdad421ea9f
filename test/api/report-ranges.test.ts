import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, createCurrency, createPeriod, dataOf, expectError, startApi } from '../helpers/api-fixture.js';
import { accountOpener, closeRequest, getReport, post, report, setRetainedEarnings } from '../helpers/report-helpers.js';

/**
 * Reports over any range: an income statement for any dates with month or quarter columns, a
 * trial balance as of a date or over a range's movement, with debit- and credit-balance columns.
 * One small USD ledger (cents):
 *
 * Q1 2026 (01-01 .. 03-31), closed:
 *   01-02  cash dr 5000.00 / capital cr 5000.00
 *   01-10  cash dr 1000.00 / sales cr 1000.00
 *   02-05  rent dr 300.00 / cash cr 300.00
 *   02-20  cash dr 500.00 / sales cr 500.00
 *   close 03-31: sales dr 1500.00 / rent cr 300.00, retained cr 1200.00
 * Q2 2026 (04-01 .. 06-30), open:
 *   04-15  rent dr 300.00 / cash cr 300.00
 *   05-02  cash dr 200.00 / sales cr 200.00
 */
describe('reports over any range', () => {
  let api: ApiFixture;
  let a: Record<'cash' | 'capital' | 'retained' | 'sales' | 'rent', { id: string }>;
  let q1: { id: string };

  beforeAll(async () => {
    api = await startApi();
    const usd = await createCurrency(api, { code: 'USD', caip19_id: 'swift:0/iso4217:USD', asset_scale: 2 });
    q1 = await createPeriod(api, 'Q1 2026', '2026-01-01', '2026-03-31');
    await createPeriod(api, 'Q2 2026', '2026-04-01', '2026-06-30');
    const open = accountOpener(api, usd.id);
    a = {
      cash: await open('1000', 'Cash', 'asset', 'debit'),
      capital: await open('3000', 'Capital', 'equity', 'credit'),
      retained: await open('3100', 'Retained Earnings', 'equity', 'credit'),
      sales: await open('4000', 'Sales', 'revenue', 'credit'),
      rent: await open('6000', 'Rent', 'expense', 'debit'),
    };
    await setRetainedEarnings(api, a.retained.id);
    const { cash, capital, sales, rent } = a;
    await post(api, '2026-01-02', [[cash.id, 'dr', '500000'], [capital.id, 'cr', '500000']]);
    await post(api, '2026-01-10', [[cash.id, 'dr', '100000'], [sales.id, 'cr', '100000']]);
    await post(api, '2026-02-05', [[rent.id, 'dr', '30000'], [cash.id, 'cr', '30000']]);
    await post(api, '2026-02-20', [[cash.id, 'dr', '50000'], [sales.id, 'cr', '50000']]);
    dataOf(await closeRequest(api, q1.id));
    await post(api, '2026-04-15', [[rent.id, 'dr', '30000'], [cash.id, 'cr', '30000']]);
    await post(api, '2026-05-02', [[cash.id, 'dr', '20000'], [sales.id, 'cr', '20000']]);
  });
  afterAll(async () => { await api.close(); });

  describe('income statement', () => {
    it('covers a year to date across a closed quarter without the closing entry', async () => {
      const statement = await report(api, 'income-statement', { start_date: '2026-01-01', end_date: '2026-05-31' });
      expect(statement).toMatchObject({
        start_date: '2026-01-01', end_date: '2026-05-31', period_id: null,
        total_revenue: '170000', total_expenses: '60000', net_income: '110000', display_net_income: '1100.00',
      });
      expect(statement.columns).toBeUndefined();
      expect(statement.revenue[0].column_amounts).toBeUndefined();
    });

    it('puts month columns side by side, each row with its amount per month and each month with its totals', async () => {
      const statement = await report(api, 'income-statement', { start_date: '2026-01-01', end_date: '2026-05-15', columns: 'month' });
      expect(statement.columns.map((c: any) => [c.label, c.start_date, c.end_date, c.display_total_revenue, c.display_total_expenses,
        c.display_net_income])).toEqual([
        ['2026-01', '2026-01-01', '2026-01-31', '1000.00', '0.00', '1000.00'],
        ['2026-02', '2026-02-01', '2026-02-28', '500.00', '300.00', '200.00'],
        // March holds only the closing entry, which an income statement leaves out.
        ['2026-03', '2026-03-01', '2026-03-31', '0.00', '0.00', '0.00'],
        ['2026-04', '2026-04-01', '2026-04-30', '0.00', '300.00', '-300.00'],
        ['2026-05', '2026-05-01', '2026-05-15', '200.00', '0.00', '200.00'],
      ]);
      const amounts = (row: any) => [row.account_number, row.amount, ...row.column_amounts.map((c: any) => c.display_amount)];
      expect(statement.revenue.map(amounts)).toEqual([['4000', '170000', '1000.00', '500.00', '0.00', '0.00', '200.00']]);
      expect(statement.expenses.map(amounts)).toEqual([['6000', '60000', '0.00', '300.00', '0.00', '300.00', '0.00']]);
      expect(statement.net_income).toBe('110000');
    });

    it('splits a range into calendar quarters, and a period into its quarters', async () => {
      const byRange = await report(api, 'income-statement', { start_date: '2026-02-01', end_date: '2026-06-30', columns: 'quarter' });
      expect(byRange.columns.map((c: any) => [c.label, c.start_date, c.end_date, c.net_income])).toEqual([
        ['2026-Q1', '2026-02-01', '2026-03-31', '20000'],
        ['2026-Q2', '2026-04-01', '2026-06-30', '-10000'],
      ]);
      const byPeriod = await report(api, 'income-statement', { period_id: q1.id, columns: 'quarter' });
      expect(byPeriod).toMatchObject({ period_id: q1.id, net_income: '120000' });
      expect(byPeriod.columns.map((c: any) => [c.label, c.net_income])).toEqual([['2026-Q1', '120000']]);
    });

    it.each([
      ['columns without a start', { end_date: '2026-05-31', columns: 'month' }, 'columns'],
      ['columns over all time', { columns: 'month' }, 'columns'],
      ['more than 120 columns', { start_date: '2000-01-01', end_date: '2026-12-31', columns: 'month' }, 'columns'],
    ])('refuses %s', async (_name, query, field) => {
      expectError(await getReport(api, 'income-statement', query), 400, 'VALIDATION_ERROR', field);
    });

    it('refuses an unknown column interval', async () => {
      expectError(await getReport(api, 'income-statement', { start_date: '2026-01-01', end_date: '2026-03-31', columns: 'week' }),
        400, 'VALIDATION_ERROR');
    });
  });

  describe('trial balance', () => {
    const balances = (tb: any) => tb.rows.map((row: any) => [row.account_number, row.display_debit_balance, row.display_credit_balance]);

    it('shows balances as of a date, entries of that day included, in debit-balance and credit-balance columns', async () => {
      const tb = await report(api, 'trial-balance', { as_of_date: '2026-02-05' });
      expect(tb).toMatchObject({ as_of_date: '2026-02-05', start_date: null, end_date: null, period_id: null, basis: 'balance',
        label: 'Balances as of 2026-02-05', is_balanced: true });
      expect(balances(tb)).toEqual([
        ['1000', '5700.00', '0.00'], // 5000 + 1000 - 300
        ['3000', '0.00', '5000.00'],
        ['4000', '0.00', '1000.00'],
        ['6000', '300.00', '0.00'],
      ]);
      expect(tb.totals).toEqual([expect.objectContaining({ debit_total: '630000', credit_total: '630000',
        debit_balance: '600000', credit_balance: '600000', display_debit_balance: '6000.00', display_credit_balance: '6000.00' })]);
    });

    it('shows the movement of a date range and says so', async () => {
      const tb = await report(api, 'trial-balance', { start_date: '2026-04-01', end_date: '2026-05-31' });
      expect(tb).toMatchObject({ start_date: '2026-04-01', end_date: '2026-05-31', as_of_date: null, basis: 'movement',
        label: 'Movement from 2026-04-01 to 2026-05-31 (activity in the range, not balances)' });
      expect(balances(tb)).toEqual([['1000', '0.00', '100.00'], ['4000', '0.00', '200.00'], ['6000', '300.00', '0.00']]);
      expect(tb.rows.map((row: any) => [row.account_number, row.debit_total, row.credit_total])).toEqual([
        ['1000', '20000', '30000'], ['4000', '0', '20000'], ['6000', '30000', '0']]);
    });

    it('calls a period\'s trial balance a movement, with the period\'s dates', async () => {
      const tb = await report(api, 'trial-balance', { period_id: q1.id });
      expect(tb).toMatchObject({ period_id: q1.id, start_date: '2026-01-01', end_date: '2026-03-31', basis: 'movement',
        label: 'Movement of Q1 2026 from 2026-01-01 to 2026-03-31 (activity in the range, not balances)' });
    });

    it('keeps all time as the default, as balances', async () => {
      const tb = await report(api, 'trial-balance');
      expect(tb).toMatchObject({ basis: 'balance', label: 'Balances, all time', as_of_date: null, period_id: null });
      expect(balances(tb)).toEqual([
        // 5000 + 1000 - 300 + 500 - 300 + 200; debit balances 6100 + 300 = credit balances 5000 + 1200 + 200.
        ['1000', '6100.00', '0.00'], ['3000', '0.00', '5000.00'], ['3100', '0.00', '1200.00'], ['4000', '0.00', '200.00'],
        ['6000', '300.00', '0.00'],
      ]);
    });

    it.each([
      ['as_of_date with a range', { as_of_date: '2026-03-31', start_date: '2026-01-01' }, 'as_of_date'],
      ['as_of_date with a period', { as_of_date: '2026-03-31', period_id: 'p' }, 'as_of_date'],
      ['an end before the start', { start_date: '2026-03-01', end_date: '2026-02-01' }, 'end_date'],
      ['an impossible date', { as_of_date: '2026-02-30' }, 'as_of_date'],
    ])('refuses %s', async (_name, query, field) => {
      expectError(await getReport(api, 'trial-balance', query), 400, 'VALIDATION_ERROR', field);
    });
  });
});
