/** The reports; one model, since they share a frame (title, parameters, CSV and print). */
import type { Locator } from 'playwright-core';
import { AppShell, type NavTarget } from './app-shell.js';

type ReportName = 'trial-balance' | 'balance-sheet' | 'income-statement' | 'general-ledger' | 'aged-balances';

const TITLES: Record<ReportName, string> = {
  'trial-balance': 'Trial balance',
  'balance-sheet': 'Balance sheet',
  'income-statement': 'Income statement',
  'general-ledger': 'General ledger',
  'aged-balances': 'Aged balances',
};

export class ReportPage extends AppShell {
  protected readonly title: string;
  protected readonly path: string;
  protected readonly navTarget: NavTarget;

  constructor(page: AppShell['page'], readonly report: ReportName) {
    super(page);
    this.title = TITLES[report];
    this.path = `/reports/${report}`;
    this.navTarget = report;
  }

  get frame(): Locator { return this.page.getByTestId(`report-${this.report}`); }
  /** The company name above the report's title (the company_name setting). */
  get company(): Locator { return this.page.getByTestId('report-company'); }
  get exportCsv(): Locator { return this.page.getByTestId('report-export-csv'); }
  get period(): Locator { return this.page.getByTestId('report-period'); }
  get account(): Locator { return this.page.getByTestId('report-account'); }

  /** Trial balance rows, one per account with activity. */
  trialBalanceRow(accountName: string): Locator {
    return this.page.getByTestId('trial-balance-row').filter({ has: this.page.getByRole('link', { name: accountName, exact: true }) });
  }

  /** The trial balance's totals of the debit-balance and credit-balance columns (shown by default). */
  get totalDebit(): Locator { return this.page.getByTestId('trial-balance-total-debit-balance'); }
  get totalCredit(): Locator { return this.page.getByTestId('trial-balance-total-credit-balance'); }
  /** "All columns": the type and the debit and credit totals too (`?columns=all`). */
  get allColumns(): Locator { return this.page.getByTestId('trial-balance-all-columns'); }
  /** The totals of the debits and credits columns, shown with all columns. */
  get totalDebits(): Locator { return this.page.getByTestId('trial-balance-total-debit'); }
  get totalCredits(): Locator { return this.page.getByTestId('trial-balance-total-credit'); }
  /** The status badge of the trial balance and the balance sheet (is_balanced). */
  get status(): Locator { return this.frame.locator('.report__status'); }
  section(testId: 'balance-sheet-assets' | 'balance-sheet-liabilities' | 'balance-sheet-equity' | 'income-revenue' | 'income-expenses'): Locator {
    return this.page.getByTestId(testId);
  }
}
