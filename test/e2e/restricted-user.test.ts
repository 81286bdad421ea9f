/**
 * A user without write permissions (created on the command line with `--permissions '{}'`) signs
 * in through the UI: every page shows the books, none offers a write action, and typing the
 * new-entry address shows why there is no form. A permission taken away while a form is open
 * is explained when the API refuses.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient, expectCount, expectHidden, expectText, expectVisible, MONTH, runCli, type SeededBooks, seedBooks, useE2E,
} from './fixture.js';
import { AccountPage } from './pages/account-page.js';
import { AccountsPage } from './pages/accounts-page.js';
import { CurrenciesPage } from './pages/currencies-page.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { EntryPage } from './pages/entry-page.js';
import { JournalPage } from './pages/journal-page.js';
import { NewEntryPage } from './pages/new-entry-page.js';
import { PeriodsPage } from './pages/periods-page.js';
import { SettingsPage } from './pages/settings-page.js';
import { SignInPage } from './pages/sign-in-page.js';
import { UsersPage } from './pages/users-page.js';

const e2e = useE2E();
const READER = { name: 'Rita Reader', email: 'rita@example.com', password: 'read-only-pass' };
const POSTER = { name: 'Paul Poster', email: 'paul@example.com', password: 'post-only-pass' };
let books: SeededBooks;
let page: Page;

/** The number of elements matching each test id, after the page has shown its data. */
async function countByTestId(target: Page, ids: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const id of ids) counts[id] = await target.getByTestId(id).count();
  return counts;
}

const none = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, 0]));

describe('a read-only user', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    books = await seedBooks(e2e.server, { entries: 1 });
    runCli(e2e.server, ['users', 'create', '--name', READER.name, '--email', READER.email, '--password', READER.password, '--permissions', '{}']);
    page = await e2e.newPage();
    await new SignInPage(page).goto().then((signIn) => signIn.signIn(READER));
    await new DashboardPage(page).ready();
  }, 60_000);

  it('sees figures on the dashboard but no "New entry"', async () => {
    const dashboard = new DashboardPage(page);
    await expectVisible(dashboard.recentEntries.getByRole('link', { name: 'Counter sale 1' }));
    expect(await dashboard.newEntry.count()).toBe(0);
    await e2e.screenshot(page, 'restricted-dashboard');
  });

  it('cannot create, edit or extend accounts', async () => {
    const accounts = await new AccountsPage(page).open();
    await expectCount(accounts.rows, 3);
    const ids = ['account-new', 'account-edit', 'account-add-sub'];
    expect(await countByTestId(page, ids)).toEqual(none(ids));
    await expectText(page.getByRole('main'), 'Chart of accounts');

    await accounts.openAccount('Cash');
    const cash = new AccountPage(page, /Cash/);
    await cash.ready();
    await expectCount(cash.ledgerLines, 1);
    expect(await cash.edit.count()).toBe(0);
    expect(await cash.newEntry.count()).toBe(0);
  });

  it('cannot post or reverse journal entries', async () => {
    const journal = await new JournalPage(page).open();
    await expectCount(journal.rows, 1);
    expect(await journal.newEntry.count()).toBe(0);
    await journal.openEntry('Counter sale 1');
    const entry = new EntryPage(page, 'Counter sale 1');
    await entry.ready();
    await expectCount(entry.lines, 2);
    expect(await entry.reverse.count()).toBe(0);
    // Copying leads to the new-entry form, which this user cannot post from.
    expect(await entry.copy.count()).toBe(0);
  });

  it('cannot create or close periods', async () => {
    const periods = await new PeriodsPage(page).open();
    await expectVisible(periods.row(MONTH.name));
    const ids = ['period-new', 'period-close'];
    expect(await countByTestId(page, ids)).toEqual(none(ids));
  });

  it('cannot add currencies, manage users or change settings', async () => {
    const currencies = await new CurrenciesPage(page).open();
    await expectVisible(currencies.row('USD'));
    expect(await countByTestId(page, ['currency-new', 'currency-edit'])).toEqual(none(['currency-new', 'currency-edit']));

    const users = await new UsersPage(page).open();
    await expectVisible(users.row(READER.name));
    const userIds = ['user-new', 'service-account-new', 'user-edit', 'user-toggle-active'];
    expect(await countByTestId(page, userIds)).toEqual(none(userIds));
    await expectText(page.getByRole('main'), 'Changing users needs the users:manage permission');

    const settings = await new SettingsPage(page).open();
    await expectText(settings.retainedEarnings, 'Currently: 3000 · Retained earnings');
    expect(await countByTestId(page, ['retained-earnings-select', 'retained-earnings-save']))
      .toEqual(none(['retained-earnings-select', 'retained-earnings-save']));
    await expectText(settings.retainedEarnings, 'Changing settings needs the settings:write permission');
    await e2e.screenshot(page, 'restricted-settings');
  });

  it('typing the new-entry address shows a permission message instead of a form', async () => {
    const form = await new NewEntryPage(page).goto();
    await expectVisible(form.permissionNotice);
    await expectText(form.permissionNotice, 'journals:create');
    expect(await form.form.count()).toBe(0);
    expect(await form.submit.count()).toBe(0);
    await e2e.screenshot(page, 'restricted-new-entry');
  });
});

describe('a user whose permission is taken away while the form is open', { timeout: 60_000 }, () => {
  it('is told "You do not have permission to do this" when posting', async () => {
    e2e.expectHttpErrors(403);
    const poster = runCli(e2e.server, ['--json', 'users', 'create', '--name', POSTER.name, '--email', POSTER.email, '--password', POSTER.password,
      '--permissions', '{"journals:create": true}']);
    const posterId = (JSON.parse(poster) as { data: { id: string } }).data.id;
    const own = await e2e.newPage();
    await new SignInPage(own).goto().then((signIn) => signIn.signIn(POSTER));
    await new DashboardPage(own).ready();
    const form = await new NewEntryPage(own).goto();
    await form.fill({
      date: MONTH.day(5), description: 'Late sale',
      lines: [{ account: '1000 · Cash', debit: '5.00' }, { account: '4000 · Sales', credit: '5.00' }],
    });

    const admin = await apiClient(e2e.server);
    const tokens = await admin.call<{ access_token: string }>('POST', '/auth/login', { email: books.admin.email, password: books.admin.password });
    await admin.call('PATCH', `/api/v1/users/${posterId}`, { permissions: { 'journals:create': false } }, tokens.access_token);

    await form.submit.click();
    const notice = own.getByTestId('error-notice');
    await expectText(notice, 'You do not have permission to do this');
    expect(new URL(own.url()).pathname).toBe('/journal/new');
    await expectHidden(own.getByRole('heading', { level: 1, name: 'Late sale' }), 1_000);
  });
});
