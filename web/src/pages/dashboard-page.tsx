/**
 * The first screen: position (balance sheet totals), results per period, latest entries, warnings,
 * the lock date. A ledger with lines in more than one currency is shown whole in the base currency
 * (translated reports, docs/currencies.md) once every other currency has a rate; until then the
 * figures are one currency's, and a notice says which rates are missing.
 */
import { useMemo, useState } from 'react';
import { exchangeRates, journalEntries, reports } from '../api/endpoints.js';
import type { EntryView, PeriodView } from '../api/types.js';
import { useUser } from '../auth/auth.js';
import { type ChartGroup, RevenueExpenseChart } from '../components/bar-chart.js';
import { CurrencySelect } from '../components/pickers.js';
import { Badge, ButtonLink, Card, EmptyState, ErrorNotice, Loading, Money, Notice, PageHeader, statClass } from '../components/ui.js';
import { addDays, formatDate, formatRange, monthOf, shortPeriodLabel, tinyPeriodLabel, todayIso } from '../lib/dates.js';
import { displayMinor, groupDigits, sumMinor } from '../lib/money.js';
import {
  defaultReportCurrency, periodCovering, useAccounts, useAllTimeTrialBalance, useCurrencies, useCurrencyMap, usePeriods, usePostedCurrencyIds, useSettings,
} from '../lib/reference.js';
import { Link } from '../lib/router.js';
import { useApi } from '../lib/use-api.js';
import { ReportError } from './reports/translation.js';

/** The equity row a translated balance sheet adds (CONTRACT.md); the other row without an account is current earnings. */
const TRANSLATION_DIFFERENCE = 'Exchange differences on translation';

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
  const allTime = useAllTimeTrialBalance();
  const today = todayIso();
  const base = currencyList.data?.find((row) => row.id === settings.data?.base_currency_id);
  // More than one currency with lines: the whole ledger in the base currency, if every other one has a rate.
  const severalCurrencies = (posted?.length ?? 0) > 1;
  const others = (posted ?? []).filter((id) => id !== base?.id);
  const withoutRates = useApi(base && severalCurrencies ? `dashboard:without-rates:${others.join(',')}` : null, async () => {
    const firstRates = await Promise.all(others.map((id) => exchangeRates.list({ currency_id: id, end_date: today, limit: 1 })));
    return others.filter((_, index) => firstRates[index]!.data.length === 0);
  });
  const canTranslate = base !== undefined && severalCurrencies && withoutRates.data?.length === 0;
  const translated = canTranslate && chosenCurrency === '';
  // Until it is known whether to translate, nothing is asked (no figures in one currency that then change).
  const decided = (posted !== undefined || allTime.error !== undefined)
    && (!base || !severalCurrencies || withoutRates.data !== undefined || withoutRates.error !== undefined);
  const currencyId = translated ? base.id
    : chosenCurrency || defaultReportCurrency(accountList.data, currencyList.data, settings.data?.retained_earnings_account_id, posted);
  const currency = currencyList.data?.find((row) => row.id === currencyId);
  const reportCurrency = translated ? { presentation_currency_id: base.id } : { currency_id: currencyId! };
  const figuresKey = decided && currencyId && hasAccountsOf(accountList.data) ? `${translated ? 'in:' : ''}${currencyId}` : null;
  const openPeriods = (periodList.data ?? []).filter((period) => period.status === 'open');
  const todayPeriod = periodCovering(periodList.data, today);
  const hasAccounts = (accountList.data?.length ?? 0) > 0;

  const balanceSheet = useApi(figuresKey !== null ? `dashboard:balance-sheet:${figuresKey}` : null,
    () => reports.balanceSheet({ ...reportCurrency, as_of_date: today }));
  const chartPeriods = useMemo(() => lastTwelveMonths(today), [today]);
  const chart = useApi(figuresKey !== null ? `dashboard:chart:${figuresKey}:${today}` : null,
    () => Promise.all(chartPeriods.map((month) =>
      reports.incomeStatement({ start_date: month.start_date, end_date: month.end_date, ...reportCurrency }))));
  const recent = useApi('dashboard:recent-entries', recentEntries);

  const loadingReference = currencyList.loading || accountList.loading || periodList.loading || settings.loading;
  const referenceError = currencyList.error ?? accountList.error ?? periodList.error ?? settings.error;
  const needsSetup = !loadingReference && (!currencyList.data?.length || !hasAccounts || !periodList.data?.length);

  const noFigures = !loadingReference && (!hasAccounts || !currencyId || balanceSheet.error !== undefined);
  const currentEarnings = balanceSheet.data?.equity.accounts.find((row) => row.account_id === null && row.account_name !== TRANSLATION_DIFFERENCE);
  const missingCodes = (withoutRates.data ?? []).map((id) => currencyList.data?.find((row) => row.id === id)?.code ?? id);
  const lockDate = settings.data?.lock_date ?? null;
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
      <PageHeader title="Dashboard"
        subtitle={translated
          ? <span data-testid="dashboard-translated">Position as of {formatDate(today)}, all currencies in {base.code} at the exchange rates
            (balances at today's rate, revenue and expenses at each day's rate)</span>
          : `Position as of ${formatDate(today)}${currency ? ` in ${currency.code}` : ''}`}
        actions={(
          <>
            {(currencyList.data?.length ?? 0) > 1 ? (
              <CurrencySelect label="Currency" className="field--inline" currencies={currencyList.data} value={translated ? '' : currencyId ?? ''}
                emptyLabel={canTranslate ? `All, in ${base.code}` : undefined} onChange={setChosenCurrency} data-testid="dashboard-currency" />
            ) : null}
            {can('journals:create') ? <ButtonLink to="/journal/new" variant="primary" data-testid="dashboard-new-entry">New entry</ButtonLink> : null}
          </>
        )}>
        {lockDate ? (
          <p className="page-header__note" data-testid="dashboard-lock-date">
            <Badge tone="info">Locked</Badge> Books locked through {formatDate(lockDate)} <Link to="/settings" className="link-quiet">Settings →</Link>
          </p>
        ) : null}
      </PageHeader>
      {referenceError ? <ErrorNotice error={referenceError} /> : null}
      {loadingReference && !currencyList.data ? <Loading /> : null}
      <Warnings needsSetup={needsSetup} hasCurrencies={(currencyList.data?.length ?? 0) > 0} hasAccounts={hasAccounts}
        hasPeriods={(periodList.data?.length ?? 0) > 0} retainedSet={Boolean(settings.data?.retained_earnings_account_id)}
        settingsLoaded={settings.data !== undefined} todayCovered={Boolean(todayPeriod && todayPeriod.status === 'open')}
        todayPeriod={todayPeriod} periodsLoaded={periodList.data !== undefined} />

      {base && severalCurrencies && missingCodes.length > 0 && chosenCurrency === '' ? (
        <Notice tone="info" title={`Figures in ${currency?.code ?? 'one currency'} only`} data-testid="dashboard-rates-needed">
          The ledger has lines in {posted?.length} currencies, but {missingCodes.join(', ')} {missingCodes.length === 1 ? 'has' : 'have'} no
          exchange rate yet. <Link to="/rates">Set rates</Link> to see the whole ledger in {base.code}.
        </Notice>
      ) : null}
      <div className="stats" data-testid="dashboard-totals">
        <Stat label="Total assets" testId="stat-assets" display={balanceSheet.data?.assets.display_total} value={balanceSheet.data?.assets.total} code={currency?.code} empty={noFigures} />
        <Stat label="Total liabilities" testId="stat-liabilities" display={balanceSheet.data?.liabilities.display_total} value={balanceSheet.data?.liabilities.total} code={currency?.code} empty={noFigures} />
        <Stat label="Total equity" testId="stat-equity" display={balanceSheet.data?.equity.display_total} value={balanceSheet.data?.equity.total} code={currency?.code} empty={noFigures} />
        <Stat label="Current earnings" testId="stat-earnings" hint="Revenue less expenses not yet closed"
          display={balanceSheet.data ? currentEarnings?.display_balance ?? displayMinor(0n, scale) : undefined}
          value={currentEarnings?.balance} code={currency?.code} empty={noFigures} />
      </div>
      {balanceSheet.error ? <ReportError error={balanceSheet.error} onRetry={balanceSheet.reload} /> : null}
      {balanceSheet.data && !balanceSheet.data.is_balanced ? (
        <Notice tone="warning" title="The balance sheet does not balance">Assets differ from liabilities plus equity. Check the trial balance.</Notice>
      ) : null}

      <div className="grid grid--dashboard">
        <Card title="Revenue and expenses by month" actions={<Link to="/reports/income-statement" className="link-quiet">Income statement →</Link>}>
          {chart.error && !balanceSheet.error ? <ReportError error={chart.error} /> : null}
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

function hasAccountsOf(rows: readonly unknown[] | undefined): boolean {
  return (rows?.length ?? 0) > 0;
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
