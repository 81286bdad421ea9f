/**
 * A bookkeeper finds one invoice among many from the journal's search box: the words go into the
 * address (so the search survives a reload and a shared link, and Back undoes it), only the
 * matching entries are listed, and a search that finds nothing says so. The list follows what is
 * typed once typing pauses, without Enter; the Search button sends it at once.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, expectCount, expectText, expectVisible, MONTH, seedBooks, useE2E } from './fixture.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { JournalPage } from './pages/journal-page.js';
import { SignInPage } from './pages/sign-in-page.js';

const e2e = useE2E();
const INVOICES = 120;
let page: Page;

describe('finding entries from the journal page', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    const books = await seedBooks(e2e.server);
    const { access_token: token } = await (await apiClient(e2e.server)).call<{ access_token: string }>('POST', '/auth/login', books.admin);
    const { call } = await apiClient(e2e.server, token);
    // The invoice looked for is the oldest, so it is far below the first page of the journal.
    const entries = Array.from({ length: INVOICES }, (_, index) => ({
      entry_date: MONTH.day(1 + Math.floor((index * 27) / INVOICES)),
      description: index === 0 ? 'Invoice to Büro Müller GmbH' : `Invoice to customer ${index}`,
      reference: `INV-2026-${String(index).padStart(4, '0')}`,
      lines: [{ account_id: books.accounts.cash, debit_amount: String(1000 + index) }, { account_id: books.accounts.sales, credit_amount: String(1000 + index) }],
    }));
    await call('POST', '/api/v1/journal-entries/batch', { entries });
    page = await e2e.newPage();
    await new SignInPage(page).goto().then((signIn) => signIn.signIn(books.admin));
    await new DashboardPage(page).ready();
  }, 60_000);

  it('finds the invoice by words typed in the search box, with the search in the address', async () => {
    const journal = await new JournalPage(page).open();
    await expectCount(journal.rows, 50);
    await expectVisible(journal.loadMore);
    await journal.searchFor('muller inv');
    await expectCount(journal.rows, 1);
    await expectText(journal.row('Invoice to Büro Müller GmbH'), 'INV-2026-0000');
    expect(new URL(page.url()).searchParams.get('q')).toBe('muller inv');
    expect(await journal.loadMore.count()).toBe(0);
    await e2e.screenshot(page, 'journal-search');
  });

  it('keeps the search over a reload, and Back returns to the whole journal', async () => {
    const journal = new JournalPage(page);
    await page.reload();
    await journal.ready();
    await expectCount(journal.rows, 1);
    expect(await journal.search.inputValue()).toBe('muller inv');
    await page.goBack();
    await expectCount(journal.rows, 50);
    expect(await journal.search.inputValue()).toBe('');
  });

  it('finds by reference from a shared link, and says when nothing matches', async () => {
    const journal = await new JournalPage(page).goto('?q=INV-2026-0042');
    await expectCount(journal.rows, 1);
    await expectVisible(journal.row('Invoice to customer 42'));
    await journal.searchFor('no such invoice');
    await expectCount(journal.rows, 0);
    await expectText(page.getByRole('main'), 'No entries match “no such invoice”');
  });

  it('filters as the words are typed, without Enter, and the Search button sends them too', async () => {
    const journal = await new JournalPage(page).goto();
    await expectCount(journal.rows, 50);
    const requests: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/v1/journal-entries' && url.searchParams.has('q')) requests.push(url.searchParams.get('q')!);
    });
    await journal.search.pressSequentially('customer 77', { delay: 40 });
    await expectCount(journal.rows, 1);
    await expectVisible(journal.row('Invoice to customer 77'));
    expect(new URL(page.url()).searchParams.get('q')).toBe('customer 77');
    // One search once typing paused, not one per letter.
    expect(requests).toEqual(['customer 77']);
    // Typing replaced the address rather than adding a step per search: Back leaves the search.
    await journal.search.fill('customer 42');
    await journal.searchButton.click();
    await expectCount(journal.rows, 1);
    expect(new URL(page.url()).searchParams.get('q')).toBe('customer 42');
    await expectVisible(journal.row('Invoice to customer 42'));
    await page.goBack();
    await expectCount(journal.rows, 1);
    await expectVisible(journal.row('Invoice to customer 77'));
  });
});
