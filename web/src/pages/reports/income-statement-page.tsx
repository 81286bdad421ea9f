/**
 * Income statement of a period, any date range or all time, in one currency (closing entries
 * excluded), optionally with month or quarter columns side by side. "In <base code>" translates
 * every currency into the base currency at each day's rate, each row showing its own amount in its
 * account's currency too.
 */
import { useId, useState } from 'react';
import { journalEntries, reports } from '../../api/endpoints.js';
import type { IncomeStatementView } from '../../api/types.js';
import { CurrencySelect, PeriodSelect } from '../../components/pickers.js';
import { Button, EmptyState, InputField, Loading, Money, SelectField } from '../../components/ui.js';
import { csvFileName, downloadCsv, reportCoverage } from '../../lib/csv.js';
import { columnLabel, formatDate, lastActivityEnd, todayIso, toDateRange } from '../../lib/dates.js';
import { groupDigits } from '../../lib/money.js';
import { accountLabel, useAccountMap, useCurrencyMap, usePeriods } from '../../lib/reference.js';
import { Link, setSearchParams, useSearchParams } from '../../lib/router.js';
import { useApi } from '../../lib/use-api.js';
import { ReportFrame } from './report-frame.js';
import { OriginalAmount, originalCells, PRESENTATION_PARAM, ReportError, TranslateToggle, usePresentation } from './translation.js';
import { withGroupHeaders } from './group-rows.js';
import { useReportCurrency } from './use-report-currency.js';

type Row = IncomeStatementView['revenue'][number];
type Columns = 'month' | 'quarter';

function rangeText(start: string, end: string): string {
  if (start && end) return `${formatDate(start)} – ${formatDate(end)}`;
  if (start) return `From ${formatDate(start)}`;
  if (end) return `Through ${formatDate(end)}`;
  return 'All time';
}

export function IncomeStatementPage() {
  const search = useSearchParams();
  const periodId = search.get('period') ?? '';
  const startDate = search.get('start') ?? '';
  const endDate = search.get('end') ?? '';
  const rawColumns = search.get('columns');
  const columns: Columns | '' = rawColumns === 'month' || rawColumns === 'quarter' ? rawColumns : '';
  const { currencyId, currency, currencies } = useReportCurrency(search.get('currency') ?? '');
  const periods = usePeriods();
  const presentation = usePresentation(search);
  const { presentationId } = presentation;
  const translated = presentationId !== '';
  const currencyMap = useCurrencyMap();
  const key = `income-statement:${periodId}:${startDate}:${endDate}:${columns}:${translated ? `in:${presentationId}` : currencyId}`;
  const report = useApi(currencyId || translated ? key : null, () => reports.incomeStatement({
    ...(translated ? { presentation_currency_id: presentationId } : { currency_id: currencyId! }), ...(periodId ? { period_id: periodId } : {}), ...(startDate ? { start_date: startDate } : {}),
    ...(endDate ? { end_date: endDate } : {}), ...(columns ? { columns } : {}),
  }));
  const period = periods.data?.find((row) => row.id === periodId);
  const covered = period ? `${period.name} (${formatDate(period.start_date)} – ${formatDate(period.end_date)})` : rangeText(startDate, endDate);
  const scope = `${covered}${columns ? ` · by ${columns}` : ''} · ${translated ? `all currencies in ${presentation.base?.code ?? ''} at each day's rate`
    : currency?.code ?? ''}`;
  const update = (changes: Record<string, string>) => setSearchParams({
    period: periodId, start: startDate, end: endDate, columns, currency: search.get('currency') ?? '', [PRESENTATION_PARAM]: presentationId, ...changes,
  });
  const codeOf = (id: string) => currencyMap.get(id)?.code;
  const today = todayIso();
  const [presetBusy, setPresetBusy] = useState(false);
  /**
   * "Year to date" and "Quarter to date" run through the end of the last period holding entries
   * (lib/dates.ts, lastActivityEnd), asked for when the button is pressed; should that question
   * fail, through today.
   */
  const toDate = async (kind: 'year' | 'quarter') => {
    setPresetBusy(true);
    try {
      const latest = await journalEntries.list({ sort: 'desc', limit: 1 }).then((page) => page.data[0]?.entry_date ?? null, () => null);
      const range = toDateRange(kind, lastActivityEnd(latest, periods.data ?? [], today));
      update({ period: '', start: range.start, end: range.end });
    } finally {
      setPresetBusy(false);
    }
  };

  // Only a currency chosen in the URL goes into the name: the default one is the ledger's usual.
  const fileName = (data: IncomeStatementView) => csvFileName(data.company_name, [
    'income-statement', reportCoverage(data, today), data.columns ? `by-${columns}` : undefined,
    data.presentation_currency_id ? `in-${codeOf(data.presentation_currency_id)}` : search.get('currency') ? currency?.code : undefined,
  ]);
  const exportCsv = (data: IncomeStatementView) => {
    const extra = (cells: [string, string]) => (data.presentation_currency_id ? cells : []);
    const blank: [string, string] = ['', ''];
    if (data.columns) {
      exportColumnsCsv(data, fileName(data));
      return;
    }
    downloadCsv(fileName(data), ['section', 'account_number', 'account_name', 'amount', ...extra(['original_currency', 'original_amount'])], [
      ...data.revenue.map((row) => ['revenue', row.account_number, row.account_name, row.display_amount, ...extra(originalCells(row, codeOf))]),
      ['revenue', '', 'Total revenue', data.display_total_revenue, ...extra(blank)],
      ...data.expenses.map((row) => ['expenses', row.account_number, row.account_name, row.display_amount, ...extra(originalCells(row, codeOf))]),
      ['expenses', '', 'Total expenses', data.display_total_expenses, ...extra(blank)],
      ['', '', 'Net income', data.display_net_income, ...extra(blank)],
    ]);
  };

  return (
    <ReportFrame title="Income statement" scope={scope} testId="report-income-statement" onCsv={report.data ? () => exportCsv(report.data!) : undefined}
      parameters={<>
        <PeriodSelect label="Period" periods={periods.data} value={periodId} onChange={(value) => update({ period: value, start: '', end: '' })}
          data-testid="report-period" />
        <InputField label="From" type="date" value={startDate} onChange={(event) => update({ start: event.target.value, period: '' })}
          data-testid="report-start" />
        <InputField label="To" type="date" value={endDate} onChange={(event) => update({ end: event.target.value, period: '' })}
          data-testid="report-end" />
        <SelectField label="Columns" value={columns} onChange={(event) => update({ columns: event.target.value })} data-testid="report-columns">
          <option value="">None</option>
          <option value="month">By month</option>
          <option value="quarter">By quarter</option>
        </SelectField>
        <CurrencySelect label="Currency" currencies={currencies} value={currencyId ?? ''} onChange={(value) => update({ currency: value })}
          disabled={translated} data-testid="report-currency" />
        <TranslateToggle presentation={presentation} onChange={(value) => update({ [PRESENTATION_PARAM]: value })} />
        <div className="filters__presets">
          <Button onClick={() => void toDate('year')} busy={presetBusy} data-testid="report-year-to-date"
            title="From January 1 through the end of the last period with entries">
            Year to date
          </Button>
          <Button onClick={() => void toDate('quarter')} busy={presetBusy} data-testid="report-quarter-to-date"
            title="From the quarter's first day through the end of the last period with entries">
            Quarter to date
          </Button>
        </div>
      </>}>
      {report.error ? <ReportError error={report.error} onRetry={report.reload} /> : null}
      {report.loading && !report.data ? <Loading /> : null}
      {currencies?.length === 0 ? <EmptyState title="No currencies yet" /> : null}
      {report.data?.columns ? <IncomeColumnsTable data={report.data} translated={translated} /> : null}
      {report.data && !report.data.columns ? (
        <div className="report-narrow">
          <IncomeSection title="Revenue" rows={report.data.revenue} total={report.data.display_total_revenue} totalValue={report.data.total_revenue}
            testId="income-revenue" translated={translated} />
          <IncomeSection title="Expenses" rows={report.data.expenses} total={report.data.display_total_expenses} totalValue={report.data.total_expenses}
            testId="income-expenses" translated={translated} />
          <div className="statement--grand table-wrap">
            <table className="table statement table--key-column">
              <tbody>
                <tr className="row--grand" data-testid="income-net">
                  <th scope="row">{BigInt(report.data.net_income) < 0n ? 'Net loss' : 'Net income'}</th>
                  <td className="num"><Money value={report.data.net_income} display={groupDigits(report.data.display_net_income)} /></td>
                </tr>
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
    </ReportFrame>
  );
}

function IncomeSection({ title, rows, total, totalValue, testId, translated }:
  { title: string; rows: Row[]; total: string; totalValue: string; testId: string; translated: boolean }) {
  const span = translated ? 3 : 2;
  const accounts = useAccountMap();
  // The heading stays outside the frame that scrolls a long amount sideways on a phone.
  const captionId = useId();
  return (
    <section className="card card--flush report__section" data-testid={testId}>
      <h2 className="table__caption" id={captionId}>{title}</h2>
      <div className="table-wrap">
        <table className="table statement table--key-column" aria-labelledby={captionId}>
          <tbody>
            {rows.length === 0 ? <tr><td className="muted" colSpan={span}>None</td></tr> : null}
            {withGroupHeaders(rows, accounts).map((item) => (item.kind === 'group' ? (
              <tr key={item.key} className="row--group">
                <td colSpan={span}>{item.parent ? <Link to={`/accounts/${item.parentId}`}>{accountLabel(item.parent)}</Link> : 'Control account'}</td>
              </tr>
            ) : (
              <tr key={item.key} className={item.row.parent_id ? 'row--child' : ''} data-testid="statement-row">
                <td>
                  <span className={item.row.parent_id ? 'indent' : ''}>
                    <span className="mono muted">{item.row.account_number} </span>
                    <Link to={`/accounts/${item.row.account_id}`}>{item.row.account_name}</Link>
                  </span>
                  {translated && item.row.display_original_amount !== undefined ? (
                    <span className="show-narrow muted small"><br /><OriginalAmount value={item.row.original_amount} display={item.row.display_original_amount}
                      currencyId={item.row.currency_id} testId="original-amount-narrow" /></span>
                  ) : null}
                </td>
                {translated ? (
                  <td className="num nowrap muted hide-narrow">
                    <OriginalAmount value={item.row.original_amount} display={item.row.display_original_amount} currencyId={item.row.currency_id} />
                  </td>
                ) : null}
                <td className="num"><Money value={item.row.amount} display={groupDigits(item.row.display_amount)} /></td>
              </tr>
            )))}
          </tbody>
          <tfoot>
            <tr className="row--total">
              <th scope="row">Total {title.toLowerCase()}</th>
              {translated ? <td className="hide-narrow" /> : null}
              <td className="num"><Money value={totalValue} display={groupDigits(total)} /></td>
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}

function exportColumnsCsv(data: IncomeStatementView, fileName: string) {
  const columns = data.columns ?? [];
  const cells = (row: Row) => (row.column_amounts ?? []).map((cell) => cell.display_amount);
  downloadCsv(fileName,
    ['section', 'account_number', 'account_name', ...columns.map((column) => column.label), 'total'], [
      ...data.revenue.map((row) => ['revenue', row.account_number, row.account_name, ...cells(row), row.display_amount]),
      ['revenue', '', 'Total revenue', ...columns.map((column) => column.display_total_revenue), data.display_total_revenue],
      ...data.expenses.map((row) => ['expenses', row.account_number, row.account_name, ...cells(row), row.display_amount]),
      ['expenses', '', 'Total expenses', ...columns.map((column) => column.display_total_expenses), data.display_total_expenses],
      ['', '', 'Net income', ...columns.map((column) => column.display_net_income), data.display_net_income],
    ]);
}

/** Months or quarters side by side, then the range's total (like `hledger is -M`). */
function IncomeColumnsTable({ data, translated }: { data: IncomeStatementView; translated: boolean }) {
  const columns = data.columns ?? [];
  const span = columns.length + (translated ? 3 : 2);
  const section = (title: string, rows: Row[], totals: { value: string; display: string }[], total: { value: string; display: string }) => (
    <tbody data-testid={`income-columns-${title.toLowerCase()}`}>
      <tr className="row--group"><th scope="rowgroup" colSpan={span}>{title}</th></tr>
      {rows.map((row) => (
        <tr key={row.account_id} data-testid="income-columns-row" className={row.parent_id ? 'row--child' : ''}>
          <th scope="row">
            <span className="mono muted">{row.account_number} </span>
            <Link to={`/accounts/${row.account_id}`}>{row.account_name}</Link>
          </th>
          {(row.column_amounts ?? []).map((cell, index) => (
            <td key={columns[index]?.label ?? index} className="num"><Money value={cell.amount} display={groupDigits(cell.display_amount)} /></td>
          ))}
          <td className="num"><Money value={row.amount} display={groupDigits(row.display_amount)} /></td>
          {translated ? (
            <td className="num nowrap muted">
              <OriginalAmount value={row.original_amount} display={row.display_original_amount} currencyId={row.currency_id} />
            </td>
          ) : null}
        </tr>
      ))}
      <tr className="row--total">
        <th scope="row">Total {title.toLowerCase()}</th>
        {totals.map((cell, index) => (
          <td key={columns[index]?.label ?? index} className="num"><Money value={cell.value} display={groupDigits(cell.display)} /></td>
        ))}
        <td className="num"><Money value={total.value} display={groupDigits(total.display)} /></td>
        {translated ? <td /> : null}
      </tr>
    </tbody>
  );
  return (
    <section className="card card--flush report__section">
      <div className="table-wrap">
        <table className="table table--key-column" data-testid="income-columns-table">
          <thead>
            <tr>
              <th scope="col">Account</th>
              {columns.map((column) => (
                <th key={column.label} scope="col" className="num col-period" data-testid="income-column-header"
                  title={`${formatDate(column.start_date)} – ${formatDate(column.end_date)}`}>{columnLabel(column.label)}</th>
              ))}
              <th scope="col" className="num">Total</th>
              {translated ? <th scope="col" className="num">Original</th> : null}
            </tr>
          </thead>
          {section('Revenue', data.revenue, columns.map((column) => ({ value: column.total_revenue, display: column.display_total_revenue })),
            { value: data.total_revenue, display: data.display_total_revenue })}
          {section('Expenses', data.expenses, columns.map((column) => ({ value: column.total_expenses, display: column.display_total_expenses })),
            { value: data.total_expenses, display: data.display_total_expenses })}
          <tbody>
            <tr className="row--grand" data-testid="income-columns-net">
              <th scope="row">Net income</th>
              {columns.map((column) => (
                <td key={column.label} className="num"><Money value={column.net_income} display={groupDigits(column.display_net_income)} /></td>
              ))}
              <td className="num"><Money value={data.net_income} display={groupDigits(data.display_net_income)} /></td>
              {translated ? <td /> : null}
            </tr>
          </tbody>
        </table>
      </div>
    </section>
  );
}
