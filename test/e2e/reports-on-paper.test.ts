/**
 * Reports at desktop widths and on paper, with books that stretch a layout (all-pages.ts: amounts
 * in the billions, an 18-decimal currency, long account names).
 *
 * The trial balance shows the account and its debit or credit balance by default, fits 1280 and
 * 1440 px windows without scrolling, and keeps the other columns behind "All columns" (in the
 * URL). Printed to PDF on Letter and on A4 (`page.pdf()`, its text read with Debian's `pdftotext`),
 * every column of the default view is there and every amount is printed exactly as many times as
 * the report holds it: none lost at the page's edge, none repeated (a table footer repeated on
 * every page once printed the totals twice). Every report prints without navigation, parameters
 * or buttons, with its headings repeated on each page and no table wider than the sheet.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type LayoutBooks, YEAR_START, seedLayoutBooks } from './all-pages.js';
import { ADMIN, apiClient, expectText, expectVisible, MONTH, SCREENSHOT_DIR, useE2E } from './fixture.js';
import { ReportPage } from './pages/reports-page.js';
import { SignInPage } from './pages/sign-in-page.js';

const e2e = useE2E();
let books: LayoutBooks;
let token: string;

/** The printable width of an A4 sheet with the print sheet's 12 mm margins, in CSS px (96 per inch). */
const A4_PRINTABLE_PX = Math.floor(((210 - 2 * 12) / 25.4) * 96);

beforeAll(async () => {
  books = await seedLayoutBooks(e2e.server);
  token = (await (await apiClient(e2e.server)).call<{ access_token: string }>('POST', '/auth/login', { email: ADMIN.email, password: ADMIN.password })).access_token;
}, 120_000);

async function signedIn(viewport = { width: 1280, height: 800 }): Promise<Page> {
  const page = await e2e.newPage({ viewport });
  await new SignInPage(page).goto().then((signIn) => signIn.signIn(ADMIN));
  await expectVisible(page.getByRole('heading', { level: 1, name: 'Dashboard' }));
  return page;
}

/** The header texts of every trial balance table on the page. */
async function trialBalanceHeaders(page: Page): Promise<string[][]> {
  const tables = page.getByTestId('trial-balance-table');
  const headers: string[][] = [];
  for (let index = 0; index < await tables.count(); index += 1) {
    headers.push((await tables.nth(index).locator('thead th').allTextContents()).map((text) => text.trim()));
  }
  return headers;
}

/** How far each table's frame would scroll sideways, in px (0 when it shows everything). */
function sidewaysScroll(page: Page): Promise<number[]> {
  return page.evaluate<number[]>(`[...document.querySelectorAll('.table-wrap')].map((frame) => frame.scrollWidth - frame.clientWidth)`);
}

/** An amount as the reports show it: digits grouped by three with commas ("-1,234,567.89"). */
function grouped(display: string): string {
  const negative = display.startsWith('-');
  const [whole = '', fraction] = display.replace(/^-/, '').split('.');
  const digits = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${digits}${fraction !== undefined ? `.${fraction}` : ''}`;
}

/** Every amount in a text, as a sorted list (an amount has a decimal point; dates and account numbers have none). */
function amountsIn(text: string): string[] {
  return [...text.matchAll(/-?\d{1,3}(?:,\d{3})*\.\d+/g)].map((match) => match[0]).sort();
}

function pdfText(pdf: Buffer): string {
  const path = '/usr/bin/pdftotext';
  if (!existsSync(path)) throw new Error('pdftotext is missing: install Debian\'s poppler-utils (apt-get install poppler-utils)');
  const dir = mkdtempSync(join(tmpdir(), 'ledger-pdf-'));
  try {
    const file = join(dir, 'report.pdf');
    writeFileSync(file, pdf);
    const result = spawnSync(path, ['-layout', file, '-'], { encoding: 'utf8', timeout: 30_000 });
    if (result.status !== 0) throw new Error(`pdftotext failed: ${result.stderr}`);
    return result.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface TrialBalanceWire {
  rows: { account_number: string; debit_balance: string; credit_balance: string; display_debit_balance: string; display_credit_balance: string }[];
  totals: { display_debit_balance: string; display_credit_balance: string }[];
}

describe('the trial balance at 1280 and 1440 px', { timeout: 90_000 }, () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 1440, height: 900 }]) {
    it(`shows account, debit balance and credit balance by default, without scrolling, at ${viewport.width} px`, async () => {
      const page = await signedIn(viewport);
      const trial = await new ReportPage(page, 'trial-balance').goto();
      await expectVisible(trial.trialBalanceRow('Cash'));
      const headers = await trialBalanceHeaders(page);
      expect(headers.length).toBe(3);
      for (const header of headers) expect(header).toEqual(['Account', 'Debit balance', 'Credit balance']);
      expect(await sidewaysScroll(page)).toEqual([0, 0, 0]);
      expect(await trial.allColumns.isVisible()).toBe(true);
      await e2e.screenshot(page, `trial-balance-${viewport.width}`);
    });
  }

  it('shows type, debits and credits behind "All columns", kept in the address over a reload', async () => {
    const page = await signedIn();
    const trial = await new ReportPage(page, 'trial-balance').goto();
    await trial.allColumns.check();
    await expect.poll(() => new URL(page.url()).searchParams.get('columns')).toBe('all');
    await expect.poll(async () => (await trialBalanceHeaders(page))[0])
      .toEqual(['Account', 'Type', 'Debits', 'Credits', 'Debit balance', 'Credit balance']);
    await page.reload();
    await trial.ready();
    expect(await trial.allColumns.isChecked()).toBe(true);
    await expectText(trial.totalDebits.first(), /\d/);
    await e2e.screenshot(page, 'trial-balance-all-columns-1280');
    await trial.allColumns.uncheck();
    await expect.poll(() => new URL(page.url()).searchParams.get('columns')).toBe(null);
    await expect.poll(() => trial.totalDebits.count()).toBe(0);
  });
});

describe('the trial balance on paper', { timeout: 90_000 }, () => {
  for (const format of ['Letter', 'A4'] as const) {
    it(`prints every column of the default view on ${format}, and every amount once`, async () => {
      const page = await signedIn();
      const trial = await new ReportPage(page, 'trial-balance').goto();
      await expectVisible(trial.trialBalanceRow('Cash'));
      const pdf = await page.pdf({ format });
      writeFileSync(join(SCREENSHOT_DIR, `trial-balance-${format.toLowerCase()}.pdf`), pdf);
      const text = pdfText(pdf);

      // The default view's columns (headings are printed in capitals) under each currency's heading.
      for (const heading of ['ACCOUNT', 'DEBIT BALANCE', 'CREDIT BALANCE', 'USD', 'EUR', 'ETH']) expect(text).toContain(heading);
      // No navigation, parameters or buttons on paper.
      for (const screenOnly of ['Chart of accounts', 'Export CSV', 'All columns', 'Sign out', 'Year to date']) expect(text).not.toContain(screenOnly);

      const { call } = await apiClient(e2e.server, token);
      const report = await call<TrialBalanceWire>('GET', '/api/v1/reports/trial-balance');
      for (const row of report.rows) expect(text).toContain(row.account_number);
      const expected = [
        ...report.rows.flatMap((row) => [
          ...(row.debit_balance !== '0' ? [row.display_debit_balance] : []), ...(row.credit_balance !== '0' ? [row.display_credit_balance] : []),
        ]),
        ...report.totals.flatMap((total) => [total.display_debit_balance, total.display_credit_balance]),
      ].map(grouped).sort();
      expect(amountsIn(text)).toEqual(expected);
    });
  }
});

/** Every report, with the parameters that make it widest. */
const REPORTS = [
  { name: 'trial balance, all columns', path: () => `/reports/trial-balance?start=${YEAR_START}&end=${MONTH.end}&columns=all`,
    loaded: 'trial-balance-row' },
  { name: 'balance sheet', path: () => '/reports/balance-sheet', loaded: 'balance-sheet-assets' },
  { name: 'income statement', path: () => '/reports/income-statement', loaded: 'income-net' },
  { name: 'income statement by quarter', path: () => `/reports/income-statement?start=${YEAR_START}&end=${MONTH.end}&columns=quarter`,
    loaded: 'income-columns-net' },
  { name: 'income statement by month', path: () => `/reports/income-statement?start=${YEAR_START}&end=${MONTH.end}&columns=month`,
    loaded: 'income-columns-net' },
  { name: 'general ledger', path: () => `/reports/general-ledger?account=${books.receivableId}`, loaded: 'ledger-line' },
  { name: 'aged balances', path: () => `/reports/aged-balances?account=${books.receivableId}&as_of=${MONTH.end}`, loaded: 'aged-balances-table' },
];

/**
 * In the print media, on a window as wide as an A4 sheet's printable area: what is wider than the
 * sheet, what is cut by its cell, and what of the screen is still shown.
 */
const PRINT_PROBLEMS = String.raw`(() => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width + 1) problems.push('the page is ' + document.documentElement.scrollWidth + ' px wide, the sheet ' + width);
  for (const table of document.querySelectorAll('table')) {
    const rect = table.getBoundingClientRect();
    if (rect.right > width + 1) problems.push('a table reaches ' + Math.round(rect.right) + ' px of ' + width + ': ' + table.rows[0]?.innerText.slice(0, 60));
    if (getComputedStyle(table.tHead ?? table).display !== (table.tHead ? 'table-header-group' : getComputedStyle(table).display)) problems.push('a table heading is not repeated');
    if (table.tFoot && getComputedStyle(table.tFoot).display !== 'table-row-group') problems.push('a table footer would repeat on every page');
  }
  for (const amount of document.querySelectorAll('.money')) {
    const cell = amount.closest('td, th');
    if (!cell) continue;
    const box = cell.getBoundingClientRect();
    for (const line of amount.getClientRects()) {
      if (line.right > box.right + 1 || line.left < box.left - 1) problems.push('the amount ' + amount.textContent + ' is cut by its cell');
    }
  }
  for (const selector of ['nav', '.filters', 'button', '.page-header__actions']) {
    for (const element of document.querySelectorAll(selector)) {
      if (element.getClientRects().length > 0 && !element.closest('.print-only')) problems.push('shown on paper: ' + selector + ' ' + (element.textContent ?? '').trim().slice(0, 40));
    }
  }
  return problems;
})()`;

describe('every report on paper', { timeout: 120_000 }, () => {
  it('prints full width without navigation, parameters or buttons, headings repeated, totals once and no column cut', async () => {
    const page = await signedIn({ width: A4_PRINTABLE_PX, height: 1000 });
    const problems: Record<string, string[]> = {};
    for (const report of REPORTS) {
      await page.goto(report.path());
      await expectVisible(page.getByTestId(report.loaded).first());
      await page.emulateMedia({ media: 'print' });
      problems[report.name] = await page.evaluate<string[]>(PRINT_PROBLEMS);
      await page.emulateMedia({ media: null });
      const text = pdfText(await page.pdf({ format: 'A4' }));
      for (const screenOnly of ['Chart of accounts', 'Export CSV']) if (text.includes(screenOnly)) problems[report.name]!.push(`"${screenOnly}" printed`);
    }
    expect(problems).toEqual(Object.fromEntries(REPORTS.map((report) => [report.name, []])));
  });
});
