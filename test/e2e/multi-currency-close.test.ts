/**
 * A month with USD and EUR revenue, closed through the browser: the close is refused while EUR has
 * no retained earnings account and the page says where to set one; after choosing it in the
 * settings, the preview shows one closing entry per currency and the close posts both.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectCount, expectText, expectVisible, MONTH, type SeededBooks, seedBooks, useE2E } from './fixture.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { PeriodsPage } from './pages/periods-page.js';
import { SettingsPage } from './pages/settings-page.js';
import { SignInPage } from './pages/sign-in-page.js';

const e2e = useE2E();
let page: Page;
let books: SeededBooks;
let call: Awaited<ReturnType<typeof apiClient>>['call'];

describe('a bookkeeper closes a month with USD and EUR revenue', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    books = await seedBooks(e2e.server, { entries: 1 });
    const tokens = await (await apiClient(e2e.server)).call<{ access_token: string }>('POST', '/auth/login',
      { email: books.admin.email, password: books.admin.password });
    call = (await apiClient(e2e.server, tokens.access_token)).call;
    const eur = await call<{ id: string }>('POST', '/api/v1/currencies', {
      code: 'EUR', name: 'Euro', symbol: '€', asset_scale: 2, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:EUR',
    });
    const account = (account_number: string, name: string, account_type: string, normal_balance: string) =>
      call<{ id: string }>('POST', '/api/v1/accounts', { account_number, name, account_type, normal_balance, currency_id: eur.id });
    const bank = await account('1050', 'Bank EUR', 'asset', 'debit');
    const consulting = await account('4030', 'Consulting EUR', 'revenue', 'credit');
    await account('3050', 'Retained earnings EUR', 'equity', 'credit');
    await call('POST', '/api/v1/journal-entries', {
      entry_date: MONTH.day(15), description: 'Invoice to a Paris client',
      lines: [{ account_id: bank.id, debit_amount: '42000' }, { account_id: consulting.id, credit_amount: '42000' }],
    });
    page = await e2e.newPage();
    await new SignInPage(page).goto().then((signIn) => signIn.signIn(books.admin));
    await new DashboardPage(page).ready();
  }, 60_000);

  it('is refused while EUR has no retained earnings account, naming EUR and pointing to the settings', async () => {
    e2e.expectHttpErrors(400);
    const periods = await new PeriodsPage(page).open();
    await periods.previewClose(MONTH.name);
    await expectText(page.getByTestId('error-notice'), /EUR/);
    await expectVisible(periods.currencyFix);
    expect(await periods.confirm.count()).toBe(0);
    await e2e.screenshot(page, 'multi-currency-close-refused');
    await periods.currencyFix.getByRole('link', { name: /Settings/ }).click();
    await new SettingsPage(page).ready();
  });

  it('chooses the EUR retained earnings account in the settings', async () => {
    const settings = await new SettingsPage(page).open();
    await settings.chooseCurrencyRetainedEarnings('EUR', '3050 · Retained earnings EUR');
    await expectVisible(settings.currencyRow('EUR').getByTestId('currency-retained-remove'));
    const saved = await call<{ retained_earnings_account_ids: Record<string, string> }>('GET', '/api/v1/settings');
    expect(Object.keys(saved.retained_earnings_account_ids)).toHaveLength(1);
    await e2e.screenshot(page, 'settings-currency-retained-earnings');
  });

  it('previews one closing entry per currency and closes the month with both', async () => {
    const periods = await new PeriodsPage(page).open();
    await periods.previewClose(MONTH.name);
    await expectCount(periods.previewEntry, 2);
    // USD: the seeded counter sale of 10.00; EUR: the 420.00 invoice.
    await expectText(periods.previewEntryIn('USD').getByRole('row').filter({ hasText: 'Sales' }), '10.00');
    await expectText(periods.previewEntryIn('EUR').getByRole('row').filter({ hasText: 'Consulting EUR' }), '420.00');
    await expectText(periods.previewEntryIn('EUR').getByRole('row').filter({ hasText: 'Retained earnings EUR' }), '420.00');
    await e2e.screenshot(page, 'multi-currency-close-preview');
    await periods.confirmClose();
    await expectText(periods.row(MONTH.name), 'closed');
    const entries = await call<{ entry_type: string; currency_id: string }[]>('GET', `/api/v1/journal-entries?period_id=${books.periodId}`);
    expect(entries.filter((entry) => entry.entry_type === 'closing')).toHaveLength(2);
  });
});
