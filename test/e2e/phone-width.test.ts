/**
 * Every page of the web UI on a phone (390 x 844): the page never scrolls sideways, no amount
 * breaks across lines, and in every table the key column (the first one shown: an account, a
 * date, an entry) and every link or button stay on the screen without scrolling the table. Wide
 * tables may scroll inside their own frame for their secondary columns, never for what a
 * bookkeeper taps.
 *
 * The books and the pages are those of test/e2e/all-pages.ts, which the desktop layout test walks
 * too: amounts in the billions and an 18-decimal currency, long account, period and company names,
 * sub-accounts, a reversal, closed periods with their closing entries, three currencies, and every
 * route of web/src/app.tsx (with the dialogs, which are pages of their own on a phone). A new page
 * gets a row there.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALL_PAGES, expectEveryRouteVisited, type LayoutBooks, openVisit, seedLayoutBooks } from './all-pages.js';
import { ADMIN, expectVisible, PHONE, useE2E } from './fixture.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { SignInPage } from './pages/sign-in-page.js';

const e2e = useE2E();

/**
 * The layout rules, run in the page (a string: the tests compile without the DOM's types). It
 * answers a list of problems, empty when the page fits.
 *
 * - The page is no wider than the window.
 * - Every amount (digits with thousands separators or a decimal point) sits on one line, and is
 *   on the screen or inside a frame that scrolls sideways to it.
 * - In every table, the content of the first cell shown in each row and every link, button or
 *   field lie within the window as the page opens (no sideways scrolling needed).
 * - Every other link, button and field of the page lies within the window.
 */
const LAYOUT_PROBLEMS = String.raw`(() => {
  const width = window.innerWidth;
  const problems = [];
  const label = (node) => {
    const element = node.nodeType === 1 ? node : node.parentElement;
    const id = element.closest('[data-testid]')?.getAttribute('data-testid');
    return (id ? '[' + id + '] ' : '') + JSON.stringify((element.innerText ?? element.textContent ?? '').trim().slice(0, 60));
  };
  const shown = (rect) => rect.width > 1 && rect.height > 1;
  const within = (rect) => rect.left >= -0.5 && rect.right <= width + 0.5;
  /** A frame between the element and the page that scrolls sideways (a wide table's wrapper, the chart). */
  const scrollsSideways = (element) => {
    // From the element itself: an amount's text may sit directly in the frame that scrolls it.
    for (let current = element; current && current !== document.body; current = current.parentElement) {
      const overflow = getComputedStyle(current).overflowX;
      if ((overflow === 'auto' || overflow === 'scroll') && current.scrollWidth > current.clientWidth) return true;
    }
    return false;
  };

  const pageWidth = document.scrollingElement.scrollWidth;
  if (pageWidth > width) problems.push('the page is ' + pageWidth + ' px wide and scrolls sideways');

  const main = document.querySelector('main') ?? document.body;
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  const AMOUNT = /[-\u2212]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-\u2212]?\d+\.\d+/g;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    // Text for screen readers only (the chart's table of figures) is not on the screen at all.
    if (node.parentElement?.closest('.visually-hidden')) continue;
    const text = node.nodeValue ?? '';
    for (const match of text.matchAll(AMOUNT)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
      if (rects.length === 0) continue;
      const lines = new Set(rects.map((rect) => Math.round(rect.top)));
      if (lines.size > 1) problems.push('the amount ' + match[0] + ' breaks over ' + lines.size + ' lines in ' + label(node));
      const box = range.getBoundingClientRect();
      if (!within(box) && !scrollsSideways(node.parentElement)) problems.push('the amount ' + match[0] + ' is cut off at ' + Math.round(box.right) + ' px in ' + label(node));
    }
  }

  const controls = 'a[href], button, input, select, textarea';
  for (const table of main.querySelectorAll('table')) {
    if (!shown(table.getBoundingClientRect())) continue;
    for (const row of table.rows) {
      // The content, not the cell: a heading row's cell may span every column of a wide table.
      const first = [...row.cells].find((cell) => shown(cell.getBoundingClientRect()));
      if (!first) continue;
      const content = document.createRange();
      content.selectNodeContents(first);
      const box = content.getBoundingClientRect();
      if (box.width > 0 && !within(box)) problems.push('the first column of a row of ' + label(table) + ' is off the screen: ' + label(first));
    }
  }
  for (const control of main.querySelectorAll(controls)) {
    const rect = control.getBoundingClientRect();
    if (!shown(rect) || control.closest('.visually-hidden')) continue;
    if (!within(rect)) problems.push('off the screen (' + Math.round(rect.left) + ' to ' + Math.round(rect.right) + ' px): ' + (control.closest('table') ? 'in a table, ' : '') + control.tagName.toLowerCase() + ' ' + label(control));
  }
  return problems;
})()`;

let books: LayoutBooks;

beforeAll(async () => {
  books = await seedLayoutBooks(e2e.server);
}, 120_000);

describe('every page on a phone (390 x 844)', { timeout: 120_000 }, () => {
  let page: Page;

  beforeAll(async () => {
    page = await e2e.newPage({ viewport: PHONE });
    await new SignInPage(page).goto().then((signIn) => signIn.signIn(ADMIN));
    await new DashboardPage(page).ready();
  }, 60_000);

  it('lists every route of the app', () => {
    expectEveryRouteVisited(ALL_PAGES, books);
  });

  it.each(ALL_PAGES.map((visit) => [visit.name, visit] as const))('fits %s to the screen', async (name, visit) => {
    await openVisit(page, visit, books);
    await e2e.screenshot(page, `phone-page-${name}`, { fullPage: true });
    expect(await page.evaluate<string[]>(LAYOUT_PROBLEMS)).toEqual([]);
  });

  it('fits the sign-in page too', async () => {
    const signedOut = await e2e.newPage({ viewport: PHONE });
    const signIn = await new SignInPage(signedOut).goto();
    await expectVisible(signIn.signInHeading);
    expect(await signedOut.evaluate<string[]>(LAYOUT_PROBLEMS)).toEqual([]);
  });
});
