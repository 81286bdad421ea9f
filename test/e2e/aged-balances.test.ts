/**
 * A bookkeeper reads aged receivables in the browser: picks the control account and a date, reads
 * each customer's buckets and the totals, follows a customer to its account, downloads the CSV,
 * and reads the same report on a phone. Books kept in 2025 (as of 2025-06-30, days old in brackets):
 *
 *   Acme    invoices 03-01 1,500.00 [121] and 06-20 250.00 [10]; paid 04-01 500.00, which settles the
 *           oldest invoice first: over 90 1,000.00, 1-30 250.00; 1,250.00.
 *   Globex  paid 80.00 in advance on 06-30 [0]: current -80.00.
 *   Totals: current -80.00, 1-30 250.00, over 90 1,000.00; 1,170.00.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, apiClient, expectCount, expectText, expectVisible, PHONE, seedBooks, useE2E } from './fixture.js';
import { AgedBalancesPage } from './pages/aged-balances-page.js';
import { AccountPage } from './pages/account-page.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { SignInPage } from './pages/sign-in-page.js';

const e2e = useE2E();
let receivablesId: string;
let acmeId: string;

async function signedIn(options?: Parameters<typeof e2e.newPage>[0]): Promise<Page> {
  const page = await e2e.newPage(options);
  await new SignInPage(page).goto().then((signIn) => signIn.signIn(ADMIN));
  await new DashboardPage(page).ready();
  return page;
}

describe('aged receivables in the browser', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    const books = await seedBooks(e2e.server);
    const anonymous = await apiClient(e2e.server);
    const tokens = await anonymous.call<{ access_token: string }>('POST', '/auth/login', { email: ADMIN.email, password: ADMIN.password });
    const { call } = await apiClient(e2e.server, tokens.access_token);
    await call('POST', '/api/v1/periods', { name: 'FY2025', start_date: '2025-01-01', end_date: '2025-12-31' });
    const receivables = await call<{ id: string }>('POST', '/api/v1/accounts', {
      account_number: '1200', name: 'Receivables', account_type: 'asset', normal_balance: 'debit', currency_id: books.currencyId,
      has_subledger: true,
    });
    receivablesId = receivables.id;
    const customer = (account_number: string, name: string) => call<{ id: string }>('POST', '/api/v1/accounts', {
      account_number, name, parent_id: receivables.id, entity_id: name.toLowerCase(),
    });
    const acme = await customer('1200-01', 'Acme');
    const globex = await customer('1200-02', 'Globex');
    acmeId = acme.id;
    const post = (entry_date: string, debit: string, credit: string, amount: string) => call('POST', '/api/v1/journal-entries', {
      entry_date, description: `Entry of ${entry_date}`,
      lines: [{ account_id: debit, debit_amount: amount }, { account_id: credit, credit_amount: amount }],
    });
    const { cash, sales } = books.accounts;
    await post('2025-03-01', acme.id, sales, '150000');
    await post('2025-06-20', acme.id, sales, '25000');
    await post('2025-04-01', cash, acme.id, '50000');
    await post('2025-06-30', cash, globex.id, '8000');
  }, 60_000);

  it('picks the control account and a date, and reads each customer\'s buckets and the totals', async () => {
    const page = await signedIn();
    const aged = await new AgedBalancesPage(page).open();
    await expectText(aged.frame, 'Choose a control account');
    // Only control accounts are offered.
    expect(await aged.account.locator('option:not([disabled])').allInnerTexts()).toEqual(['Choose a control account…', '1200 · Receivables']);
    await aged.chooseAccount('1200 · Receivables');
    await aged.asOf.fill('2025-06-30');
    // Net 30 by default: Acme's invoice of 06-20 is not yet due.
    await expectText(aged.frame, /Net 30/);
    await expectCount(aged.rows, 2);
    expect(await aged.amounts(aged.row('Acme'))).toEqual(['250.00', '0.00', '0.00', '0.00', '1,000.00', '1,250.00']);
    // Net 0 ages by the entry date.
    await aged.terms.fill('0');
    await expectText(aged.frame, /Net 0/);
    await expectText(aged.totals, '1,170.00');
    expect(await aged.amounts(aged.row('Acme'))).toEqual(['0.00', '250.00', '0.00', '0.00', '1,000.00', '1,250.00']);
    expect(await aged.amounts(aged.row('Globex'))).toEqual(['-80.00', '0.00', '0.00', '0.00', '0.00', '-80.00']);
    expect(await aged.amounts(aged.totals)).toEqual(['-80.00', '250.00', '0.00', '0.00', '1,000.00', '1,170.00']);
    expect(await aged.row('Globex').locator('.money--negative').count()).toBe(2);
    expect(new URL(page.url()).search).toBe(`?account=${receivablesId}&as_of=2025-06-30&terms=0`);
    await expectText(aged.frame, /1200 · Receivables · As of .*2025 · Net 0 · USD/);
    await e2e.screenshot(page, 'report-aged-balances');

    // An earlier date: only Acme's first invoice, 2 days old on 2025-03-03.
    await aged.asOf.fill('2025-03-03');
    await expectText(aged.totals, '1,500.00');
    expect(await aged.amounts(aged.row('Acme'))).toEqual(['0.00', '1,500.00', '0.00', '0.00', '0.00', '1,500.00']);
    await expectCount(aged.rows, 1);

    await aged.row('Acme').getByRole('link', { name: 'Acme', exact: true }).click();
    await new AccountPage(page, /Acme/, acmeId).ready();
    expect(new URL(page.url()).pathname).toBe(`/accounts/${acmeId}`);
  });

  it('downloads the report as CSV, the date in the file name', async () => {
    const page = await signedIn();
    const aged = await new AgedBalancesPage(page).goto(`?account=${receivablesId}&as_of=2025-06-30&terms=0`);
    await expectText(aged.totals, '1,170.00');
    const download = await aged.downloadCsv();
    expect(download.suggestedFilename()).toBe('aged-balances-1200-2025-06-30.csv');
    const text = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    expect(text.trim().split(/\r?\n/)).toEqual([
      'account_number,account_name,entity_id,current,days_1_30,days_31_60,days_61_90,days_over_90,total',
      '1200-01,Acme,acme,0.00,250.00,0.00,0.00,1000.00,1250.00',
      '1200-02,Globex,globex,-80.00,0.00,0.00,0.00,0.00,-80.00',
      ',Total,,-80.00,250.00,0.00,0.00,1000.00,1170.00',
    ]);
  });

  it('is reachable from the reports page', async () => {
    const page = await signedIn();
    await page.goto('/reports');
    await page.getByRole('link', { name: 'Aged balances', exact: true }).last().click();
    await new AgedBalancesPage(page).ready();
  });

  it('fits a phone: no sideways page scroll, and the customer column stays in view while the amounts scroll', async () => {
    const page = await signedIn({ viewport: PHONE });
    const aged = await new AgedBalancesPage(page).goto(`?account=${receivablesId}&as_of=2025-06-30`);
    await expectText(aged.totals, '1,170.00');
    expect((await aged.fitsViewportWidth()).scrollWidth).toBeLessThanOrEqual(PHONE.width);
    const name = aged.row('Acme').getByRole('link', { name: 'Acme', exact: true });
    await expectVisible(name);
    // Scroll the table's frame to its right end: the totals' last cell comes into view, the names stay.
    await aged.table.evaluate((table: any) => { table.parentElement.scrollLeft = table.parentElement.scrollWidth; });
    const total = aged.totals.locator('td').last();
    const inView = async (locator: typeof name) => {
      const box = (await locator.boundingBox())!;
      return box.x >= 0 && box.x + box.width <= PHONE.width;
    };
    await expect.poll(() => inView(total)).toBe(true);
    expect(await inView(name)).toBe(true);
    // Nothing covers the name: the sticky column is drawn above the scrolled amounts.
    expect(await name.evaluate((element: any) => {
      const box = element.getBoundingClientRect();
      const hit = element.ownerDocument.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return hit !== null && element.contains(hit);
    })).toBe(true);
    await e2e.screenshot(page, 'phone-aged-balances', { fullPage: false });
  });
});
