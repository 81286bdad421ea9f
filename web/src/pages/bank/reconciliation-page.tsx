/**
 * One reconciliation (`/reconcile/:id`), in the manner of QuickBooks' reconcile page: the
 * statement balance, the balance reconciled before, the cleared balance and the difference
 * between them, always in view; the account's lines dated on or before the statement date, each
 * with a tick box (a line matched to a bank line is ticked by that match); the bank lines the
 * books do not have yet, with a link to the matching screen; "Finish" once the difference is
 * exactly zero. A finished reconciliation is read-only and is its own printable report.
 */
import { useEffect, useState } from 'react';
import { bankLines, reconciliations, users } from '../../api/endpoints.js';
import type { AccountView, CurrencyView, ReconciliationDetailView, ReconciliationLineView } from '../../api/types.js';
import { useUser } from '../../auth/auth.js';
import { Badge, Button, ButtonLink, Card, ErrorNotice, Loading, Notice, PageHeader, statClass } from '../../components/ui.js';
import { formatDate, formatTimestamp } from '../../lib/dates.js';
import { groupDigits, sumMinor } from '../../lib/money.js';
import { accountLabel, useSettings } from '../../lib/reference.js';
import { Link } from '../../lib/router.js';
import { toast } from '../../lib/toast.js';
import { invalidate, useApi } from '../../lib/use-api.js';
import { useSubmit } from '../../lib/use-submit.js';
import { Amount, useAccountAndCurrency } from './bank-shared.js';
import './bank.css';

export function ReconciliationPage({ params }: { params: Record<string, string> }) {
  const id = params.id ?? '';
  const detail = useApi(`reconciliation:${id}`, () => reconciliations.get(id));
  // A tick answers the reconciliation as it now stands: shown at once, until the refetch brings the same.
  const [answered, setAnswered] = useState<ReconciliationDetailView | null>(null);
  useEffect(() => setAnswered(null), [detail.data]);
  const reconciliation = answered ?? detail.data;
  const { account, currency } = useAccountAndCurrency(reconciliation?.account_id);
  if (detail.error) {
    return (
      <div className="bank-page">
        <PageHeader title="Reconciliation" />
        <ErrorNotice error={detail.error} onRetry={detail.reload} />
      </div>
    );
  }
  if (!reconciliation || !account) return <Loading />;
  return reconciliation.status === 'finished'
    ? <FinishedReport reconciliation={reconciliation} account={account} currency={currency} />
    : <OpenReconciliation reconciliation={reconciliation} account={account} currency={currency} onAnswer={setAnswered} />;
}

/** The four figures; the difference is the one that matters. */
function Figures({ reconciliation, currency }: { reconciliation: ReconciliationDetailView; currency: CurrencyView | undefined }) {
  const zero = reconciliation.difference === '0';
  return (
    <div className="reconcile-figures" data-testid="reconcile-figures">
      <div className="stat">
        <p className="stat__label">Statement balance</p>
        <p className="stat__value stat__value--small" data-testid="reconcile-statement-balance"><Amount value={reconciliation.statement_balance} currency={currency} /></p>
      </div>
      <div className="stat">
        <p className="stat__label">Reconciled before</p>
        <p className="stat__value stat__value--small" data-testid="reconcile-previous"><Amount value={reconciliation.previously_reconciled_balance} currency={currency} /></p>
      </div>
      <div className="stat">
        <p className="stat__label">Cleared balance</p>
        <p className="stat__value stat__value--small" data-testid="reconcile-cleared"><Amount value={reconciliation.cleared_balance} currency={currency} /></p>
      </div>
      <div className={`${statClass(`${groupDigits(reconciliation.display_difference)} ${currency?.code ?? ""}`)} reconcile-difference ${zero ? 'reconcile-difference--zero' : 'reconcile-difference--open'}`} data-zero={zero}
        data-testid="reconcile-difference">
        <p className="stat__label">Difference</p>
        <p className="stat__value" aria-live="polite"><Amount value={reconciliation.difference} currency={currency} /></p>
        <p className="stat__hint">{zero ? 'The books agree with the statement.' : 'Statement balance minus cleared balance.'}</p>
      </div>
    </div>
  );
}

interface Row extends ReconciliationLineView {
  state: 'matched' | 'ticked' | 'outstanding';
}

function OpenReconciliation({ reconciliation, account, currency, onAnswer }: {
  reconciliation: ReconciliationDetailView; account: AccountView; currency: CurrencyView | undefined;
  onAnswer: (answer: ReconciliationDetailView) => void;
}) {
  const { can } = useUser();
  const canWrite = can('bank:write');
  const matched = useApi(`bank-lines:${account.id}:matched-through:${reconciliation.statement_date}`,
    () => bankLines.all({ account_id: account.id, status: 'matched', end_date: reconciliation.statement_date }));
  const matchedEntries = new Set((matched.data ?? []).flatMap((line) => line.journal_entry_ids));
  const rows: Row[] = [
    ...reconciliation.cleared.map((line) => ({ ...line, state: matchedEntries.has(line.journal_entry_id) ? 'matched' as const : 'ticked' as const })),
    ...reconciliation.outstanding.map((line) => ({ ...line, state: 'outstanding' as const })),
  ].sort((a, b) => (a.entry_date < b.entry_date ? -1 : a.entry_date > b.entry_date ? 1 : 0));
  /** The tick being saved, shown in its new state meanwhile. */
  const [pending, setPending] = useState<{ lineId: string; cleared: boolean } | null>(null);
  const [tickError, setTickError] = useState<unknown>();
  const finish = useSubmit();
  const zero = reconciliation.difference === '0';

  const tick = async (row: Row, cleared: boolean) => {
    setPending({ lineId: row.journal_line_id, cleared });
    setTickError(undefined);
    try {
      const input = { journal_line_ids: [row.journal_line_id] };
      onAnswer(cleared ? await reconciliations.clear(reconciliation.id, input) : await reconciliations.unclear(reconciliation.id, input));
      invalidate();
    } catch (error) {
      setTickError(error);
    } finally {
      setPending(null);
    }
  };

  return (
    <div className="bank-page reconcile">
      <PageHeader title={`Reconcile ${account.name}`}
        subtitle={`${accountLabel(account)} · statement of ${formatDate(reconciliation.statement_date)}`}
        actions={<>
          <ButtonLink to={`/bank/${account.id}`}>Bank matching</ButtonLink>
          {canWrite ? (
            <Button variant="primary" disabled={!zero} busy={finish.busy} data-testid="reconcile-finish"
              title={zero ? undefined : 'Finish is possible at a difference of exactly zero'}
              onClick={() => void finish.run(async () => {
                await reconciliations.finish(reconciliation.id);
                toast('Reconciliation finished');
                invalidate();
              })}>Finish</Button>
          ) : null}
        </>} />
      <div className="reconcile-sticky">
        <Figures reconciliation={reconciliation} currency={currency} />
      </div>
      {finish.error ? <ErrorNotice error={finish.error} /> : null}
      {!zero && canWrite ? (
        <p className="muted" data-testid="reconcile-hint">
          Tick the lines that appear on the statement (an opening balance, say) until the difference is zero. Lines matched on the bank screen are ticked already.
        </p>
      ) : null}
      {tickError ? <ErrorNotice error={tickError} /> : null}
      <Card title={`Lines in the books through ${formatDate(reconciliation.statement_date)}`} className="card--flush" data-testid="reconcile-lines">
        <div className="table-wrap">
          <table className="table reconcile-table">
            <thead>
              <tr>
                <th scope="col" className="reconcile-table__tick"><span className="hide-narrow">Cleared</span><span className="show-narrow" aria-label="Cleared">✓</span></th>
                <th scope="col" className="col-date hide-narrow">Date</th>
                <th scope="col">Description</th>
                <th scope="col" className="hide-narrow">How</th>
                <th scope="col" className="num">Amount</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? <tr><td colSpan={5} className="muted">No unreconciled lines on or before the statement date.</td></tr> : null}
              {rows.map((row) => (
                <tr key={row.journal_line_id} data-testid="reconcile-line" data-state={row.state} data-line-id={row.journal_line_id}
                  className={row.state === 'outstanding' ? '' : 'is-cleared'}>
                  <td className="reconcile-table__tick">
                    <input type="checkbox" checked={pending?.lineId === row.journal_line_id ? pending.cleared : row.state !== 'outstanding'}
                      disabled={!canWrite || row.state === 'matched' || pending !== null}
                      onChange={(event) => void tick(row, event.target.checked)} data-testid="reconcile-tick"
                      aria-label={`Cleared: ${row.description ?? 'entry'} of ${formatDate(row.entry_date)}`}
                      title={row.state === 'matched' ? 'Cleared by its bank match; unmatch it on the bank screen to change this' : undefined} />
                  </td>
                  <td className="nowrap hide-narrow">{formatDate(row.entry_date)}</td>
                  <td>
                    <span className="show-narrow muted small">{formatDate(row.entry_date)}<br /></span>
                    <Link to={`/journal/${row.journal_entry_id}`}>{row.description ?? 'Entry'}</Link>
                    {row.reference ? <span className="muted small"> · {row.reference}</span> : null}
                    <span className="show-narrow"><br /><LineState state={row.state} /></span>
                  </td>
                  <td className="hide-narrow"><LineState state={row.state} /></td>
                  <td className="num"><Amount value={row.amount} currency={currency} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
      <UnmatchedBankLines reconciliation={reconciliation} account={account} currency={currency} />
    </div>
  );
}

function LineState({ state }: { state: Row['state'] }) {
  if (state === 'matched') return <Badge tone="good">matched to the bank</Badge>;
  if (state === 'ticked') return <Badge tone="info">ticked</Badge>;
  return <span className="muted small">outstanding</span>;
}

function UnmatchedBankLines({ reconciliation, account, currency, printable = false }:
  { reconciliation: ReconciliationDetailView; account: AccountView; currency: CurrencyView | undefined; printable?: boolean }) {
  const lines = reconciliation.unmatched_bank_lines;
  if (lines.length === 0 && !printable) return null;
  return (
    <Card title={`Bank lines not in the books (${lines.length})`} className="card--flush" data-testid="reconcile-unmatched"
      actions={!printable && lines.length > 0 ? <Link to={`/bank/${account.id}`} data-testid="reconcile-go-matching">Match them on the bank screen</Link> : undefined}>
      <div className="table-wrap">
        <table className="table table--compact">
          <thead>
            <tr><th scope="col" className="col-date hide-narrow">Date</th><th scope="col">Description</th><th scope="col" className="num">Amount</th></tr>
          </thead>
          <tbody>
            {lines.length === 0 ? <tr><td className="hide-narrow" /><td colSpan={2} className="muted">None.</td></tr> : null}
            {lines.map((line) => (
              <tr key={line.id} data-testid="reconcile-unmatched-line">
                <td className="nowrap hide-narrow">{formatDate(line.posted_date)}</td>
                <td><span className="show-narrow muted small">{formatDate(line.posted_date)}<br /></span>{line.description}</td>
                <td className="num"><Amount value={line.amount} currency={currency} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

function LinesTable({ title, lines, currency, testId }: { title: string; lines: ReconciliationLineView[]; currency: CurrencyView | undefined; testId: string }) {
  return (
    <Card title={`${title} (${lines.length})`} className="card--flush" data-testid={testId}>
      <div className="table-wrap">
        <table className="table table--compact">
          <thead>
            <tr><th scope="col" className="col-date hide-narrow">Date</th><th scope="col">Description</th><th scope="col" className="hide-narrow">Reference</th><th scope="col" className="num">Amount</th></tr>
          </thead>
          <tbody>
            {lines.length === 0 ? <tr><td className="hide-narrow" /><td colSpan={3} className="muted">None.</td></tr> : null}
            {lines.map((line) => (
              <tr key={line.journal_line_id}>
                <td className="nowrap hide-narrow">{formatDate(line.entry_date)}</td>
                <td><span className="show-narrow muted small">{formatDate(line.entry_date)}<br /></span>{line.description ?? ''}</td>
                <td className="hide-narrow muted">{line.reference ?? ''}</td>
                <td className="num"><Amount value={line.amount} currency={currency} /></td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="row--total">
              <th scope="row" className="hide-narrow" />
              <th scope="row">Total</th>
              <td className="hide-narrow" />
              <td className="num"><Amount value={sumMinor(lines.map((line) => line.amount))} currency={currency} /></td>
            </tr>
          </tfoot>
        </table>
      </div>
    </Card>
  );
}

/** A finished reconciliation: read-only, and laid out to print (the print sheet hides navigation and buttons). */
function FinishedReport({ reconciliation, account, currency }:
  { reconciliation: ReconciliationDetailView; account: AccountView; currency: CurrencyView | undefined }) {
  const companyName = useSettings().data?.company_name ?? null;
  const finishedBy = useApi(reconciliation.finished_by ? `user:${reconciliation.finished_by}` : null, () => users.get(reconciliation.finished_by!));
  const clearedNow = sumMinor(reconciliation.cleared.map((line) => line.amount));
  return (
    <div className="bank-page reconcile reconcile-report" data-testid="reconcile-report">
      {companyName !== null ? <p className="report__company" data-testid="report-company">{companyName}</p> : null}
      <PageHeader title="Bank reconciliation" subtitle={`${accountLabel(account)} · statement of ${formatDate(reconciliation.statement_date)}`}
        actions={<>
          <ButtonLink to="/reconcile">All reconciliations</ButtonLink>
          <Button variant="primary" onClick={() => window.print()} data-testid="reconcile-print">Print</Button>
        </>} />
      <Notice tone="success" data-testid="reconcile-finished">
        Finished by <strong data-testid="reconcile-finished-by">{finishedBy.data?.name ?? (reconciliation.finished_by ? '…' : 'an administrator')}</strong>
        {' '}on {formatTimestamp(reconciliation.finished_at)}. Its lines stay reconciled.
      </Notice>
      <section className="card reconcile-summary">
        <table className="table table--compact statement" data-testid="reconcile-summary">
          <tbody>
            <tr><th scope="row">Account</th><td className="num">{accountLabel(account)}{currency ? ` (${currency.code})` : ''}</td></tr>
            <tr><th scope="row">Statement date</th><td className="num">{formatDate(reconciliation.statement_date)}</td></tr>
            <tr><th scope="row">Reconciled before</th><td className="num"><Amount value={reconciliation.previously_reconciled_balance} currency={currency} /></td></tr>
            <tr><th scope="row">Cleared in this reconciliation</th><td className="num"><Amount value={clearedNow} currency={currency} /></td></tr>
            <tr className="row--total"><th scope="row">Cleared balance</th><td className="num"><Amount value={reconciliation.cleared_balance} currency={currency} /></td></tr>
            <tr><th scope="row">Statement balance</th><td className="num" data-testid="reconcile-statement-balance"><Amount value={reconciliation.statement_balance} currency={currency} /></td></tr>
            <tr className="row--grand"><th scope="row">Difference</th><td className="num" data-testid="reconcile-difference"><Amount value={reconciliation.difference} currency={currency} /></td></tr>
          </tbody>
        </table>
      </section>
      <LinesTable title="Cleared items" lines={reconciliation.cleared} currency={currency} testId="reconcile-cleared-items" />
      <LinesTable title="Outstanding items (in the books, not yet on the statement)" lines={reconciliation.outstanding} currency={currency}
        testId="reconcile-outstanding-items" />
      <UnmatchedBankLines reconciliation={reconciliation} account={account} currency={currency} printable />
      <p className="reconcile-report__signoff">
        Reconciled by {finishedBy.data?.name ?? '—'} on {formatTimestamp(reconciliation.finished_at)}. Printed {formatTimestamp(new Date().toISOString())}.
      </p>
    </div>
  );
}
