import type { Locator } from 'playwright-core';
import { AppShell } from './app-shell.js';

export interface EntryLineInput {
  /** The account as the picker shows it, "1000 · Cash": typed into the picker, then the option with this text is taken. */
  account: string;
  debit?: string;
  credit?: string;
}

/**
 * The new-entry form: accounts chosen in a searchable picker (a combobox), amounts typed in major
 * units in the browser's number format, a running difference, errors beside fields.
 */
export class NewEntryPage extends AppShell {
  protected readonly title = 'New journal entry';
  protected readonly path = '/journal/new';
  protected readonly navTarget = undefined;

  readonly form = this.page.getByTestId('entry-form');
  readonly date = this.page.getByTestId('entry-date');
  readonly description = this.page.getByTestId('entry-description');
  readonly difference = this.page.getByTestId('entry-difference');
  readonly blocker = this.page.getByTestId('entry-blocker');
  readonly submit = this.page.getByTestId('entry-submit');
  readonly submitAndNew = this.page.getByTestId('entry-submit-new');
  readonly posted = this.page.getByTestId('entry-posted');
  readonly copiedFrom = this.page.getByTestId('entry-copied-from');
  readonly reference = this.page.getByTestId('entry-reference');
  /** The open account list's options (only the focused picker renders any). */
  readonly accountOptions = this.page.getByRole('option');
  readonly pickerStatus = this.page.getByTestId('account-picker-status').filter({ visible: true });
  readonly errorSummary = this.page.getByTestId('entry-error-summary');
  readonly permissionNotice = this.page.getByRole('alert').filter({ hasText: 'You cannot post entries' });

  lineAccount(index: number): Locator { return this.page.getByTestId(`line-${index}-account`); }
  lineDebit(index: number): Locator { return this.page.getByTestId(`line-${index}-debit`); }
  lineCredit(index: number): Locator { return this.page.getByTestId(`line-${index}-credit`); }
  lineDescription(index: number): Locator { return this.page.getByTestId(`line-${index}-description`); }

  /** Types `search` into a line's account picker and clicks the option whose text contains `option` (default: the search). */
  async chooseAccount(index: number, search: string, option = search): Promise<void> {
    await this.lineAccount(index).fill(search);
    await this.accountOptions.filter({ hasText: option }).first().click();
  }

  async fill(entry: { date: string; description: string; lines: EntryLineInput[] }): Promise<void> {
    await this.date.fill(entry.date);
    await this.description.fill(entry.description);
    for (const [index, line] of entry.lines.entries()) {
      if (index >= 2) await this.page.getByTestId('entry-add-line').click();
      await this.chooseAccount(index, line.account);
      if (line.debit !== undefined) await this.lineDebit(index).fill(line.debit);
      if (line.credit !== undefined) await this.lineCredit(index).fill(line.credit);
    }
  }

  /** The error message the form shows for a field, found through the field's aria-describedby. */
  async fieldError(field: Locator): Promise<string> {
    const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
    const errorId = describedBy.split(' ').find((id) => id.endsWith('-error'));
    if (!errorId) return '';
    return this.page.locator(`[id="${errorId}"]`).innerText();
  }
}
