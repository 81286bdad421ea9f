import { AppShell, selectOptionContaining } from './app-shell.js';

export class SettingsPage extends AppShell {
  protected readonly title = 'Settings';
  protected readonly path = '/settings';
  protected readonly navTarget = 'settings' as const;

  readonly retainedEarnings = this.page.getByTestId('settings-retained-earnings');
  readonly retainedEarningsSelect = this.page.getByTestId('retained-earnings-select');
  readonly save = this.page.getByTestId('retained-earnings-save');
  readonly companyName = this.page.getByTestId('company-name-input');
  readonly companyNameSave = this.page.getByTestId('company-name-save');
  readonly companyNameRemove = this.page.getByTestId('company-name-remove');
  readonly companyNameCurrent = this.page.getByTestId('company-name-current');
  readonly companyNameUnset = this.page.getByTestId('company-name-unset');

  /** The row of a currency other than the default's, in "Retained earnings per currency". */
  currencyRow(code: string) {
    return this.page.locator(`[data-testid="currency-retained-row"][data-currency="${code}"]`);
  }

  async chooseCurrencyRetainedEarnings(code: string, label: string): Promise<void> {
    const row = this.currencyRow(code);
    await selectOptionContaining(row.getByTestId('currency-retained-select'), label);
    await row.getByTestId('currency-retained-save').click();
  }

  async chooseRetainedEarnings(label: string): Promise<void> {
    await selectOptionContaining(this.retainedEarningsSelect, label);
    await this.save.click();
  }
}
