/**
 * Everyday entry work in the browser: "Post and new" for a run of entries, "Copy entry" to start
 * from a posted one, amounts typed in the browser's own number format (en-US and de-DE), no
 * Reverse or Copy on a closing entry, and the new-account form's default currency.
 */
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient, expectAttribute, expectCount, expectHidden, expectText, expectVisible, MONTH, type SeededBooks, seedBooks, useE2E,
} from './fixture.js';
import { AccountsPage } from './pages/accounts-page.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { EntryPage } from './pages/entry-page.js';
import { NewEntryPage } from './pages/new-entry-page.js';
import { SignInPage } from './pages/sign-in-page.js';

const e2e = useE2E();
let books: SeededBooks;
let call: Awaited<ReturnType<typeof apiClient>>['call'];

interface EntryBody { entry_date: string; description: string; reference?: string; lines: { account_id: string; debit_amount?: string; credit_amount?: string; description?: string }[] }
interface Entry { id: string; entry_type: string; description: string; reference: string | null; entry_date: string }

beforeAll(async () => {
  books = await seedBooks(e2e.server);
  const anonymous = await apiClient(e2e.server);
  const tokens = await anonymous.call<{ access_token: string }>('POST', '/auth/login', books.admin);
  call = (await apiClient(e2e.server, tokens.access_token)).call;
}, 60_000);

async function signedIn(options: { locale?: string } = {}): Promise<Page> {
  const page = await e2e.newPage(options);
  await new SignInPage(page).goto().then((signIn) => signIn.signIn(books.admin));
  await new DashboardPage(page).ready();
  return page;
}

/** Records the bodies of the entries the page posts. */
function watchEntryPosts(page: Page): EntryBody[] {
  const bodies: EntryBody[] = [];
  page.on('request', (request: Request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/api/v1/journal-entries')) bodies.push(request.postDataJSON() as EntryBody);
  });
  return bodies;
}

const focusedTestId = (page: Page) => page.evaluate<string>("document.activeElement?.getAttribute('data-testid') ?? ''");
const entriesNamed = async (description: string) =>
  (await call<Entry[]>('GET', `/api/v1/journal-entries?limit=200&q=${encodeURIComponent(description)}`)).filter((entry) => entry.description === description);

describe('Post and new', { timeout: 90_000 }, () => {
  it('posts, confirms, and leaves an empty form on the same date with the focus in the first field', async () => {
    const page = await signedIn();
    const posts = watchEntryPosts(page);
    const form = await new NewEntryPage(page).goto();
    await form.fill({
      date: MONTH.day(10), description: 'Coffee beans',
      lines: [{ account: '1000 · Cash', debit: '12.50' }, { account: '4000 · Sales', credit: '12.50' }],
    });
    await form.reference.fill('R-100');
    await form.submitAndNew.click();

    await expectText(form.posted, 'Posted “Coffee beans”');
    await expectVisible(page.getByTestId('toast').filter({ hasText: 'Entry posted' }));
    expect(new URL(page.url()).pathname).toBe('/journal/new');
    // Empty again, but the date is kept for the next entry of the same batch.
    expect(await form.date.inputValue()).toBe(MONTH.day(10));
    expect(await form.description.inputValue()).toBe('');
    expect(await form.reference.inputValue()).toBe('');
    for (const index of [0, 1]) {
      expect(await form.lineAccount(index).inputValue()).toBe('');
      expect(await form.lineDebit(index).inputValue()).toBe('');
      expect(await form.lineCredit(index).inputValue()).toBe('');
    }
    await expectCount(page.getByTestId(/^entry-line-\d+$/), 2);
    expect(await focusedTestId(page)).toBe('entry-date');
    expect(await form.submit.isDisabled()).toBe(true);
    await e2e.screenshot(page, 'entry-post-and-new');

    // The next entry, typed from the keyboard, posts too; the confirmation now names it.
    await form.fill({ date: MONTH.day(10), description: 'Milk', lines: [{ account: '1000 · Cash', debit: '3.20' }, { account: '4000 · Sales', credit: '3.20' }] });
    await form.submitAndNew.click();
    await expectText(form.posted, 'Posted “Milk”');
    await form.posted.getByTestId('entry-posted-link').click();
    await new EntryPage(page, 'Milk').ready();

    expect(posts.map((body) => [body.entry_date, body.description, body.reference ?? null, body.lines.map((line) => line.debit_amount ?? `-${line.credit_amount}`)]))
      .toEqual([[MONTH.day(10), 'Coffee beans', 'R-100', ['1250', '-1250']], [MONTH.day(10), 'Milk', null, ['320', '-320']]]);
    expect((await entriesNamed('Coffee beans')).length).toBe(1);
    expect((await entriesNamed('Milk')).length).toBe(1);
  });

  it('keeps the plain Post entry: it shows the posted entry', async () => {
    const page = await signedIn();
    const form = await new NewEntryPage(page).goto();
    await form.fill({ date: MONTH.day(11), description: 'Tea', lines: [{ account: '1000 · Cash', debit: '4.00' }, { account: '4000 · Sales', credit: '4.00' }] });
    await form.submit.click();
    const entry = new EntryPage(page, 'Tea');
    await entry.ready();
    await expectCount(entry.lines, 2);
  });
});

describe('Copy entry', { timeout: 90_000 }, () => {
  let original: Entry;

  beforeAll(async () => {
    original = await call<Entry>('POST', '/api/v1/journal-entries', {
      entry_date: MONTH.day(5), description: 'Monthly rent share', reference: 'INV-2041',
      lines: [
        { account_id: books.accounts.cash, debit_amount: '123456', description: 'From the tenant' },
        { account_id: books.accounts.sales, credit_amount: '100000', description: 'Rent part' },
        { account_id: books.accounts.sales, credit_amount: '23456' },
      ],
    });
  });

  it('opens the new-entry form on a copy, on its own date (no open period covers today), without the reference, and posts nothing until saved', async () => {
    const page = await signedIn();
    const posts = watchEntryPosts(page);
    const entry = await new EntryPage(page, 'Monthly rent share', original.id).goto();
    await entry.copy.click();
    const form = new NewEntryPage(page);
    await form.ready();
    await expectVisible(form.copiedFrom);
    await expectText(form.copiedFrom, 'Monthly rent share');
    expect(new URL(page.url()).search).toBe(`?copy=${original.id}`);

    expect(await form.description.inputValue()).toBe('Monthly rent share');
    expect(await form.reference.inputValue()).toBe('');
    // Today is in no period of these books, the original's month is open: the copy keeps its date.
    expect(await form.date.inputValue()).toBe(MONTH.day(5));
    await expectText(form.copiedFrom, 'on its own date, since no open period covers today');
    await expectCount(page.getByTestId(/^entry-line-\d+$/), 3);
    const lines = [];
    for (const index of [0, 1, 2]) {
      lines.push([await form.lineAccount(index).inputValue(), await form.lineDebit(index).inputValue(),
        await form.lineCredit(index).inputValue(), await form.lineDescription(index).inputValue()]);
    }
    expect(lines).toEqual([
      ['1000 · Cash', '1,234.56', '', 'From the tenant'],
      ['4000 · Sales', '', '1,000.00', 'Rent part'],
      ['4000 · Sales', '', '234.56', ''],
    ]);
    await expectAttribute(form.difference, 'data-balanced', 'true');
    await e2e.screenshot(page, 'entry-copy');
    expect(posts).toEqual([]);
    expect(await entriesNamed('Monthly rent share')).toHaveLength(1);

    // The copy gets another date in the month, a changed amount, and is posted.
    await form.date.fill(MONTH.day(28));
    await form.lineDebit(0).fill('1,300.00');
    await form.lineCredit(2).fill('300');
    await form.submit.click();
    const copy = new EntryPage(page, 'Monthly rent share');
    await expectText(copy.lines.first(), '1,300.00');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toEqual({
      entry_date: MONTH.day(28), description: 'Monthly rent share',
      lines: [
        { account_id: books.accounts.cash, debit_amount: '130000', description: 'From the tenant' },
        { account_id: books.accounts.sales, credit_amount: '100000', description: 'Rent part' },
        { account_id: books.accounts.sales, credit_amount: '30000' },
      ],
    });
    const stored = await entriesNamed('Monthly rent share');
    expect(stored.map((row) => [row.entry_date, row.reference, row.entry_type]).sort())
      .toEqual([[MONTH.day(5), 'INV-2041', 'standard'], [MONTH.day(28), null, 'standard']]);
  });

  it('offers no Copy on a reversal, and Copy on the reversed original', async () => {
    const reversal = await call<Entry>('POST', `/api/v1/journal-entries/${original.id}/reverse`, { entry_date: MONTH.day(6) });
    const page = await signedIn();
    const reversalPage = await new EntryPage(page, /Reversal of: Monthly rent share/, reversal.id).goto();
    await expectVisible(reversalPage.originalLink);
    expect(await reversalPage.copy.count()).toBe(0);
    const originalPage = await new EntryPage(page, 'Monthly rent share', original.id).goto();
    await expectVisible(originalPage.reversalLink);
    await expectVisible(originalPage.copy);
    expect(await originalPage.reverse.count()).toBe(0);
  });
});

describe('Copy entry, then Post and new', { timeout: 90_000 }, () => {
  it('posts the copy and leaves an empty form at /journal/new, so a reload copies nothing again', async () => {
    const source = await call<Entry>('POST', '/api/v1/journal-entries', {
      entry_date: MONTH.day(7), description: 'Weekly cleaning', reference: 'CL-1',
      lines: [{ account_id: books.accounts.cash, debit_amount: '4500' }, { account_id: books.accounts.sales, credit_amount: '4500' }],
    });
    const page = await signedIn();
    const form = await new NewEntryPage(page).goto(`?copy=${source.id}`);
    await expectVisible(form.copiedFrom);
    await form.date.fill(MONTH.day(14));
    await form.submitAndNew.click();
    await expectText(form.posted, 'Posted “Weekly cleaning”');
    expect(new URL(page.url()).search).toBe('');
    expect(await form.copiedFrom.count()).toBe(0);
    expect(await form.description.inputValue()).toBe('');
    expect(await form.date.inputValue()).toBe(MONTH.day(14));
    expect(await focusedTestId(page)).toBe('entry-date');
    await page.reload();
    await form.ready();
    expect(await form.description.inputValue()).toBe('');
    const stored = await entriesNamed('Weekly cleaning');
    expect(stored.map((row) => [row.entry_date, row.reference]).sort()).toEqual([[MONTH.day(7), 'CL-1'], [MONTH.day(14), null]]);
  });
});

describe('amounts in the browser\'s number format', { timeout: 90_000 }, () => {
  it('reads 1,234.56 and $1,234.56 in en-US, and says why 1.234,56 and 1,5 are refused', async () => {
    const page = await signedIn({ locale: 'en-US' });
    const posts = watchEntryPosts(page);
    const form = await new NewEntryPage(page).goto();
    await form.fill({ date: MONTH.day(12), description: 'Locale en-US', lines: [{ account: '1000 · Cash' }, { account: '4000 · Sales' }] });

    const refusals: [string, string][] = [
      ['1.234,56', 'A thousands separator after the decimal separator: in this browser\'s number format (en-US) "." marks decimals and "," thousands'],
      ['1,5', 'Thousands separator in the wrong place: in this browser\'s number format (en-US) "." marks decimals and "," thousands (groups of 3 digits)'],
      ['12.345', 'USD has 2 decimal places; this amount has 3'],
      ['€12', 'This entry is in USD; "€" is not its currency'],
      ['12 apples', '"a" cannot be part of an amount'],
      ['-5', 'Enter a positive amount'],
    ];
    for (const [typed, message] of refusals) {
      await form.lineDebit(0).fill(typed);
      await expectAttribute(form.lineDebit(0), 'aria-invalid', 'true');
      expect(await form.fieldError(form.lineDebit(0))).toContain(message);
      expect(await form.submit.isDisabled()).toBe(true);
    }
    await e2e.screenshot(page, 'entry-amount-refused-en-US', { fullPage: false });

    await form.lineDebit(0).fill('$1,234.56');
    await form.lineCredit(1).fill('1234.56 USD');
    await form.lineCredit(1).blur();
    // Leaving the field writes the amount in full, in the locale's format.
    expect(await form.lineCredit(1).inputValue()).toBe('1,234.56');
    await expectText(form.page.getByTestId('entry-total-debit'), '1,234.56');
    await expectAttribute(form.difference, 'data-balanced', 'true');
    await form.submit.click();
    await new EntryPage(page, 'Locale en-US').ready();
    expect(posts.map((body) => body.lines.map((line) => line.debit_amount ?? `-${line.credit_amount}`))).toEqual([['123456', '-123456']]);
  });

  it('reads 1.234,56 and 1.234,56 $ in de-DE, and says why 1,234.56 and 1.5 are refused', async () => {
    const page = await signedIn({ locale: 'de-DE' });
    const posts = watchEntryPosts(page);
    const form = await new NewEntryPage(page).goto();
    await expectText(page.getByRole('heading', { level: 1 }).locator('xpath=..'), 'e.g. 1.234,56');
    await form.fill({ date: MONTH.day(13), description: 'Locale de-DE', lines: [{ account: '1000 · Cash' }, { account: '4000 · Sales' }] });

    const refusals: [string, string][] = [
      ['1,234.56', 'A thousands separator after the decimal separator: in this browser\'s number format (de-DE) "," marks decimals and "." thousands'],
      ['1.5', 'Thousands separator in the wrong place: in this browser\'s number format (de-DE) "," marks decimals and "." thousands'],
      ['1,2,3', 'Two decimal separators (",")'],
    ];
    for (const [typed, message] of refusals) {
      await form.lineDebit(0).fill(typed);
      await expectAttribute(form.lineDebit(0), 'aria-invalid', 'true');
      expect(await form.fieldError(form.lineDebit(0))).toContain(message);
    }
    await e2e.screenshot(page, 'entry-amount-refused-de-DE', { fullPage: false });

    await form.lineDebit(0).fill('1.234,56 $');
    await form.lineCredit(1).fill('1234,5');
    await form.lineCredit(1).blur();
    expect(await form.lineCredit(1).inputValue()).toBe('1.234,50');
    await expectText(form.difference, '0,06 more debit');
    // "=" puts the remaining difference on a line, written in the locale's format too.
    await form.page.getByTestId('line-1-balance').click();
    expect(await form.lineCredit(1).inputValue()).toBe('1.234,56');
    await expectText(form.page.getByTestId('entry-total-credit'), '1.234,56');
    await form.submit.click();
    await new EntryPage(page, 'Locale de-DE').ready();
    expect(posts.map((body) => body.lines.map((line) => line.debit_amount ?? `-${line.credit_amount}`))).toEqual([['123456', '-123456']]);
  });
});

describe('a closing entry', { timeout: 90_000 }, () => {
  it('has neither Reverse nor Copy, and says why', async () => {
    // A period of its own, two months back, so the other journeys keep last month open.
    const start = new Date(`${MONTH.start}T00:00:00Z`);
    const first = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
    const last = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 0)).toISOString().slice(0, 10);
    const period = await call<{ id: string }>('POST', '/api/v1/periods', { name: 'The month before', start_date: first, end_date: last });
    const sale = await call<Entry>('POST', '/api/v1/journal-entries', {
      entry_date: first, description: 'Early sale', lines: [
        { account_id: books.accounts.cash, debit_amount: '5000' }, { account_id: books.accounts.sales, credit_amount: '5000' }],
    });
    const closed = await call<{ closing_entry: Entry }>('POST', `/api/v1/periods/${period.id}/close`);
    expect(closed.closing_entry.entry_type).toBe('closing');

    const page = await signedIn();
    const closing = await new EntryPage(page, /Closing/i, closed.closing_entry.id).goto();
    await expectCount(closing.lines, 2);
    await expectText(closing.closingNote, 'cannot be reversed or copied');
    expect(await closing.reverse.count()).toBe(0);
    expect(await closing.copy.count()).toBe(0);
    await e2e.screenshot(page, 'entry-closing');

    // The entry it closed still has both (this user may reverse), so the absence above is the rule, not a missing permission.
    const standard = await new EntryPage(page, 'Early sale', sale.id).goto();
    await expectVisible(standard.copy);
    await expectVisible(standard.reverse);

    // A copy link typed by hand is refused too.
    await page.goto(`/journal/new?copy=${closed.closing_entry.id}`);
    await expectText(page.getByRole('alert').filter({ hasText: 'cannot be copied' }), 'closing entry is made by closing a period');
  });
});

describe('the new-account form', { timeout: 90_000 }, () => {
  it('defaults to the base currency, even when most accounts are in another', async () => {
    const eur = await call<{ id: string }>('POST', '/api/v1/currencies', {
      code: 'EUR', name: 'Euro', symbol: '€', asset_scale: 2, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:EUR',
    });
    for (const number of ['7001', '7002', '7003', '7004']) {
      await call('POST', '/api/v1/accounts', { account_number: number, name: `Euro account ${number}`, currency_id: eur.id, account_type: 'asset', normal_balance: 'debit' });
    }
    const page = await signedIn();
    const accounts = await new AccountsPage(page).open();
    await accounts.newAccount.click();
    const currency = accounts.dialog.getByTestId('account-currency');
    const usdId = books.currencyId;
    // No base currency chosen: the retained earnings account's, USD, though four of seven accounts are in EUR.
    await expect.poll(() => currency.inputValue()).toBe(usdId);
    await page.keyboard.press('Escape');
    await expectHidden(accounts.dialog);

    await call('PATCH', '/api/v1/settings', { base_currency_id: eur.id });
    await page.reload();
    await accounts.ready();
    await accounts.newAccount.click();
    await expect.poll(() => currency.inputValue()).toBe(eur.id);
    // A choice made in the form stays.
    await currency.selectOption(usdId);
    expect(await currency.inputValue()).toBe(usdId);
    await call('PATCH', '/api/v1/settings', { base_currency_id: null });
  });
});
