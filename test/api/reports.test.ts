import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiFixture, balanceOf, createCurrency, createPeriod, dataOf, expectError, startApi,
} from '../helpers/api-fixture.js';
import {
  type QueryValue, type ReportName, accountOpener, closeRequest, getReport, post, report, reverse, setRetainedEarnings,
  subAccount,
} from '../helpers/report-helpers.js';

/**
 * One small ledger for the whole file, built once (amounts in cents, USD and EUR both scale 2):
 *
 * H1 2026 (2026-01-01 .. 2026-06-30), closed:
 *   E1  01-05  cash dr 10000.00 / capital cr 10000.00
 *   E2  02-10  acme dr 1500.00, globex dr 500.00 / sales cr 2000.00
 *   E3  03-01  rent dr 800.00 / cash cr 800.00
 *   E4  03-15  cash dr 1000.00 / acme cr 1000.00
 *   E5  04-01  wages dr 600.00 / cash cr 600.00          (wrong amount...)
 *   E6  04-02  reversal of E5: cash dr 600.00 / wages cr 600.00
 *   E7  05-20  wages dr 650.00 / cash cr 650.00          (...posted again correctly)
 *   E8  06-30  returns dr 100.00 / globex cr 100.00      (contra revenue, debit normal)
 *   close 06-30: sales dr 2000.00 / returns cr 100.00, rent cr 800.00, wages cr 650.00, retained cr 450.00
 *     (income = 2000.00 - 100.00 - 800.00 - 650.00 = 450.00)
 *
 * H2 2026 (2026-07-01 .. 2026-12-31), open:
 *   E9  07-10  cash dr 3000.00 / loan cr 3000.00
 *   E10 08-01  globex dr 700.00 / sales cr 700.00
 *   E11 08-01  rent dr 800.00 / cash cr 800.00
 *   E12 09-30  cash dr 250.00 / sales cr 250.00
 *   E13 10-05  reversal of E12: sales dr 250.00 / cash cr 250.00
 *   E14 08-15  (EUR) euro bank dr 500.00 / euro sales cr 500.00
 *
 * Retained earnings (USD) is the setting, so USD is the default report currency.
 */
describe('summary reports', () => {
  let api: ApiFixture;
  let usd: { id: string };
  let eur: { id: string };
  let h1: { id: string };
  let h2: { id: string };
  let a: Record<'cash' | 'receivables' | 'acme' | 'globex' | 'loan' | 'capital' | 'retained' | 'sales' | 'returns' | 'rent'
    | 'wages' | 'euroBank' | 'euroSales', any>;

  beforeAll(async () => {
    api = await startApi();
    usd = await createCurrency(api, { code: 'USD', caip19_id: 'swift:0/iso4217:USD', asset_scale: 2 });
    eur = await createCurrency(api, { code: 'EUR', caip19_id: 'swift:0/iso4217:EUR', asset_scale: 2 });
    h1 = await createPeriod(api, 'H1 2026', '2026-01-01', '2026-06-30');
    h2 = await createPeriod(api, 'H2 2026', '2026-07-01', '2026-12-31');
    const open = accountOpener(api, usd.id);
    const openEuro = accountOpener(api, eur.id);
    const receivables = await open('1200', 'Receivables', 'asset', 'debit', { has_subledger: true });
    a = {
      cash: await open('1000', 'Cash', 'asset', 'debit'),
      receivables,
      acme: await subAccount(api, receivables.id, '1200-01', 'Receivables: Acme', 'acme'),
      globex: await subAccount(api, receivables.id, '1200-02', 'Receivables: Globex', 'globex'),
      loan: await open('2000', 'Bank Loan', 'liability', 'credit'),
      capital: await open('3000', 'Capital', 'equity', 'credit'),
      retained: await open('3100', 'Retained Earnings', 'equity', 'credit'),
      sales: await open('4000', 'Sales', 'revenue', 'credit'),
      returns: await open('4900', 'Sales Returns', 'revenue', 'debit'),
      rent: await open('6000', 'Rent', 'expense', 'debit'),
      wages: await open('6100', 'Wages', 'expense', 'debit'),
      euroBank: await openEuro('E1000', 'Euro Bank', 'asset', 'debit'),
      euroSales: await openEuro('E4000', 'Euro Sales', 'revenue', 'credit'),
    };
    await setRetainedEarnings(api, a.retained.id);
    const { cash, acme, globex, loan, capital, sales, returns, rent, wages, euroBank, euroSales } = a;
    await post(api, '2026-01-05', [[cash.id, 'dr', '1000000'], [capital.id, 'cr', '1000000']]);
    await post(api, '2026-02-10', [[acme.id, 'dr', '150000'], [globex.id, 'dr', '50000'], [sales.id, 'cr', '200000']]);
    await post(api, '2026-03-01', [[rent.id, 'dr', '80000'], [cash.id, 'cr', '80000']]);
    await post(api, '2026-03-15', [[cash.id, 'dr', '100000'], [acme.id, 'cr', '100000']]);
    const wrongWages = await post(api, '2026-04-01', [[wages.id, 'dr', '60000'], [cash.id, 'cr', '60000']]);
    await reverse(api, wrongWages.id, '2026-04-02');
    await post(api, '2026-05-20', [[wages.id, 'dr', '65000'], [cash.id, 'cr', '65000']]);
    await post(api, '2026-06-30', [[returns.id, 'dr', '10000'], [globex.id, 'cr', '10000']]);
    dataOf(await closeRequest(api, h1.id));
    await post(api, '2026-07-10', [[cash.id, 'dr', '300000'], [loan.id, 'cr', '300000']]);
    await post(api, '2026-08-01', [[globex.id, 'dr', '70000'], [sales.id, 'cr', '70000']]);
    await post(api, '2026-08-01', [[rent.id, 'dr', '80000'], [cash.id, 'cr', '80000']]);
    const cashSale = await post(api, '2026-09-30', [[cash.id, 'dr', '25000'], [sales.id, 'cr', '25000']]);
    await reverse(api, cashSale.id, '2026-10-05');
    await post(api, '2026-08-15', [[euroBank.id, 'dr', '50000'], [euroSales.id, 'cr', '50000']]);
  });
  afterAll(async () => { await api.close(); });

  /** Report rows reduced to [account_number, ...amounts] for compact, exact comparison. */
  const trialRows = (tb: any) => tb.rows.map((r: any) => [r.account_number, r.debit_total, r.credit_total, r.net_balance]);
  const sectionRows = (section: any) => section.accounts.map((r: any) => [r.account_number ?? r.account_name, r.balance]);
  const incomeRows = (rows: any[]) => rows.map((r) => [r.account_number, r.amount]);

  describe('trial balance', () => {
    it('is all-time and covers every currency by default, with totals per currency', async () => {
      const tb = await report(api, 'trial-balance');
      expect(tb).toMatchObject({ period_id: null, currency_id: null, is_balanced: true });
      expect(trialRows(tb)).toEqual([
        ['1000', '1485000', '310000', '1175000'], // dr 10000 + 1000 + 600 + 3000 + 250; cr 800 + 600 + 650 + 800 + 250
        ['1200-01', '150000', '100000', '50000'],
        ['1200-02', '120000', '10000', '110000'], // dr 500 + 700; cr 100
        ['2000', '0', '300000', '300000'],
        ['3000', '0', '1000000', '1000000'],
        ['3100', '0', '45000', '45000'],
        ['4000', '225000', '295000', '70000'], // dr close 2000 + reversal 250; cr 2000 + 700 + 250
        ['4900', '10000', '10000', '0'],
        ['6000', '160000', '80000', '80000'],
        ['6100', '125000', '125000', '0'], // dr 600 + 650; cr reversal 600 + close 650
        ['E1000', '50000', '0', '50000'],
        ['E4000', '0', '50000', '50000'],
      ]);
      // USD: debits 14850 + 1500 + 1200 + 2250 + 100 + 1600 + 1250 = 22750.00 = credits
      //      3100 + 1000 + 100 + 3000 + 10000 + 450 + 2950 + 100 + 800 + 1250 = 22750.00.
      const expectedTotals = [
        { currency_id: usd.id, debit_total: '2275000', credit_total: '2275000', display_debit_total: '22750.00',
          display_credit_total: '22750.00', is_balanced: true },
        { currency_id: eur.id, debit_total: '50000', credit_total: '50000', display_debit_total: '500.00',
          display_credit_total: '500.00', is_balanced: true },
      ].sort((x, y) => (x.currency_id < y.currency_id ? -1 : 1));
      expect(tb.totals).toMatchObject(expectedTotals);
    });

    it('shows each row with its account, currency, parent and display amounts', async () => {
      const tb = await report(api, 'trial-balance');
      expect(tb.rows.find((r: any) => r.account_id === a.globex.id)).toEqual({
        account_id: a.globex.id, account_number: '1200-02', account_name: 'Receivables: Globex', account_type: 'asset',
        currency_id: usd.id, parent_id: a.receivables.id, debit_total: '120000', credit_total: '10000', net_balance: '110000',
        display_debit_total: '1200.00', display_credit_total: '100.00', display_net_balance: '1100.00',
        debit_balance: '110000', credit_balance: '0', display_debit_balance: '1100.00', display_credit_balance: '0.00',
      });
      expect(tb.rows.find((r: any) => r.account_id === a.sales.id)).toMatchObject({
        account_type: 'revenue', parent_id: null, display_net_balance: '700.00',
      });
    });

    it('gives the control account no row of its own', async () => {
      const tb = await report(api, 'trial-balance');
      expect(tb.rows.map((r: any) => r.account_id)).not.toContain(a.receivables.id);
    });

    it('covers one period with period_id, including its closing entry', async () => {
      const tb = await report(api, 'trial-balance', { period_id: h1.id });
      expect(tb).toMatchObject({ period_id: h1.id, currency_id: null, is_balanced: true });
      expect(trialRows(tb)).toEqual([
        ['1000', '1160000', '205000', '955000'],
        ['1200-01', '150000', '100000', '50000'],
        ['1200-02', '50000', '10000', '40000'],
        ['3000', '0', '1000000', '1000000'],
        ['3100', '0', '45000', '45000'],
        ['4000', '200000', '200000', '0'],
        ['4900', '10000', '10000', '0'],
        ['6000', '80000', '80000', '0'],
        ['6100', '125000', '125000', '0'],
      ]);
      // 11600 + 1500 + 500 + 2000 + 100 + 800 + 1250 = 17750.00 on both sides.
      expect(tb.totals).toEqual([expect.objectContaining({ currency_id: usd.id, debit_total: '1775000', credit_total: '1775000' })]);
    });

    it('covers the open period with period_id, both currencies', async () => {
      const tb = await report(api, 'trial-balance', { period_id: h2.id });
      expect(trialRows(tb)).toEqual([
        ['1000', '325000', '105000', '220000'],
        ['1200-02', '70000', '0', '70000'],
        ['2000', '0', '300000', '300000'],
        ['4000', '25000', '95000', '70000'],
        ['6000', '80000', '0', '80000'],
        ['E1000', '50000', '0', '50000'],
        ['E4000', '0', '50000', '50000'],
      ]);
      expect(tb.totals.map((t: any) => [t.currency_id, t.debit_total, t.credit_total, t.is_balanced]).sort()).toEqual([
        [usd.id, '500000', '500000', true], // 3250 + 700 + 250 + 800 = 5000.00 = 1050 + 3000 + 950
        [eur.id, '50000', '50000', true],
      ].sort());
      expect(tb.is_balanced).toBe(true);
    });

    it('limits rows and totals to one currency with currency_id', async () => {
      const tb = await report(api, 'trial-balance', { currency_id: eur.id });
      expect(tb).toMatchObject({ currency_id: eur.id, period_id: null, is_balanced: true });
      expect(trialRows(tb)).toEqual([['E1000', '50000', '0', '50000'], ['E4000', '0', '50000', '50000']]);
      expect(tb.totals.map((t: any) => t.currency_id)).toEqual([eur.id]);
    });

    it('combines period_id and currency_id', async () => {
      const tb = await report(api, 'trial-balance', { period_id: h2.id, currency_id: usd.id });
      expect(tb.rows.map((r: any) => r.account_number)).toEqual(['1000', '1200-02', '2000', '4000', '6000']);
      expect(tb.totals).toEqual([expect.objectContaining({ currency_id: usd.id, debit_total: '500000', credit_total: '500000' })]);
    });

    it('is empty for a currency without activity in the period', async () => {
      const tb = await report(api, 'trial-balance', { period_id: h1.id, currency_id: eur.id });
      expect(tb).toMatchObject({ rows: [], totals: [], is_balanced: true });
    });

    it('agrees with the account balance endpoint for every row, all-time and per period', async () => {
      for (const periodId of [undefined, h1.id, h2.id]) {
        const tb = await report(api, 'trial-balance', { period_id: periodId });
        for (const row of tb.rows) {
          const balance = await balanceOf(api, row.account_id, periodId);
          expect([balance.total_debits, balance.total_credits, balance.net_balance], row.account_number)
            .toEqual([row.debit_total, row.credit_total, row.net_balance]);
        }
      }
    });
  });

  describe('balance sheet', () => {
    it('is as of today (all entries) in the retained earnings currency by default', async () => {
      const sheet = await report(api, 'balance-sheet');
      expect(sheet).toMatchObject({ currency_id: usd.id, as_of_date: null, period_id: null });
      expect(sectionRows(sheet.assets)).toEqual([['1000', '1175000'], ['1200-01', '50000'], ['1200-02', '110000']]);
      expect(sheet.assets).toMatchObject({ total: '1335000', display_total: '13350.00' });
      expect(sectionRows(sheet.liabilities)).toEqual([['2000', '300000']]);
      // Current earnings: H2 sales 700.00 - rent 800.00 = -100.00 (H1 was closed into retained earnings).
      expect(sectionRows(sheet.equity)).toEqual([['3000', '1000000'], ['3100', '45000'], ['Current earnings', '-10000']]);
      expect(sheet.equity).toMatchObject({ total: '1035000', display_total: '10350.00' });
      expect(sheet).toMatchObject({
        total_assets: '1335000', total_liabilities_and_equity: '1335000', // 3000.00 + 10350.00
        display_total_assets: '13350.00', display_total_liabilities_and_equity: '13350.00', is_balanced: true,
      });
    });

    it('shows sub-accounts with their parent and the current earnings row without an account', async () => {
      const sheet = await report(api, 'balance-sheet');
      expect(sheet.assets.accounts[1]).toEqual({
        account_id: a.acme.id, account_number: '1200-01', account_name: 'Receivables: Acme', parent_id: a.receivables.id,
        balance: '50000', display_balance: '500.00',
      });
      expect(sheet.equity.accounts.at(-1)).toEqual({
        account_id: null, account_number: null, account_name: 'Current earnings', parent_id: null,
        balance: '-10000', display_balance: '-100.00',
      });
    });

    it('with period_id of the closed period runs through its end date, closing entry included', async () => {
      const sheet = await report(api, 'balance-sheet', { period_id: h1.id });
      expect(sheet).toMatchObject({ as_of_date: '2026-06-30', period_id: h1.id, currency_id: usd.id });
      // cash 11600.00 - 2050.00 = 9550.00; acme 500.00; globex 500.00 - 100.00 = 400.00.
      expect(sectionRows(sheet.assets)).toEqual([['1000', '955000'], ['1200-01', '50000'], ['1200-02', '40000']]);
      expect(sheet.liabilities).toEqual({ accounts: [], total: '0', display_total: '0.00' });
      expect(sectionRows(sheet.equity)).toEqual([['3000', '1000000'], ['3100', '45000'], ['Current earnings', '0']]);
      expect(sheet).toMatchObject({ total_assets: '1045000', total_liabilities_and_equity: '1045000', is_balanced: true });
    });

    it('with period_id of the open period runs through its end date', async () => {
      const sheet = await report(api, 'balance-sheet', { period_id: h2.id });
      expect(sheet).toMatchObject({ as_of_date: '2026-12-31', period_id: h2.id, total_assets: '1335000', is_balanced: true });
    });

    it.each([
      // Before the closing entry and before E8 (dated 06-30): globex still 500.00, result not yet closed:
      // current earnings 2000.00 - 800.00 - 650.00 = 550.00.
      ['2026-06-29', [['1000', '955000'], ['1200-01', '50000'], ['1200-02', '50000']], [],
        [['3000', '1000000'], ['Current earnings', '55000']], '1055000'],
      // The last day of H1 includes E8 and the closing entry dated that day.
      ['2026-06-30', [['1000', '955000'], ['1200-01', '50000'], ['1200-02', '40000']], [],
        [['3000', '1000000'], ['3100', '45000'], ['Current earnings', '0']], '1045000'],
      // Before E10 and E11 (both 08-01): the loan is in, cash 9550.00 + 3000.00.
      ['2026-07-31', [['1000', '1255000'], ['1200-01', '50000'], ['1200-02', '40000']], [['2000', '300000']],
        [['3000', '1000000'], ['3100', '45000'], ['Current earnings', '0']], '1345000'],
      // 08-01 includes both entries of that day: cash 12550.00 - 800.00, globex 400.00 + 700.00, earnings 700.00 - 800.00.
      ['2026-08-01', [['1000', '1175000'], ['1200-01', '50000'], ['1200-02', '110000']], [['2000', '300000']],
        [['3000', '1000000'], ['3100', '45000'], ['Current earnings', '-10000']], '1335000'],
      // 09-30 includes the cash sale of that day, not yet its reversal (10-05): earnings 950.00 - 800.00.
      ['2026-09-30', [['1000', '1200000'], ['1200-01', '50000'], ['1200-02', '110000']], [['2000', '300000']],
        [['3000', '1000000'], ['3100', '45000'], ['Current earnings', '15000']], '1360000'],
      // 10-05 includes the reversal.
      ['2026-10-05', [['1000', '1175000'], ['1200-01', '50000'], ['1200-02', '110000']], [['2000', '300000']],
        [['3000', '1000000'], ['3100', '45000'], ['Current earnings', '-10000']], '1335000'],
      // Before any entry: every section empty but for current earnings of zero.
      ['2025-12-31', [], [], [['Current earnings', '0']], '0'],
    ])('as_of_date %s includes the entries dated that day and balances', async (date, assets, liabilities, equity, total) => {
      const sheet = await report(api, 'balance-sheet', { as_of_date: date });
      expect(sheet).toMatchObject({ as_of_date: date, period_id: null });
      expect(sectionRows(sheet.assets)).toEqual(assets);
      expect(sectionRows(sheet.liabilities)).toEqual(liabilities);
      expect(sectionRows(sheet.equity)).toEqual(equity);
      expect(sheet).toMatchObject({ total_assets: total, total_liabilities_and_equity: total, is_balanced: true });
    });

    it('reports another currency with currency_id, never adding currencies together', async () => {
      const sheet = await report(api, 'balance-sheet', { currency_id: eur.id });
      expect(sheet).toMatchObject({ currency_id: eur.id, total_assets: '50000', total_liabilities_and_equity: '50000', is_balanced: true });
      expect(sectionRows(sheet.assets)).toEqual([['E1000', '50000']]);
      expect(sectionRows(sheet.equity)).toEqual([['Current earnings', '50000']]);
      const before = await report(api, 'balance-sheet', { currency_id: eur.id, as_of_date: '2026-08-14' });
      expect(before).toMatchObject({ total_assets: '0', total_liabilities_and_equity: '0', is_balanced: true });
    });

    it('combines currency_id with period_id', async () => {
      const sheet = await report(api, 'balance-sheet', { currency_id: eur.id, period_id: h1.id });
      expect(sheet).toMatchObject({ currency_id: eur.id, as_of_date: '2026-06-30', total_assets: '0' });
    });
  });

  describe('income statement', () => {
    it('shows the result of the closed period, closing entry excluded', async () => {
      const statement = await report(api, 'income-statement', { period_id: h1.id });
      expect(statement).toMatchObject({ currency_id: usd.id, period_id: h1.id });
      expect(incomeRows(statement.revenue)).toEqual([['4000', '200000'], ['4900', '-10000']]);
      // wages: 600.00 + 650.00 - 600.00 reversed = 650.00.
      expect(incomeRows(statement.expenses)).toEqual([['6000', '80000'], ['6100', '65000']]);
      expect(statement).toMatchObject({
        total_revenue: '190000', total_expenses: '145000', net_income: '45000', // 1900.00 - 1450.00
        display_total_revenue: '1900.00', display_total_expenses: '1450.00', display_net_income: '450.00',
      });
    });

    it('matches the closed period result with the retained earnings credit of its closing entry', async () => {
      const statement = await report(api, 'income-statement', { period_id: h1.id });
      expect(await balanceOf(api, a.retained.id, h1.id)).toMatchObject({ net_balance: statement.net_income });
    });

    it('shows a loss for the open period, with a reversed sale netted out', async () => {
      const statement = await report(api, 'income-statement', { period_id: h2.id });
      // sales 700.00 + 250.00 - 250.00 = 700.00; rent 800.00; net -100.00.
      expect(incomeRows(statement.revenue)).toEqual([['4000', '70000']]);
      expect(incomeRows(statement.expenses)).toEqual([['6000', '80000']]);
      expect(statement).toMatchObject({ total_revenue: '70000', total_expenses: '80000', net_income: '-10000', display_net_income: '-100.00' });
    });

    it('covers all time without period_id, closing entries excluded', async () => {
      const statement = await report(api, 'income-statement');
      expect(statement).toMatchObject({ currency_id: usd.id, period_id: null });
      // sales 2000.00 + 700.00; returns -100.00; rent 800.00 + 800.00; wages 650.00.
      expect(incomeRows(statement.revenue)).toEqual([['4000', '270000'], ['4900', '-10000']]);
      expect(incomeRows(statement.expenses)).toEqual([['6000', '160000'], ['6100', '65000']]);
      // 2600.00 - 2250.00 = 350.00 = 450.00 (H1) - 100.00 (H2).
      expect(statement).toMatchObject({ total_revenue: '260000', total_expenses: '225000', net_income: '35000' });
    });

    it('covers a date range across the close, closing entry excluded', async () => {
      // 2026-03-01 .. 2026-08-01: rent 800.00 (Mar) + wages 600.00 - 600.00 + 650.00 + returns 100.00 (Jun 30, in the
      // closed H1) + sales 700.00 and rent 800.00 (Aug 1); the H1 closing entry dated 2026-06-30 is left out.
      const statement = await report(api, 'income-statement', { start_date: '2026-03-01', end_date: '2026-08-01' });
      expect(statement).toMatchObject({ period_id: null, start_date: '2026-03-01', end_date: '2026-08-01' });
      expect(incomeRows(statement.revenue)).toEqual([['4000', '70000'], ['4900', '-10000']]);
      expect(incomeRows(statement.expenses)).toEqual([['6000', '160000'], ['6100', '65000']]);
      expect(statement).toMatchObject({ total_revenue: '60000', total_expenses: '225000', net_income: '-165000' });
    });

    it('equals the period statement for the period\'s own dates, and refuses dates with period_id', async () => {
      const byDates = await report(api, 'income-statement', { start_date: '2026-01-01', end_date: '2026-06-30' });
      const byPeriod = await report(api, 'income-statement', { period_id: h1.id });
      expect({ ...byDates, period_id: h1.id }).toEqual(byPeriod);
      const both = await api.request('GET', `/api/v1/reports/income-statement?period_id=${h1.id}&start_date=2026-01-01`);
      expect(both.status).toBe(400);
      expect(both.body.code).toBe('VALIDATION_ERROR');
      const reversed = await api.request('GET', '/api/v1/reports/income-statement?start_date=2026-05-01&end_date=2026-04-01');
      expect(reversed.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'end_date' });
    });

    it('shows each row with its account and display amount', async () => {
      const statement = await report(api, 'income-statement', { period_id: h1.id });
      expect(statement.revenue[1]).toEqual({
        account_id: a.returns.id, account_number: '4900', account_name: 'Sales Returns', parent_id: null,
        amount: '-10000', display_amount: '-100.00',
      });
    });

    it('reports another currency with currency_id', async () => {
      const statement = await report(api, 'income-statement', { currency_id: eur.id });
      expect(statement).toMatchObject({ currency_id: eur.id, total_revenue: '50000', total_expenses: '0', net_income: '50000' });
      expect(incomeRows(statement.revenue)).toEqual([['E4000', '50000']]);
      const closedHalf = await report(api, 'income-statement', { currency_id: eur.id, period_id: h1.id });
      expect(closedHalf).toMatchObject({ revenue: [], expenses: [], net_income: '0' });
    });
  });

  describe('a currency without accounts', () => {
    let chf: { id: string };
    beforeAll(async () => { chf = await createCurrency(api, { code: 'CHF', caip19_id: 'swift:0/iso4217:CHF', asset_scale: 3 }); });

    it('gets a balance sheet of zeros formatted at its own scale', async () => {
      const sheet = await report(api, 'balance-sheet', { currency_id: chf.id });
      expect(sheet).toEqual({
        company_name: null, currency_id: chf.id, as_of_date: null, period_id: null,
        assets: { accounts: [], total: '0', display_total: '0.000' },
        liabilities: { accounts: [], total: '0', display_total: '0.000' },
        equity: {
          accounts: [{ account_id: null, account_number: null, account_name: 'Current earnings', parent_id: null, balance: '0', display_balance: '0.000' }],
          total: '0', display_total: '0.000',
        },
        total_assets: '0', display_total_assets: '0.000', total_liabilities_and_equity: '0', display_total_liabilities_and_equity: '0.000',
        is_balanced: true,
      });
    });

    it('gets an income statement of zeros formatted at its own scale', async () => {
      expect(await report(api, 'income-statement', { currency_id: chf.id, period_id: h2.id })).toEqual({
        company_name: null, currency_id: chf.id, period_id: h2.id, start_date: '2026-07-01', end_date: '2026-12-31', revenue: [], expenses: [],
        total_revenue: '0', display_total_revenue: '0.000', total_expenses: '0', display_total_expenses: '0.000',
        net_income: '0', display_net_income: '0.000',
      });
    });

    it('gets an empty, balanced trial balance', async () => {
      expect(await report(api, 'trial-balance', { currency_id: chf.id }))
        .toEqual({ company_name: null, period_id: null, currency_id: chf.id, as_of_date: null, start_date: null, end_date: null, basis: 'balance',
          label: 'Balances, all time', rows: [], totals: [], is_balanced: true });
    });
  });

  describe('parameter errors', () => {
    const summaries: ReportName[] = ['trial-balance', 'balance-sheet', 'income-statement'];

    it.each(summaries)('%s answers 404 NOT_FOUND for an unknown currency_id', async (name) => {
      expectError(await getReport(api, name, { currency_id: 'no-such-currency' }), 404, 'NOT_FOUND', 'currency_id');
    });

    it.each(summaries)('%s answers 404 NOT_FOUND for an unknown period_id', async (name) => {
      expectError(await getReport(api, name, { period_id: 'no-such-period' }), 404, 'NOT_FOUND', 'period_id');
    });

    it.each(summaries)('%s refuses an unknown query parameter with 400 VALIDATION_ERROR', async (name) => {
      expectError(await getReport(api, name, { as_of: '2026-01-01' }), 400, 'VALIDATION_ERROR', 'as_of');
    });

    it.each([
      ['not a calendar date', '2026-02-30'],
      ['not a date at all', 'yesterday'],
      ['a date with a time', '2026-02-01T00:00:00Z'],
      ['empty', ''],
    ])('balance sheet refuses as_of_date %s with 400 VALIDATION_ERROR', async (_case, date) => {
      expectError(await getReport(api, 'balance-sheet', { as_of_date: date }), 400, 'VALIDATION_ERROR', 'as_of_date');
    });

    it('balance sheet refuses as_of_date together with period_id with 400 VALIDATION_ERROR', async () => {
      const response = await getReport(api, 'balance-sheet', { as_of_date: '2026-03-31', period_id: h1.id });
      expectError(response, 400, 'VALIDATION_ERROR');
      expect(['as_of_date', 'period_id']).toContain(response.body.field);
    });

    // The trial balance takes as_of_date (test/api/report-ranges.test.ts); the income statement covers a range.
    it.each([
      ['income statement', 'income-statement', { as_of_date: '2026-01-01' }, 'as_of_date'],
    ] as [string, ReportName, Record<string, QueryValue>, string][])(
      '%s does not take as_of_date', async (_case, name, query, field) => {
        expectError(await getReport(api, name, query), 400, 'VALIDATION_ERROR', field);
      });
  });
});

describe('reports of a new ledger with one currency and no accounts', () => {
  let api: ApiFixture;
  let btc: { id: string };
  beforeAll(async () => {
    api = await startApi();
    btc = await createCurrency(api, { asset_scale: 8, asset_type: 'crypto' });
  });
  afterAll(async () => { await api.close(); });

  it('reports zeros in that currency, formatted at its scale', async () => {
    expect(await report(api, 'balance-sheet')).toMatchObject({
      currency_id: btc.id, total_assets: '0', display_total_assets: '0.00000000',
      display_total_liabilities_and_equity: '0.00000000', is_balanced: true,
    });
    expect(await report(api, 'income-statement')).toMatchObject({ currency_id: btc.id, net_income: '0', display_net_income: '0.00000000' });
    expect(await report(api, 'trial-balance')).toEqual({ company_name: null, period_id: null, currency_id: null, as_of_date: null, start_date: null,
      end_date: null, basis: 'balance', label: 'Balances, all time', rows: [], totals: [], is_balanced: true });
  });
});

describe('report currency without a retained earnings account', () => {
  let api: ApiFixture;
  let usd: { id: string };

  beforeAll(async () => {
    api = await startApi();
    usd = await createCurrency(api, { asset_scale: 2 });
    await createPeriod(api, 'FY2026', '2026-01-01', '2026-12-31');
    const open = accountOpener(api, usd.id);
    const cash = await open('1000', 'Cash', 'asset', 'debit');
    const sales = await open('4000', 'Sales', 'revenue', 'credit');
    await post(api, '2026-03-01', [[cash.id, 'dr', '1234'], [sales.id, 'cr', '1234']]);
  });
  afterAll(async () => { await api.close(); });

  it('uses the only currency in use', async () => {
    expect(await report(api, 'balance-sheet')).toMatchObject({ currency_id: usd.id, total_assets: '1234', is_balanced: true });
    expect(await report(api, 'income-statement')).toMatchObject({ currency_id: usd.id, net_income: '1234' });
  });

  describe('once accounts exist in a second currency', () => {
    let btc: { id: string };
    beforeAll(async () => {
      btc = await createCurrency(api, { asset_scale: 8, asset_type: 'crypto' });
      const open = accountOpener(api, btc.id, 'B');
      const wallet = await open('1000', 'Wallet', 'asset', 'debit');
      const fees = await open('4000', 'Fees', 'revenue', 'credit');
      await post(api, '2026-03-02', [[wallet.id, 'dr', '150000000'], [fees.id, 'cr', '150000000']]);
    });

    it.each(['balance-sheet', 'income-statement'] as ReportName[])(
      '%s asks for currency_id with 400 VALIDATION_ERROR', async (name) => {
        expectError(await getReport(api, name), 400, 'VALIDATION_ERROR', 'currency_id');
      });

    it('answers either currency when currency_id is given, with 8-decimal display', async () => {
      expect(await report(api, 'balance-sheet', { currency_id: btc.id })).toMatchObject({
        currency_id: btc.id, total_assets: '150000000', display_total_assets: '1.50000000', is_balanced: true,
      });
      expect(await report(api, 'income-statement', { currency_id: usd.id })).toMatchObject({ currency_id: usd.id, net_income: '1234' });
    });

    it('still lists both currencies in the trial balance without currency_id', async () => {
      const tb = await report(api, 'trial-balance');
      expect(tb.totals.map((t: any) => t.currency_id).sort()).toEqual([usd.id, btc.id].sort());
      expect(tb.is_balanced).toBe(true);
    });
  });
});
