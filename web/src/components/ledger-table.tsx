/**
 * An account's general ledger with running balances, cursor-paged ("Load more"), with a CSV
 * export that walks every page. Used by the account page and the general ledger report.
 */
import { useEffect, useState } from 'react';
import { reports } from '../api/endpoints.js';
import type { CurrencyView, GeneralLedgerInput, GeneralLedgerView } from '../api/types.js';
import { csvFileName, downloadCsv, reportCoverage } from '../lib/csv.js';
import { formatDate, todayIso } from '../lib/dates.js';
import { groupDigits } from '../lib/money.js';
import { Link } from '../lib/router.js';
import { useApi } from '../lib/use-api.js';
import { Button, EmptyState, ErrorNotice, Loading, Money } from './ui.js';

const PAGE_SIZE = 100;

export type LedgerParams = Omit<GeneralLedgerInput, 'limit' | 'cursor'> & { account_id: string };

function paramsKey(params: LedgerParams): string {
  return JSON.stringify([params.account_id, params.period_id, params.start_date, params.end_date, params.sort]);
}

/**
 * Downloads every line of the general ledger as CSV, named after the company, the account and the
 * dates the answer covers (a period's own dates when one was asked for).
 */
export async function exportLedgerCsv(params: LedgerParams): Promise<void> {
  const pages: GeneralLedgerView[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await reports.generalLedger({ ...params, limit: 200, ...(cursor ? { cursor } : {}) });
    pages.push(page);
    if (!page.has_more || !page.next_cursor) break;
    cursor = page.next_cursor;
  }
  const first = pages[0]!;
  const filename = csvFileName(first.company_name, ['general-ledger', first.account_number, reportCoverage(first, todayIso())]);
  const rows = pages.flatMap((page) => page.lines.map((line) => [
    line.entry_date, line.journal_entry_id, line.entry_number, line.description, line.line_description ?? '', line.reference ?? '', line.account_number,
    line.display_debit, line.display_credit, line.display_running_balance,
  ]));
  downloadCsv(filename, ['date', 'entry_id', 'entry_number', 'description', 'line_description', 'reference', 'account_number', 'debit', 'credit',
    'running_balance'], [
    ['', '', '', 'Starting balance', '', '', first.account_number, '', '', first.display_starting_balance],
    ...rows,
    ['', '', '', 'Ending balance', '', '', first.account_number, '', '', first.display_ending_balance],
  ]);
}

export function LedgerTable({ params, currency, showAccount = false, showExport = true }:
  { params: LedgerParams; currency: CurrencyView | undefined; showAccount?: boolean; showExport?: boolean }) {
  const key = paramsKey(params);
  const first = useApi(`general-ledger:${key}`, () => reports.generalLedger({ ...params, limit: PAGE_SIZE }));
  const [more, setMore] = useState<GeneralLedgerView[]>([]);
  const [moreError, setMoreError] = useState<unknown>();
  const [loadingMore, setLoadingMore] = useState(false);
  const [exporting, setExporting] = useState(false);

  useEffect(() => {
    setMore([]);
    setMoreError(undefined);
  }, [key, first.data]);

  const pages = first.data ? [first.data, ...more] : [];
  const last = pages[pages.length - 1];
  const lines = pages.flatMap((page) => page.lines);
  const code = currency?.code ?? '';

  const loadMore = async () => {
    if (!last?.next_cursor) return;
    setLoadingMore(true);
    setMoreError(undefined);
    try {
      const page = await reports.generalLedger({ ...params, limit: PAGE_SIZE, cursor: last.next_cursor });
      setMore((previous) => [...previous, page]);
    } catch (error) {
      setMoreError(error);
    } finally {
      setLoadingMore(false);
    }
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      await exportLedgerCsv(params);
    } catch (error) {
      setMoreError(error);
    } finally {
      setExporting(false);
    }
  };

  if (first.error) return <ErrorNotice error={first.error} onRetry={first.reload} />;
  if (!first.data) return <Loading />;
  const ledger = first.data;
  const descending = ledger.sort === 'desc';
  const openingLabel = descending ? 'Ending balance' : 'Starting balance';
  const closingLabel = descending ? 'Starting balance' : 'Ending balance';
  const opening = descending ? ledger.display_ending_balance : ledger.display_starting_balance;
  const closing = descending ? ledger.display_starting_balance : ledger.display_ending_balance;

  return (
    <div className="ledger" data-testid="general-ledger">
      <div className="ledger__toolbar no-print">
        <span className="muted">{lines.length} line{lines.length === 1 ? '' : 's'}{last?.has_more ? ' shown' : ''} · {ledger.normal_balance}-normal · {code}</span>
        {showExport ? <Button className="button--small" onClick={() => void exportCsv()} busy={exporting} data-testid="ledger-export-csv">Export CSV</Button> : null}
      </div>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th scope="col" className="col-date hide-narrow">Date · No.</th>
              <th scope="col" className="col-text">Description</th>
              {showAccount ? <th scope="col" className="hide-narrow">Account</th> : null}
              <th scope="col" className="hide-narrow">Reference</th>
              <th scope="col" className="num">Debit</th>
              <th scope="col" className="num">Credit</th>
              <th scope="col" className="num">Balance</th>
            </tr>
          </thead>
          <tbody>
            <BalanceRow className="row--subtotal" label={openingLabel} display={opening} showAccount={showAccount} />
            {lines.map((line) => (
              <tr key={line.line_id} data-testid="ledger-line">
                {/* The entry's number under its date: one column less keeps the balance in view on a desktop screen. */}
                <td className="col-date nowrap hide-narrow">
                  {formatDate(line.entry_date)}<br /><span className="mono muted small" data-testid="ledger-entry-number">#{line.entry_number}</span>
                </td>
                <td>
                  <span className="show-narrow muted small">#{line.entry_number} · {formatDate(line.entry_date)}<br /></span>
                  <Link to={`/journal/${line.journal_entry_id}`}>{line.description}</Link>
                  {line.line_description ? <span className="muted"> · {line.line_description}</span> : null}
                </td>
                {showAccount ? <td className="hide-narrow mono">{line.account_number}</td> : null}
                <td className="hide-narrow muted cell-break">{line.reference ?? ''}</td>
                <td className="num">{line.debit_amount !== '0' ? <Money display={groupDigits(line.display_debit)} /> : null}</td>
                <td className="num">{line.credit_amount !== '0' ? <Money display={groupDigits(line.display_credit)} /> : null}</td>
                <td className="num"><Money value={line.running_balance} display={groupDigits(line.display_running_balance)} /></td>
              </tr>
            ))}
            {!last?.has_more ? (
              <BalanceRow className="row--total" label={closingLabel} display={closing} showAccount={showAccount} />
            ) : null}
          </tbody>
        </table>
      </div>
      {lines.length === 0 ? <EmptyState title="No lines in this range" /> : null}
      {moreError ? <ErrorNotice error={moreError} /> : null}
      {last?.has_more ? (
        <div className="load-more no-print">
          <Button onClick={() => void loadMore()} busy={loadingMore} data-testid="ledger-load-more">Load more</Button>
          <span className="muted">{closingLabel} for the whole range: {groupDigits(closing)} {code}</span>
        </div>
      ) : null}
    </div>
  );
}

/** A starting or ending balance row; every column gets its own cell so hiding columns on phones keeps them aligned. */
function BalanceRow({ className, label, display, showAccount }: { className: string; label: string; display: string; showAccount: boolean }) {
  return (
    <tr className={className}>
      <td className="hide-narrow" />
      <td>{label}</td>
      {showAccount ? <td className="hide-narrow" /> : null}
      <td className="hide-narrow" />
      <td />
      <td />
      <td className="num"><Money display={groupDigits(display)} /></td>
    </tr>
  );
}
