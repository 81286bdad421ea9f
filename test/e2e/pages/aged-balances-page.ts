/** The aged balances report: control account and as-of date, one row per sub-account, the totals row, CSV. */
import type { Download, Locator } from 'playwright-core';
import { selectOptionContaining } from './app-shell.js';
import { ReportPage } from './reports-page.js';

export class AgedBalancesPage extends ReportPage {
  constructor(page: ReportPage['page']) {
    super(page, 'aged-balances');
  }

  get asOf(): Locator { return this.page.getByTestId('report-as-of'); }
  get terms(): Locator { return this.page.getByTestId('report-terms'); }
  get table(): Locator { return this.page.getByTestId('aged-balances-table'); }
  get rows(): Locator { return this.page.getByTestId('aged-balances-row'); }
  get totals(): Locator { return this.page.getByTestId('aged-balances-totals'); }

  /** Chooses the control account by the text of its option ("1200 · Receivables"). */
  async chooseAccount(text: string): Promise<void> {
    await selectOptionContaining(this.account, text);
  }

  /** A sub-account's row, found by its name's link. */
  row(accountName: string): Locator {
    return this.rows.filter({ has: this.page.getByRole('link', { name: accountName, exact: true }) });
  }

  /** The amounts of a row (or of the totals row): current, 1-30, 31-60, 61-90, over 90, total. */
  async amounts(row: Locator): Promise<string[]> {
    return (await row.locator('td').allInnerTexts()).map((text) => text.trim());
  }

  /** Clicks "Export CSV" and answers the download. */
  async downloadCsv(): Promise<Download> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.exportCsv.click()]);
    return download;
  }
}
