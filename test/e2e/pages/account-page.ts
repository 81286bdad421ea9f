import { AppShell } from './app-shell.js';

/** One account: balance and general ledger with running balance. */
export class AccountPage extends AppShell {
  protected readonly path: string;
  protected readonly navTarget = undefined;

  constructor(page: AppShell['page'], protected readonly title: string | RegExp, accountId = '') {
    super(page);
    this.path = `/accounts/${accountId}`;
  }

  readonly balance = this.page.getByTestId('account-balance-value');
  readonly ledger = this.page.getByTestId('general-ledger');
  readonly ledgerLines = this.page.getByTestId('ledger-line');
  readonly edit = this.page.getByTestId('account-edit');
  readonly addSubAccount = this.page.getByTestId('account-add-sub');
  readonly newEntry = this.page.getByRole('link', { name: 'New entry' });

  /** The running balance cell (the last column) of a ledger line. */
  runningBalance(lineIndex: number) {
    return this.ledgerLines.nth(lineIndex).locator('td').last();
  }
}
