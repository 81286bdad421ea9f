/** Income statement of a period or all time, in one currency (closing entries excluded). */
import { reports } from '../../api/endpoints.js';
import type { IncomeStatementView } from '../../api/types.js';
import { CurrencySelect, PeriodSelect } from '../../components/pickers.js';
import { EmptyState, ErrorNotice, Loading, Money } from '../../components/ui.js';
import { downloadCsv } from '../../lib/csv.js';
import { formatDate } from '../../lib/dates.js';
import { groupDigits } from '../../lib/money.js';
import { accountLabel, useAccountMap, usePeriods } from '../../lib/reference.js';
import { Link, setSearchParams, useSearchParams } from '../../lib/router.js';
import { useApi } from '../../lib/use-api.js';
import { ReportFrame, reportFileName } from './report-frame.js';
import { withGroupHeaders } from './group-rows.js';
import { useReportCurrency } from './use-report-currency.js';

type Row = IncomeStatementView['revenue'][number];

export function IncomeStatementPage() {
  const search = useSearchParams();
  const periodId = search.get('period') ?? '';
  const { currencyId, currency, currencies } = useReportCurrency(search.get('currency') ?? '');
  const periods = usePeriods();
  const report = useApi(currencyId ? `income-statement:${periodId}:${currencyId}` : null, () => reports.incomeStatement({
    currency_id: currencyId!, ...(periodId ? { period_id: periodId } : {}),
  }));
  const period = periods.data?.find((row) => row.id === periodId);
  const scope = `${period ? `${period.name} (${formatDate(period.start_date)} – ${formatDate(period.end_date)})` : 'All time'} · ${currency?.code ?? ''}`;
  const update = (changes: Record<string, string>) => setSearchParams({ period: periodId, currency: search.get('currency') ?? '', ...changes });

  const exportCsv = (data: IncomeStatementView) => downloadCsv(reportFileName('income-statement', [period?.name ?? 'all-time', currency?.code]),
    ['section', 'account_number', 'account_name', 'amount'], [
      ...data.revenue.map((row) => ['revenue', row.account_number, row.account_name, row.display_amount]),
      ['revenue', '', 'Total revenue', data.display_total_revenue],
      ...data.expenses.map((row) => ['expenses', row.account_number, row.account_name, row.display_amount]),
      ['expenses', '', 'Total expenses', data.display_total_expenses],
      ['', '', 'Net income', data.display_net_income],
    ]);

  return (
    <ReportFrame title="Income statement" scope={scope} testId="report-income-statement" onCsv={report.data ? () => exportCsv(report.data!) : undefined}
      parameters={<>
        <PeriodSelect label="Period" periods={periods.data} value={periodId} onChange={(value) => update({ period: value })} data-testid="report-period" />
        <CurrencySelect label="Currency" currencies={currencies} value={currencyId ?? ''} onChange={(value) => update({ currency: value })}
          data-testid="report-currency" />
      </>}>
      {report.error ? <ErrorNotice error={report.error} onRetry={report.reload} /> : null}
      {report.loading && !report.data ? <Loading /> : null}
      {currencies?.length === 0 ? <EmptyState title="No currencies yet" /> : null}
      {report.data ? (
        <div className="report-narrow">
          <IncomeSection title="Revenue" rows={report.data.revenue} total={report.data.display_total_revenue} totalValue={report.data.total_revenue}
            testId="income-revenue" />
          <IncomeSection title="Expenses" rows={report.data.expenses} total={report.data.display_total_expenses} totalValue={report.data.total_expenses}
            testId="income-expenses" />
          <table className="table statement statement--grand">
            <tbody>
              <tr className="row--grand" data-testid="income-net">
                <th scope="row">{BigInt(report.data.net_income) < 0n ? 'Net loss' : 'Net income'}</th>
                <td className="num"><Money value={report.data.net_income} display={groupDigits(report.data.display_net_income)} /></td>
              </tr>
            </tbody>
          </table>
        </div>
      ) : null}
    </ReportFrame>
  );
}

function IncomeSection({ title, rows, total, totalValue, testId }: { title: string; rows: Row[]; total: string; totalValue: string; testId: string }) {
  const accounts = useAccountMap();
  return (
    <section className="card card--flush report__section" data-testid={testId}>
      <table className="table statement">
        <caption className="table__caption">{title}</caption>
        <tbody>
          {rows.length === 0 ? <tr><td className="muted" colSpan={2}>None</td></tr> : null}
          {withGroupHeaders(rows, accounts).map((item) => (item.kind === 'group' ? (
            <tr key={item.key} className="row--group">
              <td colSpan={2}>{item.parent ? <Link to={`/accounts/${item.parentId}`}>{accountLabel(item.parent)}</Link> : 'Control account'}</td>
            </tr>
          ) : (
            <tr key={item.key} className={item.row.parent_id ? 'row--child' : ''}>
              <td>
                <span className={item.row.parent_id ? 'indent' : ''}>
                  <span className="mono muted">{item.row.account_number} </span>
                  <Link to={`/accounts/${item.row.account_id}`}>{item.row.account_name}</Link>
                </span>
              </td>
              <td className="num"><Money value={item.row.amount} display={groupDigits(item.row.display_amount)} /></td>
            </tr>
          )))}
        </tbody>
        <tfoot>
          <tr className="row--total">
            <th scope="row">Total {title.toLowerCase()}</th>
            <td className="num"><Money value={totalValue} display={groupDigits(total)} /></td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}
