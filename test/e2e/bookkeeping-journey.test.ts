/**
 * The bookkeeper's first month, through the browser only: set up the ledger, add a currency and a
 * chart of accounts, open a period, post and reverse entries, close the period and read the
 * reports. The steps share one page and build on each other, in order.
 */
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, MONTH, expectAttribute, expectCount, expectHidden, expectText, expectVisible, useE2E } from './fixture.js';
import { AccountPage } from './pages/account-page.js';
import { AccountsPage } from './pages/accounts-page.js';
import { CurrenciesPage } from './pages/currencies-page.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { EntryPage } from './pages/entry-page.js';
import { JournalPage } from './pages/journal-page.js';
import { NewEntryPage } from './pages/new-entry-page.js';
import { PeriodsPage } from './pages/periods-page.js';
import { ReportPage } from './pages/reports-page.js';
import { SettingsPage } from './pages/settings-page.js';
import { SignInPage } from './pages/sign-in-page.js';
import { UsersPage } from './pages/users-page.js';

const e2e = useE2E();
let page: Page;

describe('a bookkeeper sets up the books, posts, reverses and closes a month', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    page = await e2e.newPage();
  });

  it('creates the administrator on first run and lands on the dashboard', async () => {
    const signIn = await new SignInPage(page).goto();
    await signIn.setUp(ADMIN);
    const dashboard = new DashboardPage(page);
    await dashboard.ready();
    await expectVisible(dashboard.gettingStarted);
    await expectText(page.getByTestId('current-user'), ADMIN.name);
  });

  it('adds USD from the ISO 4217 picker with its name, symbol and decimals filled in', async () => {
    const currencies = await new CurrenciesPage(page).open();
    const filled = await currencies.addFiat('USD');
    expect(filled).toEqual({ name: 'US Dollar', symbol: '$', decimals: '2', caip19: 'swift:0/iso4217:USD' });
    await expectText(currencies.row('USD'), 'US Dollar');
    await e2e.screenshot(page, 'currencies');
  });

  it('builds a chart of accounts with a control account and a sub-account', async () => {
    const accounts = await new AccountsPage(page).open();
    await accounts.create({ number: '1000', name: 'Cash', type: 'Assets' });
    await accounts.create({ number: '4000', name: 'Sales', type: 'Revenue' });
    await accounts.create({ number: '3000', name: 'Retained earnings', type: 'Equity' });
    await accounts.create({ number: '1100', name: 'Accounts receivable', type: 'Assets', control: true });
    await accounts.createSubAccount('Accounts receivable', { number: '1100-001', name: 'Acme Corp', entity: 'ACME' });

    await expectCount(accounts.rows, 5);
    await expectText(accounts.row('Accounts receivable'), 'control');
    await expectText(accounts.row('Acme Corp'), 'ACME');
    // The sub-account is listed right under its control account.
    const assetNames = await page.getByTestId('accounts-section-asset').getByTestId('account-row').getByRole('link').allInnerTexts();
    expect(assetNames).toEqual(['Cash', 'Accounts receivable', 'Acme Corp']);
    await e2e.screenshot(page, 'accounts');
  });

  it('opens last month as a period', async () => {
    const periods = await new PeriodsPage(page).open();
    await periods.create({ name: MONTH.name, start: MONTH.start, end: MONTH.end });
    await expectText(periods.row(MONTH.name), 'open');
  });

  it('posts a balanced entry typed in major units and shows it', async () => {
    const journal = await new JournalPage(page).open();
    await journal.newEntry.click();
    const form = new NewEntryPage(page);
    await form.ready();
    await form.fill({
      date: MONTH.day(15), description: 'Cash sale',
      lines: [{ account: '1000 · Cash', debit: '250.00' }, { account: '4000 · Sales', credit: '250.00' }],
    });
    await expectAttribute(form.difference, 'data-balanced', 'true');
    await expectText(form.difference, 'balanced');
    expect(await form.submit.isEnabled()).toBe(true);
    await e2e.screenshot(page, 'new-entry');
    const sent = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/journal-entries');
    await form.submit.click();
    // "250.00" leaves the browser as 25000 minor units, exactly.
    const body = (await sent).postDataJSON() as { lines: { debit_amount?: string; credit_amount?: string }[] };
    expect(body.lines.map((line) => line.debit_amount ?? `-${line.credit_amount}`)).toEqual(['25000', '-25000']);

    const entry = new EntryPage(page, 'Cash sale');
    await entry.ready();
    await expectCount(entry.lines, 2);
    await expectText(entry.line('Cash'), '250.00');
    await expectText(entry.line('Sales'), '250.00');
  });

  it('refuses to post an unbalanced entry: the difference shows and Post stays disabled', async () => {
    const posts: string[] = [];
    const watchPosts = (request: Request) => { if (request.method() === 'POST') posts.push(request.url()); };
    page.on('request', watchPosts);
    try {
      const form = await new NewEntryPage(page).goto();
      await form.fill({
        date: MONTH.day(16), description: 'Miscounted sale',
        lines: [{ account: '1000 · Cash', debit: '100.00' }, { account: '4000 · Sales', credit: '90.00' }],
      });
      await expectText(form.difference, '10.00 more debit');
      await expectText(form.blocker, 'Debits and credits must be equal');
      expect(await form.submit.isDisabled()).toBe(true);
      // Enter in a field submits a form; this one must still not be sent.
      await form.description.press('Enter');
      await page.getByRole('button', { name: 'Cancel' }).click();
      const journal = new JournalPage(page);
      await journal.ready();
      await expectCount(journal.rows, 1);
      expect(await journal.row('Miscounted sale').count()).toBe(0);
      expect(posts).toEqual([]);
    } finally {
      page.off('request', watchPosts);
    }
  });

  it('shows the entry in the account\'s general ledger with a running balance', async () => {
    const accounts = await new AccountsPage(page).open();
    await expectText(accounts.row('Cash'), '250.00');
    await accounts.openAccount('Cash');
    const cash = new AccountPage(page, /Cash/);
    await cash.ready();
    await expectText(cash.balance, '250.00');
    await expectCount(cash.ledgerLines, 1);
    await expectText(cash.ledgerLines.first(), 'Cash sale');
    await expectText(cash.runningBalance(0), '250.00');
    await expectText(cash.ledger, 'Ending balance');
    await e2e.screenshot(page, 'account');
  });

  it('lists the entry in the trial balance, which balances', async () => {
    const trial = await new ReportPage(page, 'trial-balance').open();
    await expectText(trial.trialBalanceRow('Cash'), '250.00');
    await expectText(trial.trialBalanceRow('Sales'), '250.00');
    await expectText(trial.totalDebit, '250.00');
    await expectText(trial.totalCredit, '250.00');
    await expectText(trial.status, 'Balanced');
    await e2e.screenshot(page, 'report-trial-balance');
  });

  it('reverses the entry from its page, and each links to the other', async () => {
    const journal = await new JournalPage(page).open();
    await expectCount(journal.rows, 1);
    await e2e.screenshot(page, 'journal');
    await journal.openEntry('Cash sale');
    const original = new EntryPage(page, 'Cash sale');
    await original.ready();
    await e2e.screenshot(page, 'entry-detail');
    await original.reverseOn();

    const reversal = new EntryPage(page, /Cash sale/);
    await expectVisible(reversal.originalLink);
    await expectText(reversal.line('Cash'), '250.00');
    expect(await reversal.reverse.count()).toBe(0);
    await reversal.originalLink.click();
    await expectVisible(original.reversalLink);
    expect(await original.reverse.count()).toBe(0);
  });

  it('sets the retained earnings account in settings', async () => {
    const settings = await new SettingsPage(page).open();
    await settings.chooseRetainedEarnings('3000 · Retained earnings');
    await expectText(settings.retainedEarnings, 'Currently: 3000 · Retained earnings');
    await e2e.screenshot(page, 'settings');
  });

  it('posts a credit sale to the customer\'s sub-account', async () => {
    const form = await new NewEntryPage(page).goto();
    await form.fill({
      date: MONTH.day(20), description: 'Invoice 1001 to Acme',
      lines: [{ account: '1100-001 · Acme Corp', debit: '100.00' }, { account: '4000 · Sales', credit: '100.00' }],
    });
    await form.submit.click();
    await new EntryPage(page, 'Invoice 1001 to Acme').ready();
  });

  it('closes the period after previewing the closing entry', async () => {
    const periods = await new PeriodsPage(page).open();
    await periods.previewClose(MONTH.name);
    await expectVisible(periods.previewEntry);
    // Sales' 100.00 moves to retained earnings.
    await expectText(periods.previewEntry.getByRole('row').filter({ hasText: 'Sales' }), '100.00');
    await expectText(periods.previewEntry.getByRole('row').filter({ hasText: 'Retained earnings' }), '100.00');
    expect(await periods.confirm.isDisabled()).toBe(true);
    await e2e.screenshot(page, 'periods-close-preview');
    await periods.confirmClose();
    await expectText(periods.row(MONTH.name), 'closed');
    await expectVisible(periods.row(MONTH.name).getByRole('link', { name: 'closing entry' }));
    expect(await periods.closeButtons.count()).toBe(0);
    await e2e.screenshot(page, 'periods');
  });

  it('shows a balanced balance sheet with the result in retained earnings', async () => {
    const sheet = await new ReportPage(page, 'balance-sheet').open();
    await expectText(sheet.status, 'Assets = liabilities + equity');
    await expectText(sheet.section('balance-sheet-assets'), /Acme Corp\s+100\.00/);
    await expectText(sheet.section('balance-sheet-assets'), /Total assets\s+100\.00/);
    await expectText(sheet.section('balance-sheet-equity'), /Retained earnings\s+100\.00/);
    await e2e.screenshot(page, 'report-balance-sheet');
  });

  it('shows the month\'s result in the income statement, closing entry left out, and an account\'s general ledger', async () => {
    const income = await new ReportPage(page, 'income-statement').open();
    await expectText(income.section('income-revenue'), /Total revenue\s+100\.00/);
    await expectText(page.getByTestId('income-net'), /Net income\s+100\.00/);
    await e2e.screenshot(page, 'report-income-statement');

    const ledger = await new ReportPage(page, 'general-ledger').open();
    await ledger.account.selectOption({ label: '4000 · Sales' });
    await expectCount(page.getByTestId('ledger-line'), 4);
    await expectText(ledger.frame.getByRole('row').filter({ hasText: 'Ending balance' }), '0.00');
    await e2e.screenshot(page, 'report-general-ledger');
  });

  it('shows the administrator in the user list and the position on the dashboard', async () => {
    const users = await new UsersPage(page).open();
    await expectText(users.row(ADMIN.name), 'admin');
    await e2e.screenshot(page, 'users');

    const dashboard = await new DashboardPage(page).open();
    await expectHidden(dashboard.gettingStarted);
    await expectText(dashboard.assets, '100.00');
    await expectText(dashboard.equity, '100.00');
    await expectText(dashboard.recentEntries, 'Invoice 1001 to Acme');
    await e2e.screenshot(page, 'dashboard');
  });
});
