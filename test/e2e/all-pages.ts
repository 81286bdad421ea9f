/**
 * Every page of the web UI, once, with books that stretch a layout: the list the layout tests
 * (test/e2e/desktop-layout.test.ts, test/e2e/phone-width.test.ts) walk. A new page gets a row in
 * ALL_PAGES, naming the route of web/src/app.tsx it shows; `uncoveredRoutes` fails those tests
 * when a route has no row.
 *
 * The books (`seedLayoutBooks`) hold what widens a table: amounts in the billions, an
 * 18-decimal crypto currency with amounts of 27 to 30 digits, account names of 60 and more characters,
 * a control account with sub-accounts and open items of every age, twelve monthly periods (two
 * closed, with their closing entries), a reversal, a many-line entry, three currencies, long
 * period, company and user names, and exchange rates for the euro and Ether, so that the
 * translated reports and the dashboard show the whole ledger in USD (amounts in the trillions).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { ADMIN, apiClient, expectVisible, type LedgerServer, MONTH, ROOT, seedBooks } from './fixture.js';
import { NewEntryPage } from './pages/new-entry-page.js';

/** The ids the page paths need, made by `seedLayoutBooks`. */
export interface LayoutBooks {
  cashId: string;
  receivableId: string;
  customerId: string;
  salesId: string;
  servicesId: string;
  walletId: string;
  bigEntryId: string;
  manyLineEntryId: string;
  cryptoEntryId: string;
  reversalId: string;
  closingEntryId: string;
  /** The open period with activity in every currency, whose close the close dialog previews. */
  openPeriodId: string;
  usdId: string;
  eurId: string;
  ethId: string;
  /** The euro bank account, with an imported statement, and its open reconciliation. */
  bankId: string;
  reconciliationId: string;
  /** A webhook endpoint with a long URL whose name does not resolve: its attempts fail, and say why. */
  webhookId: string;
}

export interface PageVisit {
  name: string;
  /** The route pattern of web/src/app.tsx this visit shows, or null for a page no route names (not found). */
  route: string | null;
  path: (books: LayoutBooks) => string;
  /** The page's <h1>. */
  heading: string | RegExp;
  /** A test id that shows once the page's data is there (a row, a total). */
  loaded?: string;
  /** What to do on the page before the checks (open a dialog, fill a form). */
  act?: (page: Page, books: LayoutBooks) => Promise<void>;
}

export const LONG_PERIOD = 'Adjustment period for the annual audit of the Northwind accounts';

/** A bank's export with a preamble, long descriptions and amounts in the billions. */
const bankDay = (number: number) => MONTH.day(number).split('-').reverse().join('.');
export const BANK_CSV = [
  'Kontonummer;DE89 3704 0044 0532 0130 00', '',
  'Buchungstag;Verwendungszweck;Betrag;Saldo',
  `${bankDay(3)};SEPA-Gutschrift Northwind Traders International Holdings (Europe) Limited Rechnung 2026-000123 und 2026-000124;9.876.543.210,99;9.876.543.210,99`,
  `${bankDay(4)};Kontoführungsentgelt;-12,50;9.876.543.198,49`,
  `${bankDay(5)};Lastschrift Stadtwerke Musterstadt GmbH Abschlag Strom/Gas Vertragskonto 4711-0815-2342;-1.234.567,89;9.875.308.630,60`,
].join('\n');
export const LONG_CUSTOMER = 'Northwind Traders International Holdings (Europe) Limited';
const LONGER_CUSTOMER = 'Contoso Pharmaceuticals and Biotechnology Research Laboratories Incorporated';
const LONG_EXPENSE = 'Professional services, subcontractors and outside consultants';
export const COMPANY = 'Northwind & Henderson Management Consulting Partners (Europe) GmbH';

const year = MONTH.start.slice(0, 4);
/** The first day of the month `offset` months from the fixture's month (negative: before it). */
function monthStart(offset: number): string {
  const first = new Date(`${MONTH.start}T00:00:00Z`);
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + offset, 1)).toISOString().slice(0, 10);
}
function monthEnd(offset: number): string {
  const first = new Date(`${MONTH.start}T00:00:00Z`);
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + offset + 1, 0)).toISOString().slice(0, 10);
}
function dayOf(offset: number, day: number): string {
  return `${monthStart(offset).slice(0, 8)}${String(day).padStart(2, '0')}`;
}
/** The income statement by month covers these twelve months. */
export const YEAR_START = monthStart(-11);

/** Every page; the reports are listed with the parameters that make them widest. */
export const ALL_PAGES: PageVisit[] = [
  { name: 'dashboard', route: '/', path: () => '/', heading: 'Dashboard', loaded: 'recent-entries' },
  { name: 'accounts', route: '/accounts', path: () => '/accounts', heading: 'Chart of accounts', loaded: 'account-row' },
  { name: 'new-account', route: '/accounts', path: () => '/accounts', heading: 'Chart of accounts', loaded: 'account-row',
    act: (page) => page.getByTestId('account-new').click().then(() => expectVisible(page.getByTestId('account-create-form'))) },
  { name: 'account-cash', route: '/accounts/:id', path: (books) => `/accounts/${books.cashId}`, heading: /Cash/, loaded: 'ledger-line' },
  { name: 'account-control', route: '/accounts/:id', path: (books) => `/accounts/${books.receivableId}`, heading: /Accounts receivable/,
    loaded: 'ledger-line' },
  { name: 'account-sub', route: '/accounts/:id', path: (books) => `/accounts/${books.customerId}`, heading: /Northwind/, loaded: 'ledger-line' },
  { name: 'account-revenue', route: '/accounts/:id', path: (books) => `/accounts/${books.salesId}?start=${YEAR_START}&end=${MONTH.end}`,
    heading: /Sales/, loaded: 'ledger-line' },
  { name: 'account-expense', route: '/accounts/:id', path: (books) => `/accounts/${books.servicesId}?start=${YEAR_START}&end=${MONTH.end}`,
    heading: /Professional services/, loaded: 'ledger-line' },
  { name: 'account-crypto', route: '/accounts/:id', path: (books) => `/accounts/${books.walletId}`, heading: /Ethereum/, loaded: 'ledger-line' },
  { name: 'edit-account', route: '/accounts/:id', path: (books) => `/accounts/${books.customerId}`, heading: /Northwind/, loaded: 'ledger-line',
    act: (page) => page.getByTestId('account-edit').click().then(() => expectVisible(page.getByTestId('account-edit-form'))) },
  { name: 'journal', route: '/journal', path: () => '/journal', heading: 'Journal entries', loaded: 'journal-row' },
  { name: 'new-entry', route: '/journal/new', path: () => '/journal/new', heading: 'New journal entry', loaded: 'entry-submit',
    act: fillNewEntry },
  { name: 'entry', route: '/journal/:id', path: (books) => `/journal/${books.bigEntryId}`, heading: /Consulting retainer/, loaded: 'entry-line' },
  { name: 'entry-many-lines', route: '/journal/:id', path: (books) => `/journal/${books.manyLineEntryId}`, heading: /Quarterly payroll/,
    loaded: 'entry-line' },
  { name: 'entry-crypto', route: '/journal/:id', path: (books) => `/journal/${books.cryptoEntryId}`, heading: /Validator rewards/,
    loaded: 'entry-line' },
  { name: 'reversal', route: '/journal/:id', path: (books) => `/journal/${books.reversalId}`, heading: /Reversal of/, loaded: 'entry-original-link' },
  { name: 'closing-entry', route: '/journal/:id', path: (books) => `/journal/${books.closingEntryId}`, heading: /./, loaded: 'entry-line' },
  { name: 'periods', route: '/periods', path: () => '/periods', heading: 'Periods', loaded: 'period-row' },
  { name: 'close-preview', route: '/periods', path: () => '/periods', heading: 'Periods', loaded: 'period-row', act: previewClose },
  { name: 'reports', route: '/reports', path: () => '/reports', heading: 'Reports' },
  { name: 'trial-balance', route: '/reports/trial-balance', path: () => '/reports/trial-balance', heading: 'Trial balance',
    loaded: 'trial-balance-row' },
  { name: 'trial-balance-movement', route: '/reports/trial-balance', path: () => `/reports/trial-balance?start=${YEAR_START}&end=${MONTH.end}`,
    heading: 'Trial balance', loaded: 'trial-balance-row' },
  { name: 'trial-balance-all-columns', route: '/reports/trial-balance',
    path: () => `/reports/trial-balance?start=${YEAR_START}&end=${MONTH.end}&columns=all`, heading: 'Trial balance', loaded: 'trial-balance-row' },
  { name: 'trial-balance-translated', route: '/reports/trial-balance',
    path: (books) => `/reports/trial-balance?as_of=${MONTH.end}&columns=all&presentation_currency_id=${books.usdId}`, heading: 'Trial balance',
    loaded: 'original-amount' },
  { name: 'balance-sheet-translated', route: '/reports/balance-sheet', path: (books) => `/reports/balance-sheet?presentation_currency_id=${books.usdId}`,
    heading: 'Balance sheet', loaded: 'statement-row' },
  { name: 'income-statement-translated-by-month', route: '/reports/income-statement',
    path: (books) => `/reports/income-statement?start=${YEAR_START}&end=${MONTH.end}&columns=month&presentation_currency_id=${books.usdId}`,
    heading: 'Income statement', loaded: 'original-amount' },
  { name: 'balance-sheet', route: '/reports/balance-sheet', path: () => '/reports/balance-sheet', heading: 'Balance sheet',
    loaded: 'balance-sheet-assets' },
  { name: 'balance-sheet-crypto', route: '/reports/balance-sheet', path: (books) => `/reports/balance-sheet?currency=${books.ethId}`,
    heading: 'Balance sheet', loaded: 'balance-sheet-assets' },
  { name: 'income-statement', route: '/reports/income-statement', path: () => '/reports/income-statement', heading: 'Income statement',
    loaded: 'income-net' },
  { name: 'income-statement-crypto', route: '/reports/income-statement', path: (books) => `/reports/income-statement?currency=${books.ethId}`,
    heading: 'Income statement', loaded: 'income-net' },
  { name: 'income-statement-by-month', route: '/reports/income-statement',
    path: () => `/reports/income-statement?start=${YEAR_START}&end=${MONTH.end}&columns=month`, heading: 'Income statement',
    loaded: 'income-columns-net' },
  { name: 'income-statement-crypto-by-month', route: '/reports/income-statement',
    path: (books) => `/reports/income-statement?start=${YEAR_START}&end=${MONTH.end}&columns=month&currency=${books.ethId}`,
    heading: 'Income statement', loaded: 'income-columns-net' },
  { name: 'income-statement-by-quarter', route: '/reports/income-statement',
    path: (books) => `/reports/income-statement?start=${YEAR_START}&end=${MONTH.end}&columns=quarter&currency=${books.eurId}`,
    heading: 'Income statement', loaded: 'income-columns-net' },
  { name: 'aged-balances', route: '/reports/aged-balances', path: (books) => `/reports/aged-balances?account=${books.receivableId}&as_of=${MONTH.end}`,
    heading: 'Aged balances', loaded: 'aged-balances-table' },
  { name: 'general-ledger', route: '/reports/general-ledger', path: (books) => `/reports/general-ledger?account=${books.receivableId}`,
    heading: 'General ledger', loaded: 'ledger-line' },
  { name: 'general-ledger-crypto', route: '/reports/general-ledger', path: (books) => `/reports/general-ledger?account=${books.walletId}`,
    heading: 'General ledger', loaded: 'ledger-line' },
  { name: 'bank', route: '/bank', path: () => '/bank', heading: 'Bank matching', loaded: 'bank-line' },
  { name: 'bank-account', route: '/bank/:accountId', path: (books) => `/bank/${books.bankId}`, heading: 'Bank matching', loaded: 'bank-line' },
  { name: 'bank-find-match', route: '/bank/:accountId', path: (books) => `/bank/${books.bankId}`, heading: 'Bank matching', loaded: 'bank-line',
    act: (page) => page.getByTestId('line-find-match').first().click().then(() => expectVisible(page.getByTestId('match-others'))) },
  { name: 'bank-post-as', route: '/bank/:accountId', path: (books) => `/bank/${books.bankId}`, heading: 'Bank matching', loaded: 'bank-line',
    act: (page) => page.getByTestId('line-post-as').first().click().then(() => expectVisible(page.getByTestId('post-as'))) },
  { name: 'bank-matched', route: '/bank/:accountId', path: (books) => `/bank/${books.bankId}?show=matched`, heading: 'Bank matching',
    loaded: 'matched-entry' },
  { name: 'bank-import', route: '/bank/import', path: (books) => `/bank/import?account=${books.bankId}`, heading: 'Import a bank statement',
    loaded: 'statement-row', act: async (page) => {
      await page.getByTestId('import-file').setInputFiles({ name: 'export.csv', mimeType: 'text/csv', buffer: Buffer.from(BANK_CSV, 'utf8') });
      await expectVisible(page.getByTestId('mapping-preview'));
    } },
  { name: 'bank-rules', route: '/bank/rules', path: () => '/bank/rules', heading: 'Bank rules', loaded: 'rule-row' },
  { name: 'bank-rule-dialog', route: '/bank/rules', path: () => '/bank/rules', heading: 'Bank rules', loaded: 'rule-row',
    act: (page) => page.getByTestId('rule-edit').first().click().then(() => expectVisible(page.getByTestId('rule-form'))) },
  { name: 'reconcile', route: '/reconcile', path: () => '/reconcile', heading: 'Reconcile', loaded: 'reconciliation-row' },
  { name: 'reconciliation', route: '/reconcile/:id', path: (books) => `/reconcile/${books.reconciliationId}`, heading: /^Reconcile /,
    loaded: 'reconcile-line' },
  { name: 'rates', route: '/rates', path: () => '/rates', heading: 'Exchange rates', loaded: 'rate-row' },
  { name: 'currencies', route: '/currencies', path: () => '/currencies', heading: 'Currencies', loaded: 'currency-row' },
  { name: 'users', route: '/users', path: () => '/users', heading: 'Users', loaded: 'user-row' },
  { name: 'webhooks', route: '/webhooks', path: () => '/webhooks', heading: 'Webhooks', loaded: 'webhook-row' },
  { name: 'new-webhook', route: '/webhooks', path: () => '/webhooks', heading: 'Webhooks', loaded: 'webhook-row',
    act: async (page) => {
      await page.getByTestId('webhook-new').click();
      await page.getByTestId('webhook-events-chosen').check();
      await expectVisible(page.getByTestId('webhook-type-entry.posted'));
    } },
  { name: 'webhook', route: '/webhooks/:id', path: (books) => `/webhooks/${books.webhookId}`, heading: /hooks\.northwind-henderson/,
    loaded: 'webhook-settings' },
  { name: 'settings', route: '/settings', path: () => '/settings', heading: 'Settings', loaded: 'retained-earnings-select' },
  { name: 'not-found', route: null, path: () => '/no-such-page', heading: 'Page not found' },
];

/** The new-entry form with three lines filled: long account names and billions. */
async function fillNewEntry(page: Page): Promise<void> {
  const form = new NewEntryPage(page);
  await form.description.fill('Annual maintenance contract for the head office, invoiced quarterly in advance');
  await form.reference.fill('INV-2026-004711-A');
  await form.chooseAccount(0, '6100', LONG_EXPENSE);
  await form.lineDebit(0).fill('1,234,567,890.12');
  await form.lineDescription(0).fill('Maintenance of the leasehold improvements, first quarter');
  await form.chooseAccount(1, '1000', 'Cash');
  await form.lineCredit(1).fill('1,000,000,000.00');
  await page.getByTestId('entry-add-line').click();
  await form.chooseAccount(2, '1000', 'Cash');
  await form.lineCredit(2).fill('234,567,890.12');
  // Leaving the last field rewrites its amount in full form, as a person tabbing on would see it.
  await page.keyboard.press('Tab');
}

/** The close dialog of the open period with activity in every currency, with its preview of the closing entries. */
async function previewClose(page: Page, books: LayoutBooks): Promise<void> {
  await page.locator(`[data-testid="period-row"][data-period-id="${books.openPeriodId}"]`).getByTestId('period-close').click();
  await page.getByTestId('close-preview').click();
  await expectVisible(page.getByTestId('close-preview-entry').first());
}

/** The route patterns of web/src/app.tsx's route table, read from its source. */
export function appRoutes(): string[] {
  const source = readFileSync(join(ROOT, 'web/src/app.tsx'), 'utf8');
  return [...source.matchAll(/\bpattern: '([^']+)'/g)].map((match) => match[1]!);
}

function matchesRoute(route: string, pathname: string): boolean {
  const routeParts = route.split('/');
  const pathParts = pathname.split('/');
  return routeParts.length === pathParts.length
    && routeParts.every((part, index) => (part.startsWith(':') ? pathParts[index] !== '' : part === pathParts[index]));
}

/**
 * What is wrong with the list: routes of the app with no visit, and visits whose path does not
 * match the route they name (a typo would otherwise count a route as visited).
 */
export function pageListProblems(pages: readonly PageVisit[], books: LayoutBooks): string[] {
  const routes = appRoutes();
  if (routes.length === 0) return ['no route pattern found in web/src/app.tsx: has the route table changed shape?'];
  const problems: string[] = [];
  for (const route of routes) {
    if (!pages.some((visit) => visit.route === route)) problems.push(`the route ${route} has no visit in test/e2e/all-pages.ts`);
  }
  for (const visit of pages) {
    const pathname = new URL(visit.path(books), 'http://ledger.test').pathname;
    if (visit.route === null) {
      if (routes.some((route) => matchesRoute(route, pathname))) problems.push(`${visit.name}: ${pathname} matches a route, but the visit names none`);
    } else if (!routes.includes(visit.route)) {
      problems.push(`${visit.name}: ${visit.route} is not a route of web/src/app.tsx`);
    } else if (!matchesRoute(visit.route, pathname)) {
      problems.push(`${visit.name}: ${pathname} does not match ${visit.route}`);
    }
  }
  return problems;
}

/** Asserts `pageListProblems` is empty, for a test named after it. */
export function expectEveryRouteVisited(pages: readonly PageVisit[], books: LayoutBooks): void {
  expect(pageListProblems(pages, books)).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// The books

/**
 * Seeds the books through the HTTP API, as an integration or a bookkeeper would have filled them:
 * twelve monthly periods ending with the fixture's month (the one before it, with a long name,
 * and the first one closed), the current month, three currencies, and a year of entries.
 */
export async function seedLayoutBooks(server: LedgerServer): Promise<LayoutBooks> {
  const seeded = await seedBooks(server, { entries: 3 });
  const anonymous = await apiClient(server);
  const tokens = await anonymous.call<{ access_token: string }>('POST', '/auth/login', { email: ADMIN.email, password: ADMIN.password });
  const { call } = await apiClient(server, tokens.access_token);
  const post = (body: Record<string, unknown>) => call<{ id: string }>('POST', '/api/v1/journal-entries', body);
  const line = (account_id: string, side: 'debit' | 'credit', amount: string, description?: string) =>
    ({ account_id, [`${side}_amount`]: amount, ...(description ? { description } : {}) });

  // Currencies: the fixture's USD, the euro, and Ether with 18 decimals.
  const eur = await call<{ id: string }>('POST', '/api/v1/currencies', {
    code: 'EUR', name: 'Euro', symbol: '€', asset_scale: 2, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:EUR',
  });
  const eth = await call<{ id: string }>('POST', '/api/v1/currencies', {
    code: 'ETH', name: 'Ether', symbol: 'Ξ', asset_scale: 18, asset_type: 'crypto', caip19_id: 'eip155:1/slip44:60',
  });
  const account = (currency_id: string, body: Record<string, unknown>) => call<{ id: string }>('POST', '/api/v1/accounts', { currency_id, ...body });
  const usd = (body: Record<string, unknown>) => account(seeded.currencyId, body);

  const receivable = await usd({ account_number: '1200', name: 'Accounts receivable', account_type: 'asset', normal_balance: 'debit',
    has_subledger: true, xbrl_tag: 'us-gaap:AccountsReceivableNetCurrent' });
  const customer = await usd({ account_number: '1200-01', name: LONG_CUSTOMER, parent_id: receivable.id, entity_id: 'northwind-europe' });
  const contoso = await usd({ account_number: '1200-02', name: LONGER_CUSTOMER, parent_id: receivable.id, entity_id: 'contoso-pharmaceuticals-research' });
  const fabrikam = await usd({ account_number: '1200-03', name: 'Fabrikam', parent_id: receivable.id, entity_id: 'fabrikam' });
  const leasehold = await usd({ account_number: '1500', name: 'Leasehold improvements to the head office building at 221B Baker Street, London',
    account_type: 'asset', normal_balance: 'debit', xbrl_tag: 'us-gaap:LeaseholdImprovementsGross' });
  const accrued = await usd({ account_number: '2100', name: 'Accrued liabilities and deferred income from long-term service contracts',
    account_type: 'liability', normal_balance: 'credit', xbrl_tag: 'us-gaap:AccruedLiabilitiesCurrent' });
  const services = await usd({ account_number: '6100', name: LONG_EXPENSE, account_type: 'expense', normal_balance: 'debit' });
  const travel = await usd({ account_number: '6200', name: 'Travel, accommodation, subsistence and conference attendance for staff',
    account_type: 'expense', normal_balance: 'debit' });
  const salaries = await usd({ account_number: '6000', name: 'Salaries and wages', account_type: 'expense', normal_balance: 'debit' });

  const eurAccount = (body: Record<string, unknown>) => account(eur.id, body);
  const bankEur = await eurAccount({ account_number: '1010', name: 'Bank (EUR)', account_type: 'asset', normal_balance: 'debit' });
  const salesEur = await eurAccount({ account_number: '4010', name: 'Sales Europe: consulting services invoiced in euros to EU customers',
    account_type: 'revenue', normal_balance: 'credit' });
  const retainedEur = await eurAccount({ account_number: '3010', name: 'Retained earnings (EUR)', account_type: 'equity', normal_balance: 'credit' });
  const ethAccount = (body: Record<string, unknown>) => account(eth.id, body);
  const wallet = await ethAccount({ account_number: '1050', name: 'Ethereum hot wallet', account_type: 'asset', normal_balance: 'debit' });
  const staking = await ethAccount({ account_number: '4050', name: 'Staking rewards from validator nodes', account_type: 'revenue',
    normal_balance: 'credit' });
  const retainedEth = await ethAccount({ account_number: '3050', name: 'Retained earnings (ETH)', account_type: 'equity', normal_balance: 'credit' });
  await call('PATCH', '/api/v1/settings', {
    company_name: COMPANY, retained_earnings_account_ids: { [eur.id]: retainedEur.id, [eth.id]: retainedEth.id },
  });
  // Rates into USD (the base currency) from the first month on: Ether at a price with twelve decimals.
  for (const [currency_id, rate_date, rate] of [[eur.id, monthStart(-11), '1.0842'], [eur.id, monthStart(-5), '1.092105'],
    [eth.id, monthStart(-11), '3456.789012345678']] as const) {
    await call('POST', '/api/v1/exchange-rates', { currency_id, rate_date, rate });
  }

  // Periods: the eleven months before the fixture's (which seedBooks made), and the current month.
  const periodIds = new Map<number, string>();
  for (let offset = -11; offset <= 1; offset += 1) {
    if (offset === 0) continue;
    const name = offset === -1 ? LONG_PERIOD
      : new Date(`${monthStart(offset)}T00:00:00Z`).toLocaleDateString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });
    const period = await call<{ id: string }>('POST', '/api/v1/periods', { name, start_date: monthStart(offset), end_date: monthEnd(offset) });
    periodIds.set(offset, period.id);
  }

  // A year of activity: invoices to customers (paid after a while, the last ones open), expenses,
  // euro sales and staking rewards, month by month.
  const customers = [customer.id, contoso.id, fabrikam.id];
  for (let offset = -11; offset <= 0; offset += 1) {
    const index = offset + 12;
    const invoice = String(123456789012n * BigInt(index) + 99n);
    await post({ entry_date: dayOf(offset, 3), description: `Invoice ${year}-${String(index).padStart(3, '0')} for consulting services`,
      reference: `INV-${year}-${String(index).padStart(6, '0')}`,
      lines: [line(customers[index % 3]!, 'debit', invoice), line(seeded.accounts.sales, 'credit', invoice)] });
    // Invoices up to four months old stay open, for the aged balances' buckets.
    if (offset < -4) {
      await post({ entry_date: dayOf(offset, 25), description: 'Customer payment received by bank transfer',
        lines: [line(seeded.accounts.cash, 'debit', invoice), line(customers[index % 3]!, 'credit', invoice)] });
    }
    await post({ entry_date: dayOf(offset, 8), description: 'Subcontractor invoice',
      lines: [line(services.id, 'debit', String(12345678900n + BigInt(index) * 1000n)),
        line(seeded.accounts.cash, 'credit', String(12345678900n + BigInt(index) * 1000n))] });
    await post({ entry_date: dayOf(offset, 12), description: 'Sales Europe',
      lines: [line(bankEur.id, 'debit', String(45678901234n * BigInt(index))), line(salesEur.id, 'credit', String(45678901234n * BigInt(index)))] });
    const reward = String(987654321098765432109876543n + BigInt(index) * 111111111111111111n);
    await post({ entry_date: dayOf(offset, 20), description: 'Validator rewards for the month',
      lines: [line(wallet.id, 'debit', reward), line(staking.id, 'credit', reward)] });
  }
  const cryptoEntry = await post({ entry_date: MONTH.day(21), description: 'Validator rewards for the last epoch of the month, all validator nodes',
    reference: '0x8f3a9c2e7b1d4f6a', lines: [line(wallet.id, 'debit', '123456789012345678901234567890', 'Validator nodes 1 to 64'),
      line(staking.id, 'credit', '123456789012345678901234567890', 'Rewards accrued and paid out by the beacon chain')] });

  const big = await post({
    entry_date: MONTH.day(10), description: 'Consulting retainer for the full year, invoiced in advance', reference: 'INV-2026-000123',
    lines: [line(customer.id, 'debit', '987654321099'), line(seeded.accounts.sales, 'credit', '987654321099')],
  });
  const manyLines = await post({
    entry_date: MONTH.day(28), description: 'Quarterly payroll, travel, leasehold and accruals', reference: 'PAYROLL-Q-2026-03',
    lines: [
      line(salaries.id, 'debit', '4567890123456', 'Salaries and wages of the consulting staff for the quarter, before deductions'),
      line(travel.id, 'debit', '23456789012', 'Client site visits in Frankfurt, Zurich and Amsterdam'),
      line(leasehold.id, 'debit', '987654321000', 'Second floor refurbishment'),
      line(services.id, 'debit', '1234500', 'Payroll bureau fee'),
      line(accrued.id, 'credit', '1000000000000', 'Accrued bonuses and holiday pay'),
      line(seeded.accounts.cash, 'credit', String(4567890123456n + 23456789012n + 987654321000n + 1234500n - 1000000000000n),
        'Paid from the operating account'),
    ],
  });
  const wrong = await post({
    entry_date: MONTH.day(14), description: 'Posted to the wrong customer',
    lines: [line(customer.id, 'debit', '5000000'), line(seeded.accounts.sales, 'credit', '5000000')],
  });
  const reversal = await call<{ id: string }>('POST', `/api/v1/journal-entries/${wrong.id}/reverse`, { entry_date: MONTH.day(15) });

  // Every month before the fixture's is closed, in order (periods close in order); the last of them
  // has the long name and its closing entry is a page too.
  let close = { closing_entry: { id: '' } };
  for (let offset = -11; offset <= -1; offset += 1) {
    close = await call<{ closing_entry: { id: string } }>('POST', `/api/v1/periods/${periodIds.get(offset)!}/close`);
  }

  // The bank: a statement of the euro account imported, a rule, one line posted by it, a reconciliation open.
  const charges = await eurAccount({ account_number: '6150', name: 'Bank charges and interest on overdrafts (EUR)', account_type: 'expense',
    normal_balance: 'debit' });
  await call('POST', '/api/v1/bank-statements', { account_id: bankEur.id, format: 'csv', content: BANK_CSV, csv: { delimiter: ';', skip_rows: 2,
    date_column: 'Buchungstag', date_format: 'DD.MM.YYYY', description_column: 'Verwendungszweck', amount_column: 'Betrag', decimal_separator: ',',
    balance_column: 'Saldo' } });
  await call('POST', '/api/v1/bank-rules', { name: 'Bank charges, account maintenance fees and card fees', account_id: bankEur.id,
    match: { description_regex: '(entgelt|gebühr|fee)', direction: 'out', amount_max: '100000' }, counter_account_id: charges.id,
    description: 'Monthly account maintenance fee' });
  const bankLines = await call<{ id: string; description: string }[]>('GET', `/api/v1/bank-lines?account_id=${bankEur.id}`);
  await call('POST', `/api/v1/bank-lines/${bankLines.find((bankLine) => bankLine.description.startsWith('Kontoführung'))!.id}/post`, {});
  const reconciliation = await call<{ id: string }>('POST', '/api/v1/reconciliations', { account_id: bankEur.id, statement_date: MONTH.day(5),
    statement_balance: '987530863060' });

  // Users: a person with a long name and several permissions, and a service account.
  await call('POST', '/api/v1/users', {
    name: 'Bartholomew Featherstonehaugh-Cholmondeley', email: 'bartholomew.featherstonehaugh-cholmondeley@northwind-henderson.example',
    password: 'correct-horse-battery-staple',
    permissions: { 'accounts:write': true, 'periods:write': true, 'periods:close': true, 'journals:create': true, 'journals:reverse': true },
  });
  await call('POST', '/api/v1/users/service-accounts', { name: 'Nightly bank import', permissions: { 'journals:create': true } });

  // Webhooks: one for every event at a long address whose name does not resolve (its attempts fail
  // and say why), and one for a few types, disabled by hand.
  const webhook = await call<{ id: string }>('POST', '/api/v1/webhook-endpoints', {
    url: 'https://hooks.northwind-henderson.example/integrations/ledger/events?source=accounting-production&region=eu-central',
    event_types: ['*'], description: 'Data warehouse of Northwind & Henderson: every change, for the nightly consolidation',
  });
  const quiet = await call<{ id: string }>('POST', '/api/v1/webhook-endpoints', {
    url: 'https://erp.example/ledger', event_types: ['entry.posted', 'account.created', 'account.updated', 'period.closed', 'bank_line.updated'],
  });
  await call('PATCH', `/api/v1/webhook-endpoints/${quiet.id}`, { is_active: false });
  // An event for the first endpoint to try.
  await call('PATCH', '/api/v1/settings', { company_name: COMPANY });

  return {
    cashId: seeded.accounts.cash, receivableId: receivable.id, customerId: customer.id, salesId: seeded.accounts.sales, servicesId: services.id,
    walletId: wallet.id, bigEntryId: big.id, manyLineEntryId: manyLines.id, cryptoEntryId: cryptoEntry.id, reversalId: reversal.id,
    closingEntryId: close.closing_entry.id, openPeriodId: seeded.periodId, usdId: seeded.currencyId, eurId: eur.id, ethId: eth.id, bankId: bankEur.id,
    reconciliationId: reconciliation.id, webhookId: webhook.id,
  };
}

/** Opens a visit's page and waits until its data, and whatever else was loading, is there. */
export async function openVisit(page: Page, visit: PageVisit, books: LayoutBooks): Promise<void> {
  await page.goto(visit.path(books));
  await expectVisible(page.getByRole('heading', { level: 1, name: visit.heading }));
  if (visit.loaded) await expectVisible(page.getByTestId(visit.loaded).first());
  await visit.act?.(page, books);
  // Whatever is still loading (a balance, a chart) has finished.
  await expect.poll(() => page.locator('.skeleton, .loading, [aria-busy="true"]').count(), { timeout: 15_000 }).toBe(0);
}
