/**
 * The entry form at a phone's and at desktop widths (390, 1280 and 1440 px): the "Entry posted"
 * toast never covers the Post buttons, the sticky action bar never hides the totals, Ctrl+Enter
 * and Cmd+Enter post, and a copied entry starts on a date inside an open period.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectText, expectVisible, MONTH, type SeededBooks, seedBooks, useE2E } from './fixture.js';
import { NewEntryPage } from './pages/new-entry-page.js';
import { SignInPage } from './pages/sign-in-page.js';

const e2e = useE2E();
let books: SeededBooks;
let call: Awaited<ReturnType<typeof apiClient>>['call'];

const WIDTHS = [{ width: 390, height: 844 }, { width: 1280, height: 800 }, { width: 1440, height: 900 }];

beforeAll(async () => {
  books = await seedBooks(e2e.server, { entries: 3 });
  const tokens = await (await apiClient(e2e.server)).call<{ access_token: string }>('POST', '/auth/login', books.admin);
  call = (await apiClient(e2e.server, tokens.access_token)).call;
}, 60_000);

async function signedIn(viewport = { width: 1280, height: 800 }): Promise<Page> {
  const page = await e2e.newPage({ viewport });
  await new SignInPage(page).goto().then((signIn) => signIn.signIn(books.admin));
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Dashboard' }));
  return page;
}

interface Box { top: number; bottom: number; left: number; right: number }

function box(page: Page, testId: string): Promise<Box> {
  return page.getByTestId(testId).first().evaluate((element) => {
    const rect = element.getBoundingClientRect();
    return { top: rect.top, bottom: rect.bottom, left: rect.left, right: rect.right };
  });
}

const overlap = (a: Box, b: Box) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) > 0.5
  && Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)) > 0.5;

/** A balanced two-line entry on the fixture's month, with `extraLines` more blank lines to make the form long. */
async function fillEntry(form: NewEntryPage, description: string, extraLines = 0): Promise<void> {
  await form.fill({ date: MONTH.day(12), description, lines: [{ account: 'Cash', debit: '12.34' }, { account: 'Sales', credit: '12.34' }] });
  for (let index = 0; index < extraLines; index += 1) await form.page.getByTestId('entry-add-line').click();
}

describe('the entry form at every width', { timeout: 120_000 }, () => {
  for (const viewport of WIDTHS) {
    it(`keeps the toast off the Post buttons at ${viewport.width} px, also with the bar stuck to the bottom`, async () => {
      const page = await signedIn(viewport);
      const form = await new NewEntryPage(page).goto();
      await fillEntry(form, `Toast check at ${viewport.width}`);
      await form.submitAndNew.click();
      await expectText(form.posted, `Toast check at ${viewport.width}`);
      const toast = page.getByTestId('toast');
      await expectVisible(toast);
      // The toasts are placed again on the window's scroll event, which the browser sends with its
      // next frame, not during scrollTo: so each check waits for the frame after the scroll first.
      const nextFrame = () => page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
      const check = async (when: string) => {
        await nextFrame();
        const toastBox = await box(page, 'toast');
        for (const button of ['entry-submit', 'entry-submit-new']) {
          expect(overlap(toastBox, await box(page, button)), `the toast covers ${button} ${when}`).toBe(false);
        }
      };
      await check('after Post and new');
      // A long form: the bar sticks to the bottom of the window; the toast moves above it as the page scrolls.
      for (let index = 0; index < 8; index += 1) await page.getByTestId('entry-add-line').click();
      await page.evaluate('window.scrollTo(0, 0)');
      await check('with the bar stuck, at the top of the page');
      await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
      await check('at the bottom of the page');
      await e2e.screenshot(page, `new-entry-toast-${viewport.width}`, { fullPage: false, toasts: true });
    });

    it(`never hides the totals under the sticky bar at ${viewport.width} px`, async () => {
      const page = await signedIn(viewport);
      const form = await new NewEntryPage(page).goto();
      await fillEntry(form, 'Sticky check', 10);
      const height = await page.evaluate<number>('document.documentElement.scrollHeight');
      const problems: string[] = [];
      for (let y = 0; y <= height; y += 60) {
        await page.evaluate(`window.scrollTo(0, ${y})`);
        const totals = await box(page, 'entry-totals');
        const bar = await page.locator('.form-actions--sticky').evaluate((element) => {
          const rect = element.getBoundingClientRect();
          return { top: rect.top, bottom: rect.bottom, left: rect.left, right: rect.right };
        });
        const lines = await box(page, 'entry-lines-editor');
        if (overlap(totals, bar)) problems.push(`at ${y} px the bar (${Math.round(bar.top)}) covers the totals (${Math.round(totals.bottom)})`);
        // While the lines run on below the window, the totals are in view just above the bar.
        if (lines.top < bar.top && lines.bottom > bar.top && (totals.top < 0 || totals.bottom > bar.top + 0.5)) {
          problems.push(`at ${y} px the totals are out of view (${Math.round(totals.top)}-${Math.round(totals.bottom)}, bar at ${Math.round(bar.top)})`);
        }
      }
      expect(problems).toEqual([]);
      await page.evaluate('window.scrollTo(0, 300)');
      await e2e.screenshot(page, `new-entry-sticky-totals-${viewport.width}`, { fullPage: false });
    });
  }
});

describe('posting from the keyboard', { timeout: 60_000 }, () => {
  for (const [key, where] of [['Control+Enter', 'description'], ['Meta+Enter', 'credit']] as const) {
    it(`posts the entry with ${key} from the ${where} field`, async () => {
      const page = await signedIn();
      const form = await new NewEntryPage(page).goto();
      await fillEntry(form, `Posted with ${key}`);
      await (where === 'description' ? form.description : form.lineCredit(1)).press(key);
      await expectVisible(page.getByRole('heading', { level: 1, name: `Posted with ${key}` }));
      expect(new URL(page.url()).pathname).toMatch(/^\/journal\/[0-9a-f-]{36}$/);
    });
  }

  it('does not post an unbalanced entry with Ctrl+Enter', async () => {
    const page = await signedIn();
    const form = await new NewEntryPage(page).goto();
    await form.fill({ date: MONTH.day(12), description: 'Unbalanced', lines: [{ account: 'Cash', debit: '10.00' }, { account: 'Sales', credit: '9.00' }] });
    await form.description.press('Control+Enter');
    await expectText(form.blocker, 'Debits and credits must be equal');
    expect(new URL(page.url()).pathname).toBe('/journal/new');
  });
});

describe('the date of a copied entry', { timeout: 90_000 }, () => {
  /** The first and last day of the month `offset` months from the fixture's. */
  const month = (offset: number) => {
    const first = new Date(Date.UTC(Number(MONTH.start.slice(0, 4)), Number(MONTH.start.slice(5, 7)) - 1 + offset, 1));
    const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
    return { start: first.toISOString().slice(0, 10), end: last.toISOString().slice(0, 10) };
  };

  it('is the first day of the earliest open period when the original\'s period is closed and today is in none, and today once today is open', async () => {
    // The month before the fixture's, with an entry, closed; the fixture's month stays open; today is in no period.
    const before = month(-1);
    const closed = await call<{ id: string }>('POST', '/api/v1/periods', { name: 'Closed month', start_date: before.start, end_date: before.end });
    const original = await call<{ id: string }>('POST', '/api/v1/journal-entries', {
      entry_date: `${before.start.slice(0, 8)}20`, description: 'Entry in a closed month',
      lines: [{ account_id: books.accounts.cash, debit_amount: '5000' }, { account_id: books.accounts.sales, credit_amount: '5000' }],
    });
    await call('POST', `/api/v1/periods/${closed.id}/close`);

    const page = await signedIn();
    const form = await new NewEntryPage(page).goto(`?copy=${original.id}`);
    await expectVisible(form.copiedFrom);
    expect(await form.date.inputValue()).toBe(MONTH.start);
    await expectText(form.copiedFrom, 'dated the first day of the earliest open period');
    await e2e.screenshot(page, 'entry-copy-closed-period');

    // Today's month opened: the copy is dated today.
    const current = month(1);
    await call('POST', '/api/v1/periods', { name: 'This month', start_date: current.start, end_date: current.end });
    const today = new Date().toISOString().slice(0, 10);
    const again = await new NewEntryPage(await signedIn()).goto(`?copy=${original.id}`);
    await expectVisible(again.copiedFrom);
    expect(await again.date.inputValue()).toBe(today);
    await expectText(again.copiedFrom, 'dated today');
  });
});
