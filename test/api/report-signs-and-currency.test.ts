/**
 * Two report rules: a contra account (accumulated depreciation, owner's drawings) shows the same
 * sign on the trial balance (which the chart of accounts shows) and on the balance sheet; and
 * without currency_id the one-currency reports use the only currency with posted lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, createCurrency, createPeriod, expectError, startApi } from '../helpers/api-fixture.js';
import { accountOpener, getReport, post, report } from '../helpers/report-helpers.js';

describe('one sign convention for contra accounts', () => {
  let api: ApiFixture;
  let books: Record<string, { id: string; account_number: string }>;

  beforeAll(async () => {
    api = await startApi();
    await createPeriod(api, 'FY2026', '2026-01-01', '2026-12-31');
    const usd = await createCurrency(api, { code: 'USD', caip19_id: 'swift:0/iso4217:USD', asset_scale: 2 });
    const open = accountOpener(api, usd.id);
    books = {
      cash: await open('1000', 'Cash', 'asset', 'debit'),
      equipment: await open('1500', 'Equipment', 'asset', 'debit'),
      // A contra asset: an asset account with a credit normal balance.
      depreciation: await open('1590', 'Accumulated depreciation', 'asset', 'credit'),
      capital: await open('3000', 'Owner\'s capital', 'equity', 'credit'),
      // A contra equity account: equity with a debit normal balance.
      drawings: await open('3200', 'Owner\'s drawings', 'equity', 'debit'),
      expense: await open('6400', 'Depreciation expense', 'expense', 'debit'),
    };
    const { cash, equipment, depreciation, capital, drawings, expense } = books as Record<string, { id: string }>;
    await post(api, '2026-01-02', [[cash!.id, 'dr', '100000'], [capital!.id, 'cr', '100000']]);
    await post(api, '2026-01-03', [[equipment!.id, 'dr', '60000'], [cash!.id, 'cr', '60000']]);
    await post(api, '2026-01-31', [[expense!.id, 'dr', '10000'], [depreciation!.id, 'cr', '10000']]);
    await post(api, '2026-02-01', [[drawings!.id, 'dr', '5000'], [cash!.id, 'cr', '5000']]);
  });
  afterAll(async () => { await api.close(); });

  it('shows accumulated depreciation and drawings negative on the trial balance and the balance sheet alike', async () => {
    const trial = await report(api, 'trial-balance');
    const trialNet = (id: string) => trial.rows.find((row: { account_id: string }) => row.account_id === id);
    expect(trialNet(books.depreciation!.id)).toMatchObject({ net_balance: '-10000', display_net_balance: '-100.00' });
    expect(trialNet(books.drawings!.id)).toMatchObject({ net_balance: '-5000', display_net_balance: '-50.00' });
    // Ordinary accounts keep their positive balances: cash 1000 - 600 - 50 = 350.00.
    expect(trialNet(books.cash!.id)).toMatchObject({ net_balance: '35000' });
    expect(trialNet(books.capital!.id)).toMatchObject({ net_balance: '100000' });
    expect(trialNet(books.expense!.id)).toMatchObject({ net_balance: '10000' });

    const sheet = await report(api, 'balance-sheet');
    const sheetRow = (section: 'assets' | 'equity', id: string) =>
      sheet[section].accounts.find((row: { account_id: string | null }) => row.account_id === id);
    expect(sheetRow('assets', books.depreciation!.id)).toMatchObject({ balance: '-10000', display_balance: '-100.00' });
    expect(sheetRow('equity', books.drawings!.id)).toMatchObject({ balance: '-5000', display_balance: '-50.00' });
    // Assets 350.00 + 600.00 - 100.00 = 850.00 = capital 1000.00 - drawings 50.00 - current loss 100.00.
    expect(sheet).toMatchObject({ total_assets: '85000', total_liabilities_and_equity: '85000', is_balanced: true });
  });
});

describe('the report currency without currency_id', () => {
  let api: ApiFixture;

  beforeAll(async () => {
    api = await startApi();
    await createPeriod(api, 'FY2026', '2026-01-01', '2026-12-31');
  });
  afterAll(async () => { await api.close(); });

  it('is the only currency with posted lines, even when another currency has accounts without activity', async () => {
    const usd = await createCurrency(api, { code: 'USD', caip19_id: 'swift:0/iso4217:USD', asset_scale: 2 });
    const eur = await createCurrency(api, { code: 'EUR', caip19_id: 'swift:0/iso4217:EUR', asset_scale: 2 });
    const cash = await accountOpener(api, usd.id)('1000', 'Cash USD', 'asset', 'debit');
    const usdSales = await accountOpener(api, usd.id)('4000', 'Sales USD', 'revenue', 'credit');
    const openEuro = accountOpener(api, eur.id);
    const bank = await openEuro('1050', 'Bank EUR', 'asset', 'debit');
    const sales = await openEuro('4030', 'Consulting EUR', 'revenue', 'credit');
    await post(api, '2026-03-01', [[bank.id, 'dr', '42000'], [sales.id, 'cr', '42000']]);

    expect(await report(api, 'balance-sheet')).toMatchObject({ currency_id: eur.id, total_assets: '42000', is_balanced: true });
    expect(await report(api, 'income-statement')).toMatchObject({ currency_id: eur.id, total_revenue: '42000', net_income: '42000' });

    // Once USD has posted lines too, the choice is the caller's again.
    await post(api, '2026-03-02', [[cash.id, 'dr', '100'], [usdSales.id, 'cr', '100']]);
    expectError(await getReport(api, 'balance-sheet'), 400, 'VALIDATION_ERROR', 'currency_id');
    expectError(await getReport(api, 'income-statement'), 400, 'VALIDATION_ERROR', 'currency_id');
  });
});
