import { AppShell } from './app-shell.js';

export class DashboardPage extends AppShell {
  protected readonly title = 'Dashboard';
  protected readonly path = '/';
  protected readonly navTarget = 'dashboard' as const;

  readonly newEntry = this.page.getByTestId('dashboard-new-entry');
  readonly gettingStarted = this.page.getByTestId('getting-started');
  readonly assets = this.page.getByTestId('stat-assets');
  readonly equity = this.page.getByTestId('stat-equity');
  readonly recentEntries = this.page.getByTestId('recent-entries');
  readonly openPeriods = this.page.getByTestId('open-periods');
}
