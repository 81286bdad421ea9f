/**
 * Trial balance: balances (all time or as of a date) or the movement of a period or date range, all
 * currencies or one, with the net of each account in a debit-balance or a credit-balance column.
 *
 * By default it shows what a trial balance is read for, the account and its debit or credit
 * balance, which fits a 1280 px window and a Letter or A4 page with amounts in the billions. "All
 * columns" (`?columns=all`, so a printed or bookmarked report keeps it) adds the account type and
 * the debit and credit totals. The signed net balance is not a column of its own: it is the debit
 * or the credit balance, and printing it again put each figure on the page twice (it stays in the CSV).
 *
 * "In <base code>" (`?presentation_currency_id=`) translates every account into the base currency:
 * one table, each row with its own figure in its account's currency in an extra column, and the
 * row "Exchange differences on translation" (no account) that makes it balance.
 */
import { reports } from '../../api/endpoints.js';
import type { TrialBalanceView } from '../../api/types.js';
import { CurrencySelect, PeriodSelect, TYPE_LABELS } from '../../components/pickers.js';
import { Badge, Checkbox, EmptyState, InputField, Loading, Money } from '../../components/ui.js';
import { csvFileName, downloadCsv, reportCoverage } from '../../lib/csv.js';
import { todayIso } from '../../lib/dates.js';
import { groupDigits } from '../../lib/money.js';
import { useCurrencies, useCurrencyMap, usePeriods } from '../../lib/reference.js';
import { Link, setSearchParams, useSearchParams } from '../../lib/router.js';
import { useApi } from '../../lib/use-api.js';
import { ReportFrame } from './report-frame.js';
import { OriginalAmount, originalCells, PRESENTATION_PARAM, ReportError, TranslateToggle, usePresentation } from './translation.js';

export function TrialBalancePage() {
  const search = useSearchParams();
  const periodId = search.get('period') ?? '';
  const currencyId = search.get('currency') ?? '';
  const asOfDate = search.get('as_of') ?? '';
  const startDate = search.get('start') ?? '';
  const endDate = search.get('end') ?? '';
  const allColumns = search.get('columns') === 'all';
  const presentation = usePresentation(search);
  const { presentationId } = presentation;
  const translated = presentationId !== '';
  const periods = usePeriods();
  const currencies = useCurrencies();
  const currencyMap = useCurrencyMap();
  // Translated, the report covers every currency: a currency chosen too is left out (the API takes one or the other).
  const report = useApi(`trial-balance:${periodId}:${asOfDate}:${startDate}:${endDate}:${translated ? '' : currencyId}:${presentationId}`, () => reports.trialBalance({
    ...(periodId ? { period_id: periodId } : {}), ...(currencyId && !translated ? { currency_id: currencyId } : {}),
    ...(translated ? { presentation_currency_id: presentationId } : {}),
    ...(asOfDate ? { as_of_date: asOfDate } : {}), ...(startDate ? { start_date: startDate } : {}), ...(endDate ? { end_date: endDate } : {}),
  }));
  const period = periods.data?.find((row) => row.id === periodId);
  const currency = currencyMap.get(currencyId);
  const scope = `${report.data?.label ?? (period ? period.name : 'All time')} · ${translated ? `all currencies in ${presentation.base?.code ?? ''}`
    : currency ? currency.code : 'all currencies'}`;
  // As of a date means balances; a period or a from/to range means movement: choosing one clears the other.
  const update = (changes: Record<string, string>) => setSearchParams({
    period: periodId, as_of: asOfDate, start: startDate, end: endDate, currency: currencyId, columns: allColumns ? 'all' : '',
    [PRESENTATION_PARAM]: presentationId, ...changes,
  });
  const codeOf = (id: string) => currencyMap.get(id)?.code;

  // Translated, every amount is in the presentation currency, and the row's own figure follows in two more columns.
  const exportCsv = (data: TrialBalanceView) => {
    const presented = data.presentation_currency_id;
    const rowCurrency = (id: string) => codeOf(presented ?? id) ?? id;
    downloadCsv(csvFileName(data.company_name, ['trial-balance', reportCoverage(data, todayIso()), presented ? `in-${codeOf(presented)}` : currency?.code]),
      ['currency', 'account_number', 'account_name', 'account_type', 'debit_total', 'credit_total', 'net_balance', 'debit_balance',
        'credit_balance', ...(presented ? ['original_currency', 'original_net_balance'] : [])],
      [
        ...data.rows.map((row) => [rowCurrency(row.currency_id), row.account_number, row.account_name, row.account_type,
          row.display_debit_total, row.display_credit_total, row.display_net_balance, row.display_debit_balance, row.display_credit_balance,
          ...(presented ? originalCells(row, codeOf) : [])]),
        ...data.totals.map((total) => [rowCurrency(total.currency_id), '', 'Total', '',
          total.display_debit_total, total.display_credit_total, '', total.display_debit_balance, total.display_credit_balance,
          ...(presented ? ['', ''] : [])]),
      ]);
  };

  return (
    <ReportFrame title="Trial balance" scope={scope} testId="report-trial-balance"
      onCsv={report.data ? () => exportCsv(report.data!) : undefined}
      parameters={<>
        <InputField label="As of" type="date" value={asOfDate} data-testid="report-as-of"
          onChange={(event) => update({ as_of: event.target.value, period: '', start: '', end: '' })} />
        <PeriodSelect label="Period (movement)" periods={periods.data} value={periodId} data-testid="report-period"
          onChange={(value) => update({ period: value, as_of: '', start: '', end: '' })} />
        <InputField label="From (movement)" type="date" value={startDate} data-testid="report-start"
          onChange={(event) => update({ start: event.target.value, period: '', as_of: '' })} />
        <InputField label="To (movement)" type="date" value={endDate} data-testid="report-end"
          onChange={(event) => update({ end: event.target.value, period: '', as_of: '' })} />
        <CurrencySelect label="Currency" currencies={currencies.data} value={translated ? '' : currencyId} emptyLabel="All currencies"
          disabled={translated} onChange={(value) => update({ currency: value })} data-testid="report-currency" />
        <TranslateToggle presentation={presentation} onChange={(value) => update({ [PRESENTATION_PARAM]: value })} />
        <div className="filters__toggle">
          <Checkbox label="All columns" hint="Type, debits and credits" checked={allColumns}
            onChange={(event) => update({ columns: event.target.checked ? 'all' : '' })} data-testid="trial-balance-all-columns" />
        </div>
      </>}>
      {report.error ? <ReportError error={report.error} onRetry={report.reload} /> : null}
      {report.loading && !report.data ? <Loading /> : null}
      {report.data && report.data.rows.length === 0 ? <EmptyState title="No activity in this range" /> : null}
      {report.data && report.data.rows.length > 0 ? (
        <>
          <p className="report__status">
            <span data-testid="trial-balance-label">{report.data.label}</span>{' '}
            {report.data.is_balanced ? <Badge tone="good">Balanced</Badge> : <Badge tone="bad">Not balanced</Badge>}
          </p>
          {report.data.totals.map((total) => {
            const code = currencyMap.get(total.currency_id)?.code ?? total.currency_id;
            // Translated, every row is in the one total's currency, whatever its account's own.
            const rows = translated ? report.data!.rows : report.data!.rows.filter((row) => row.currency_id === total.currency_id);
            return (
              <section key={total.currency_id} className="card card--flush report__section">
                {/* Outside the scrolling frame, so that it stays in view when the amounts scroll. */}
                <h2 className="table__caption" id={`trial-balance-caption-${total.currency_id}`}>
                  {translated ? `All currencies in ${code}, at the exchange rates` : code}{!total.is_balanced ? ' · debits and credits differ' : ''}
                </h2>
                <div className="table-wrap">
                  <table className="table table--key-column" aria-labelledby={`trial-balance-caption-${total.currency_id}`}
                    data-testid="trial-balance-table">
                    <thead>
                      <tr>
                        <th scope="col">Account</th>
                        {allColumns ? <>
                          <th scope="col" className="hide-narrow">Type</th>
                          <th scope="col" className="num">Debits</th>
                          <th scope="col" className="num">Credits</th>
                        </> : null}
                        <th scope="col" className="num">Debit balance</th>
                        <th scope="col" className="num">Credit balance</th>
                        {translated ? <th scope="col" className="num">Original net balance</th> : null}
                      </tr>
                    </thead>
                    <tbody>
                      {rows.map((row) => (
                          <tr key={row.account_id ?? 'translation-difference'} data-testid={row.account_id ? 'trial-balance-row' : 'translation-difference-row'}>
                            <th scope="row">
                              {row.account_id ? <>
                                <span className="mono muted">{row.account_number} </span>
                                <Link to={`/accounts/${row.account_id}`}>{row.account_name}</Link>
                              </> : <em>{row.account_name}</em>}
                            </th>
                            {allColumns ? <>
                              <td className="hide-narrow muted nowrap">{TYPE_LABELS[row.account_type as keyof typeof TYPE_LABELS] ?? row.account_type}</td>
                              <td className="num"><Money display={groupDigits(row.display_debit_total)} /></td>
                              <td className="num"><Money display={groupDigits(row.display_credit_total)} /></td>
                            </> : null}
                            <td className="num">{row.debit_balance === '0' ? '' : <Money display={groupDigits(row.display_debit_balance)} />}</td>
                            <td className="num">{row.credit_balance === '0' ? '' : <Money display={groupDigits(row.display_credit_balance)} />}</td>
                            {translated ? (
                              <td className="num nowrap">
                                {row.account_id ? <OriginalAmount value={row.original_amount} display={row.display_original_amount} currencyId={row.currency_id} /> : null}
                              </td>
                            ) : null}
                          </tr>
                      ))}
                    </tbody>
                    <tfoot>
                      <tr className="row--total">
                        <th scope="row">Total {code}</th>
                        {allColumns ? <>
                          <td className="hide-narrow" />
                          <td className="num" data-testid="trial-balance-total-debit"><Money display={groupDigits(total.display_debit_total)} /></td>
                          <td className="num" data-testid="trial-balance-total-credit"><Money display={groupDigits(total.display_credit_total)} /></td>
                        </> : null}
                        <td className="num" data-testid="trial-balance-total-debit-balance"><Money display={groupDigits(total.display_debit_balance)} /></td>
                        <td className="num" data-testid="trial-balance-total-credit-balance"><Money display={groupDigits(total.display_credit_balance)} /></td>
                        {translated ? <td /> : null}
                      </tr>
                    </tfoot>
                  </table>
                </div>
              </section>
            );
          })}
        </>
      ) : null}
    </ReportFrame>
  );
}
