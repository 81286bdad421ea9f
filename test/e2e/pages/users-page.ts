import { AppShell } from './app-shell.js';

export class UsersPage extends AppShell {
  protected readonly title = 'Users';
  protected readonly path = '/users';
  protected readonly navTarget = 'users' as const;

  readonly rows = this.page.getByTestId('user-row');
  readonly newUser = this.page.getByTestId('user-new');
  readonly newServiceAccount = this.page.getByTestId('service-account-new');
  readonly editButtons = this.page.getByTestId('user-edit');

  row(name: string) {
    return this.rows.filter({ hasText: name });
  }
}
