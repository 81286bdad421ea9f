import type { Locator } from 'playwright-core';
import { expectHidden } from '../fixture.js';
import { AppShell } from './app-shell.js';

export class PeriodsPage extends AppShell {
  protected readonly title = 'Periods';
  protected readonly path = '/periods';
  protected readonly navTarget = 'periods' as const;

  readonly newPeriod = this.page.getByTestId('period-new');
  readonly rows = this.page.getByTestId('period-row');
  readonly closeButtons = this.page.getByTestId('period-close');
  readonly closeDialog = this.page.getByTestId('close-dialog');
  readonly preview = this.page.getByTestId('close-preview');
  readonly previewEntry = this.page.getByTestId('close-preview-entry');
  readonly confirmCheck = this.page.getByTestId('close-confirm-check');
  readonly confirm = this.page.getByTestId('close-confirm');
  readonly currencyFix = this.page.getByTestId('close-currency-fix');

  /** The previewed closing entry of one currency (by its code). */
  previewEntryIn(code: string): Locator {
    return this.page.locator(`[data-testid="close-preview-entry"][data-currency="${code}"]`);
  }

  row(name: string): Locator {
    return this.rows.filter({ has: this.page.getByRole('link', { name, exact: true }) });
  }

  async create(period: { name: string; start: string; end: string }): Promise<void> {
    await this.newPeriod.click();
    const dialog = this.page.getByTestId('period-dialog');
    await dialog.getByTestId('period-name').fill(period.name);
    await dialog.getByTestId('period-start').fill(period.start);
    await dialog.getByTestId('period-end').fill(period.end);
    await dialog.getByTestId('period-save').click();
    await expectHidden(dialog);
  }

  /** Opens the close dialog and asks for the preview; the caller inspects it before confirming. */
  async previewClose(name: string): Promise<void> {
    await this.page.getByRole('button', { name: `Close ${name}` }).click();
    await this.preview.click();
  }

  async confirmClose(): Promise<void> {
    await this.confirmCheck.check();
    await this.confirm.click();
    await expectHidden(this.closeDialog);
  }
}
