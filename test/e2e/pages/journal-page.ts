import type { Locator } from 'playwright-core';
import { AppShell } from './app-shell.js';

export class JournalPage extends AppShell {
  protected readonly title = 'Journal entries';
  protected readonly path = '/journal';
  protected readonly navTarget = 'journal' as const;

  readonly newEntry = this.page.getByTestId('entry-new');
  readonly rows = this.page.getByTestId('journal-row');
  readonly search = this.page.getByTestId('journal-search');
  readonly loadMore = this.page.getByTestId('journal-load-more');
  readonly searchButton = this.page.getByTestId('journal-search-submit');

  /** Types the words into the search box and sends them with Enter. */
  async searchFor(text: string): Promise<void> {
    await this.search.fill(text);
    await this.search.press('Enter');
  }

  row(description: string): Locator {
    return this.rows.filter({ has: this.page.getByRole('link', { name: description, exact: true }) });
  }

  async openEntry(description: string): Promise<void> {
    await this.row(description).getByRole('link', { name: description, exact: true }).click();
  }
}
