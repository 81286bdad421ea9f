/** The route table and the choice between setup, sign-in and the app. */
import { type ComponentType, useEffect } from 'react';
import { AuthProvider, useAuth } from './auth/auth.js';
import { AppLayout } from './components/layout.js';
import { matchPath, navigate, useLocation } from './lib/router.js';
import { AccountPage } from './pages/account-page.js';
import { AccountsPage } from './pages/accounts-page.js';
import { FullPageLoading, LoginPage, SetupPage, UnreachablePage } from './pages/auth-pages.js';
import { CurrenciesPage } from './pages/currencies-page.js';
import { BankImportPage } from './pages/bank/bank-import-page.js';
import { BankIndexPage, BankMatchingPage } from './pages/bank/bank-matching-page.js';
import { BankRulesPage } from './pages/bank/bank-rules-page.js';
import { ReconciliationPage } from './pages/bank/reconciliation-page.js';
import { ReconciliationsPage } from './pages/bank/reconciliations-page.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { EntryPage } from './pages/entry-page.js';
import { JournalPage } from './pages/journal-page.js';
import { NewEntryPage } from './pages/new-entry-page.js';
import { NotFoundPage } from './pages/not-found-page.js';
import { PeriodsPage } from './pages/periods-page.js';
import { RatesPage } from './pages/rates-page.js';
import { AgedBalancesPage } from './pages/reports/aged-balances-page.js';
import { BalanceSheetPage } from './pages/reports/balance-sheet-page.js';
import { GeneralLedgerPage } from './pages/reports/general-ledger-page.js';
import { IncomeStatementPage } from './pages/reports/income-statement-page.js';
import { ReportsIndexPage } from './pages/reports/reports-index-page.js';
import { TrialBalancePage } from './pages/reports/trial-balance-page.js';
import { SettingsPage } from './pages/settings-page.js';
import { UsersPage } from './pages/users-page.js';
import { WebhookPage } from './pages/webhook-page.js';
import { WebhooksPage } from './pages/webhooks-page.js';

type Params = Record<string, string>;

const ROUTES: { pattern: string; title: string; page: ComponentType<{ params: Params }> }[] = [
  { pattern: '/', title: 'Dashboard', page: DashboardPage },
  { pattern: '/accounts', title: 'Chart of accounts', page: AccountsPage },
  { pattern: '/accounts/:id', title: 'Account', page: AccountPage },
  { pattern: '/journal', title: 'Journal entries', page: JournalPage },
  { pattern: '/journal/new', title: 'New journal entry', page: NewEntryPage },
  { pattern: '/journal/:id', title: 'Journal entry', page: EntryPage },
  { pattern: '/periods', title: 'Periods', page: PeriodsPage },
  { pattern: '/bank', title: 'Bank matching', page: BankIndexPage },
  { pattern: '/bank/import', title: 'Import a bank statement', page: BankImportPage },
  { pattern: '/bank/rules', title: 'Bank rules', page: BankRulesPage },
  { pattern: '/bank/:accountId', title: 'Bank matching', page: BankMatchingPage },
  { pattern: '/reconcile', title: 'Reconcile', page: ReconciliationsPage },
  { pattern: '/reconcile/:id', title: 'Reconciliation', page: ReconciliationPage },
  { pattern: '/reports', title: 'Reports', page: ReportsIndexPage },
  { pattern: '/reports/trial-balance', title: 'Trial balance', page: TrialBalancePage },
  { pattern: '/reports/balance-sheet', title: 'Balance sheet', page: BalanceSheetPage },
  { pattern: '/reports/income-statement', title: 'Income statement', page: IncomeStatementPage },
  { pattern: '/reports/general-ledger', title: 'General ledger', page: GeneralLedgerPage },
  { pattern: '/reports/aged-balances', title: 'Aged balances', page: AgedBalancesPage },
  { pattern: '/currencies', title: 'Currencies', page: CurrenciesPage },
  { pattern: '/rates', title: 'Exchange rates', page: RatesPage },
  { pattern: '/users', title: 'Users', page: UsersPage },
  { pattern: '/settings', title: 'Settings', page: SettingsPage },
  { pattern: '/webhooks', title: 'Webhooks', page: WebhooksPage },
  { pattern: '/webhooks/:id', title: 'Webhook endpoint', page: WebhookPage },
];

function resolve(pathname: string): { page: ComponentType<{ params: Params }>; params: Params; title: string } {
  for (const route of ROUTES) {
    const params = matchPath(route.pattern, pathname);
    if (params) return { page: route.page, params, title: route.title };
  }
  return { page: NotFoundPage, params: {}, title: 'Not found' };
}

function SignedInApp() {
  const { pathname } = useLocation();
  const { page: Page, params, title } = resolve(pathname);
  useEffect(() => {
    document.title = `${title} · Ledger`;
  }, [title]);
  // The sign-in pages have their own paths only for bookmarks; once signed in, leave them.
  useEffect(() => {
    if (pathname === '/login' || pathname === '/setup') navigate('/', { replace: true });
  }, [pathname]);
  return (
    <AppLayout>
      <Page key={pathname} params={params} />
    </AppLayout>
  );
}

function Gate() {
  const { status } = useAuth();
  useEffect(() => {
    if (status.kind === 'needs-setup') document.title = 'Set up · Ledger';
    if (status.kind === 'signed-out') document.title = 'Sign in · Ledger';
  }, [status.kind]);
  switch (status.kind) {
    case 'loading': return <FullPageLoading />;
    case 'unreachable': return <UnreachablePage message={status.message} />;
    case 'needs-setup': return <SetupPage />;
    case 'signed-out': return <LoginPage reason={status.reason} />;
    case 'signed-in': return <SignedInApp />;
  }
}

export function App() {
  return (
    <AuthProvider>
      <Gate />
    </AuthProvider>
  );
}
