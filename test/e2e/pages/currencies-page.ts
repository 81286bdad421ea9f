import { expectHidden } from '../fixture.js';
import { AppShell } from './app-shell.js';

export class CurrenciesPage extends AppShell {
  protected readonly title = 'Currencies';
  protected readonly path = '/currencies';
  protected readonly navTarget = 'currencies' as const;

  readonly newCurrency = this.page.getByTestId('currency-new');
  readonly dialog = this.page.getByTestId('currency-dialog');
  readonly rows = this.page.getByTestId('currency-row');

  row(code: string) {
    return this.rows.filter({ hasText: code });
  }

  /** Picks a fiat currency from the ISO 4217 list; name, symbol, decimals and CAIP-19 id fill themselves in. */
  async addFiat(code: string): Promise<{ name: string; symbol: string; decimals: string; caip19: string }> {
    await this.newCurrency.click();
    await this.page.getByTestId('currency-fiat-picker').selectOption(code);
    const filled = {
      name: await this.page.getByTestId('currency-name').inputValue(),
      symbol: await this.page.getByTestId('currency-symbol').inputValue(),
      decimals: await this.page.getByTestId('currency-scale').inputValue(),
      caip19: await this.page.getByTestId('currency-caip19').inputValue(),
    };
    await this.page.getByTestId('currency-save').click();
    await expectHidden(this.dialog);
    return filled;
  }
}
