/** The chart of accounts: grouped by type, control accounts with their sub-accounts, balances. */
import { useMemo, useState } from 'react';
import { ACCOUNT_TYPES, type AccountView, type CurrencyView } from '../api/types.js';
import { useUser } from '../auth/auth.js';
import { TYPE_LABELS } from '../components/pickers.js';
import { Badge, Button, Card, EmptyState, ErrorNotice, Loading, Money, PageHeader, SelectField } from '../components/ui.js';
import { displayMinor } from '../lib/money.js';
import { useAccounts, useAllTimeTrialBalance, useCurrencies, useCurrencyMap } from '../lib/reference.js';
import { Link, setSearchParams, useSearchParams } from '../lib/router.js';
import { AccountDialog, type AccountDialogState } from './account-form.js';

type Status = 'active' | 'inactive' | 'all';

/** All-time balances of posting accounts from the trial balance; control accounts sum their sub-accounts. */
function useBalances(accounts: AccountView[] | undefined): Map<string, bigint> | undefined {
  const trial = useAllTimeTrialBalance();
  return useMemo(() => {
    if (!trial.data || !accounts) return undefined;
    const balances = new Map<string, bigint>();
    for (const row of trial.data.rows) if (row.account_id !== null) balances.set(row.account_id, BigInt(row.net_balance));
    for (const account of accounts) {
      if (account.parent_id) {
        balances.set(account.parent_id, (balances.get(account.parent_id) ?? 0n) + (balances.get(account.id) ?? 0n));
      }
    }
    return balances;
  }, [trial.data, accounts]);
}

function matches(account: AccountView, search: string): boolean {
  if (!search) return true;
  const needle = search.toLowerCase();
  return [account.account_number, account.name, account.entity_id ?? '', account.xbrl_tag ?? ''].some((text) => text.toLowerCase().includes(needle));
}

export function AccountsPage() {
  const { can } = useUser();
  const params = useSearchParams();
  const search = params.get('q') ?? '';
  const typeFilter = params.get('type') ?? '';
  const currencyFilter = params.get('currency') ?? '';
  const status = (params.get('status') ?? 'active') as Status;
  const accountList = useAccounts();
  const currencies = useCurrencies();
  const currencyMap = useCurrencyMap();
  const balances = useBalances(accountList.data);
  const [dialog, setDialog] = useState<AccountDialogState>({ mode: 'closed' });

  const update = (changes: Record<string, string>) => {
    setSearchParams({ q: search, type: typeFilter, currency: currencyFilter, status: status === 'active' ? '' : status, ...changes });
  };

  const all = accountList.data ?? [];
  const controlAccounts = all.filter((account) => account.has_subledger && account.is_active);
  const childrenOf = useMemo(() => {
    const map = new Map<string, AccountView[]>();
    for (const account of all) if (account.parent_id) map.set(account.parent_id, [...(map.get(account.parent_id) ?? []), account]);
    return map;
  }, [all]);

  const passes = (account: AccountView) => (status === 'all' || (status === 'active') === account.is_active)
    && (!currencyFilter || account.currency_id === currencyFilter) && matches(account, search);

  const sections = ACCOUNT_TYPES.filter((type) => !typeFilter || type === typeFilter).map((type) => {
    const rows: { account: AccountView; depth: number }[] = [];
    for (const account of all.filter((row) => row.account_type === type && !row.parent_id)) {
      const children = (childrenOf.get(account.id) ?? []).filter(passes);
      if (passes(account) || children.length > 0) {
        rows.push({ account, depth: 0 });
        for (const child of children) rows.push({ account: child, depth: 1 });
      }
    }
    return { type, rows };
  });
  const shown = sections.reduce((count, section) => count + section.rows.length, 0);
  const balanceClass = balanceWidthClass(all, balances, currencyMap);

  return (
    <>
      <PageHeader title="Chart of accounts" subtitle={accountList.data ? `${all.length} accounts` : undefined}
        actions={can('accounts:write') ? (
          <Button variant="primary" onClick={() => setDialog({ mode: 'create' })} data-testid="account-new"
            disabled={!currencies.data?.length} title={currencies.data?.length ? undefined : 'Create a currency first'}>
            New account
          </Button>
        ) : undefined} />
      <div className="filters no-print" role="search">
        <div className="field field--grow">
          <label className="field__label" htmlFor="account-search">Search</label>
          <input id="account-search" className="input" type="search" placeholder="Number, name, entity or XBRL tag" value={search}
            onChange={(event) => update({ q: event.target.value })} data-testid="account-search" />
        </div>
        <SelectField label="Type" value={typeFilter} onChange={(event) => update({ type: event.target.value })} data-testid="account-filter-type">
          <option value="">All types</option>
          {ACCOUNT_TYPES.map((type) => <option key={type} value={type}>{TYPE_LABELS[type]}</option>)}
        </SelectField>
        <SelectField label="Currency" value={currencyFilter} onChange={(event) => update({ currency: event.target.value })} data-testid="account-filter-currency">
          <option value="">All currencies</option>
          {(currencies.data ?? []).map((currency) => <option key={currency.id} value={currency.id}>{currency.code}</option>)}
        </SelectField>
        <SelectField label="Status" value={status} onChange={(event) => update({ status: event.target.value === 'active' ? '' : event.target.value })}
          data-testid="account-filter-status">
          <option value="active">Active</option>
          <option value="inactive">Inactive</option>
          <option value="all">All</option>
        </SelectField>
      </div>
      {accountList.error ? <ErrorNotice error={accountList.error} onRetry={accountList.reload} /> : null}
      {accountList.loading && !accountList.data ? <Loading /> : null}
      {accountList.data && all.length === 0 ? (
        <EmptyState title="No accounts yet">
          {can('accounts:write') ? 'Create the first account with “New account”.' : 'An administrator has to create the chart of accounts.'}
        </EmptyState>
      ) : null}
      {accountList.data && all.length > 0 && shown === 0 ? <EmptyState title="No account matches these filters" /> : null}
      {sections.filter((section) => section.rows.length > 0).map((section) => (
        <Card key={section.type} title={TYPE_LABELS[section.type]} data-testid={`accounts-section-${section.type}`}>
          <div className="table-wrap">
            <table className={`table table--accounts table--stack ${balanceClass}`}>
              <thead>
                <tr>
                  <th scope="col" className="col-number">Number</th>
                  <th scope="col" className="col-name">Name</th>
                  <th scope="col" className="hide-narrow col-xbrl">XBRL tag</th>
                  <th scope="col" className="num col-balance">Balance</th>
                  {can('accounts:write') ? <th scope="col" className="col-actions"><span className="visually-hidden">Actions</span></th> : null}
                </tr>
              </thead>
              <tbody>
                {section.rows.map(({ account, depth }) => (
                  <AccountRow key={account.id} account={account} depth={depth} currency={currencyMap.get(account.currency_id)}
                    balance={balances ? balances.get(account.id) ?? 0n : undefined} canWrite={can('accounts:write')}
                    onEdit={() => setDialog({ mode: 'edit', account })} onAddSub={() => setDialog({ mode: 'sub-account', parent: account })} />
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      ))}
      <AccountDialog state={dialog} onClose={() => setDialog({ mode: 'closed' })} controlAccounts={controlAccounts} />
    </>
  );
}

/**
 * The width class of the balance column, the same for every section so that they line up: from
 * the longest balance of the chart (in characters, all amounts being in the same monospaced font).
 */
function balanceWidthClass(accounts: AccountView[], balances: Map<string, bigint> | undefined, currencies: Map<string, CurrencyView>): string {
  const longest = Math.max(0, ...accounts.map((account) =>
    displayMinor(balances?.get(account.id) ?? 0n, currencies.get(account.currency_id)?.asset_scale ?? 0).length));
  if (longest <= 18) return '';
  if (longest <= 24) return 'table--balance-wide';
  if (longest <= 34) return 'table--balance-wider';
  return 'table--auto';
}

function AccountRow({ account, depth, currency, balance, canWrite, onEdit, onAddSub }: {
  account: AccountView; depth: number; currency: CurrencyView | undefined; balance: bigint | undefined; canWrite: boolean;
  onEdit: () => void; onAddSub: () => void;
}) {
  const scale = currency?.asset_scale ?? 0;
  return (
    <tr className={`${depth > 0 ? 'row--child' : ''} ${account.is_active ? '' : 'row--inactive'}`} data-testid="account-row" data-account-id={account.id}>
      <td className="col-number mono cell-break">{account.account_number}</td>
      <td className="cell-key">
        <span className={depth > 0 ? 'indent' : ''}>
          <span className="show-narrow mono muted">{account.account_number} </span>
          <Link to={`/accounts/${account.id}`}>{account.name}</Link>
          {account.has_subledger ? <> <Badge tone="info">control</Badge></> : null}
          {!account.is_active ? <> <Badge tone="bad">inactive</Badge></> : null}
          {account.entity_id ? <span className="muted cell-break"> · {account.entity_id}</span> : null}
        </span>
      </td>
      <td className="hide-narrow muted cell-break">{account.xbrl_tag ? <XbrlTag tag={account.xbrl_tag} /> : null}</td>
      <td className="num">
        {balance !== undefined ? <Money value={balance} display={displayMinor(balance, scale)} /> : <span className="skeleton skeleton--short" />}
        <span className="unit"> {currency?.code}</span>
      </td>
      {canWrite ? (
        <td className="col-actions">
          <div className="row-actions">
            {account.has_subledger ? (
              <Button variant="ghost" className="button--small" onClick={onAddSub} aria-label={`Add sub-account to ${account.name}`}
                data-testid="account-add-sub">+ Sub-account</Button>
            ) : null}
            <Button variant="ghost" className="button--small" onClick={onEdit} aria-label={`Edit ${account.name}`} data-testid="account-edit">Edit</Button>
          </div>
        </td>
      ) : null}
    </tr>
  );
}

/** An XBRL tag, which may break after its prefix ("us-gaap:") before it breaks inside the name. */
function XbrlTag({ tag }: { tag: string }) {
  const colon = tag.indexOf(':');
  return colon < 0 ? <>{tag}</> : <>{tag.slice(0, colon + 1)}<wbr />{tag.slice(colon + 1)}</>;
}
