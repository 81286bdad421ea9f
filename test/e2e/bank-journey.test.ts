/**
 * A month at the bank, through the browser: a bookkeeper (bank:write and journals:create, not an
 * administrator) imports the bank's CSV export (semicolons, decimal commas, a preamble, Windows-1252
 * as German banks write it), maps its columns in the preview, creates a rule after trying it,
 * accepts the suggestions (one from the keyboard, the rest with "Accept all"), posts one line to
 * an account, matches a customer's payment by hand to the two invoices' receipts posted before,
 * reconciles the account to a difference of exactly zero and prints the report to PDF. A reader
 * without write permissions sees the same pages without a write button.
 *
 * The PDF's text is read with `pdftotext` (Debian's poppler-utils, installed by .ci/run).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient, DESKTOP, expectAttribute, expectCount, expectHidden, expectText, expectVisible, MONTH, runCli, seedBooks, SCREENSHOT_DIR, useE2E, WAIT_MS,
} from './fixture.js';
import { BankImportPage } from './pages/bank-import-page.js';
import { BankMatchingPage } from './pages/bank-matching-page.js';
import { BankRulesPage } from './pages/bank-rules-page.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { ReconciliationPage, ReconciliationsPage } from './pages/reconcile-page.js';
import { SignInPage } from './pages/sign-in-page.js';

const e2e = useE2E();
const BOOKKEEPER = { name: 'Bea Bookkeeper', email: 'bea@example.com', password: 'bank-and-books-1' };
const READER = { name: 'Rita Reader', email: 'rita@example.com', password: 'read-only-pass' };
const COMPANY = 'Schreiber & Weiß Handels GmbH';

/** DD.MM.YYYY of a day in the fixture's month, as the bank prints it. */
const german = (day: number) => MONTH.day(day).split('-').reverse().join('.');

/**
 * The bank's export: a preamble of account details, a blank line, the header, the newest
 * transaction first, amounts and running balances with a decimal comma and dots between thousands.
 * Opening balance 2.500,00; closing 3.692,40.
 */
const STATEMENT = [
  'Kontonummer:;DE89 3704 0044 0532 0130 00 / Geschäftskonto',
  `Zeitraum:;${german(1)} - ${german(9)}`,
  'Kontostand:;3.692,40 EUR',
  '',
  'Buchungstag;Wertstellung;Buchungstext;Verwendungszweck;Betrag (EUR);Saldo (EUR)',
  `${german(8)};${german(8)};Gutschrift;Northwind Traders Rechnung 1042 1043;1.250,00;3.692,40`,
  `${german(6)};${german(6)};Entgelt;Entgelt SEPA-Überweisung;-0,35;2.442,40`,
  `${german(4)};${german(4)};Kartenzahlung;Bürobedarf Schreiber GmbH;-45,60;2.442,75`,
  `${german(3)};${german(3)};Entgelt;Entgelt Kartenzahlung Ausland;-1,75;2.488,35`,
  `${german(2)};${german(2)};Abschluss;Kontoführungsentgelt;-9,90;2.490,10`,
  '',
].join('\r\n');
const FILE = { name: 'umsaetze-geschaeftskonto.csv', bytes: Buffer.from(STATEMENT, 'latin1') };

let page: Page;
let bankId = '';
let reconciliationUrl = '';

describe('a bookkeeper imports, matches and reconciles a month of the bank account', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    const books = await seedBooks(e2e.server);
    const anonymous = await apiClient(e2e.server);
    const tokens = await anonymous.call<{ access_token: string }>('POST', '/auth/login', { email: books.admin.email, password: books.admin.password });
    const { call } = await apiClient(e2e.server, tokens.access_token);
    const eur = await call<{ id: string }>('POST', '/api/v1/currencies', {
      code: 'EUR', name: 'Euro', symbol: '€', asset_scale: 2, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:EUR',
    });
    const account = (account_number: string, name: string, account_type: string, normal_balance: string) =>
      call<{ id: string }>('POST', '/api/v1/accounts', { account_number, name, account_type, normal_balance, currency_id: eur.id });
    const bank = await account('1010', 'Geschäftskonto Sparkasse', 'asset', 'debit');
    bankId = bank.id;
    const receivables = await account('1200', 'Receivables EUR', 'asset', 'debit');
    const equity = await account('3010', 'Opening balance EUR', 'equity', 'credit');
    await account('6100', 'Bank fees', 'expense', 'debit');
    await account('6200', 'Office supplies', 'expense', 'debit');
    await call('PATCH', '/api/v1/settings', { company_name: COMPANY });
    const post = (entry_date: string, description: string, reference: string | undefined, debit: string, credit: string, amount: string) =>
      call('POST', '/api/v1/journal-entries', { entry_date, description, ...(reference ? { reference } : {}),
        lines: [{ account_id: debit, debit_amount: amount }, { account_id: credit, credit_amount: amount }] });
    await post(MONTH.day(1), 'Opening balance', undefined, bank.id, equity.id, '250000');
    // Northwind pays two invoices with one transfer: the receipts were booked from the remittance advice.
    await post(MONTH.day(8), 'Northwind Traders pays invoice 1042', 'RE-1042', bank.id, receivables.id, '80000');
    await post(MONTH.day(8), 'Northwind Traders pays invoice 1043', 'RE-1043', bank.id, receivables.id, '45000');
    await call('POST', '/api/v1/users', { ...BOOKKEEPER, permissions: { 'bank:write': true, 'journals:create': true } });
    runCli(e2e.server, ['users', 'create', '--name', READER.name, '--email', READER.email, '--password', READER.password, '--permissions', '{}']);

    page = await e2e.newPage();
    await new SignInPage(page).goto().then((signIn) => signIn.signIn(BOOKKEEPER));
    await new DashboardPage(page).ready();
  }, 90_000);

  it('maps the CSV export in the preview and imports it', async () => {
    const matching = new BankMatchingPage(page);
    await matching.open();
    await page.getByRole('link', { name: 'Import statement' }).click();
    const form = new BankImportPage(page);
    await form.ready();
    await form.chooseAccount('1010 · Geschäftskonto');
    await form.chooseFile(FILE.name, FILE.bytes);
    expect(await form.format.inputValue()).toBe('csv');
    await expectVisible(form.mapping);
    // The person checks every choice against the file, as the preview shows it.
    await form.mapColumns({
      delimiter: 'Semicolon (;)', skipRows: 4, header: true, decimal: 'Comma (1.234,56)', date: 'Buchungstag', dateFormat: 'DD.MM.YYYY',
      description: 'Verwendungszweck', amount: 'Betrag', balance: 'Saldo',
    });
    await expectText(form.rawRows, 'Kontoführungsentgelt');
    await expectCount(form.previewRows, 5);
    await expectText(form.previewRow(6), /Northwind Traders Rechnung 1042 1043\s+1,250\.00/);
    await expectText(form.previewRow(10), /Kontoführungsentgelt\s+9\.90/);
    // At a desktop width the file's seven columns fit the card: none is cut at its edge (a long
    // cell ends in an ellipsis instead; the table below shows the whole description).
    expect(page.viewportSize()?.width).toBe(1280);
    expect(await form.rawRows.evaluate((frame: any) => frame.scrollWidth - frame.clientWidth)).toBeLessThanOrEqual(1);
    await e2e.screenshot(page, 'bank-import-mapping');
    for (const viewport of [{ width: 390, height: 844 }, { width: 1440, height: 900 }]) {
      await page.setViewportSize(viewport);
      await e2e.screenshot(page, `bank-import-mapping-${viewport.width}`);
    }
    await page.setViewportSize(DESKTOP);

    // "Check the file": the import's dry run, nothing stored.
    await form.check.click();
    await expectText(form.checkResult, /would add 5 new lines, for .*; the file's closing balance is 3,692\.40 EUR\./);
    await expectHidden(form.history, 1_000);
    for (const viewport of [{ width: 390, height: 844 }, { width: 1440, height: 900 }, { width: 1280, height: 900 }]) {
      await page.setViewportSize(viewport);
      await form.checkResult.scrollIntoViewIfNeeded();
      await e2e.screenshot(page, `bank-import-check-${viewport.width}`, { fullPage: false });
    }
    // Any change to what would be sent takes the answer back.
    await page.getByTestId('mapping-balance').selectOption({ index: 0 });
    await expectHidden(form.checkResult, 1_000);
    await form.mapColumns({ balance: 'Saldo' });

    await form.submit.click();
    await expectVisible(form.result);
    await expectText(form.newCount, '5');
    await expectText(form.closing, '3,692.40 EUR');
    await e2e.screenshot(page, 'bank-import-result');
  });

  it('explains kindly that the same file was imported already, with the mapping remembered', async () => {
    e2e.expectHttpErrors(409);
    const form = new BankImportPage(page);
    await form.another.click();
    await form.chooseFile(FILE.name, FILE.bytes);
    await expectVisible(form.remembered);
    await expectCount(form.previewRows, 5);
    await form.check.click();
    await expectText(form.duplicate, 'This file was imported already');
    await form.submit.click();
    await expectText(form.duplicate, 'This file was imported already');
    await expectHidden(form.error, 1_000);
  });

  it('creates a rule after trying it; an expression that could run away is refused beside its field', async () => {
    e2e.expectHttpErrors(400);
    const rules = await new BankRulesPage(page).open();
    await rules.newRule.click();
    await rules.name.fill('Bank fees');
    await rules.chooseCounter('6100', '6100 · Bank fees');
    await rules.regex.fill('(a+)+$');
    await rules.tryIt.click();
    // The server proves an expression safe before it runs one (recheck, in a worker): give it the usual wait.
    // On a busy machine the proof can run out of its time budget first; that is a refusal too, with another reason.
    await expect.poll(() => rules.fieldError(rules.regex), { timeout: WAIT_MS })
      .toMatch(/The regular expression is refused: (it can backtrack|its running time could not be shown to be linear)/);

    await rules.regex.fill('');
    await rules.contains.fill('entgelt');
    await rules.direction.selectOption('out');
    await rules.tryIt.click();
    await expectText(rules.preview, 'It would suggest for 3 lines');
    await expectCount(rules.previewRows, 3);
    await expectText(rules.preview, 'Kontoführungsentgelt');
    await e2e.screenshot(page, 'bank-rule-try');
    await rules.save.click();
    await expectHidden(rules.dialog);
    await expectText(rules.row('Bank fees'), 'description contains “entgelt” · money out');
    await e2e.screenshot(page, 'bank-rules');
  });

  it('accepts one suggestion from the keyboard and the others with "Accept all"', async () => {
    const matching = await new BankMatchingPage(page).open();
    await expectCount(matching.lines, 5);
    await expectText(matching.keysHint, 'Enter');
    await expectText(matching.line('Kontoführungsentgelt'), 'Rule: Bank fees');
    await e2e.screenshot(page, 'bank-matching');

    // Up and Down move between lines; O accepts the focused line's suggestion.
    const second = await matching.lines.nth(1).getAttribute('data-line-id');
    await matching.lines.first().focus();
    await page.keyboard.press('ArrowDown');
    expect(await matching.focusedLineId()).toBe(second);
    await matching.line('Kontoführungsentgelt').focus();
    await page.keyboard.press('o');
    await expectCount(matching.lines, 4);
    await expectCount(matching.line('Kontoführungsentgelt'), 0);
    await expectText(matching.unmatchedCount, '4');
    // The focus stays in the list, on the line that took the accepted one's place, ready for the next key.
    await expect.poll(() => matching.focusedLineId(), { timeout: WAIT_MS }).not.toBeNull();

    await expectText(matching.acceptAll, 'Accept all suggestions (2)');
    await matching.acceptAll.click();
    await expectText(matching.acceptAllDialog, 'Entgelt SEPA-Überweisung');
    await matching.acceptAllConfirm.click();
    await expectHidden(matching.acceptAllDialog);
    await expectCount(matching.lines, 2);
    await expectCount(matching.line('Entgelt'), 0);
  });

  it('posts a card payment to an account of its own choosing', async () => {
    const matching = new BankMatchingPage(page);
    await matching.postAs('Bürobedarf', { search: '6200', option: '6200 · Office supplies' }, 'Printer paper and toner');
    await expectCount(matching.lines, 1);
  });

  it('matches the customer\'s transfer to the two receipts it pays, enabled only at the exact sum', async () => {
    const matching = new BankMatchingPage(page);
    const panel = await matching.findMatch('Northwind');
    const others = panel.getByTestId('match-others');
    await expectText(others, 'Northwind Traders pays invoice 1042');
    const pick = (text: string) => others.getByTestId('match-candidate').filter({ hasText: text }).getByTestId('match-pick');
    const confirm = panel.getByTestId('match-confirm');
    expect(await confirm.isDisabled()).toBe(true);
    await pick('invoice 1042').check();
    await expectText(panel.getByTestId('match-sum'), /Picked 800\.00 EUR of 1,250\.00 EUR · difference 450\.00 EUR/);
    expect(await confirm.isDisabled()).toBe(true);
    await pick('invoice 1043').check();
    await expectText(panel.getByTestId('match-sum'), /Picked 1,250\.00 EUR of 1,250\.00 EUR · exact/);
    await e2e.screenshot(page, 'bank-find-match');
    await confirm.click();
    await expectCount(matching.lines, 0);
    await expectText(page.getByRole('main'), 'Every line is matched');

    await matching.tab('matched').click();
    await expectCount(matching.lines, 5);
    await expectText(matching.line('Northwind'), 'Northwind Traders pays invoice 1042');
    await e2e.screenshot(page, 'bank-matched');
  });

  it('reconciles to a difference of exactly zero, finishes and prints the report', async () => {
    const list = await new ReconciliationsPage(page).open();
    await list.begin({ account: '1010 · Geschäftskonto', date: MONTH.day(9), balance: '3,692.40' });
    const reconciliation = new ReconciliationPage(page);
    await reconciliation.ready();
    reconciliationUrl = new URL(page.url()).pathname;
    await expectText(reconciliation.statementBalance, '3,692.40 EUR');
    // Everything matched on the bank screen is cleared; the opening balance is not on this statement's lines.
    await expectText(reconciliation.difference, '2,500.00 EUR');
    await expectAttribute(reconciliation.line('Opening balance'), 'data-state', 'outstanding');
    await expectAttribute(reconciliation.line('invoice 1043'), 'data-state', 'matched');
    expect(await reconciliation.finish.isDisabled()).toBe(true);
    await e2e.screenshot(page, 'bank-reconcile-open');

    await reconciliation.tick('Opening balance').check();
    await expectText(reconciliation.difference, /^Difference\s+0\.00 EUR/);
    await expectAttribute(reconciliation.difference, 'data-zero', 'true');
    await expectAttribute(reconciliation.line('Opening balance'), 'data-state', 'ticked');
    await e2e.screenshot(page, 'bank-reconcile-zero');
    await reconciliation.finish.click();

    await expectVisible(reconciliation.report);
    await expectText(reconciliation.finishedBy, BOOKKEEPER.name);
    await expectText(reconciliation.difference, '0.00 EUR');
    await expectText(page.getByTestId('report-company'), COMPANY);
    expect(await page.getByTestId('reconcile-tick').count()).toBe(0);

    // "Print" opens the browser's print dialog; here it is counted, and the page is printed to PDF instead.
    await page.evaluate('window.__printed = 0; window.print = () => { window.__printed += 1; };');
    await reconciliation.print.click();
    expect(await page.evaluate<number>('window.__printed')).toBe(1);
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByTestId('nav-bank').isVisible()).toBe(false);
    expect(await reconciliation.print.isVisible()).toBe(false);
    await e2e.screenshot(page, 'bank-reconcile-report-print');
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    await page.emulateMedia({ media: 'screen' });
    writeFileSync(join(SCREENSHOT_DIR, 'bank-reconciliation.pdf'), pdf);
    const text = pdfText(pdf);
    expect(text).toContain(COMPANY);
    expect(text).toContain('Bank reconciliation');
    expect(text).toMatch(/Statement balance\s+3,692\.40 EUR/);
    expect(text).toMatch(/Difference\s+0\.00 EUR/);
    expect(text).toContain('Outstanding items');
    expect(text).toContain(`Reconciled by ${BOOKKEEPER.name}`);
  });
});

describe('a reader without write permissions', { timeout: 60_000 }, () => {
  let reader: Page;
  beforeAll(async () => {
    reader = await e2e.newPage();
    await new SignInPage(reader).goto().then((signIn) => signIn.signIn(READER));
    await new DashboardPage(reader).ready();
  }, 60_000);

  const count = async (ids: string[]) => Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await reader.getByTestId(id).count()] as const)));
  const none = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, 0]));

  it('sees the bank lines and rules but no button that would change them', async () => {
    const matching = await new BankMatchingPage(reader, bankId).goto('?show=matched');
    await expectCount(matching.lines, 5);
    await expectVisible(matching.readOnlyNotice);
    const lineButtons = ['line-unmatch', 'suggestion-ok', 'line-find-match', 'line-post-as', 'line-exclude', 'accept-all', 'bank-import-link'];
    expect(await count(lineButtons)).toEqual(none(lineButtons));

    const rules = await new BankRulesPage(reader).open();
    await expectCount(rules.rows, 1);
    expect(await count(['rule-new', 'rule-edit', 'rule-delete'])).toEqual(none(['rule-new', 'rule-edit', 'rule-delete']));

    const form = await new BankImportPage(reader).goto();
    await expectVisible(form.forbidden);
    expect(await form.form.count()).toBe(0);
    await e2e.screenshot(reader, 'bank-restricted-import');
  });

  it('reads the reconciliations and the finished report, and cannot start one', async () => {
    const list = await new ReconciliationsPage(reader).open();
    await expectCount(list.rows, 1);
    await expectVisible(list.readOnly);
    expect(await list.start.count()).toBe(0);
    await reader.goto(reconciliationUrl);
    const report = new ReconciliationPage(reader);
    await expectVisible(report.report);
    await expectText(report.difference, '0.00 EUR');
    expect(await reader.getByTestId('reconcile-finish').count()).toBe(0);
  });
});

/** The text of a PDF, by Debian's pdftotext; the test fails (never skips) when it is missing. */
function pdftotextPath(): string {
  const path = '/usr/bin/pdftotext';
  if (!existsSync(path)) throw new Error('pdftotext is missing: install Debian\'s poppler-utils (apt-get install poppler-utils), as .ci/run does');
  return path;
}

function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-pdf-'));
  try {
    const file = join(dir, 'report.pdf');
    writeFileSync(file, pdf);
    const result = spawnSync(pdftotextPath(), ['-layout', file, '-'], { encoding: 'utf8', timeout: 30_000 });
    if (result.status !== 0) throw new Error(`pdftotext failed: ${result.stderr}`);
    return result.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
