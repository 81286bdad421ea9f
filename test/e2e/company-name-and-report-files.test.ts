/**
 * The papercuts of a bookkeeper's reports in the browser: the company name set on the settings
 * page heads every report (on screen and on paper), CSV downloads are named after the company, the
 * report and the dates it covers, and the income statement's period picker shows whole names.
 */
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, apiClient, expectHidden, expectText, expectVisible, MONTH, PHONE, type SeededBooks, seedBooks, useE2E } from './fixture.js';
import { AccountPage } from './pages/account-page.js';
import { selectOptionContaining } from './pages/app-shell.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { IncomeStatementPage } from './pages/income-statement-page.js';
import { ReportPage } from './pages/reports-page.js';
import { SettingsPage } from './pages/settings-page.js';
import { SignInPage } from './pages/sign-in-page.js';

const e2e = useE2E();
const COMPANY = 'Müller & Söhne Consulting Ltd';
const SLUG = 'muller-sohne-consulting-ltd';
/** A period name longer than the old 20rem picker: the dates and status follow it in the option. */
const LONG_PERIOD = 'Q3 2025 audit adjustments and accruals';
const today = () => new Date().toISOString().slice(0, 10);
let books: SeededBooks;
let page: Page;

/** Clicks a CSV button and answers the downloaded file's suggested name and its first line. */
async function download(button: Locator): Promise<{ name: string; firstLine: string }> {
  const [file] = await Promise.all([button.page().waitForEvent('download'), button.click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), firstLine: readFileSync(path, 'utf8').split('\r\n')[0]! };
}

/**
 * The selected option's text (the whole option, or the period name it starts with), the width it
 * needs in the select's font, and the width the select gives it (its inner width less its padding,
 * where the arrow sits).
 */
function selectedTextFit(select: Locator, part: 'option' | 'name', name = ''): Promise<{ text: string; needed: number; available: number }> {
  // `any`: the tests compile without the DOM's types; this runs in the page.
  return select.evaluate((element: any, [wanted, periodName]: [string, string]) => {
    const document = element.ownerDocument;
    const style = document.defaultView.getComputedStyle(element);
    const option: string = element.options[element.selectedIndex].text;
    const text = wanted === 'name' ? periodName : option;
    if (!option.startsWith(text)) throw new Error(`the option "${option}" does not start with "${text}"`);
    // The text laid out on one line in the select's font (set through the CSSOM, which the
    // content security policy allows), measured, and removed.
    const probe = document.createElement('span');
    for (const property of ['fontFamily', 'fontSize', 'fontWeight', 'fontStyle', 'letterSpacing', 'fontFeatureSettings']) {
      probe.style[property] = style[property];
    }
    probe.style.whiteSpace = 'pre';
    probe.style.position = 'absolute';
    probe.textContent = text;
    document.body.append(probe);
    const needed = probe.getBoundingClientRect().width as number;
    probe.remove();
    return { text, needed, available: element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) };
  }, [part, name] as [string, string]);
}

beforeAll(async () => {
  books = await seedBooks(e2e.server, { entries: 3 });
  const anonymous = await apiClient(e2e.server);
  const tokens = await anonymous.call<{ access_token: string }>('POST', '/auth/login', { email: ADMIN.email, password: ADMIN.password });
  const { call } = await apiClient(e2e.server, tokens.access_token);
  await call('POST', '/api/v1/periods', { name: LONG_PERIOD, start_date: '2025-07-01', end_date: '2025-09-30' });
  await call('POST', '/api/v1/journal-entries', {
    entry_date: '2025-08-15', description: 'Audit adjustment',
    lines: [{ account_id: books.accounts.cash, debit_amount: '5000' }, { account_id: books.accounts.sales, credit_amount: '5000' }],
  });
  page = await e2e.newPage();
  await new SignInPage(page).goto().then((signIn) => signIn.signIn(ADMIN));
  await new DashboardPage(page).ready();
}, 60_000);

describe('the company name', { timeout: 60_000 }, () => {
  it('is set on the settings page and heads every report, on screen and in print', async () => {
    const settings = await new SettingsPage(page).open();
    await expectVisible(settings.companyNameUnset);
    await settings.companyName.fill(`  ${COMPANY} `);
    await settings.companyNameSave.click();
    await expectText(settings.companyNameCurrent, COMPANY);
    expect(await settings.companyName.inputValue()).toBe(COMPANY);

    for (const report of ['trial-balance', 'balance-sheet', 'income-statement', 'general-ledger'] as const) {
      const reportPage = await new ReportPage(page, report).open();
      await expectText(reportPage.company, COMPANY);
    }
    // The print view keeps it above the title (the navigation and the parameters are gone).
    await page.emulateMedia({ media: 'print' });
    try {
      const statement = new ReportPage(page, 'general-ledger');
      await expectVisible(statement.company);
      expect(await page.getByTestId('nav-dashboard').isVisible()).toBe(false);
    } finally {
      await page.emulateMedia({ media: 'screen' });
    }
    await e2e.screenshot(page, 'report-with-company-name');
  });

  it('refuses a name of 201 characters beside the field, keeping the saved one', async () => {
    e2e.expectHttpErrors(400);
    const settings = await new SettingsPage(page).open();
    await settings.companyName.fill('x'.repeat(201));
    await settings.companyNameSave.click();
    await expectText(page.getByTestId('settings-company').locator('.field__error'), /at most 200/);
    await expectText(settings.companyNameCurrent, COMPANY);
  });
});

describe('CSV file names', { timeout: 60_000 }, () => {
  it('name the trial balance by the company, the report and its date or range', async () => {
    const trial = await new ReportPage(page, 'trial-balance').goto();
    await expectVisible(page.getByTestId('trial-balance-row').first());
    expect(await download(trial.exportCsv)).toEqual({ name: `${SLUG}-trial-balance-all-time-${today()}.csv`, firstLine: expect.stringMatching(/^currency,account_number,/) });
    await trial.goto(`?as_of=${MONTH.end}`);
    await expectText(page.getByTestId('trial-balance-label'), /Balances/);
    expect((await download(trial.exportCsv)).name).toBe(`${SLUG}-trial-balance-${MONTH.end}.csv`);
    await trial.goto(`?period=${books.periodId}`);
    await expectText(page.getByTestId('trial-balance-label'), /Movement/);
    expect((await download(trial.exportCsv)).name).toBe(`${SLUG}-trial-balance-${MONTH.start}-to-${MONTH.end}.csv`);
  });

  it('name the balance sheet by its day and the income statement by its range and columns', async () => {
    const sheet = await new ReportPage(page, 'balance-sheet').goto(`?as_of=${MONTH.end}`);
    await expectVisible(sheet.section('balance-sheet-assets'));
    expect((await download(sheet.exportCsv)).name).toBe(`${SLUG}-balance-sheet-${MONTH.end}.csv`);

    const statement = await new IncomeStatementPage(page).goto(`?period=${books.periodId}`);
    await expectVisible(page.getByTestId('income-net'));
    expect((await download(statement.exportCsv)).name).toBe(`${SLUG}-income-statement-${MONTH.start}-to-${MONTH.end}.csv`);
    await statement.goto(`?start=2025-07-01&end=${MONTH.end}&columns=month`);
    await expectVisible(statement.netIncomeRow);
    expect(await download(statement.exportCsv)).toEqual({
      name: `${SLUG}-income-statement-2025-07-01-to-${MONTH.end}-by-month.csv`, firstLine: expect.stringMatching(/^section,account_number,account_name,2025-07,/),
    });
  });

  it('name the general ledger by the account and the dates, from the report and from the account page', async () => {
    const ledger = await new ReportPage(page, 'general-ledger').goto(`?account=${books.accounts.cash}&period=${books.periodId}`);
    await expectVisible(page.getByTestId('ledger-line').first());
    expect((await download(ledger.exportCsv)).name).toBe(`${SLUG}-general-ledger-1000-${MONTH.start}-to-${MONTH.end}.csv`);

    await new AccountPage(page, /Cash/, books.accounts.cash).goto();
    await expectVisible(page.getByTestId('ledger-line').first());
    expect((await download(page.getByTestId('ledger-export-csv'))).name).toBe(`${SLUG}-general-ledger-1000-all-time-${today()}.csv`);
  });

  it('leave the company out once the name is removed, and the reports drop their heading', async () => {
    const settings = await new SettingsPage(page).open();
    await settings.companyNameRemove.click();
    await expectVisible(settings.companyNameUnset);
    const trial = await new ReportPage(page, 'trial-balance').goto(`?as_of=${MONTH.end}`);
    await expectVisible(page.getByTestId('trial-balance-row').first());
    await expectHidden(trial.company);
    expect((await download(trial.exportCsv)).name).toBe(`trial-balance-${MONTH.end}.csv`);
  });
});

describe('the income statement\'s period picker', { timeout: 60_000 }, () => {
  it('shows each period whole, with its dates, on a desktop', async () => {
    const statement = await new IncomeStatementPage(page).goto();
    for (const name of [MONTH.name, LONG_PERIOD]) {
      await selectOptionContaining(statement.period, name);
      const fit = await selectedTextFit(statement.period, 'option');
      expect(fit.text).toMatch(new RegExp(`^${name} \\(`));
      expect(fit.needed).toBeLessThanOrEqual(fit.available);
    }
    await e2e.screenshot(page, 'income-statement-period-picker', { fullPage: false });
  });

  it('shows each period\'s whole name on a phone, where the picker has a line of its own', async () => {
    const phone = await e2e.newPage({ viewport: PHONE });
    await new SignInPage(phone).goto().then((signIn) => signIn.signIn(ADMIN));
    await new DashboardPage(phone).ready();
    const statement = await new IncomeStatementPage(phone).goto();
    for (const name of [MONTH.name, LONG_PERIOD]) {
      await selectOptionContaining(statement.period, name);
      const fit = await selectedTextFit(statement.period, 'name', name);
      expect(fit.needed).toBeLessThanOrEqual(fit.available);
    }
    await e2e.screenshot(phone, 'phone-income-statement-period-picker', { fullPage: false });
  });
});
