import type { Locator } from 'playwright-core';
import { expectHidden } from '../fixture.js';
import { AppShell } from './app-shell.js';

export type AccountTypeLabel = 'Assets' | 'Liabilities' | 'Equity' | 'Revenue' | 'Expenses';

export class AccountsPage extends AppShell {
  protected readonly title = 'Chart of accounts';
  protected readonly path = '/accounts';
  protected readonly navTarget = 'accounts' as const;

  readonly newAccount = this.page.getByTestId('account-new');
  readonly dialog = this.page.getByTestId('account-dialog');
  readonly rows = this.page.getByTestId('account-row');
  readonly editButtons = this.page.getByTestId('account-edit');
  readonly addSubButtons = this.page.getByTestId('account-add-sub');

  row(name: string): Locator {
    return this.rows.filter({ has: this.page.getByRole('link', { name, exact: true }) });
  }

  async create(account: { number: string; name: string; type: AccountTypeLabel; control?: boolean }): Promise<void> {
    await this.newAccount.click();
    await this.fillNumberAndName(account.number, account.name);
    await this.dialog.getByTestId('account-type').selectOption({ label: account.type });
    if (account.control) await this.dialog.getByTestId('account-control').check();
    await this.save();
  }

  async createSubAccount(controlName: string, account: { number: string; name: string; entity: string }): Promise<void> {
    await this.page.getByRole('button', { name: `Add sub-account to ${controlName}` }).click();
    await this.fillNumberAndName(account.number, account.name);
    await this.dialog.getByTestId('account-entity').fill(account.entity);
    await this.save();
  }

  /** Fills the create form and submits it, leaving the dialog open (for a refused submission). */
  async submitNew(account: { number: string; name: string }): Promise<void> {
    await this.newAccount.click();
    await this.fillNumberAndName(account.number, account.name);
    await this.dialog.getByTestId('account-save').click();
  }

  async openAccount(name: string): Promise<void> {
    await this.row(name).getByRole('link', { name, exact: true }).click();
  }

  private async fillNumberAndName(number: string, name: string): Promise<void> {
    await this.dialog.getByTestId('account-number').fill(number);
    await this.dialog.getByTestId('account-name').fill(name);
  }

  private async save(): Promise<void> {
    await this.dialog.getByTestId('account-save').click();
    await expectHidden(this.dialog);
  }
}
