/**
 * Aged balances: a control account's sub-accounts (customers for receivables, suppliers for
 * payables) with their open balance by days past due as of a date, aged first in, first out by
 * the server, on payment terms the user can change.
 */
import { reports } from '../../api/endpoints.js';
import type { AgedBalancesView } from '../../api/types.js';
import { AccountSelect } from '../../components/pickers.js';
import { EmptyState, ErrorNotice, InputField, Loading, Money } from '../../components/ui.js';
import { csvFileName, downloadCsv } from '../../lib/csv.js';
import { formatDate, todayIso } from '../../lib/dates.js';
import { groupDigits } from '../../lib/money.js';
import { accountLabel, useAccounts, useCurrencyMap } from '../../lib/reference.js';
import { Link, setSearchParams, useSearchParams } from '../../lib/router.js';
import { useApi } from '../../lib/use-api.js';
import { ReportFrame } from './report-frame.js';

const DEFAULT_TERMS_DAYS = 30;

type Buckets = AgedBalancesView['totals'];

/** The buckets in column order: heading, CSV column, and the row's display amount. */
const BUCKETS: { heading: string; csv: string; display: (row: Buckets) => string; raw: (row: Buckets) => string }[] = [
  { heading: 'Current (not yet due)', csv: 'current', display: (row) => row.display_current, raw: (row) => row.current },
  { heading: '1–30 days past due', csv: 'days_1_30', display: (row) => row.display_days_1_30, raw: (row) => row.days_1_30 },
  { heading: '31–60 days', csv: 'days_31_60', display: (row) => row.display_days_31_60, raw: (row) => row.days_31_60 },
  { heading: '61–90 days', csv: 'days_61_90', display: (row) => row.display_days_61_90, raw: (row) => row.days_61_90 },
  { heading: 'Over 90 days', csv: 'days_over_90', display: (row) => row.display_days_over_90, raw: (row) => row.days_over_90 },
  { heading: 'Total', csv: 'total', display: (row) => row.display_total, raw: (row) => row.total },
];

export function AgedBalancesPage() {
  const search = useSearchParams();
  const accountId = search.get('account') ?? '';
  const asOf = search.get('as_of') || todayIso();
  const termsText = search.get('terms') ?? '';
  const terms = /^\d{1,4}$/.test(termsText) && Number(termsText) <= 3650 ? Number(termsText) : DEFAULT_TERMS_DAYS;
  const accounts = useAccounts();
  const currencies = useCurrencyMap();
  const control = accounts.data?.find((row) => row.id === accountId);
  const report = useApi(accountId ? `aged-balances:${accountId}:${asOf}:${terms}` : null,
    () => reports.agedBalances({ account_id: accountId, as_of_date: asOf, terms_days: terms }));
  const code = control ? currencies.get(control.currency_id)?.code ?? '' : '';
  const scope = control ? `${accountLabel(control)} · As of ${formatDate(asOf)} · Net ${terms} · ${code}` : 'Choose a control account';
  const update = (changes: Record<string, string>) => setSearchParams({ account: accountId, as_of: asOf, terms: String(terms), ...changes });
  const hasControlAccounts = accounts.data?.some((row) => row.has_subledger);

  const exportCsv = (data: AgedBalancesView) => downloadCsv(csvFileName(data.company_name, ['aged-balances', data.account_number, data.as_of_date]),
    ['account_number', 'account_name', 'entity_id', ...BUCKETS.map((bucket) => bucket.csv)], [
      ...data.rows.map((row) => [row.account_number, row.account_name, row.entity_id ?? '', ...BUCKETS.map((bucket) => bucket.display(row))]),
      ['', 'Total', '', ...BUCKETS.map((bucket) => bucket.display(data.totals))],
    ]);

  return (
    <ReportFrame title="Aged balances" scope={scope} testId="report-aged-balances"
      onCsv={report.data ? () => exportCsv(report.data!) : undefined}
      parameters={<>
        <AccountSelect label="Control account" accounts={accounts.data} value={accountId} filter={(account) => account.has_subledger}
          emptyLabel="Choose a control account…" onChange={(value) => update({ account: value })} className="field--grow"
          data-testid="report-account" />
        <InputField label="As of" type="date" value={asOf} onChange={(event) => update({ as_of: event.target.value })}
          data-testid="report-as-of" />
        <InputField label="Terms (days)" type="number" min={0} max={3650} value={termsText === '' ? String(terms) : termsText}
          onChange={(event) => update({ terms: event.target.value })} data-testid="report-terms" />
      </>}>
      {report.error ? <ErrorNotice error={report.error} onRetry={report.reload} /> : null}
      {!accountId ? (
        <EmptyState title="Choose a control account">
          {hasControlAccounts === false
            ? 'No account has sub-accounts yet. Create a control account (such as accounts receivable) with a sub-account per customer or supplier.'
            : 'Aged balances show each customer or supplier of a control account (accounts receivable or payable) by the age of what is open.'}
        </EmptyState>
      ) : null}
      {accountId && report.loading && !report.data ? <Loading /> : null}
      {report.data ? (
        <>
          <p className="muted small report__status">
            Open amounts are aged by days past due: an amount falls due on its entry's stated due date (metadata.due_date), else {terms}{' '}
            days after its entry date. Current means not yet due. Payments settle the oldest items first; a credit balance shows as
            negative amounts.
          </p>
          <section className="card card--flush report__section">
            {/* Outside the scrolling frame, so that it stays in view when the amounts scroll on a phone. */}
            <h2 className="table__caption" id="aged-balances-caption">{report.data.account_number} · {report.data.account_name} · {code}</h2>
            <div className="table-wrap">
              <table className="table table--key-column" aria-labelledby="aged-balances-caption" data-testid="aged-balances-table">
                <thead>
                  <tr>
                    <th scope="col">Account</th>
                    {BUCKETS.map((bucket) => <th key={bucket.csv} scope="col" className="num">{bucket.heading}</th>)}
                  </tr>
                </thead>
                <tbody>
                  {report.data.rows.length === 0 ? (
                    <tr><td className="muted" colSpan={BUCKETS.length + 1}>No open balances as of {formatDate(asOf)}.</td></tr>
                  ) : null}
                  {report.data.rows.map((row) => (
                    <tr key={row.account_id} data-testid="aged-balances-row" data-account-id={row.account_id}>
                      <th scope="row">
                        <span className="mono muted">{row.account_number} </span>
                        <Link to={`/accounts/${row.account_id}`}>{row.account_name}</Link>
                      </th>
                      {BUCKETS.map((bucket) => (
                        <td key={bucket.csv} className="num"><Money value={bucket.raw(row)} display={groupDigits(bucket.display(row))} /></td>
                      ))}
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr className="row--total" data-testid="aged-balances-totals">
                    <th scope="row">Total</th>
                    {BUCKETS.map((bucket) => (
                      <td key={bucket.csv} className="num">
                        <Money value={bucket.raw(report.data!.totals)} display={groupDigits(bucket.display(report.data!.totals))} />
                      </td>
                    ))}
                  </tr>
                </tfoot>
              </table>
            </div>
          </section>
        </>
      ) : null}
    </ReportFrame>
  );
}
