/** The first screen: position (balance sheet totals), results per period, latest entries, warnings. */
import { useMemo, useState } from 'react';
import { journalEntries, reports } from '../api/endpoints.js';
import type { EntryView, PeriodView } from '../api/types.js';
import { useUser } from '../auth/auth.js';
import { type ChartGroup, RevenueExpenseChart } from '../components/bar-chart.js';
import { CurrencySelect } from '../components/pickers.js';
import { Badge, ButtonLink, Card, EmptyState, ErrorNotice, Loading, Money, Notice, PageHeader, statClass } from '../components/ui.js';
import { addDays, formatDate, formatRange, monthOf, shortPeriodLabel, tinyPeriodLabel, todayIso } from '../lib/dates.js';
import { displayMinor, groupDigits, sumMinor } from '../lib/money.js';
import { defaultReportCurrency, periodCovering, useAccounts, useCurrencies, useCurrencyMap, usePeriods, usePostedCurrencyIds, useSettings } from '../lib/reference.js';
import { Link } from '../lib/router.js';
import { useApi } from '../lib/use-api.js';

const RECENT_COUNT = 8;

async function recentEntries(): Promise<EntryView[]> {
  return (await journalEntries.list({ limit: RECENT_COUNT, sort: 'desc' })).data;
}

/** The twelve calendar months ending with the current one, oldest first. */
function lastTwelveMonths(today: string): { name: string; start_date: string; end_date: string }[] {
  const months: { name: string; start_date: string; end_date: string }[] = [];
  let month = monthOf(today);
  for (let count = 0; count < 12; count += 1) {
    months.unshift({ name: month.name, start_date: month.start, end_date: month.end });
    month = monthOf(addDays(month.start, -1));
  }
  return months;
}

export function DashboardPage() {
  const { can } = useUser();
  const currencyList = useCurrencies();
  const accountList = useAccounts();
  const periodList = usePeriods();
  const settings = useSettings();
  const [chosenCurrency, setChosenCurrency] = useState('');
  const posted = usePostedCurrencyIds();
  const currencyId = chosenCurrency || defaultReportCurrency(accountList.data, currencyList.data, settings.data?.retained_earnings_account_id, posted);
  const currency = currencyList.data?.find((row) => row.id === currencyId);
  const today = todayIso();
  const openPeriods = (periodList.data ?? []).filter((period) => period.status === 'open');
  const todayPeriod = periodCovering(periodList.data, today);
  const hasAccounts = (accountList.data?.length ?? 0) > 0;

  const balanceSheet = useApi(currencyId && hasAccounts ? `dashboard:balance-sheet:${currencyId}` : null,
    () => reports.balanceSheet({ currency_id: currencyId!, as_of_date: today }));
  const chartPeriods = useMemo(() => lastTwelveMonths(today), [today]);
  const chart = useApi(currencyId && hasAccounts ? `dashboard:chart:${currencyId}:${today}` : null,
    () => Promise.all(chartPeriods.map((month) =>
      reports.incomeStatement({ start_date: month.start_date, end_date: month.end_date, currency_id: currencyId! }))));
  const recent = useApi('dashboard:recent-entries', recentEntries);

  const loadingReference = currencyList.loading || accountList.loading || periodList.loading || settings.loading;
  const referenceError = currencyList.error ?? accountList.error ?? periodList.error ?? settings.error;
  const needsSetup = !loadingReference && (!currencyList.data?.length || !hasAccounts || !periodList.data?.length);

  const noFigures = !loadingReference && (!hasAccounts || !currencyId || balanceSheet.error !== undefined);
  const currentEarnings = balanceSheet.data?.equity.accounts.find((row) => row.account_id === null);
  const chartGroups: ChartGroup[] = (chart.data ?? []).map((statement, index) => ({
    label: chartPeriods[index] ? shortPeriodLabel(chartPeriods[index]) : '',
    shortLabel: chartPeriods[index] ? tinyPeriodLabel(chartPeriods[index]) : '',
    revenue: BigInt(statement.total_revenue),
    expenses: BigInt(statement.total_expenses),
    revenueLabel: displayMinor(statement.total_revenue, currency?.asset_scale ?? 0),
    expensesLabel: displayMinor(statement.total_expenses, currency?.asset_scale ?? 0),
  }));
  const scale = currency?.asset_scale ?? 0;

  return (
    <>
      <PageHeader title="Dashboard" subtitle={`Position as of ${formatDate(today)}${currency ? ` in ${currency.code}` : ''}`}
        actions={(
          <>
            {(currencyList.data?.length ?? 0) > 1 ? (
              <CurrencySelect label="Currency" className="field--inline" currencies={currencyList.data} value={currencyId ?? ''}
                onChange={setChosenCurrency} data-testid="dashboard-currency" />
            ) : null}
            {can('journals:create') ? <ButtonLink to="/journal/new" variant="primary" data-testid="dashboard-new-entry">New entry</ButtonLink> : null}
          </>
        )} />
      {referenceError ? <ErrorNotice error={referenceError} /> : null}
      {loadingReference && !currencyList.data ? <Loading /> : null}
      <Warnings needsSetup={needsSetup} hasCurrencies={(currencyList.data?.length ?? 0) > 0} hasAccounts={hasAccounts}
        hasPeriods={(periodList.data?.length ?? 0) > 0} retainedSet={Boolean(settings.data?.retained_earnings_account_id)}
        settingsLoaded={settings.data !== undefined} todayCovered={Boolean(todayPeriod && todayPeriod.status === 'open')}
        todayPeriod={todayPeriod} periodsLoaded={periodList.data !== undefined} />

      <div className="stats" data-testid="dashboard-totals">
        <Stat label="Total assets" testId="stat-assets" display={balanceSheet.data?.assets.display_total} value={balanceSheet.data?.assets.total} code={currency?.code} empty={noFigures} />
        <Stat label="Total liabilities" testId="stat-liabilities" display={balanceSheet.data?.liabilities.display_total} value={balanceSheet.data?.liabilities.total} code={currency?.code} empty={noFigures} />
        <Stat label="Total equity" testId="stat-equity" display={balanceSheet.data?.equity.display_total} value={balanceSheet.data?.equity.total} code={currency?.code} empty={noFigures} />
        <Stat label="Current earnings" testId="stat-earnings" hint="Revenue less expenses not yet closed"
          display={balanceSheet.data ? currentEarnings?.display_balance ?? displayMinor(0n, scale) : undefined}
          value={currentEarnings?.balance} code={currency?.code} empty={noFigures} />
      </div>
      {balanceSheet.error ? <ErrorNotice error={balanceSheet.error} /> : null}
      {balanceSheet.data && !balanceSheet.data.is_balanced ? (
        <Notice tone="warning" title="The balance sheet does not balance">Assets differ from liabilities plus equity. Check the trial balance.</Notice>
      ) : null}

      <div className="grid grid--dashboard">
        <Card title="Revenue and expenses by month" actions={<Link to="/reports/income-statement" className="link-quiet">Income statement →</Link>}>
          {chart.error ? <ErrorNotice error={chart.error} /> : null}
          {chart.loading && !chart.data ? <Loading /> : null}
          {chart.data && currency ? (
            sumMinor(chartGroups.flatMap((group) => [group.revenue, group.expenses])) === 0n
              ? <EmptyState title={`No revenue or expenses in ${currency.code} yet`} />
              : <RevenueExpenseChart groups={chartGroups} currencyCode={currency.code} scale={scale} />
          ) : null}
        </Card>

        <Card title={`Open periods (${openPeriods.length})`} data-testid="open-periods" className="open-periods"
          actions={<Link to="/periods" className="link-quiet">Periods →</Link>}>
          {openPeriods.length === 0 && periodList.data ? <EmptyState title="No open periods" /> : null}
          <ul className="plain-list plain-list--scroll">
            {openPeriods.map((period) => <OpenPeriodItem key={period.id} period={period} today={today} />)}
          </ul>
        </Card>
      </div>

      <Card title="Recent journal entries" data-testid="recent-entries" actions={<Link to="/journal" className="link-quiet">All entries →</Link>}>
        {recent.error ? <ErrorNotice error={recent.error} /> : null}
        {recent.loading && !recent.data ? <Loading /> : null}
        {recent.data && recent.data.length === 0 ? <EmptyState title="No entries yet" /> : null}
        {recent.data && recent.data.length > 0 ? <RecentEntries entries={recent.data} /> : null}
      </Card>
    </>
  );
}

function Stat({ label, display, value, code, hint, testId, empty }: {
  label: string; display: string | undefined; value?: string | undefined; code: string | undefined; hint?: string; testId: string; empty: boolean;
}) {
  return (
    <div className={statClass(display === undefined ? undefined : groupDigits(display))} data-testid={testId}>
      <p className="stat__label">{label}</p>
      <p className="stat__value">
        {display !== undefined ? <Money value={value} display={groupDigits(display)} />
          : empty ? <span className="muted">—</span> : <span className="skeleton" aria-label="Loading" />}
        {display !== undefined && code ? <span className="stat__unit">{code}</span> : null}
      </p>
      {hint ? <p className="stat__hint">{hint}</p> : null}
    </div>
  );
}

function RecentEntries({ entries }: { entries: EntryView[] }) {
  const currencies = useCurrencyMap();
  return (
    <div className="table-wrap">
      <table className="table table--compact">
        <thead>
          <tr><th scope="col" className="hide-narrow">Date</th><th scope="col">Description</th><th scope="col" className="num">Amount</th></tr>
        </thead>
        <tbody>
          {entries.map((entry) => {
            const total = entry.lines.reduce((sum, line) => sum + BigInt(line.debit_amount), 0n);
            const entryCurrency = currencies.get(entry.currency_id);
            return (
              <tr key={entry.id}>
                <td className="nowrap hide-narrow">{formatDate(entry.entry_date)}</td>
                <td>
                  <span className="show-narrow muted small">{formatDate(entry.entry_date)}<br /></span>
                  <Link to={`/journal/${entry.id}`}>{entry.description}</Link>
                  {entry.entry_type !== 'standard' ? <> <Badge tone={entry.entry_type === 'closing' ? 'info' : 'warn'}>{entry.entry_type}</Badge></> : null}
                </td>
                <td className="num">
                  <Money display={displayMinor(total, entryCurrency?.asset_scale ?? 0)} />
                  <span className="unit"> {entryCurrency?.code}</span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function OpenPeriodItem({ period, today }: { period: PeriodView; today: string }) {
  const current = period.start_date <= today && today <= period.end_date;
  return (
    <li className="plain-list__item">
      <span className="plain-list__text">
        <strong>{period.name}</strong>
        <span className="muted small">{formatRange(period.start_date, period.end_date)}</span>
      </span>
      {current ? <Badge tone="good">current</Badge> : period.end_date < today ? <Badge tone="warn">ended, still open</Badge> : <Badge>upcoming</Badge>}
    </li>
  );
}

interface WarningProps {
  needsSetup: boolean;
  hasCurrencies: boolean;
  hasAccounts: boolean;
  hasPeriods: boolean;
  retainedSet: boolean;
  settingsLoaded: boolean;
  todayCovered: boolean;
  todayPeriod: PeriodView | undefined;
  periodsLoaded: boolean;
}

function Warnings(props: WarningProps) {
  return (
    <div className="stack" data-testid="dashboard-warnings">
      {props.needsSetup ? (
        <Notice tone="info" title="Getting started" data-testid="getting-started">
          <ol className="checklist">
            <li className={props.hasCurrencies ? 'done' : ''}><Link to="/currencies">Add a currency</Link></li>
            <li className={props.hasAccounts ? 'done' : ''}><Link to="/accounts">Set up the chart of accounts</Link></li>
            <li className={props.hasPeriods ? 'done' : ''}><Link to="/periods">Open a financial period</Link></li>
            <li className={props.retainedSet ? 'done' : ''}><Link to="/settings">Choose the retained earnings account</Link></li>
          </ol>
        </Notice>
      ) : null}
      {props.settingsLoaded && !props.retainedSet && !props.needsSetup ? (
        <Notice tone="warning" title="No retained earnings account" data-testid="warning-retained-earnings">
          Periods cannot be closed until one is chosen. <Link to="/settings">Choose it in Settings</Link>.
        </Notice>
      ) : null}
      {props.periodsLoaded && props.hasPeriods && !props.todayCovered ? (
        <Notice tone="warning" title="No open period covers today" data-testid="warning-no-open-period">
          {props.todayPeriod ? `${props.todayPeriod.name} is closed, so entries` : 'Entries'} dated today cannot be posted. <Link to="/periods">Create a period</Link>.
        </Notice>
      ) : null}
    </div>
  );
}
