/** The bank feed (`/bank/:accountId`): unmatched lines with their suggestions, and what can be done with each. */
import type { Locator } from 'playwright-core';
import { AppShell } from './app-shell.js';

export class BankMatchingPage extends AppShell {
  protected readonly title = 'Bank matching';
  protected readonly path: string;
  protected readonly navTarget = 'bank' as const;

  constructor(page: AppShell['page'], accountId = '') {
    super(page);
    this.path = accountId ? `/bank/${accountId}` : '/bank';
  }

  readonly lines = this.page.getByTestId('bank-line');
  readonly unmatchedCount = this.page.getByTestId('bank-unmatched-count');
  readonly keysHint = this.page.getByTestId('bank-keys');
  readonly acceptAll = this.page.getByTestId('accept-all');
  readonly acceptAllDialog = this.page.getByTestId('accept-all-dialog');
  readonly acceptAllConfirm = this.page.getByTestId('accept-all-confirm');
  readonly acceptAllError = this.page.getByTestId('accept-all-error');
  readonly readOnlyNotice = this.page.getByTestId('bank-read-only');
  readonly importLink = this.page.getByTestId('bank-import-link');

  tab(name: 'unmatched' | 'matched' | 'excluded'): Locator {
    return this.page.getByTestId(`bank-tab-${name}`);
  }

  /** The line whose description contains `text`. */
  line(text: string): Locator {
    return this.lines.filter({ has: this.page.getByTestId('bank-line-description').filter({ hasText: text }) });
  }

  /** The id of the line that has the keyboard focus, or null. */
  async focusedLineId(): Promise<string | null> {
    return this.page.evaluate<string | null>('document.activeElement?.getAttribute("data-line-id") ?? null');
  }

  async findMatch(text: string): Promise<Locator> {
    const line = this.line(text);
    await line.getByTestId('line-find-match').click();
    return line.getByTestId('find-match');
  }

  async postAs(text: string, account: { search: string; option: string }, description?: string): Promise<void> {
    const line = this.line(text);
    await line.getByTestId('line-post-as').click();
    const picker = line.getByTestId('post-as-account');
    await picker.fill(account.search);
    await this.page.getByRole('option').filter({ hasText: account.option }).first().click();
    if (description !== undefined) await line.getByTestId('post-as-description').fill(description);
    await line.getByTestId('post-as-submit').click();
  }
}
