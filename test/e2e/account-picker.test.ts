/**
 * The entry form's account picker on a chart of 3,000 accounts: typing a number or part of a
 * name filters, at most 50 matches are rendered with a note to refine the search, the keyboard
 * alone picks an account, the ARIA combobox attributes follow along, and inactive accounts are
 * not offered for posting.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectAttribute, expectCount, expectText, MONTH, type SeededBooks, seedBooks, useE2E } from './fixture.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { EntryPage } from './pages/entry-page.js';
import { NewEntryPage } from './pages/new-entry-page.js';
import { SignInPage } from './pages/sign-in-page.js';

const e2e = useE2E();
const CUSTOMERS = 3000;
let books: SeededBooks;
let page: Page;
let form: NewEntryPage;

/** Customer n has account 5nnnn ("50007 · Customer 7"). */
const customerNumber = (index: number) => `5${String(index).padStart(4, '0')}`;

beforeAll(async () => {
  books = await seedBooks(e2e.server);
  const anonymous = await apiClient(e2e.server);
  const tokens = await anonymous.call<{ access_token: string }>('POST', '/auth/login', books.admin);
  const { call } = await apiClient(e2e.server, tokens.access_token);
  const create = (account_number: string, name: string) => call('POST', '/api/v1/accounts', {
    account_number, name, currency_id: books.currencyId, account_type: 'asset', normal_balance: 'debit',
  });
  for (let start = 0; start < CUSTOMERS; start += 25) {
    await Promise.all(Array.from({ length: Math.min(25, CUSTOMERS - start) }, (_, offset) =>
      create(customerNumber(start + offset), `Customer ${start + offset}`)));
  }
  const dormant = await call<{ id: string }>('POST', '/api/v1/accounts', {
    account_number: '59999', name: 'Dormant customer', currency_id: books.currencyId, account_type: 'asset', normal_balance: 'debit',
  });
  await call('PATCH', `/api/v1/accounts/${dormant.id}`, { is_active: false });

  page = await e2e.newPage();
  await new SignInPage(page).goto().then((signIn) => signIn.signIn(books.admin));
  await new DashboardPage(page).ready();
  form = await new NewEntryPage(page).goto();
}, 180_000);

describe('the account picker on 3,000 accounts', { timeout: 90_000 }, () => {
  it('renders at most 50 matches and asks to refine the search', async () => {
    const picker = form.lineAccount(0);
    await expectAttribute(picker, 'role', 'combobox');
    await picker.fill('customer');
    await expectCount(form.accountOptions, 50);
    await expectText(form.pickerStatus, `Showing 50 of ${CUSTOMERS.toLocaleString('en-US')} accounts; type more of the number or name to refine your search`);
    await e2e.screenshot(page, 'account-picker-many', { fullPage: false });

    // Part of a name narrows it down: "Customer 1234" and nothing else contains "customer 1234".
    await picker.fill('customer 1234');
    await expectCount(form.accountOptions, 1);
    await expectText(form.accountOptions.first(), '51234 · Customer 1234');
    await expectText(form.pickerStatus, '1 account');
  });

  it('finds an account by its number, exact match first', async () => {
    await form.lineAccount(0).fill('5123');
    // 5123x (10 accounts) start with it; nothing else contains it.
    await expectCount(form.accountOptions, 10);
    expect(await form.accountOptions.allInnerTexts()).toEqual(Array.from({ length: 10 }, (_, digit) =>
      expect.stringContaining(`${customerNumber(1230 + digit)} · Customer ${1230 + digit}`)));
    await form.lineAccount(0).fill('51235');
    await expectText(form.accountOptions.first(), '51235 · Customer 1235');
  });

  it('is driven by the keyboard: arrows move, Enter picks, Escape closes, with the ARIA state to match', async () => {
    const picker = form.lineAccount(0);
    await picker.fill('customer 29');
    await expectAttribute(picker, 'aria-expanded', 'true');
    const listId = await picker.getAttribute('aria-controls');
    expect(await page.locator(`[id="${listId}"]`).getAttribute('role')).toBe('listbox');
    // The first match is highlighted as typing goes; Arrow Down moves to the second.
    const first = form.accountOptions.nth(0);
    const second = form.accountOptions.nth(1);
    await expectAttribute(first, 'aria-selected', 'true');
    expect(await picker.getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'));
    await picker.press('ArrowDown');
    await expectAttribute(second, 'aria-selected', 'true');
    await expectAttribute(first, 'aria-selected', 'false');
    expect(await picker.getAttribute('aria-activedescendant')).toBe(await second.getAttribute('id'));
    const chosen = (await second.locator('.combobox__label').innerText()).trim();
    await picker.press('Enter');
    await expectAttribute(picker, 'aria-expanded', 'false');
    expect(await picker.inputValue()).toBe(chosen);
    // In account-number order: Customer 29 (50029), then Customer 290 (50290).
    expect(chosen).toBe('50290 · Customer 290');
    // Enter in the open list picked an account; it did not submit the form.
    expect(new URL(page.url()).pathname).toBe('/journal/new');

    // Escape closes the list, and a second Escape brings back the chosen account after a stray edit.
    await picker.fill('zzz');
    await expectText(form.pickerStatus, 'No account matches "zzz"');
    await picker.press('Escape');
    await expectAttribute(picker, 'aria-expanded', 'false');
    await picker.press('Escape');
    expect(await picker.inputValue()).toBe(chosen);

    // Arrow Down on a closed picker opens the whole list at the chosen account.
    await picker.press('ArrowDown');
    await expectAttribute(picker, 'aria-expanded', 'true');
    await picker.press('Escape');
  });

  it('does not offer inactive accounts for posting', async () => {
    await form.lineAccount(1).fill('dormant');
    await expectText(form.pickerStatus, 'No account matches "dormant"');
    await expectCount(form.accountOptions, 0);
    await form.lineAccount(1).press('Escape');
  });

  it('posts an entry whose accounts were found by typing', async () => {
    const sent = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/journal-entries');
    await form.fill({
      date: MONTH.day(3), description: 'Invoice to customer 2750',
      lines: [{ account: 'Customer 2750', debit: '99.00' }, { account: '4000 · Sales', credit: '99.00' }],
    });
    await form.submit.click();
    const body = (await sent).postDataJSON() as { lines: { account_id: string }[] };
    expect(body.lines.map((line) => line.account_id)).toEqual([expect.any(String), books.accounts.sales]);
    const entry = new EntryPage(page, 'Invoice to customer 2750');
    await entry.ready();
    await expectText(entry.line('Customer 2750'), '52750');
  });
});
