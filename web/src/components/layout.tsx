/** The signed-in frame: navigation (a sidebar on desktop, a drawer on phones) and the page. */
import { type ReactNode, useEffect, useState } from 'react';
import type { PermissionKey } from '../api/types.js';
import { useAuth, useUser } from '../auth/auth.js';
import { Link, useLocation } from '../lib/router.js';
import { Toasts } from '../lib/toast.js';

interface NavItem {
  to: string;
  label: string;
  icon: ReactNode;
  testId: string;
  /** Shown only to users who hold it (or admin): a page that can do nothing else without it. */
  permission?: PermissionKey;
}

const icon = (path: string) => (
  <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.8"
    strokeLinecap="round" strokeLinejoin="round"><path d={path} /></svg>
);

const MAIN_NAV: NavItem[] = [
  { to: '/', label: 'Dashboard', testId: 'nav-dashboard', icon: icon('M3 12l9-8 9 8M5 10v10h5v-6h4v6h5V10') },
  { to: '/accounts', label: 'Chart of accounts', testId: 'nav-accounts', icon: icon('M4 5h16M4 12h16M4 19h10') },
  { to: '/journal', label: 'Journal entries', testId: 'nav-journal', icon: icon('M6 3h9l4 4v14H6zM14 3v5h5M9 13h7M9 17h5') },
  { to: '/periods', label: 'Periods', testId: 'nav-periods', icon: icon('M4 6h16v14H4zM4 10h16M8 3v5M16 3v5') },
];

const REPORT_NAV: NavItem[] = [
  { to: '/reports/trial-balance', label: 'Trial balance', testId: 'nav-trial-balance', icon: icon('M12 3v18M5 7h14M5 7l-3 7h6zM19 7l-3 7h6z') },
  { to: '/reports/balance-sheet', label: 'Balance sheet', testId: 'nav-balance-sheet', icon: icon('M4 4h16v16H4zM12 4v16M4 12h16') },
  { to: '/reports/income-statement', label: 'Income statement', testId: 'nav-income-statement', icon: icon('M4 19V9M10 19V5M16 19v-7M22 19H2') },
  { to: '/reports/general-ledger', label: 'General ledger', testId: 'nav-general-ledger', icon: icon('M5 4h14v16H5zM9 8h6M9 12h6M9 16h3') },
  { to: '/reports/aged-balances', label: 'Aged balances', testId: 'nav-aged-balances', icon: icon('M12 21a9 9 0 100-18 9 9 0 000 18zM12 7v5l3 2') },
];

/** Importing a statement starts from the matching screen (its "Import statement" button), which keeps the sidebar within a 900 px high window. */
const BANK_NAV: NavItem[] = [
  { to: '/bank', label: 'Bank matching', testId: 'nav-bank', icon: icon('M3 10l9-6 9 6M5 10v8M9.5 10v8M14.5 10v8M19 10v8M3 20h18') },
  { to: '/bank/rules', label: 'Bank rules', testId: 'nav-bank-rules', icon: icon('M4 6h10M4 12h16M4 18h7M17 4v4M20 16l-3 3-2-2') },
  { to: '/reconcile', label: 'Reconcile', testId: 'nav-reconcile', icon: icon('M4 12l5 5L20 6') },
];

const ADMIN_NAV: NavItem[] = [
  { to: '/currencies', label: 'Currencies', testId: 'nav-currencies', icon: icon('M12 3v18M16 7H10a3 3 0 000 6h4a3 3 0 010 6H7') },
  { to: '/rates', label: 'Exchange rates', testId: 'nav-rates', icon: icon('M4 8h13l-3-3M20 16H7l3 3') },
  { to: '/users', label: 'Users', testId: 'nav-users', icon: icon('M16 19v-1a4 4 0 00-4-4H7a4 4 0 00-4 4v1M9.5 10a3.5 3.5 0 100-7 3.5 3.5 0 000 7zM21 19v-1a4 4 0 00-3-3.9M16 3.1a3.5 3.5 0 010 6.8') },
  { to: '/webhooks', label: 'Webhooks', testId: 'nav-webhooks', permission: 'webhooks:manage',
    icon: icon('M9 17a3 3 0 11-3-3h5l3-6M15 8a3 3 0 113 3M18 17a3 3 0 11-2.6-1.5L12.5 11') },
  { to: '/settings', label: 'Settings', testId: 'nav-settings', icon: icon('M12 15a3 3 0 100-6 3 3 0 000 6zM19.4 15a1.7 1.7 0 00.3 1.8l.1.1a2 2 0 11-2.8 2.8l-.1-.1a1.7 1.7 0 00-2.9 1.2V21a2 2 0 11-4 0v-.1a1.7 1.7 0 00-2.9-1.2l-.1.1a2 2 0 11-2.8-2.8l.1-.1a1.7 1.7 0 00-1.2-2.9H3a2 2 0 110-4h.1a1.7 1.7 0 001.2-2.9l-.1-.1a2 2 0 112.8-2.8l.1.1a1.7 1.7 0 002.9-1.2V3a2 2 0 114 0v.1a1.7 1.7 0 002.9 1.2l.1-.1a2 2 0 112.8 2.8l-.1.1a1.7 1.7 0 001.2 2.9H21a2 2 0 110 4h-.1a1.7 1.7 0 00-1.5 1z') },
];

function covers(to: string, pathname: string): boolean {
  return to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`);
}

const ALL_NAV = [...MAIN_NAV, ...BANK_NAV, ...REPORT_NAV];

/** The link whose path covers the page most closely is the current one (`/bank/rules` is not also "Bank matching"). */
function isCurrent(to: string, pathname: string): boolean {
  if (!covers(to, pathname)) return false;
  return !ALL_NAV.some((item) => item.to.length > to.length && covers(item.to, pathname));
}

function NavList({ items, pathname }: { items: NavItem[]; pathname: string }) {
  return (
    <ul className="nav__list">
      {items.map((item) => (
        <li key={item.to}>
          <Link to={item.to} className="nav__link" data-testid={item.testId} aria-current={isCurrent(item.to, pathname) ? 'page' : undefined}>
            {item.icon}
            <span>{item.label}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function AppLayout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const { user, can } = useUser();
  const adminNav = ADMIN_NAV.filter((item) => item.permission === undefined || can(item.permission));
  const { logout } = useAuth();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [pathname]);

  return (
    <div className={`shell ${menuOpen ? 'shell--menu-open' : ''}`}>
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="topbar no-print">
        <button type="button" className="icon-button topbar__menu" aria-expanded={menuOpen} aria-controls="primary-nav"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'} onClick={() => setMenuOpen((open) => !open)} data-testid="menu-toggle">
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
        <Link to="/" className="brand"><BrandMark /> Ledger</Link>
      </header>
      <nav id="primary-nav" className="nav no-print" aria-label="Main">
        <Link to="/" className="brand brand--nav"><BrandMark /> Ledger</Link>
        <NavList items={MAIN_NAV} pathname={pathname} />
        <p className="nav__heading">Bank</p>
        <NavList items={BANK_NAV} pathname={pathname} />
        <p className="nav__heading">Reports</p>
        <NavList items={REPORT_NAV} pathname={pathname} />
        <p className="nav__heading">Administration</p>
        <NavList items={adminNav} pathname={pathname} />
        <div className="nav__user">
          <div className="nav__user-text">
            <span className="nav__user-name" data-testid="current-user">{user.name}</span>
            <span className="nav__user-mail">{user.email ?? 'service account'}</span>
          </div>
          <button type="button" className="button button--ghost button--small" onClick={() => void logout()} data-testid="logout">
            Sign out
          </button>
        </div>
      </nav>
      {menuOpen ? <div className="shell__scrim no-print" onClick={() => setMenuOpen(false)} aria-hidden="true" /> : null}
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
      <Toasts />
    </div>
  );
}

export function BrandMark() {
  return (
    <svg className="brand__mark" viewBox="0 0 32 32" width="26" height="26" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="currentColor" />
      <path d="M9 8v16h14" fill="none" stroke="var(--brand-contrast)" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M14 13h9M14 18h6" stroke="var(--brand-soft)" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}
