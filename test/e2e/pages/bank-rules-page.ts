/** Bank rules (`/bank/rules`): the list in order, and the rule dialog with "Try it". */
import type { Locator } from 'playwright-core';
import { AppShell } from './app-shell.js';

export class BankRulesPage extends AppShell {
  protected readonly title = 'Bank rules';
  protected readonly path = '/bank/rules';
  protected readonly navTarget = 'bank-rules' as const;

  readonly newRule = this.page.getByTestId('rule-new');
  readonly rows = this.page.getByTestId('rule-row');
  readonly dialog = this.page.getByTestId('rule-dialog');
  readonly name = this.dialog.getByTestId('rule-name');
  readonly priority = this.dialog.getByTestId('rule-priority-input');
  readonly contains = this.dialog.getByTestId('rule-contains');
  readonly regex = this.dialog.getByTestId('rule-regex');
  readonly direction = this.dialog.getByTestId('rule-direction');
  readonly counter = this.dialog.getByTestId('rule-counter');
  readonly tryIt = this.dialog.getByTestId('rule-try');
  readonly save = this.dialog.getByTestId('rule-save');
  readonly preview = this.dialog.getByTestId('rule-preview');
  readonly previewRows = this.dialog.getByTestId('rule-preview-row');

  row(name: string): Locator {
    return this.rows.filter({ hasText: name });
  }

  async chooseCounter(search: string, option: string): Promise<void> {
    await this.counter.fill(search);
    await this.page.getByRole('option').filter({ hasText: option }).first().click();
  }

  /** The message shown under a field of the dialog, through its aria-describedby. */
  async fieldError(field: Locator): Promise<string> {
    const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter((id) => id.endsWith('-error'));
    return ids.length === 0 ? '' : this.page.locator(`[id="${ids[0]}"]`).innerText();
  }
}
