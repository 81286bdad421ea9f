/** The income statement's range and column parameters, and its side-by-side columns table. */
import type { Locator } from 'playwright-core';
import { ReportPage } from './reports-page.js';

export class IncomeStatementPage extends ReportPage {
  constructor(page: ReportPage['page']) {
    super(page, 'income-statement');
  }

  get start(): Locator { return this.page.getByTestId('report-start'); }
  get end(): Locator { return this.page.getByTestId('report-end'); }
  get columns(): Locator { return this.page.getByTestId('report-columns'); }
  get yearToDate(): Locator { return this.page.getByTestId('report-year-to-date'); }
  get columnsTable(): Locator { return this.page.getByTestId('income-columns-table'); }
  get columnHeaders(): Locator { return this.page.getByTestId('income-column-header'); }
  get netIncomeRow(): Locator { return this.page.getByTestId('income-columns-net'); }

  /** An account's row in the columns table. */
  columnsRow(accountName: string): Locator {
    return this.page.getByTestId('income-columns-row').filter({ has: this.page.getByRole('link', { name: accountName, exact: true }) });
  }

  /** The texts of a row's cells after its heading: one per column, then the total. */
  async amounts(row: Locator): Promise<string[]> {
    return (await row.locator('td').allInnerTexts()).map((text) => text.trim());
  }
}
