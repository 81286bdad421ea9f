/**
 * When the API refuses a form, its message appears beside the field it names (the error body's
 * `field`), marked invalid and announced, and editing that field clears it.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAttribute, expectText, expectVisible, MONTH, seedBooks, useE2E } from './fixture.js';
import { AccountsPage } from './pages/accounts-page.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { EntryPage } from './pages/entry-page.js';
import { NewEntryPage } from './pages/new-entry-page.js';
import { SignInPage } from './pages/sign-in-page.js';

const e2e = useE2E();
let page: Page;

describe('API errors beside their fields', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    const books = await seedBooks(e2e.server);
    page = await e2e.newPage();
    await new SignInPage(page).goto().then((signIn) => signIn.signIn(books.admin));
    await new DashboardPage(page).ready();
  }, 60_000);

  it('shows NO_OPEN_PERIOD at the date of an entry dated outside every period', async () => {
    e2e.expectHttpErrors(400);
    const form = await new NewEntryPage(page).goto();
    await form.fill({
      date: '2019-06-15', description: 'Sale from an old shoebox',
      lines: [{ account: '1000 · Cash', debit: '40.00' }, { account: '4000 · Sales', credit: '40.00' }],
    });
    await form.submit.click();

    await expectAttribute(form.date, 'aria-invalid', 'true');
    expect(await form.fieldError(form.date)).toBe('No period contains 2019-06-15');
    await expectText(form.errorSummary, 'No open period for this date');
    expect(await form.fieldError(form.description)).toBe('');
    await e2e.screenshot(page, 'api-error-beside-date');

    // A date inside the open period clears the message and the entry posts.
    await form.date.fill(MONTH.day(9));
    expect(await form.date.getAttribute('aria-invalid')).toBeNull();
    await form.submit.click();
    await new EntryPage(page, 'Sale from an old shoebox').ready();
  });

  it('shows a taken account number beside the account number field', async () => {
    e2e.expectHttpErrors(409);
    const accounts = await new AccountsPage(page).open();
    await accounts.submitNew({ number: '1000', name: 'Petty cash' });
    const number = accounts.dialog.getByTestId('account-number');
    await expectAttribute(number, 'aria-invalid', 'true');
    const errorId = (await number.getAttribute('aria-describedby'))?.split(' ').find((id) => id.endsWith('-error')) ?? 'none';
    await expectText(page.locator(`[id="${errorId}"]`), /An account with this account number already exists/);
    await expectVisible(accounts.dialog);
  });
});
