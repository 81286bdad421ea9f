/** The statement import (`/bank/import`): account, file, format, and for CSV the column mapping with its preview. */
import type { Locator } from 'playwright-core';
import { selectOptionContaining } from './app-shell.js';
import { AppShell } from './app-shell.js';

export interface CsvColumns {
  delimiter?: 'Comma (,)' | 'Semicolon (;)' | 'Tab';
  skipRows?: number;
  decimal?: 'Point (1,234.56)' | 'Comma (1.234,56)';
  header?: boolean;
  /** Each column as the select shows it, e.g. "1 · Buchungstag" (a part of the text is enough). */
  date?: string;
  dateFormat?: 'YYYY-MM-DD' | 'DD/MM/YYYY' | 'MM/DD/YYYY' | 'DD.MM.YYYY';
  description?: string;
  amount?: string;
  balance?: string;
}

export class BankImportPage extends AppShell {
  protected readonly title = 'Import a bank statement';
  protected readonly path = '/bank/import';
  protected readonly navTarget = undefined;

  readonly form = this.page.getByTestId('bank-import-form');
  readonly account = this.page.getByTestId('import-account');
  readonly file = this.page.getByTestId('import-file');
  readonly format = this.page.getByTestId('import-format');
  readonly mapping = this.page.getByTestId('csv-mapping');
  readonly remembered = this.page.getByTestId('mapping-remembered');
  readonly rawRows = this.page.getByTestId('mapping-raw');
  readonly previewRows = this.page.getByTestId('mapping-preview-row');
  readonly submit = this.page.getByTestId('import-submit');
  readonly check = this.page.getByTestId('import-check');
  readonly checkResult = this.page.getByTestId('import-check-result');
  readonly history = this.page.getByTestId('statement-history');
  readonly result = this.page.getByTestId('import-result');
  readonly newCount = this.page.getByTestId('import-new-count');
  readonly closing = this.page.getByTestId('import-closing');
  readonly duplicate = this.page.getByTestId('import-duplicate');
  readonly error = this.page.getByTestId('import-error');
  readonly another = this.page.getByTestId('import-another');
  readonly goMatching = this.page.getByTestId('import-go-matching');
  readonly forbidden = this.page.getByTestId('bank-import-forbidden');

  previewRow(lineNumber: number): Locator {
    return this.page.locator(`[data-testid="mapping-preview-row"][data-line="${lineNumber}"]`);
  }

  async chooseAccount(text: string): Promise<void> {
    await selectOptionContaining(this.account, text);
  }

  async chooseFile(name: string, bytes: Buffer, mimeType = 'text/csv'): Promise<void> {
    await this.file.setInputFiles({ name, mimeType, buffer: bytes });
  }

  /** Sets the mapping's fields that are given, as a person would in the form. */
  async mapColumns(columns: CsvColumns): Promise<void> {
    const page = this.page;
    if (columns.delimiter) await page.getByTestId('mapping-delimiter').selectOption({ label: columns.delimiter });
    if (columns.skipRows !== undefined) await page.getByTestId('mapping-skip-rows').fill(String(columns.skipRows));
    if (columns.header !== undefined) await page.getByTestId('mapping-header').setChecked(columns.header);
    if (columns.decimal) await page.getByTestId('mapping-decimal').selectOption({ label: columns.decimal });
    if (columns.date) await selectOptionContaining(page.getByTestId('mapping-date'), columns.date);
    if (columns.dateFormat) await page.getByTestId('mapping-date-format').selectOption(columns.dateFormat);
    if (columns.description) await selectOptionContaining(page.getByTestId('mapping-description'), columns.description);
    if (columns.amount) {
      await page.getByTestId('mapping-mode-single').check();
      await selectOptionContaining(page.getByTestId('mapping-amount'), columns.amount);
    }
    if (columns.balance) await selectOptionContaining(page.getByTestId('mapping-balance'), columns.balance);
  }
}
