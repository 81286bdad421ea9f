/**
 * One account: its details, balance, sub-accounts and general ledger with running balance. A
 * revenue or expense account shows its activity over a chosen range (the current year unless one
 * is chosen) instead of its balance, which the closing entries bring back to zero.
 */
import { useState } from 'react';
import { accounts as accountsApi, reports } from '../api/endpoints.js';
import type { AccountView } from '../api/types.js';
import { useUser } from '../auth/auth.js';
import { LedgerTable } from '../components/ledger-table.js';
import { PeriodSelect, TYPE_LABELS } from '../components/pickers.js';
import { Badge, Button, ButtonLink, Card, ErrorNotice, InputField, Loading, Money, PageHeader, SelectField, statClass } from '../components/ui.js';
import { displayMinor, groupDigits } from '../lib/money.js';
import { formatDate, todayIso } from '../lib/dates.js';
import { accountLabel, useAccounts, useCurrencyMap, usePeriods } from '../lib/reference.js';
import { Link, setSearchParams, useSearchParams } from '../lib/router.js';
import { useApi } from '../lib/use-api.js';
import { AccountDialog, type AccountDialogState } from './account-form.js';

export function AccountPage({ params }: { params: Record<string, string> }) {
  const accountId = params.id ?? '';
  const { can } = useUser();
  const search = useSearchParams();
  const periodId = search.get('period') ?? '';
  const sort = search.get('sort') === 'desc' ? 'desc' : 'asc';
  const account = useApi(`account:${accountId}`, () => accountsApi.get(accountId));
  const isIncomeAccount = account.data?.account_type === 'revenue' || account.data?.account_type === 'expense';
  // An income account's range defaults to the current year; other accounts default to all time.
  const year = todayIso().slice(0, 4);
  const startDate = search.get('start') ?? (isIncomeAccount && !periodId ? `${year}-01-01` : '');
  const endDate = search.get('end') ?? (isIncomeAccount && !periodId ? `${year}-12-31` : '');
  const balance = useApi(`account-balance:${accountId}:${periodId}`, () => accountsApi.balance(accountId, periodId || undefined));
  // The income statement's rule (closing entries left out) gives the activity: this account's row,
  // or a control account's sub-account rows.
  const activity = useApi(isIncomeAccount && account.data ? `account-activity:${accountId}:${periodId}:${startDate}:${endDate}` : null,
    () => reports.incomeStatement({
      currency_id: account.data!.currency_id, ...(periodId ? { period_id: periodId } : {}),
      ...(startDate && !periodId ? { start_date: startDate } : {}), ...(endDate && !periodId ? { end_date: endDate } : {}),
    }));
  const periods = usePeriods();
  const all = useAccounts();
  const currencies = useCurrencyMap();
  const [dialog, setDialog] = useState<AccountDialogState>({ mode: 'closed' });

  if (account.error) return <><PageHeader title="Account" /><ErrorNotice error={account.error} /></>;
  if (!account.data) return <Loading />;
  const row: AccountView = account.data;
  const currency = currencies.get(row.currency_id);
  const parent = row.parent_id ? all.data?.find((candidate) => candidate.id === row.parent_id) : undefined;
  const children = (all.data ?? []).filter((candidate) => candidate.parent_id === row.id);
  const controlAccounts = (all.data ?? []).filter((candidate) => candidate.has_subledger && candidate.is_active);
  const update = (changes: Record<string, string>) =>
    setSearchParams({ period: periodId, start: startDate, end: endDate, sort: sort === 'desc' ? 'desc' : '', ...changes });
  const activityRows = activity.data ? [...activity.data.revenue, ...activity.data.expenses]
    .filter((candidate) => candidate.account_id === row.id || candidate.parent_id === row.id) : [];
  // Amounts are signed by the account's type (revenue credit-positive, expenses debit-positive);
  // a contra account (the other normal side) shows its activity with that side positive.
  const activitySign = (row.account_type === 'revenue') === (row.normal_balance === 'credit') ? 1n : -1n;
  const activityMinor = activityRows.reduce((sum, candidate) => sum + BigInt(candidate.amount), 0n) * activitySign;
  const activityDisplay = activityRows.length === 1 && activitySign === 1n ? groupDigits(activityRows[0]!.display_amount)
    : displayMinor(activityMinor, currency?.asset_scale ?? 0);
  const period = periods.data?.find((candidate) => candidate.id === periodId);
  const activityRange = period ? period.name
    : startDate && endDate ? `${formatDate(startDate)} – ${formatDate(endDate)}` : startDate ? `from ${formatDate(startDate)}` : endDate ? `through ${formatDate(endDate)}` : 'all time';

  return (
    <>
      <nav className="breadcrumbs no-print" aria-label="Breadcrumb">
        <Link to="/accounts">Chart of accounts</Link>
        {parent ? <> / <Link to={`/accounts/${parent.id}`}>{accountLabel(parent)}</Link></> : null}
      </nav>
      <PageHeader title={<><span className="mono">{row.account_number}</span> {row.name}</>}
        subtitle={<>
          {TYPE_LABELS[row.account_type]} · {row.normal_balance}-normal · {currency?.code ?? ''}
          {row.entity_id ? ` · entity ${row.entity_id}` : ''}
          {row.xbrl_tag ? ` · ${row.xbrl_tag}` : ''}
          {' '}{row.has_subledger ? <Badge tone="info">control account</Badge> : null}
          {' '}{row.is_active ? <Badge tone="good">active</Badge> : <Badge tone="bad">inactive</Badge>}
        </>}
        actions={<>
          {can('accounts:write') && row.has_subledger ? (
            <Button onClick={() => setDialog({ mode: 'sub-account', parent: row })} data-testid="account-add-sub">Add sub-account</Button>
          ) : null}
          {can('accounts:write') ? <Button onClick={() => setDialog({ mode: 'edit', account: row })} data-testid="account-edit">Edit</Button> : null}
          {can('journals:create') && !row.has_subledger && row.is_active ? (
            <ButtonLink to={`/journal/new?account=${row.id}`} variant="primary">New entry</ButtonLink>
          ) : null}
        </>} />

      {isIncomeAccount ? (
        <div className="stats stats--three" data-testid="account-activity">
          <div className={statClass(activity.data ? activityDisplay : undefined)}>
            <p className="stat__label">Activity, {activityRange}</p>
            <p className="stat__value" data-testid="account-activity-value">
              {activity.data ? <Money value={activityMinor} display={activityDisplay} /> : <span className="skeleton" />}
              <span className="stat__unit">{currency?.code}</span>
            </p>
            <p className="stat__hint">{row.has_subledger ? 'Sum of the sub-accounts; ' : ''}closing entries left out</p>
          </div>
        </div>
      ) : null}
      {activity.error ? <ErrorNotice error={activity.error} /> : null}

      {isIncomeAccount ? null : (
      <div className="stats stats--three" data-testid="account-balance">
        <div className={statClass(balance.data ? groupDigits(balance.data.display_balance) : undefined)}>
          <p className="stat__label">Balance{periodId ? ' in period' : ''}</p>
          <p className="stat__value" data-testid="account-balance-value">
            {balance.data ? <Money value={balance.data.net_balance} display={groupDigits(balance.data.display_balance)} /> : <span className="skeleton" />}
            <span className="stat__unit">{currency?.code}</span>
          </p>
          {row.has_subledger ? <p className="stat__hint">Sum of the sub-accounts</p> : null}
        </div>
        <div className={statClass(balance.data ? groupDigits(balance.data.display_debits) : undefined, 'small')}>
          <p className="stat__label">Total debits</p>
          <p className="stat__value stat__value--small">{balance.data ? groupDigits(balance.data.display_debits) : <span className="skeleton" />}</p>
        </div>
        <div className={statClass(balance.data ? groupDigits(balance.data.display_credits) : undefined, 'small')}>
          <p className="stat__label">Total credits</p>
          <p className="stat__value stat__value--small">{balance.data ? groupDigits(balance.data.display_credits) : <span className="skeleton" />}</p>
        </div>
      </div>
      )}
      {balance.error ? <ErrorNotice error={balance.error} /> : null}

      {row.has_subledger ? (
        <Card title={`Sub-accounts (${children.length})`}>
          {children.length === 0 ? <p className="muted">No sub-accounts yet.</p> : (
            <ul className="plain-list">
              {children.map((child) => (
                <li key={child.id} className="plain-list__item">
                  <Link to={`/accounts/${child.id}`}>{accountLabel(child)}</Link>
                  <span className="muted">{child.entity_id}{child.is_active ? '' : ' · inactive'}</span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      ) : null}

      <Card title="General ledger">
        <div className="filters filters--inline no-print">
          <PeriodSelect label="Period" periods={periods.data} value={periodId} data-testid="ledger-period"
            onChange={(value) => update({ period: value, start: '', end: '' })} />
          <InputField label="From" type="date" value={startDate} onChange={(event) => update({ start: event.target.value, period: '' })}
            data-testid="ledger-start" />
          <InputField label="To" type="date" value={endDate} onChange={(event) => update({ end: event.target.value, period: '' })}
            data-testid="ledger-end" />
          <SelectField label="Order" value={sort} onChange={(event) => update({ sort: event.target.value === 'desc' ? 'desc' : '' })}
            data-testid="ledger-sort">
            <option value="asc">Oldest first</option>
            <option value="desc">Newest first</option>
          </SelectField>
        </div>
        {isIncomeAccount ? <p className="muted" data-testid="ledger-range-note">Showing {activityRange} (the current year unless you choose dates or a period).</p> : null}
        <LedgerTable currency={currency} showAccount={row.has_subledger} params={{
          account_id: row.id, sort,
          ...(periodId ? { period_id: periodId } : {}), ...(startDate ? { start_date: startDate } : {}), ...(endDate ? { end_date: endDate } : {}),
        }} />
      </Card>
      <AccountDialog state={dialog} onClose={() => setDialog({ mode: 'closed' })} controlAccounts={controlAccounts} />
    </>
  );
}
