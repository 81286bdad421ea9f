/**
 * The lock date through the browser: an administrator sets it in the settings and the dashboard
 * shows it; a clerk without periods:override sees on the entry form that a date on or before it
 * will be refused, and the server's PERIOD_LOCKED lands on the date field; a supervisor holding
 * the override gives a reason, which the posted entry's page shows, and reverses an entry in the
 * locked range the same way. Entry numbers (`#3`) name the entries in the journal, on the entry
 * page and in an account's ledger.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectHidden, expectText, expectVisible, MONTH, type SeededBooks, seedBooks, useE2E } from './fixture.js';
import { AccountPage } from './pages/account-page.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { EntryPage } from './pages/entry-page.js';
import { JournalPage } from './pages/journal-page.js';
import { NewEntryPage } from './pages/new-entry-page.js';
import { SettingsPage } from './pages/settings-page.js';
import { SignInPage } from './pages/sign-in-page.js';

const e2e = useE2E();
const CLERK = { name: 'Cleo Clerk', email: 'cleo@example.com', password: 'clerk-pass-1234' };
const SUPERVISOR = { name: 'Sam Supervisor', email: 'sam@example.com', password: 'supervisor-pass-1234' };
const LOCK_DATE = MONTH.day(15);
const REASON = 'Supplier invoice for the first half of the month, received late';
let books: SeededBooks;

async function signedIn(user: { email: string; password: string }): Promise<Page> {
  const page = await e2e.newPage();
  await new SignInPage(page).goto().then((signIn) => signIn.signIn(user));
  await new DashboardPage(page).ready();
  return page;
}

async function fillSale(form: NewEntryPage, date: string, description: string): Promise<void> {
  await form.fill({ date, description, lines: [{ account: '1000 · Cash', debit: '12.00' }, { account: '4000 · Sales', credit: '12.00' }] });
}

describe('the lock date and its override', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    books = await seedBooks(e2e.server, { entries: 2 });
    const tokens = await (await apiClient(e2e.server)).call<{ access_token: string }>('POST', '/auth/login',
      { email: books.admin.email, password: books.admin.password });
    const { call } = await apiClient(e2e.server, tokens.access_token);
    await call('POST', '/api/v1/users', { ...CLERK, permissions: { 'journals:create': true } });
    await call('POST', '/api/v1/users', { ...SUPERVISOR, permissions: { 'journals:create': true, 'journals:reverse': true, 'periods:override': true } });
  }, 60_000);

  it('an administrator sets the lock date in the settings, and the dashboard shows it', async () => {
    const page = await signedIn(books.admin);
    const settings = await new SettingsPage(page).open();
    await expectVisible(page.getByTestId('lock-date-unset'));
    await page.getByTestId('lock-date-input').fill(LOCK_DATE);
    await page.getByTestId('lock-date-save').click();
    await expectVisible(page.getByTestId('lock-date-current'));
    await expectVisible(page.getByTestId('lock-date-clear'));
    await e2e.screenshot(settings.page, 'settings-lock-date');
    await new DashboardPage(page).open();
    await expectText(page.getByTestId('dashboard-lock-date'), 'Books locked through');
  });

  it('a clerk without the override is told before posting, and the refusal is shown on the date field', async () => {
    e2e.expectHttpErrors(400);
    const page = await signedIn(CLERK);
    const form = await new NewEntryPage(page).goto();
    await fillSale(form, MONTH.day(10), 'Late receipt');
    const notice = page.getByTestId('entry-lock-notice');
    await expectText(notice, 'periods:override');
    await expectText(notice, 'will be refused');
    expect(await page.getByTestId('entry-override-reason').count()).toBe(0);
    await e2e.screenshot(page, 'entry-locked-clerk');
    await form.submit.click();
    await expectVisible(form.errorSummary);
    expect(await form.fieldError(form.date)).toContain('locked up to');
    // A date after the lock: no notice, and it posts.
    await form.date.fill(MONTH.day(16));
    await expectHidden(notice);
    await form.submit.click();
    await new EntryPage(page, 'Late receipt').ready();
  });

  it('a supervisor with the override gives a reason, which the entry keeps and shows; a reversal in the locked range too', async () => {
    const page = await signedIn(SUPERVISOR);
    const form = await new NewEntryPage(page).goto();
    await fillSale(form, MONTH.day(10), 'Supplier invoice, early month');
    await expectText(page.getByTestId('entry-lock-notice'), 'You hold periods:override');
    await expectText(form.blocker, 'Give the reason');
    await expect.poll(() => form.submit.isDisabled()).toBe(true);
    await page.getByTestId('entry-override-reason').fill(REASON);
    await e2e.screenshot(page, 'entry-locked-override');
    await form.submit.click();

    const entry = new EntryPage(page, 'Supplier invoice, early month');
    await entry.ready();
    // Two seeded sales (#1, #2), the clerk's late receipt (#3), this one (#4).
    await expectText(page.getByRole('heading', { level: 1 }), 'Entry #4');
    await expectText(page.getByTestId('entry-override-note'), REASON);
    expect(await page.title()).toBe('Entry #4 · Ledger');
    await e2e.screenshot(page, 'entry-with-override-reason');

    await entry.reverse.click();
    await expectText(entry.reverseDialog.getByTestId('entry-lock-notice'), 'The reversal is dated on or before the lock date');
    await expect.poll(() => page.getByTestId('reverse-confirm').isDisabled()).toBe(true);
    await page.getByTestId('reverse-override-reason').fill('Wrong customer; corrected in the same half-month');
    await page.getByTestId('reverse-confirm').click();
    await new EntryPage(page, /Reversal of/).ready();
    await expectText(page.getByRole('heading', { level: 1 }), 'Entry #5');
    await expectText(page.getByTestId('entry-override-note'), 'Wrong customer');
  });

  it('the journal and an account\'s ledger name entries by number', async () => {
    const page = await signedIn(books.admin);
    const journal = await new JournalPage(page).open();
    await expectText(journal.row('Counter sale 1').getByTestId('journal-entry-number'), '#1');
    await expectText(journal.row('Supplier invoice, early month').getByTestId('journal-entry-number'), '#4');
    await e2e.screenshot(page, 'journal-entry-numbers');
    await page.goto(`/accounts/${books.accounts.cash}`);
    const cash = new AccountPage(page, /Cash/);
    await cash.ready();
    await expectText(cash.ledgerLines.filter({ hasText: 'Counter sale 2' }).getByTestId('ledger-entry-number'), '#2');
  });
});
