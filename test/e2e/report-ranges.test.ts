/**
 * A bookkeeper reads a year to date by month in the browser: the income statement for any dates
 * with month columns side by side (the closed quarter's closing entry left out), the "Year to
 * date" and "Quarter to date" shortcuts (through the last period with entries), and a revenue
 * account's page showing its activity over the range rather than the zero balance the close left. The books are kept in 2024 so that they never meet the month
 * the fixture's period uses.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, apiClient, expectText, seedBooks, useE2E } from './fixture.js';
import { AccountPage } from './pages/account-page.js';
import { IncomeStatementPage } from './pages/income-statement-page.js';
import { ReportPage } from './pages/reports-page.js';
import { SignInPage } from './pages/sign-in-page.js';

const e2e = useE2E();
let page: Page;
let salesId: string;

describe('a year to date income statement by month', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    const books = await seedBooks(e2e.server);
    salesId = books.accounts.sales;
    const anonymous = await apiClient(e2e.server);
    const tokens = await anonymous.call<{ access_token: string }>('POST', '/auth/login', { email: ADMIN.email, password: ADMIN.password });
    const { call } = await apiClient(e2e.server, tokens.access_token);
    const rent = await call<{ id: string }>('POST', '/api/v1/accounts', {
      account_number: '6000', name: 'Rent', account_type: 'expense', normal_balance: 'debit', currency_id: books.currencyId,
    });
    const q1 = await call<{ id: string }>('POST', '/api/v1/periods', { name: 'Q1 2024', start_date: '2024-01-01', end_date: '2024-03-31' });
    await call('POST', '/api/v1/periods', { name: 'Q2 2024', start_date: '2024-04-01', end_date: '2024-06-30' });
    const post = (entry_date: string, debit: string, credit: string, amount: string) => call('POST', '/api/v1/journal-entries', {
      entry_date, description: `Entry of ${entry_date}`,
      lines: [{ account_id: debit, debit_amount: amount }, { account_id: credit, credit_amount: amount }],
    });
    const { cash, sales } = books.accounts;
    await post('2024-01-10', cash, sales, '100000');
    await post('2024-02-05', rent.id, cash, '30000');
    await post('2024-02-20', cash, sales, '50000');
    await call('POST', `/api/v1/periods/${q1.id}/close`);
    await post('2024-04-15', rent.id, cash, '30000');
    await post('2024-05-02', cash, sales, '20000');
    page = await e2e.newPage();
    await new SignInPage(page).goto().then((signIn) => signIn.signIn(ADMIN));
  }, 60_000);

  it('shows the months side by side with each month\'s net income and the range\'s total', async () => {
    const statement = await new IncomeStatementPage(page).open();
    await statement.start.fill('2024-01-01');
    await statement.end.fill('2024-05-31');
    await statement.columns.selectOption('month');
    await expectText(statement.netIncomeRow, '1,100.00');
    expect(await statement.columnHeaders.allInnerTexts()).toEqual(['Jan 2024', 'Feb 2024', 'Mar 2024', 'Apr 2024', 'May 2024']);
    // March holds only the closing entry, which the statement leaves out.
    expect(await statement.amounts(statement.columnsRow('Sales'))).toEqual(['1,000.00', '500.00', '0.00', '0.00', '200.00', '1,700.00']);
    expect(await statement.amounts(statement.columnsRow('Rent'))).toEqual(['0.00', '300.00', '0.00', '300.00', '0.00', '600.00']);
    expect(await statement.amounts(statement.netIncomeRow)).toEqual(['1,000.00', '200.00', '0.00', '-300.00', '200.00', '1,100.00']);
    await expectText(statement.frame, 'by month');
    expect(new URL(page.url()).search).toBe('?start=2024-01-01&end=2024-05-31&columns=month');
    await e2e.screenshot(page, 'report-income-statement-by-month');
  });

  it('runs "Year to date" through the last period with entries, not to today, keeping the month columns', async () => {
    const statement = new IncomeStatementPage(page);
    await statement.yearToDate.click();
    // The latest entry (2024-05-02) is in Q2 2024: January 1 through June 30, 2024, whatever today is.
    await expect.poll(() => statement.end.inputValue()).toBe('2024-06-30');
    expect(await statement.start.inputValue()).toBe('2024-01-01');
    await expectText(statement.columnsTable, 'Net income');
    await expect.poll(() => statement.columnHeaders.allInnerTexts())
      .toEqual(['Jan 2024', 'Feb 2024', 'Mar 2024', 'Apr 2024', 'May 2024', 'Jun 2024']);
    expect(await statement.amounts(statement.netIncomeRow)).toEqual(['1,000.00', '200.00', '0.00', '-300.00', '200.00', '0.00', '1,100.00']);
    await page.getByTestId('report-quarter-to-date').click();
    await expect.poll(() => statement.start.inputValue()).toBe('2024-04-01');
    expect(await statement.end.inputValue()).toBe('2024-06-30');
    await expect.poll(() => statement.columnHeaders.allInnerTexts()).toEqual(['Apr 2024', 'May 2024', 'Jun 2024']);
  });

  it('shows a revenue account\'s activity over the range, not the balance left after the close', async () => {
    const sales = await new AccountPage(page, /Sales/, salesId).goto('?start=2024-01-01&end=2024-05-31');
    await expectText(page.getByTestId('account-activity-value'), '1,700.00');
    await expectText(page.getByTestId('account-activity'), 'closing entries left out');
    expect(await sales.balance.isVisible()).toBe(false);
  });

  it('shows a trial balance as of a date with debit- and credit-balance columns, and a range as movement', async () => {
    const trial = await new ReportPage(page, 'trial-balance').goto('?as_of=2024-02-05');
    await expectText(page.getByTestId('trial-balance-label'), 'Balances as of 2024-02-05');
    // Cash 1000.00 - 300.00; the credit balances: sales 1000.00.
    expect((await trial.trialBalanceRow('Cash').locator('td').allInnerTexts()).slice(-2).map((text) => text.trim())).toEqual(['700.00', '']);
    await expectText(page.getByTestId('trial-balance-total-debit-balance'), '1,000.00');
    await expectText(page.getByTestId('trial-balance-total-credit-balance'), '1,000.00');
    await page.getByTestId('report-start').fill('2024-04-01');
    await expectText(page.getByTestId('trial-balance-label'), 'Movement from 2024-04-01');
    expect(await page.getByTestId('report-as-of').inputValue()).toBe('');
  });
});
