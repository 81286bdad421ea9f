/**
 * Balance sheet as of a date (inclusive) or through the end of a period, in one currency, or with
 * "In <base code>" every currency translated into the base currency: each row then shows its own
 * balance in its account's currency too, and equity gains "Exchange differences on translation".
 */
import { useId } from 'react';
import { reports } from '../../api/endpoints.js';
import type { BalanceSheetSectionView, BalanceSheetView } from '../../api/types.js';
import { CurrencySelect, PeriodSelect } from '../../components/pickers.js';
import { Badge, EmptyState, InputField, Loading, Money } from '../../components/ui.js';
import { csvFileName, downloadCsv, reportCoverage } from '../../lib/csv.js';
import { formatDate, todayIso } from '../../lib/dates.js';
import { groupDigits } from '../../lib/money.js';
import { accountLabel, useAccountMap, useCurrencyMap, usePeriods } from '../../lib/reference.js';
import { Link, setSearchParams, useSearchParams } from '../../lib/router.js';
import { useApi } from '../../lib/use-api.js';
import { ReportFrame } from './report-frame.js';
import { OriginalAmount, originalCells, PRESENTATION_PARAM, ReportError, TranslateToggle, usePresentation } from './translation.js';
import { withGroupHeaders } from './group-rows.js';
import { useReportCurrency } from './use-report-currency.js';

export function BalanceSheetPage() {
  const search = useSearchParams();
  const periodId = search.get('period') ?? '';
  const asOf = periodId ? '' : search.get('as_of') ?? todayIso();
  const { currencyId, currency, currencies } = useReportCurrency(search.get('currency') ?? '');
  const periods = usePeriods();
  const presentation = usePresentation(search);
  const { presentationId } = presentation;
  const translated = presentationId !== '';
  const currencyMap = useCurrencyMap();
  const report = useApi(translated ? `balance-sheet:${periodId}:${asOf}:in:${presentationId}` : currencyId ? `balance-sheet:${periodId}:${asOf}:${currencyId}` : null,
    () => reports.balanceSheet({
      ...(translated ? { presentation_currency_id: presentationId } : { currency_id: currencyId! }),
      ...(periodId ? { period_id: periodId } : { as_of_date: asOf }),
    }));
  const period = periods.data?.find((row) => row.id === periodId);
  const scope = `${period ? `Through the end of ${period.name} (${formatDate(period.end_date)})` : `As of ${formatDate(asOf)}`} · ${
    translated ? `all currencies in ${presentation.base?.code ?? ''}` : currency?.code ?? ''}`;
  const update = (changes: Record<string, string>) => setSearchParams({
    period: periodId, as_of: periodId ? '' : asOf, currency: search.get('currency') ?? '', [PRESENTATION_PARAM]: presentationId, ...changes,
  });

  const exportCsv = (data: BalanceSheetView) => {
    const presented = data.presentation_currency_id !== undefined;
    const codeOf = (id: string) => currencyMap.get(id)?.code;
    const extra = (cells: [string, string]) => (presented ? cells : []);
    const section = (name: string, part: BalanceSheetSectionView) => [
      ...part.accounts.map((row) => [name, row.account_number ?? '', row.account_name, row.display_balance, ...extra(originalCells(row, codeOf))]),
      [name, '', `Total ${name}`, part.display_total, ...extra(['', ''])],
    ];
    // Only a currency chosen in the URL goes into the name: the default one is the ledger's usual.
    const chosen = presented ? `in-${codeOf(data.currency_id)}` : search.get('currency') ? currency?.code : undefined;
    downloadCsv(csvFileName(data.company_name, ['balance-sheet', reportCoverage(data, todayIso()), chosen]),
      ['section', 'account_number', 'account_name', 'balance', ...extra(['original_currency', 'original_balance'])], [
        ...section('assets', data.assets), ...section('liabilities', data.liabilities), ...section('equity', data.equity),
        ['', '', 'Total liabilities and equity', data.display_total_liabilities_and_equity, ...extra(['', ''])],
      ]);
  };

  return (
    <ReportFrame title="Balance sheet" scope={scope} testId="report-balance-sheet" onCsv={report.data ? () => exportCsv(report.data!) : undefined}
      parameters={<>
        <InputField label="As of" type="date" value={asOf} onChange={(event) => update({ as_of: event.target.value, period: '' })}
          disabled={Boolean(periodId)} data-testid="report-as-of" />
        <PeriodSelect label="Or through period" periods={periods.data} value={periodId} emptyLabel="—"
          onChange={(value) => update({ period: value, as_of: value ? '' : todayIso() })} data-testid="report-period" />
        <CurrencySelect label="Currency" currencies={currencies} value={currencyId ?? ''} onChange={(value) => update({ currency: value })}
          disabled={translated} data-testid="report-currency" />
        <TranslateToggle presentation={presentation} onChange={(value) => update({ [PRESENTATION_PARAM]: value })} />
      </>}>
      {report.error ? <ReportError error={report.error} onRetry={report.reload} /> : null}
      {(report.loading && !report.data) || (!currencyId && currencies === undefined) ? <Loading /> : null}
      {currencies?.length === 0 ? <EmptyState title="No currencies yet" /> : null}
      {report.data ? (
        <>
          <p className="report__status">
            {report.data.is_balanced ? <Badge tone="good">Assets = liabilities + equity</Badge> : <Badge tone="bad">Does not balance</Badge>}
          </p>
          <div className="report-columns">
            <div>
              <StatementSection title="Assets" section={report.data.assets} testId="balance-sheet-assets" translated={translated} />
            </div>
            <div>
              <StatementSection title="Liabilities" section={report.data.liabilities} testId="balance-sheet-liabilities" translated={translated} />
              <StatementSection title="Equity" section={report.data.equity} testId="balance-sheet-equity" translated={translated} />
              <div className="statement--grand table-wrap">
                <table className="table statement table--key-column">
                  <tbody>
                    <tr className="row--grand">
                      <th scope="row">Total liabilities and equity</th>
                      <td className="num"><Money value={report.data.total_liabilities_and_equity} display={groupDigits(report.data.display_total_liabilities_and_equity)} /></td>
                    </tr>
                  </tbody>
                </table>
              </div>
            </div>
          </div>
        </>
      ) : null}
    </ReportFrame>
  );
}

/** One section; `translated` adds under each account its own balance in its account's currency. */
export function StatementSection({ title, section, testId, translated = false }:
  { title: string; section: BalanceSheetSectionView; testId: string; translated?: boolean }) {
  const span = 2;
  const accounts = useAccountMap();
  // The heading stays outside the frame that scrolls a long amount sideways on a phone.
  const captionId = useId();
  return (
    <section className="card card--flush report__section" data-testid={testId}>
      <h2 className="table__caption" id={captionId}>{title}</h2>
      <div className="table-wrap">
        <table className="table statement table--key-column" aria-labelledby={captionId}>
          <tbody>
            {section.accounts.length === 0 ? <tr><td className="muted" colSpan={span}>None</td></tr> : null}
            {withGroupHeaders(section.accounts, accounts).map((item) => (item.kind === 'group' ? (
              <tr key={item.key} className="row--group">
                <td colSpan={span}>{item.parent ? <Link to={`/accounts/${item.parentId}`}>{accountLabel(item.parent)}</Link> : 'Control account'}</td>
              </tr>
            ) : (
              <tr key={item.key} className={item.row.parent_id ? 'row--child' : ''} data-testid="statement-row">
                <td>
                  <span className={item.row.parent_id ? 'indent' : ''}>
                    {item.row.account_number ? <span className="mono muted">{item.row.account_number} </span> : null}
                    {item.row.account_id ? <Link to={`/accounts/${item.row.account_id}`}>{item.row.account_name}</Link> : <em>{item.row.account_name}</em>}
                  </span>
                  {/* The sections share the width two by two: the original figure goes under the name, so the
                      translated one, the section's own, keeps its column at every width. */}
                  {translated && item.row.display_original_amount !== undefined ? (
                    <span className="muted small"><br /><OriginalAmount value={item.row.original_amount} display={item.row.display_original_amount}
                      currencyId={item.row.currency_id} wrap /></span>
                  ) : null}
                </td>
                <td className="num"><Money value={item.row.balance} display={groupDigits(item.row.display_balance)} /></td>
              </tr>
            )))}
          </tbody>
          <tfoot>
            <tr className="row--total">
              <th scope="row">Total {title.toLowerCase()}</th>
              <td className="num"><Money value={section.total} display={groupDigits(section.display_total)} /></td>
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}
