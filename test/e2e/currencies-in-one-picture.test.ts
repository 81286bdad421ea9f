/**
 * The quarter of the bookkeeper's review (test/helpers/review-quarter.ts: a USD studio with one EUR
 * client, rates on six days) seen through the browser: the dashboard shows the whole ledger in USD,
 * the balance sheet and trial balance switch to "In USD" with the translation difference row, the
 * income statement translates each day at its rate, rates are set and replaced on the Rates page
 * (typed as text, a bad one refused under its field), and a currency without a rate makes the
 * translated report say RATE_MISSING with a way to the Rates page. Figures as worked out by hand in
 * test/api/translated-reports.test.ts.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiFixture, ApiResponse } from '../helpers/api-fixture.js';
import { seedReviewQuarter } from '../helpers/review-quarter.js';
import { ADMIN, apiClient, expectText, expectVisible, type LedgerServer, useE2E } from './fixture.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { RatesPage } from './pages/rates-page.js';
import { SignInPage } from './pages/sign-in-page.js';

const e2e = useE2E();
let page: Page;
let books: Awaited<ReturnType<typeof seedReviewQuarter>>;
let call: Awaited<ReturnType<typeof apiClient>>['call'];

/** The request function seedReviewQuarter needs, over HTTP to the e2e server with the admin's token. */
function httpApi(server: LedgerServer, token: string): ApiFixture {
  const request = async (method: string, path: string, body?: unknown): Promise<ApiResponse> => {
    const response = await fetch(server.baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers, text };
  };
  return { request } as unknown as ApiFixture;
}

describe('several currencies in one picture', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    const tokens = await (await apiClient(e2e.server)).call<{ access_token: string }>('POST', '/auth/setup', ADMIN);
    call = (await apiClient(e2e.server, tokens.access_token)).call;
    books = await seedReviewQuarter(httpApi(e2e.server, tokens.access_token));
    page = await e2e.newPage();
    await new SignInPage(page).goto().then((signIn) => signIn.signIn(ADMIN));
    await new DashboardPage(page).ready();
  }, 90_000);

  it('the dashboard shows the USD and EUR ledger whole in USD and says how it was translated', async () => {
    const dashboard = await new DashboardPage(page).goto();
    await expectText(page.getByTestId('dashboard-translated'), /all currencies in USD at the exchange rates/);
    await expectText(dashboard.assets, '18,716.78');
    await expectText(dashboard.assets, 'USD');
    await expectText(dashboard.equity, '18,716.78');
    await expectText(page.getByTestId('stat-earnings'), '6,988.59');
    expect(await page.getByTestId('dashboard-rates-needed').count()).toBe(0);
    await e2e.screenshot(page, 'translated-dashboard');
    // One currency on its own is still a choice away.
    await page.getByTestId('dashboard-currency').selectOption(books.eur.id);
    await expectText(page.getByRole('heading', { level: 1 }).locator('xpath=..'), 'in EUR');
    await expectText(dashboard.assets, '8,501.00');
  });

  it('the balance sheet "In USD" keeps the switch in the address, shows original amounts and the difference row', async () => {
    await page.goto('/reports/balance-sheet?as_of=2026-03-31');
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Balance sheet' }));
    await page.getByTestId('report-translate').check();
    await expect.poll(() => new URL(page.url()).searchParams.get('presentation_currency_id')).toBe(books.usd.id);
    const equity = page.getByTestId('balance-sheet-equity');
    const difference = equity.getByTestId('statement-row').filter({ hasText: 'Exchange differences on translation' });
    await expectText(difference, '-24.41');
    const receivable = page.getByTestId('balance-sheet-assets').getByTestId('statement-row').filter({ hasText: 'Receivable EUR' });
    await expectText(receivable, '5,964.18');
    await expectText(receivable.getByTestId('original-amount'), '5,501.00 EUR');
    await expectText(page.getByTestId('balance-sheet-assets').locator('tfoot'), '18,716.78');
    await expectText(page.getByTestId('report-balance-sheet'), 'Assets = liabilities + equity');
    await e2e.screenshot(page, 'translated-balance-sheet');

    // A reload keeps the switch; the trial balance has the same difference row and balances at 39,272.39.
    await page.reload();
    await expectText(page.getByTestId('balance-sheet-equity'), 'Exchange differences on translation');
    await page.goto(`/reports/trial-balance?as_of=2026-03-31&presentation_currency_id=${books.usd.id}`);
    await expectText(page.getByTestId('translation-difference-row'), '24.41');
    await expectText(page.getByTestId('trial-balance-label'), 'Balances as of 2026-03-31');
    await expectText(page.getByTestId('report-trial-balance').locator('.report__status'), 'Balanced');
    const euroRevenue = page.getByTestId('trial-balance-row').filter({ hasText: 'Design revenue EUR' });
    await expectText(euroRevenue.getByTestId('original-amount'), '5,501.00 EUR');
    await expect.poll(() => page.getByTestId('report-translate').isChecked()).toBe(true);
    await e2e.screenshot(page, 'translated-trial-balance');
  });

  it('the income statement "In USD" translates each day at its rate', async () => {
    await page.goto(`/reports/income-statement?start=2026-01-01&end=2026-03-31&presentation_currency_id=${books.usd.id}`);
    await expectText(page.getByTestId('income-net'), '8,768.59');
    const euro = page.getByTestId('income-revenue').getByTestId('statement-row').filter({ hasText: 'Design revenue EUR' });
    await expectText(euro, '9,268.59');
    await expectText(euro.getByTestId('original-amount'), '8,501.00 EUR');
    await e2e.screenshot(page, 'translated-income-statement');
  });

  it('sets a rate on the Rates page, lists it, replaces it, and refuses a rate that is not a decimal under its field', async () => {
    e2e.expectHttpErrors(400);
    await call('POST', '/api/v1/currencies', {
      code: 'GBP', name: 'Pound sterling', symbol: '£', asset_scale: 2, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:GBP',
    });
    const rates = await new RatesPage(page).open();
    await expectVisible(rates.row('EUR', '2026-03-31'));
    await expectText(rates.row('EUR', '2026-03-31'), '1.0842');
    // The base currency is no choice in the form.
    expect(await rates.currency.locator('option', { hasText: 'USD' }).count()).toBe(0);

    await rates.setRate('GBP', '2026-03-31', '1.2700');
    await expectText(rates.result, 'Set: 1 GBP = 1.27 USD');
    await expectText(rates.row('GBP', '2026-03-31'), '1.27');

    await rates.setRate('GBP', '2026-03-31', '1.274512345678');
    await expectText(rates.result, 'replaced');
    await expectText(rates.result, '1.27 before');
    await expectText(rates.row('GBP', '2026-03-31'), '1.274512345678');
    await expect.poll(() => rates.rows.filter({ hasText: 'GBP' }).count()).toBe(1);

    await rates.rate.fill('1,5');
    await rates.save.click();
    await expectVisible(page.locator('.field--invalid').getByTestId('rate-value-input'));
    await expectText(rates.row('GBP', '2026-03-31'), '1.274512345678');

    await selectAndFilter(rates, books.eur.id);
    await expect.poll(() => rates.rows.filter({ hasText: 'GBP' }).count()).toBe(0);
    await e2e.screenshot(page, 'rates');
  });

  it('a currency without a rate for a day the report needs: the server\'s message and a link to the Rates page', async () => {
    e2e.expectHttpErrors(400);
    const gbp = (await call<{ id: string; code: string }[]>('GET', '/api/v1/currencies')).find((currency) => currency.code === 'GBP')!;
    const account = (account_number: string, account_type: string, normal_balance: string) => call<{ id: string }>('POST', '/api/v1/accounts',
      { account_number, name: `London ${account_number}`, currency_id: gbp.id, account_type, normal_balance });
    const cash = await account('1900', 'asset', 'debit');
    const sales = await account('4900', 'revenue', 'credit');
    await call('POST', '/api/v1/journal-entries', { entry_date: '2026-03-10', description: 'London sale',
      lines: [{ account_id: cash.id, debit_amount: '10000' }, { account_id: sales.id, credit_amount: '10000' }] });

    await page.goto(`/reports/balance-sheet?as_of=2026-03-31&presentation_currency_id=${books.usd.id}`);
    const missing = page.getByTestId('rate-missing');
    await expectText(missing, 'No GBP rate on or before 2026-03-10');
    await e2e.screenshot(page, 'rate-missing');
    await page.getByTestId('rate-missing-link').click();
    await new RatesPage(page).ready();
  });
});

async function selectAndFilter(rates: RatesPage, currencyId: string): Promise<void> {
  await rates.filterCurrency.selectOption(currencyId);
  await expect.poll(() => new URL(rates.page.url()).searchParams.get('currency')).toBe(currencyId);
}
