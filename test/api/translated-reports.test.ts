/**
 * Translated reports on the quarter of the bookkeeper's review (test/helpers/review-quarter.ts),
 * every figure worked out by hand. USD is the base currency; EUR → USD rates: 1.10 from Jan 1,
 * 1.08 from Jan 20, 1.12 from Feb 1, 1.09 from Feb 15, 1.085 from Mar 1, 1.0842 from Mar 31.
 *
 * Balance-sheet accounts at the report date's rate (Mar 31: 1.0842), debits and credits each
 * rounded half to even to cents:
 *   1200 Receivable EUR  debits 8,501.00 EUR → 9,216.7842 → 9,216.78; credits 3,000.00 → 3,252.60; net 5,964.18
 *   1100 Bank EUR        3,000.00 in and out → 3,252.60 both sides, net 0.00
 *   1510 Clearing EUR    3,000.00 → 3,252.60;  1500 Clearing USD −3,246.00 (so the conversion shows +6.60)
 *   3010 Retained EUR    3,000.00 (January's close) → 3,252.60
 * Revenue and expense at each day's rate, summed exactly and rounded once per row:
 *   4100 Revenue EUR  Jan 10 2,000.00 × 1.10 = 2,200.00; Jan 25 1,000.00 × 1.08 = 1,080.00;
 *                     Feb 20 4,000.50 × 1.09 = 4,360.545; Mar 15 1,500.50 × 1.085 = 1,628.0425
 *     quarter: 9,268.5875 → 9,268.59; by month: 3,280.00 | 4,360.54 (a tie, to even) | 1,628.04 → 9,268.58
 *     January is closed: its 3,280.00 is taken back by its closing entry (translated debit 3,280.00),
 *     so the balance sheet's current earnings hold Feb + Mar: 5,988.5875 → 5,988.59
 *   Current earnings = 2,500.00 (USD revenue) + 5,988.59 − 1,500.00 (March rent) = 6,988.59
 * Total assets = 12,746.00 + 0.00 + 5,964.18 − 3,246.00 + 3,252.60 = 18,716.78
 * Equity before the difference = 10,000.00 − 1,500.00 + 3,252.60 + 6,988.59 = 18,741.19
 * Exchange differences on translation = 18,716.78 − 18,741.19 = −24.41
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, createAccount, createCurrency, dataOf, expectError, startApi } from '../helpers/api-fixture.js';
import { seedReviewQuarter } from '../helpers/review-quarter.js';

const REPORTS = '/api/v1/reports';

describe('translated reports: the review quarter in USD', () => {
  let api: ApiFixture;
  let books: Awaited<ReturnType<typeof seedReviewQuarter>>;

  beforeAll(async () => {
    api = await startApi();
    books = await seedReviewQuarter(api);
  }, 120_000);
  afterAll(async () => { await api.close(); });

  const get = async (path: string) => dataOf(await api.request('GET', path));

  it('the balance sheet balances exactly, with the translation difference as its own equity row', async () => {
    const sheet = await get(`${REPORTS}/balance-sheet?as_of_date=2026-03-31&presentation_currency_id=${books.usd.id}`);
    expect(sheet).toMatchObject({ currency_id: books.usd.id, presentation_currency_id: books.usd.id, is_balanced: true });
    const rows = (section: { accounts: any[] }) => section.accounts.map((row) =>
      [row.account_number, row.display_balance, row.currency_id ?? null, row.display_original_amount ?? null]);
    expect(rows(sheet.assets)).toEqual([
      ['1000', '12746.00', books.usd.id, '12746.00'],
      ['1100', '0.00', books.eur.id, '0.00'],
      ['1200', '5964.18', books.eur.id, '5501.00'],
      ['1500', '-3246.00', books.usd.id, '-3246.00'],
      ['1510', '3252.60', books.eur.id, '3000.00'],
    ]);
    expect(rows(sheet.equity)).toEqual([
      ['3000', '-1500.00', books.usd.id, '-1500.00'],
      ['3010', '3252.60', books.eur.id, '3000.00'],
      ['3100', '10000.00', books.usd.id, '10000.00'],
      [null, '-24.41', null, null],
      [null, '6988.59', null, null],
    ]);
    expect(sheet.equity.accounts[3]).toMatchObject({ account_id: null, account_name: 'Exchange differences on translation' });
    expect(sheet.equity.accounts[4]).toMatchObject({ account_id: null, account_name: 'Current earnings' });
    expect(sheet).toMatchObject({
      display_total_assets: '18716.78', display_total_liabilities_and_equity: '18716.78', equity: { display_total: '18716.78' },
    });
  });

  it('the trial balance adds the same difference row, and both sides total 39,272.39', async () => {
    const tb = await get(`${REPORTS}/trial-balance?as_of_date=2026-03-31&presentation_currency_id=${books.usd.id}`);
    expect(tb.presentation_currency_id).toBe(books.usd.id);
    expect(tb.rows.map((row: any) => [row.account_number, row.display_debit_total, row.display_credit_total, row.display_net_balance])).toEqual([
      ['1000', '15746.00', '3000.00', '12746.00'],
      ['1100', '3252.60', '3252.60', '0.00'],
      ['1200', '9216.78', '3252.60', '5964.18'],
      ['1500', '0.00', '3246.00', '-3246.00'],
      ['1510', '3252.60', '0.00', '3252.60'],
      ['3000', '1500.00', '0.00', '-1500.00'],
      ['3010', '0.00', '3252.60', '3252.60'],
      ['3100', '0.00', '10000.00', '10000.00'],
      ['4000', '0.00', '2500.00', '2500.00'],
      ['4100', '3280.00', '9268.59', '5988.59'],
      ['6000', '3000.00', '1500.00', '1500.00'],
      [null, '24.41', '0.00', '-24.41'],
    ]);
    expect(tb.rows[11]).toMatchObject({ account_id: null, account_name: 'Exchange differences on translation', account_type: 'equity', currency_id: books.usd.id });
    expect(tb.rows[9]).toMatchObject({ currency_id: books.eur.id, original_amount: '550100', display_original_amount: '5501.00' });
    expect(tb.totals).toEqual([expect.objectContaining({
      currency_id: books.usd.id, display_debit_total: '39272.39', display_credit_total: '39272.39', is_balanced: true,
    })]);
    expect(tb.is_balanced).toBe(true);
  });

  it('the income statement translates each day at its rate and rounds once per row', async () => {
    const statement = await get(`${REPORTS}/income-statement?start_date=2026-01-01&end_date=2026-03-31&presentation_currency_id=${books.usd.id}`);
    const rows = (list: any[]) => list.map((row) => [row.account_number, row.display_amount, row.currency_id, row.display_original_amount]);
    expect(rows(statement.revenue)).toEqual([
      ['4000', '2500.00', books.usd.id, '2500.00'],
      ['4100', '9268.59', books.eur.id, '8501.00'],
    ]);
    expect(rows(statement.expenses)).toEqual([['6000', '3000.00', books.usd.id, '3000.00']]);
    expect(statement).toMatchObject({
      presentation_currency_id: books.usd.id, display_total_revenue: '11768.59', display_total_expenses: '3000.00', display_net_income: '8768.59',
    });
  });

  it('with month columns each column is translated on its own, a tie rounds to even, and the whole is the sum of the columns', async () => {
    const statement = await get(
      `${REPORTS}/income-statement?start_date=2026-01-01&end_date=2026-03-31&columns=month&presentation_currency_id=${books.usd.id}`);
    const euro = statement.revenue.find((row: any) => row.account_number === '4100');
    expect(euro.column_amounts.map((column: any) => column.display_amount)).toEqual(['3280.00', '4360.54', '1628.04']);
    expect(euro.display_amount).toBe('9268.58');
    expect(statement.columns.map((column: any) => [column.display_total_revenue, column.display_total_expenses, column.display_net_income]))
      .toEqual([['3280.00', '1500.00', '1780.00'], ['4360.54', '0.00', '4360.54'], ['4128.04', '1500.00', '2628.04']]);
    expect(statement.display_net_income).toBe('8768.58');
  });

  it('a closed month alone: its revenue at its days\' rates; its movement trial balance nets its revenue to zero', async () => {
    const january = await get(`${REPORTS}/income-statement?period_id=${books.periods.january.id}&presentation_currency_id=${books.usd.id}`);
    expect(january.revenue.map((row: any) => row.display_amount)).toEqual(['3280.00']);
    const movement = await get(`${REPORTS}/trial-balance?period_id=${books.periods.january.id}&presentation_currency_id=${books.usd.id}`);
    const euroRevenue = movement.rows.find((row: any) => row.account_number === '4100');
    expect([euroRevenue.display_debit_total, euroRevenue.display_credit_total, euroRevenue.display_net_balance]).toEqual(['3280.00', '3280.00', '0.00']);
    expect(movement.is_balanced).toBe(true);
  });

  it('refuses another presentation currency, and presentation_currency_id with currency_id', async () => {
    expectError(await api.request('GET', `${REPORTS}/balance-sheet?presentation_currency_id=${books.eur.id}`), 400, 'VALIDATION_ERROR', 'presentation_currency_id');
    expectError(await api.request('GET', `${REPORTS}/trial-balance?presentation_currency_id=${books.usd.id}&currency_id=${books.usd.id}`),
      400, 'VALIDATION_ERROR', 'presentation_currency_id');
  });

  it('RATE_MISSING names the currency and the earliest day it has no rate for', async () => {
    const gbp = await createCurrency(api, { code: 'GBP', caip19_id: 'swift:0/iso4217:GBP', asset_scale: 2 });
    const open = (account_number: string, account_type: string, normal_balance: string) =>
      createAccount(api, { account_number, name: `GBP ${account_number}`, currency_id: gbp.id, account_type, normal_balance });
    const cash = await open('1900', 'asset', 'debit');
    const sales = await open('4900', 'revenue', 'credit');
    for (const date of ['2026-03-25', '2026-03-10']) {
      dataOf(await api.request('POST', '/api/v1/journal-entries', {
        entry_date: date, description: 'London sale',
        lines: [{ account_id: cash.id, debit_amount: '10000' }, { account_id: sales.id, credit_amount: '10000' }],
      }), 201);
    }
    for (const path of [`balance-sheet?as_of_date=2026-03-31`, 'trial-balance?as_of_date=2026-03-31',
      'income-statement?start_date=2026-01-01&end_date=2026-03-31']) {
      const response = await api.request('GET', `${REPORTS}/${path}&presentation_currency_id=${books.usd.id}`);
      expectError(response, 400, 'RATE_MISSING');
      expect(response.body.message).toContain('GBP');
      expect(response.body.message).toContain('2026-03-10');
    }
    // With rates from before the sales, the reports answer again, still balanced.
    dataOf(await api.request('POST', '/api/v1/exchange-rates', { currency_id: gbp.id, rate_date: '2026-03-01', rate: '1.27' }), 201);
    const sheet = await get(`${REPORTS}/balance-sheet?as_of_date=2026-03-31&presentation_currency_id=${books.usd.id}`);
    expect(sheet.is_balanced).toBe(true);
    expect(sheet.assets.accounts.find((row: any) => row.account_number === '1900').display_balance).toBe('254.00');
  });
});
