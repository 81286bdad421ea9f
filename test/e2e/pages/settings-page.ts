import { AppShell, selectOptionContaining } from './app-shell.js';

export class SettingsPage extends AppShell {
  protected readonly title = 'Settings';
  protected readonly path = '/settings';
  protected readonly navTarget = 'settings' as const;

  readonly retainedEarnings = this.page.getByTestId('settings-retained-earnings');
  readonly retainedEarningsSelect = this.page.getByTestId('retained-earnings-select');
  readonly save = this.page.getByTestId('retained-earnings-save');

  async chooseRetainedEarnings(label: string): Promise<void> {
    await selectOptionContaining(this.retainedEarningsSelect, label);
    await this.save.click();
  }
}
