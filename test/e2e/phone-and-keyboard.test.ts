/**
 * The app on a phone (390 x 844) and from the keyboard: pages fit the screen without sideways
 * scrolling, the menu drawer navigates, and signing in needs no mouse.
 */
import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAttribute, expectCount, expectVisible, MONTH, PHONE, type SeededBooks, seedBooks, useE2E } from './fixture.js';
import { AccountsPage } from './pages/accounts-page.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { EntryPage } from './pages/entry-page.js';
import { JournalPage } from './pages/journal-page.js';
import { NewEntryPage } from './pages/new-entry-page.js';
import { SignInPage } from './pages/sign-in-page.js';

const e2e = useE2E();

/** What sits on top of the middle of an element ("nothing" when the element itself is hit there). */
function coveredBy(locator: Locator): Promise<string> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = element.ownerDocument.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit === null ? 'off screen' : element.contains(hit) ? 'nothing' : `${hit.tagName.toLowerCase()}.${hit.className}`;
  });
}
let books: SeededBooks;

beforeAll(async () => {
  books = await seedBooks(e2e.server, { entries: 12 });
}, 60_000);

describe('signing in with the keyboard alone', { timeout: 60_000 }, () => {
  it('fills the form with typing and Tab, and submits it with Enter', async () => {
    const page = await e2e.newPage();
    const signIn = await new SignInPage(page).goto();
    await expectVisible(signIn.signInHeading);
    const focused = () => page.evaluate<string>("document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? ''");
    // The e-mail field has the focus when the page opens.
    expect(await focused()).toBe('login-email');
    await page.keyboard.type(books.admin.email);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('login-password');
    await page.keyboard.type(books.admin.password);
    await page.keyboard.press('Enter');
    await new DashboardPage(page).ready();
  });
});

describe('on a phone-sized screen', { timeout: 60_000 }, () => {
  it('shows the dashboard and the journal without sideways scrolling, and the menu navigates', async () => {
    const page = await e2e.newPage({ viewport: PHONE });
    await new SignInPage(page).goto().then((signIn) => signIn.signIn(books.admin));
    const dashboard = new DashboardPage(page);
    await dashboard.ready();
    await expectVisible(dashboard.recentEntries.getByRole('link', { name: 'Counter sale 12' }));
    expect(await dashboard.fitsViewportWidth()).toEqual({ scrollWidth: expect.toSatisfy((width: number) => width <= PHONE.width), innerWidth: PHONE.width });
    await e2e.screenshot(page, 'phone-dashboard', { fullPage: false });

    // The sidebar is a drawer behind the menu button; following a link closes it.
    await expectAttribute(dashboard.menuToggle, 'aria-expanded', 'false');
    await dashboard.menuToggle.click();
    await expectAttribute(dashboard.menuToggle, 'aria-expanded', 'true');
    await e2e.screenshot(page, 'phone-menu', { fullPage: false });
    await page.getByTestId('nav-journal').click();
    const journal = new JournalPage(page);
    await journal.ready();
    await expectAttribute(journal.menuToggle, 'aria-expanded', 'false');
    await expectCount(journal.rows, 12);
    expect((await journal.fitsViewportWidth()).scrollWidth).toBeLessThanOrEqual(PHONE.width);
    await e2e.screenshot(page, 'phone-journal', { fullPage: false });
  });

  it('fits the chart of accounts and the new-entry form to the screen too', async () => {
    const page = await e2e.newPage({ viewport: PHONE });
    await new SignInPage(page).goto().then((signIn) => signIn.signIn(books.admin));
    await new DashboardPage(page).ready();
    const accounts = await new AccountsPage(page).open();
    await expectCount(accounts.rows, 3);
    expect((await accounts.fitsViewportWidth()).scrollWidth).toBeLessThanOrEqual(PHONE.width);
    await e2e.screenshot(page, 'phone-accounts', { fullPage: false });

    const form = await new NewEntryPage(page).goto();
    await form.fill({
      date: MONTH.day(28), description: 'Phone sale',
      lines: [{ account: '1000 · Cash', debit: '12.50' }, { account: '4000 · Sales', credit: '12.50' }],
    });
    await expectAttribute(form.difference, 'data-balanced', 'true');
    expect((await form.fitsViewportWidth()).scrollWidth).toBeLessThanOrEqual(PHONE.width);
    await e2e.screenshot(page, 'phone-new-entry', { fullPage: false });
    await form.submit.click();
    await new EntryPage(page, 'Phone sale').ready();
  });

  it('keeps "Post entry" clickable while the last confirmation is still showing', async () => {
    const page = await e2e.newPage({ viewport: PHONE });
    await new SignInPage(page).goto().then((signIn) => signIn.signIn(books.admin));
    await new DashboardPage(page).ready();
    const first = await new NewEntryPage(page).goto();
    await first.fill({
      date: MONTH.day(28), description: 'First phone sale',
      lines: [{ account: '1000 · Cash', debit: '1.00' }, { account: '4000 · Sales', credit: '1.00' }],
    });
    await first.submit.click();
    await new EntryPage(page, 'First phone sale').ready();
    await expectVisible(page.getByTestId('toast'));

    // Straight on to the next entry, as a bookkeeper entering a pile of receipts would.
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Journal entries' }).click();
    const journal = new JournalPage(page);
    await journal.ready();
    await journal.newEntry.click();
    const next = new NewEntryPage(page);
    await next.ready();
    await next.fill({
      date: MONTH.day(28), description: 'Second phone sale',
      lines: [{ account: '1000 · Cash', debit: '2.00' }, { account: '4000 · Sales', credit: '2.00' }],
    });
    await expectVisible(page.getByTestId('toast'));
    expect(await coveredBy(next.submit)).toBe('nothing');
    await e2e.screenshot(page, 'phone-new-entry-with-toast', { fullPage: false, toasts: true });
  });
});
