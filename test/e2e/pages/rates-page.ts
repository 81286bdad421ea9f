import { AppShell, selectOptionContaining } from './app-shell.js';

/** Exchange rates: the list with its filters, and the form that sets a rate (rates:write). */
export class RatesPage extends AppShell {
  protected readonly title = 'Exchange rates';
  protected readonly path = '/rates';
  protected readonly navTarget = 'rates' as const;

  readonly rows = this.page.getByTestId('rate-row');
  readonly form = this.page.getByTestId('rate-form');
  readonly currency = this.page.getByTestId('rate-currency');
  readonly date = this.page.getByTestId('rate-date');
  readonly rate = this.page.getByTestId('rate-value-input');
  readonly save = this.page.getByTestId('rate-save');
  readonly result = this.page.getByTestId('rate-result');
  readonly filterCurrency = this.page.getByTestId('rates-filter-currency');

  row(code: string, date: string) {
    return this.page.locator(`[data-testid="rate-row"][data-currency="${code}"][data-date="${date}"]`);
  }

  /** Fills the form and saves; the rate is typed as text, exactly as given. */
  async setRate(code: string, date: string, rate: string): Promise<void> {
    await selectOptionContaining(this.currency, code);
    await this.date.fill(date);
    await this.rate.fill(rate);
    await this.save.click();
  }
}
