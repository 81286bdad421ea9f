/**
 * Every page of the web UI on a phone (390 x 844): the page never scrolls sideways, no amount
 * breaks across lines, and in every table the key column (the first one shown: an account, a
 * date, an entry) and every link or button stay on the screen without scrolling the table. Wide
 * tables may scroll inside their own frame for their secondary columns, never for what a
 * bookkeeper taps.
 *
 * The books hold what stretches a layout: amounts in the billions, long account, period and
 * company names, sub-accounts, a reversal, a closed period with its closing entry, two currencies.
 * PAGES below lists every route of web/src/app.tsx (and the dialogs that are pages of their own
 * on a phone); a new page gets a row there.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, apiClient, expectVisible, MONTH, PHONE, seedBooks, useE2E } from './fixture.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { SignInPage } from './pages/sign-in-page.js';

const e2e = useE2E();

/** The ids the page paths need, made by the seeding below. */
interface Books {
  cashId: string;
  receivableId: string;
  customerId: string;
  salesId: string;
  bigEntryId: string;
  reversalId: string;
  closingEntryId: string;
  bankId: string;
  reconciliationId: string;
}

interface PhonePage {
  name: string;
  path: (books: Books) => string;
  /** The page's <h1>. */
  heading: string | RegExp;
  /** A test id that shows once the page's data is there (a row, a total). */
  loaded?: string;
  /** What to do on the page before the check (open a dialog). */
  act?: (page: Page) => Promise<void>;
}

const LONG_PERIOD = 'Adjustment period for the annual audit of the Northwind accounts';
const LONG_CUSTOMER = 'Northwind Traders International Holdings (Europe) Limited';

/** A bank's export with a preamble, long descriptions and amounts in the billions. */
const day = (number: number) => MONTH.day(number).split('-').reverse().join('.');
const BANK_CSV = [
  'Kontonummer;DE89 3704 0044 0532 0130 00', '',
  'Buchungstag;Verwendungszweck;Betrag;Saldo',
  `${day(3)};SEPA-Gutschrift Northwind Traders International Holdings (Europe) Limited Rechnung 2026-000123 und 2026-000124;9.876.543.210,99;9.876.543.210,99`,
  `${day(4)};Kontoführungsentgelt;-12,50;9.876.543.198,49`,
  `${day(5)};Lastschrift Stadtwerke Musterstadt GmbH Abschlag Strom/Gas Vertragskonto 4711-0815-2342;-1.234.567,89;9.875.308.630,60`,
].join('\n');

/** Every page; the reports are listed with the parameters that make them widest. */
const PAGES: PhonePage[] = [
  { name: 'dashboard', path: () => '/', heading: 'Dashboard', loaded: 'recent-entries' },
  { name: 'accounts', path: () => '/accounts', heading: 'Chart of accounts', loaded: 'account-row' },
  { name: 'new-account', path: () => '/accounts', heading: 'Chart of accounts', loaded: 'account-row',
    act: (page) => page.getByTestId('account-new').click().then(() => expectVisible(page.getByTestId('account-create-form'))) },
  { name: 'account-cash', path: (books) => `/accounts/${books.cashId}`, heading: /Cash/, loaded: 'ledger-line' },
  { name: 'account-control', path: (books) => `/accounts/${books.receivableId}`, heading: /Accounts receivable/, loaded: 'ledger-line' },
  { name: 'account-sub', path: (books) => `/accounts/${books.customerId}`, heading: /Northwind/, loaded: 'ledger-line' },
  { name: 'account-revenue', path: (books) => `/accounts/${books.salesId}?start=${MONTH.start}&end=${MONTH.end}`, heading: /Sales/,
    loaded: 'ledger-line' },
  { name: 'edit-account', path: (books) => `/accounts/${books.customerId}`, heading: /Northwind/, loaded: 'ledger-line',
    act: (page) => page.getByTestId('account-edit').click().then(() => expectVisible(page.getByTestId('account-edit-form'))) },
  { name: 'journal', path: () => '/journal', heading: 'Journal entries', loaded: 'journal-row' },
  { name: 'new-entry', path: () => '/journal/new', heading: 'New journal entry', loaded: 'entry-submit' },
  { name: 'entry', path: (books) => `/journal/${books.bigEntryId}`, heading: /Consulting retainer/, loaded: 'entry-line' },
  { name: 'reversal', path: (books) => `/journal/${books.reversalId}`, heading: /Reversal of/, loaded: 'entry-original-link' },
  { name: 'closing-entry', path: (books) => `/journal/${books.closingEntryId}`, heading: /./, loaded: 'entry-line' },
  { name: 'periods', path: () => '/periods', heading: 'Periods', loaded: 'period-row' },
  { name: 'reports', path: () => '/reports', heading: 'Reports' },
  { name: 'trial-balance', path: () => '/reports/trial-balance', heading: 'Trial balance', loaded: 'trial-balance-row' },
  { name: 'trial-balance-movement', path: () => `/reports/trial-balance?start=${MONTH.start}&end=${MONTH.end}`, heading: 'Trial balance',
    loaded: 'trial-balance-row' },
  { name: 'balance-sheet', path: () => '/reports/balance-sheet', heading: 'Balance sheet', loaded: 'balance-sheet-assets' },
  { name: 'income-statement', path: () => '/reports/income-statement', heading: 'Income statement', loaded: 'income-net' },
  { name: 'income-statement-by-month', path: () => `/reports/income-statement?start=${MONTH.start.slice(0, 4)}-01-01&end=${MONTH.end}&columns=month`,
    heading: 'Income statement', loaded: 'income-columns-net' },
  { name: 'aged-balances', path: (books) => `/reports/aged-balances?account=${books.receivableId}&as_of=${MONTH.end}`, heading: 'Aged balances',
    loaded: 'aged-balances-table' },
  { name: 'general-ledger', path: (books) => `/reports/general-ledger?account=${books.receivableId}`, heading: 'General ledger', loaded: 'ledger-line' },
  { name: 'bank', path: () => '/bank', heading: 'Bank matching', loaded: 'bank-line' },
  { name: 'bank-account', path: (books) => `/bank/${books.bankId}`, heading: 'Bank matching', loaded: 'bank-line' },
  { name: 'bank-find-match', path: (books) => `/bank/${books.bankId}`, heading: 'Bank matching', loaded: 'bank-line',
    act: (page) => page.getByTestId('line-find-match').first().click().then(() => expectVisible(page.getByTestId('match-others'))) },
  { name: 'bank-post-as', path: (books) => `/bank/${books.bankId}`, heading: 'Bank matching', loaded: 'bank-line',
    act: (page) => page.getByTestId('line-post-as').first().click().then(() => expectVisible(page.getByTestId('post-as'))) },
  { name: 'bank-matched', path: (books) => `/bank/${books.bankId}?show=matched`, heading: 'Bank matching', loaded: 'matched-entry' },
  { name: 'bank-import', path: (books) => `/bank/import?account=${books.bankId}`, heading: 'Import a bank statement', loaded: 'statement-row',
    act: async (page) => {
      await page.getByTestId('import-file').setInputFiles({ name: 'export.csv', mimeType: 'text/csv', buffer: Buffer.from(BANK_CSV, 'utf8') });
      await expectVisible(page.getByTestId('mapping-preview'));
    } },
  { name: 'bank-rules', path: () => '/bank/rules', heading: 'Bank rules', loaded: 'rule-row' },
  { name: 'bank-rule-dialog', path: () => '/bank/rules', heading: 'Bank rules', loaded: 'rule-row',
    act: (page) => page.getByTestId('rule-edit').first().click().then(() => expectVisible(page.getByTestId('rule-form'))) },
  { name: 'reconcile', path: () => '/reconcile', heading: 'Reconcile', loaded: 'reconciliation-row' },
  { name: 'reconciliation', path: (books) => `/reconcile/${books.reconciliationId}`, heading: /^Reconcile /, loaded: 'reconcile-line' },
  { name: 'currencies', path: () => '/currencies', heading: 'Currencies', loaded: 'currency-row' },
  { name: 'users', path: () => '/users', heading: 'Users', loaded: 'user-row' },
  { name: 'settings', path: () => '/settings', heading: 'Settings', loaded: 'retained-earnings-select' },
  { name: 'not-found', path: () => '/no-such-page', heading: 'Page not found' },
];

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
    for (let current = element.parentElement; current && current !== document.body; current = current.parentElement) {
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

let books: Books;

beforeAll(async () => {
  const seeded = await seedBooks(e2e.server, { entries: 3 });
  const anonymous = await apiClient(e2e.server);
  const tokens = await anonymous.call<{ access_token: string }>('POST', '/auth/login', { email: ADMIN.email, password: ADMIN.password });
  const { call } = await apiClient(e2e.server, tokens.access_token);
  const account = (body: Record<string, unknown>) => call<{ id: string }>('POST', '/api/v1/accounts', { currency_id: seeded.currencyId, ...body });
  const receivable = await account({ account_number: '1200', name: 'Accounts receivable', account_type: 'asset', normal_balance: 'debit', has_subledger: true });
  const customer = await account({ account_number: '1200-01', name: LONG_CUSTOMER, parent_id: receivable.id, entity_id: 'northwind-europe' });
  const services = await account({ account_number: '6100', name: 'Professional services, subcontractors and outside consultants',
    account_type: 'expense', normal_balance: 'debit' });
  const post = (body: Record<string, unknown>) => call<{ id: string }>('POST', '/api/v1/journal-entries', body);
  const big = await post({
    entry_date: MONTH.day(10), description: 'Consulting retainer for the full year, invoiced in advance', reference: 'INV-2026-000123',
    lines: [{ account_id: customer.id, debit_amount: '987654321099' }, { account_id: seeded.accounts.sales, credit_amount: '987654321099' }],
  });
  await post({
    entry_date: MONTH.day(12), description: 'Subcontractor invoice',
    lines: [{ account_id: services.id, debit_amount: '12345678900' }, { account_id: seeded.accounts.cash, credit_amount: '12345678900' }],
  });
  const wrong = await post({
    entry_date: MONTH.day(14), description: 'Posted to the wrong customer',
    lines: [{ account_id: customer.id, debit_amount: '5000000' }, { account_id: seeded.accounts.sales, credit_amount: '5000000' }],
  });
  const reversal = await call<{ id: string }>('POST', `/api/v1/journal-entries/${wrong.id}/reverse`, { entry_date: MONTH.day(15) });

  // The month before the fixture's month, with a long name, closed: its closing entry is a page too.
  const first = new Date(`${MONTH.start}T00:00:00Z`);
  const before = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() - 1, 1));
  const beforeEnd = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), 0));
  const iso = (date: Date) => date.toISOString().slice(0, 10);
  const closed = await call<{ id: string }>('POST', '/api/v1/periods', { name: LONG_PERIOD, start_date: iso(before), end_date: iso(beforeEnd) });
  await post({
    entry_date: iso(before), description: 'Sale before the audit',
    lines: [{ account_id: seeded.accounts.cash, debit_amount: '2500000' }, { account_id: seeded.accounts.sales, credit_amount: '2500000' }],
  });
  const close = await call<{ closing_entry: { id: string } }>('POST', `/api/v1/periods/${closed.id}/close`);

  // A second currency with an account, and a service account, so that those pages have rows.
  const eur = await call<{ id: string }>('POST', '/api/v1/currencies', {
    code: 'EUR', name: 'Euro', symbol: '€', asset_scale: 2, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:EUR',
  });
  const bank = await call<{ id: string }>('POST', '/api/v1/accounts', { account_number: '1010', name: 'Bank (EUR)', account_type: 'asset', normal_balance: 'debit', currency_id: eur.id });
  const charges = await call<{ id: string }>('POST', '/api/v1/accounts', { account_number: '6150', name: 'Bank charges and interest on overdrafts (EUR)',
    account_type: 'expense', normal_balance: 'debit', currency_id: eur.id });
  const openingEur = await call<{ id: string }>('POST', '/api/v1/accounts', { account_number: '3010', name: 'Opening balance (EUR)',
    account_type: 'equity', normal_balance: 'credit', currency_id: eur.id });
  await post({ entry_date: MONTH.day(1), description: 'Opening balance of the euro account', reference: 'OB-2026',
    lines: [{ account_id: bank.id, debit_amount: '123456789' }, { account_id: openingEur.id, credit_amount: '123456789' }] });
  await call('POST', '/api/v1/bank-statements', { account_id: bank.id, format: 'csv', content: BANK_CSV, csv: { delimiter: ';', skip_rows: 2,
    date_column: 'Buchungstag', date_format: 'DD.MM.YYYY', description_column: 'Verwendungszweck', amount_column: 'Betrag', decimal_separator: ',',
    balance_column: 'Saldo' } });
  await call('POST', '/api/v1/bank-rules', { name: 'Bank charges, account maintenance fees and card fees', account_id: bank.id,
    match: { description_regex: '(entgelt|gebühr|fee)', direction: 'out', amount_max: '100000' }, counter_account_id: charges.id,
    description: 'Monthly account maintenance fee' });
  const lines = await call<{ id: string; description: string }[]>('GET', `/api/v1/bank-lines?account_id=${bank.id}`);
  await call('POST', `/api/v1/bank-lines/${lines.find((line) => line.description.startsWith('Kontoführung'))!.id}/post`, {});
  const reconciliation = await call<{ id: string }>('POST', '/api/v1/reconciliations', { account_id: bank.id, statement_date: MONTH.day(5),
    statement_balance: '987530863060' });
  await call('POST', '/api/v1/users/service-accounts', { name: 'Nightly bank import', permissions: { 'journals:create': true } });
  await call('PATCH', '/api/v1/settings', { company_name: 'Northwind & Henderson Management Consulting Partners (Europe) GmbH' });

  books = {
    cashId: seeded.accounts.cash, receivableId: receivable.id, customerId: customer.id, salesId: seeded.accounts.sales,
    bigEntryId: big.id, reversalId: reversal.id, closingEntryId: close.closing_entry.id, bankId: bank.id, reconciliationId: reconciliation.id,
  };
}, 90_000);

describe('every page on a phone (390 x 844)', { timeout: 120_000 }, () => {
  let page: Page;

  beforeAll(async () => {
    page = await e2e.newPage({ viewport: PHONE });
    await new SignInPage(page).goto().then((signIn) => signIn.signIn(ADMIN));
    await new DashboardPage(page).ready();
  }, 60_000);

  it('lists every route of the app', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { ROOT } = await import('./fixture.js');
    const routes = [...readFileSync(join(ROOT, 'web/src/app.tsx'), 'utf8').matchAll(/pattern: '([^']+)'/g)].map((match) => match[1]!);
    const visited = new Set(PAGES.map((entry) => new URL(entry.path(books), 'http://x').pathname
      .replace(books.bankId, ':accountId').replace(books.reconciliationId, ':id')
      .replace(books.cashId, ':id').replace(books.receivableId, ':id').replace(books.customerId, ':id').replace(books.salesId, ':id')
      .replace(books.bigEntryId, ':id').replace(books.reversalId, ':id').replace(books.closingEntryId, ':id')));
    expect(routes.filter((route) => !visited.has(route))).toEqual([]);
  });

  it.each(PAGES.map((entry) => [entry.name, entry] as const))('fits %s to the screen', async (name, entry) => {
    await page.goto(entry.path(books));
    await expectVisible(page.getByRole('heading', { level: 1, name: entry.heading }));
    if (entry.loaded) await expectVisible(page.getByTestId(entry.loaded).first());
    await entry.act?.(page);
    // Whatever is still loading (a balance, a chart) has finished.
    await expect.poll(() => page.locator('.skeleton, .loading, [aria-busy="true"]').count(), { timeout: 15_000 }).toBe(0);
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
