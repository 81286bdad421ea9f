/**
 * Every page of the web UI on desktop screens (1280 and 1440 px wide), with books that stretch a
 * layout (test/e2e/all-pages.ts): no table draws one cell's text over another's or cuts it off,
 * no table is wider than its card unless it scrolls inside it, no amount outside a table is cut
 * short, and the page never scrolls sideways. Phones have their own test (phone-width.test.ts).
 *
 * Screenshots of every page land in test-results/screenshots/desktop/<page>-<width>.png, and of
 * a page whose tables scroll sideways also scrolled to their end (<page>-<width>-scrolled.png).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALL_PAGES, expectEveryRouteVisited, type LayoutBooks, openVisit, seedLayoutBooks } from './all-pages.js';
import { ADMIN, SCREENSHOT_DIR, useE2E } from './fixture.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { SignInPage } from './pages/sign-in-page.js';

const e2e = useE2E();

const WIDTHS = [{ width: 1280, height: 800 }, { width: 1440, height: 900 }];

/**
 * The layout rules, run in the page (a string: the tests compile without the DOM's types). It
 * answers a list of problems, empty when the page is laid out well.
 *
 * 1. In every table, the text of a cell (each text node's line boxes, through a DOM Range, and the
 *    boxes of form fields) neither overlaps the text of another cell of its row by more than 1 px,
 *    nor reaches outside its cell, nor is cut off by an element that hides overflow, unless that
 *    element truncates with an ellipsis and a `title` holds the whole text. No cell narrower than
 *    7rem (112 px) wraps its text over three lines or more: its column was squeezed by the others.
 * 2. Every table fits the content box of its card (`.card`, a dialog's body, or else the main
 *    area) and of its parent, unless a frame between it and the card scrolls sideways; that frame
 *    must then fit the card.
 * 3. Outside tables, every amount shows whole, not cut by an element that hides or scrolls its
 *    overflow (a dashboard figure cut after its decimal point reads as another number), and so
 *    does every amount typed into a field.
 * 4. The page is no wider than the window.
 */
const LAYOUT_PROBLEMS = String.raw`(() => {
  const SQUEEZED_PX = 112;
  const problems = [];
  const shown = (rect) => rect.width > 1 && rect.height > 1;
  const clean = (text) => (text ?? '').replace(/\s+/g, ' ').trim();
  const quote = (text) => JSON.stringify(clean(text).slice(0, 60));
  const round = (value) => Math.round(value * 10) / 10;
  const scrollsSideways = (element) => ['auto', 'scroll'].includes(getComputedStyle(element).overflowX);
  /** The content box of an element, in window coordinates. */
  const contentBox = (element) => {
    const rect = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    const left = rect.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft);
    const right = rect.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight);
    return { left, right, width: right - left };
  };
  /** The padding box: what an element that hides overflow shows. */
  const paddingBox = (element) => {
    const rect = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return { left: rect.left + parseFloat(style.borderLeftWidth), right: rect.right - parseFloat(style.borderRightWidth) };
  };
  const tableName = (table, index) => {
    const labelledBy = table.getAttribute('aria-labelledby');
    const caption = clean(table.caption?.innerText || (labelledBy ? document.getElementById(labelledBy)?.innerText : ''));
    const id = table.getAttribute('data-testid') ?? table.closest('[data-testid]')?.getAttribute('data-testid');
    return [id ? '[' + id + ']' : 'table ' + (index + 1), caption ? quote(caption) : ''].filter(Boolean).join(' ');
  };

  /**
   * What a cell shows: each text line box and form field, with the part of it that is visible
   * (inside every element of the cell that hides overflow) and the element that cuts it, if any.
   */
  const contentOf = (cell) => {
    const pieces = [];
    const add = (rect, text, from) => {
      let left = rect.left;
      let right = rect.right;
      let clipper = null;
      for (let element = from; element; element = element.parentElement) {
        const overflow = getComputedStyle(element).overflowX;
        if (overflow !== 'visible') {
          const box = paddingBox(element);
          if (box.left > left + 1 || box.right < right - 1) clipper = clipper ?? element;
          left = Math.max(left, box.left);
          right = Math.min(right, box.right);
        }
        if (element === cell) break;
      }
      pieces.push({ rect, visible: { left, right, top: rect.top, bottom: rect.bottom }, text, clipper });
    };
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeType === Node.ELEMENT_NODE) {
        if (node.matches('input, select, textarea, img, svg') && !node.closest('.visually-hidden')) {
          const rect = node.getBoundingClientRect();
          if (shown(rect)) add(rect, node.value ?? node.getAttribute('aria-label') ?? node.tagName.toLowerCase(), node.parentElement);
        }
        continue;
      }
      const parent = node.parentElement;
      if (!clean(node.nodeValue) || !parent || parent.closest('.visually-hidden, select, option, svg')) continue;
      if (getComputedStyle(parent).visibility === 'hidden') continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) if (rect.width > 0.5 && rect.height > 0.5) add(rect, node.nodeValue, parent);
    }
    return pieces;
  };

  const main = document.querySelector('main') ?? document.body;
  [...document.querySelectorAll('table')].forEach((table, tableIndex) => {
    if (!shown(table.getBoundingClientRect()) || table.closest('.visually-hidden')) return;
    const name = tableName(table, tableIndex);

    // 1. Cell text.
    [...table.rows].forEach((row, rowIndex) => {
      // Every cell that is displayed, however narrow: a column squeezed to nothing is the worst case.
      const cells = [...row.cells].filter((cell) => cell.getClientRects().length > 0);
      const rowName = 'row ' + (rowIndex + 1) + ' (' + quote(cells[0]?.innerText ?? '') + ')';
      const contents = cells.map(contentOf);
      cells.forEach((cell, cellIndex) => {
        const box = cell.getBoundingClientRect();
        // One problem per text and kind, however many lines the text wraps over.
        const found = new Map();
        const note = (key, size, message) => { if ((found.get(key)?.size ?? -1) < size) found.set(key, { size, message }); };
        for (const piece of contents[cellIndex]) {
          if (piece.clipper) {
            const ellipsis = getComputedStyle(piece.clipper).textOverflow === 'ellipsis';
            const titled = piece.clipper.closest('[title]');
            const deliberate = ellipsis && titled && cell.contains(titled) && clean(titled.getAttribute('title')) !== '';
            const scrolls = scrollsSideways(piece.clipper);
            if (!deliberate && !scrolls) {
              note('cut ' + piece.text, piece.rect.width, name + ', ' + rowName + ': the text ' + quote(piece.text) + ' is cut off by its '
                + (piece.clipper === cell ? 'cell' : piece.clipper.tagName.toLowerCase() + '.' + piece.clipper.className) + ' ('
                + round(piece.rect.width) + ' px wide, ' + round(piece.visible.right - piece.visible.left) + ' px shown)');
            }
          }
          const outside = Math.max(box.left - piece.visible.left, piece.visible.right - box.right);
          if (outside > 1) {
            note('outside ' + piece.text, outside, name + ', ' + rowName + ': the text ' + quote(piece.text) + ' reaches ' + round(outside) + ' px outside its cell');
          }
        }
        problems.push(...[...found.values()].map((entry) => entry.message));
        // A column squeezed until its text reads a word or two a line.
        const lines = new Set(contents[cellIndex].map((piece) => Math.round(piece.rect.top))).size;
        if (lines >= 3 && box.width < SQUEEZED_PX) {
          problems.push(name + ', ' + rowName + ': the text ' + quote(cell.innerText) + ' is squeezed into a ' + round(box.width)
            + ' px column over ' + lines + ' lines');
        }
      });
      for (let first = 0; first < cells.length; first += 1) {
        for (let second = first + 1; second < cells.length; second += 1) {
          const overlap = contents[first].flatMap((a) => contents[second].map((b) => ({
            a, b,
            width: Math.min(a.visible.right, b.visible.right) - Math.max(a.visible.left, b.visible.left),
            height: Math.min(a.visible.bottom, b.visible.bottom) - Math.max(a.visible.top, b.visible.top),
          }))).find((pair) => pair.width > 1 && pair.height > 1);
          if (overlap) {
            problems.push(name + ', ' + rowName + ': the text ' + quote(overlap.a.text) + ' (cell ' + (first + 1) + ') overlaps '
              + quote(overlap.b.text) + ' (cell ' + (second + 1) + ') by ' + round(overlap.width) + ' x ' + round(overlap.height) + ' px');
          }
        }
      }
    });

    // 2. The table and its card.
    const card = table.parentElement.closest('.card, .dialog__body, main') ?? main;
    let frame = null;
    for (let element = table.parentElement; element && element !== card; element = element.parentElement) {
      if (scrollsSideways(element)) { frame = element; break; }
    }
    const outer = frame ?? table;
    const rect = outer.getBoundingClientRect();
    const what = frame ? 'the scrolling frame of ' + name : name;
    const fit = (container, label) => {
      const content = contentBox(container);
      const over = Math.max(content.left - rect.left, rect.right - content.right);
      if (over > 1) {
        problems.push(what + ' (' + round(rect.width) + ' px wide) reaches ' + round(over) + ' px outside its ' + label + ' ('
          + round(content.width) + ' px inside)' + (frame ? '' : ', and nothing between them scrolls sideways'));
      }
    };
    fit(card, card === main ? 'main area' : card.classList.contains('card') ? 'card' : 'dialog');
    if (outer.parentElement !== card) fit(outer.parentElement, 'parent ' + outer.parentElement.tagName.toLowerCase() + '.' + outer.parentElement.className);
  });

  // 3. Amounts outside tables (a dashboard figure, a total) show whole: one cut by the frame it
  //    scrolls in looks like a smaller number.
  const AMOUNT = /[-\u2212]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-\u2212]?\d+\.\d+/g;
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('table, .visually-hidden, svg')) continue;
    for (const match of (node.nodeValue ?? '').matchAll(AMOUNT)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rect = range.getBoundingClientRect();
      if (!shown(rect)) continue;
      for (let element = parent; element && element !== document.body; element = element.parentElement) {
        if (getComputedStyle(element).overflowX === 'visible') continue;
        const box = paddingBox(element);
        const cut = Math.max(box.left - rect.left, rect.right - box.right);
        if (cut > 1) {
          const id = element.closest('[data-testid]')?.getAttribute('data-testid');
          problems.push('the amount ' + match[0] + ' is cut off by ' + round(cut) + ' px' + (id ? ' in [' + id + ']' : ''));
          break;
        }
      }
    }
  }

  // An amount typed into a field shows whole too: "1,234,567,890" of "1,234,567,890.12" misleads.
  for (const field of main.querySelectorAll('input[inputmode="decimal"]')) {
    if (shown(field.getBoundingClientRect()) && field.scrollWidth > field.clientWidth + 1) {
      const id = field.getAttribute('data-testid') ?? field.closest('[data-testid]')?.getAttribute('data-testid');
      problems.push('the amount field' + (id ? ' [' + id + ']' : '') + ' shows part of ' + quote(field.value) + ' (' + field.scrollWidth
        + ' px of text in ' + field.clientWidth + ' px)');
    }
  }

  // 4. The page.
  const pageWidth = document.documentElement.scrollWidth;
  if (pageWidth > window.innerWidth) problems.push('the page is ' + pageWidth + ' px wide and scrolls sideways in a ' + window.innerWidth + ' px window');
  return [...new Set(problems)];
})()`;

/** Scrolls every sideways-scrolling table frame, and a dialog's body, to its end; answers whether there was one. */
const SCROLL_FRAMES_TO_END = `(() => {
  const frames = [...document.querySelectorAll('.table-wrap')].filter((frame) => frame.scrollWidth > frame.clientWidth + 1);
  for (const frame of frames) frame.scrollLeft = frame.scrollWidth;
  for (const body of document.querySelectorAll('.dialog__body')) body.scrollTop = body.scrollHeight;
  return frames.length > 0;
})()`;

let books: LayoutBooks;

beforeAll(async () => {
  books = await seedLayoutBooks(e2e.server);
  // A fresh folder: a "-scrolled" picture left by an earlier run would tell of a frame that no longer scrolls.
  rmSync(join(SCREENSHOT_DIR, 'desktop'), { recursive: true, force: true });
  mkdirSync(join(SCREENSHOT_DIR, 'desktop'), { recursive: true });
}, 120_000);

it('visits every route of the app', () => {
  expectEveryRouteVisited(ALL_PAGES, books);
});

describe.each(WIDTHS)('every page at $width x $height', { timeout: 60_000 }, (viewport) => {
  let page: Page;

  beforeAll(async () => {
    page = await e2e.newPage({ viewport });
    await new SignInPage(page).goto().then((signIn) => signIn.signIn(ADMIN));
    await new DashboardPage(page).ready();
  }, 60_000);

  const visits = ALL_PAGES.map((visit) => [visit.name, visit] as const);
  it.each(visits)('lays out %s with no text overlapping or cut off and no table wider than its card', async (name, visit) => {
    await openVisit(page, visit, books);
    await e2e.screenshot(page, `desktop/${name}-${viewport.width}`);
    const problems = await page.evaluate<string[]>(LAYOUT_PROBLEMS);
    // Tables too wide for their card are shown scrolled to their end too, for a person to see that
    // the key column stays and nothing else shows through it.
    if (await page.evaluate<boolean>(SCROLL_FRAMES_TO_END)) await e2e.screenshot(page, `desktop/${name}-${viewport.width}-scrolled`);
    expect(problems.map((problem) => `${name} at ${viewport.width} px: ${problem}`)).toEqual([]);
  });
});
