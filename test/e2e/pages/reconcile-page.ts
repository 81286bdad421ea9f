/** Reconciliations: the list with the start form (`/reconcile`), and one reconciliation (`/reconcile/:id`). */
import type { Locator } from 'playwright-core';
import { AppShell, selectOptionContaining } from './app-shell.js';

export class ReconciliationsPage extends AppShell {
  protected readonly title = 'Reconcile';
  protected readonly path = '/reconcile';
  protected readonly navTarget = 'reconcile' as const;

  readonly start = this.page.getByTestId('reconcile-start');
  readonly account = this.page.getByTestId('reconcile-account');
  readonly date = this.page.getByTestId('reconcile-date');
  readonly balance = this.page.getByTestId('reconcile-balance');
  readonly submit = this.page.getByTestId('reconcile-submit');
  readonly rows = this.page.getByTestId('reconciliation-row');
  readonly readOnly = this.page.getByTestId('reconcile-read-only');

  async begin(input: { account: string; date: string; balance: string }): Promise<void> {
    await selectOptionContaining(this.account, input.account);
    await this.date.fill(input.date);
    await this.balance.fill(input.balance);
    await this.submit.click();
  }
}

export class ReconciliationPage extends AppShell {
  protected readonly title: RegExp = /^(Reconcile |Bank reconciliation)/;
  protected readonly path: string;
  protected readonly navTarget = undefined;

  constructor(page: AppShell['page'], id = '') {
    super(page);
    this.path = `/reconcile/${id}`;
  }

  readonly statementBalance = this.page.getByTestId('reconcile-statement-balance');
  readonly cleared = this.page.getByTestId('reconcile-cleared');
  readonly difference = this.page.getByTestId('reconcile-difference');
  readonly lines = this.page.getByTestId('reconcile-line');
  readonly unmatched = this.page.getByTestId('reconcile-unmatched');
  readonly finish = this.page.getByTestId('reconcile-finish');
  readonly report = this.page.getByTestId('reconcile-report');
  readonly finishedBy = this.page.getByTestId('reconcile-finished-by');
  readonly print = this.page.getByTestId('reconcile-print');

  /** The book line whose description contains `text`. */
  line(text: string): Locator {
    return this.lines.filter({ hasText: text });
  }

  tick(text: string): Locator {
    return this.line(text).getByTestId('reconcile-tick');
  }
}
