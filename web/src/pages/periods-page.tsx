/** Financial periods: list, create, and close (with a preview of the closing entries, one per currency, first). */
import { type FormEvent, useState } from 'react';
import { periods as periodsApi } from '../api/endpoints.js';
import { isApiError } from '../api/client.js';
import type { ClosePeriodResult, PeriodView } from '../api/types.js';
import { useUser } from '../auth/auth.js';
import { Badge, Button, Dialog, EmptyState, ErrorNotice, InputField, Loading, Money, Notice, PageHeader } from '../components/ui.js';
import { formatDate, formatRange, formatTimestamp, monthOf, nextMonth, todayIso } from '../lib/dates.js';
import { fieldError, isFieldError } from '../lib/form-errors.js';
import { displayMinor, groupDigits, sumMinor } from '../lib/money.js';
import { useCurrencyMap, usePeriods, useSettings } from '../lib/reference.js';
import { Link } from '../lib/router.js';
import { toast } from '../lib/toast.js';
import { invalidate } from '../lib/use-api.js';
import { useSubmit } from '../lib/use-submit.js';

export function PeriodsPage() {
  const { can } = useUser();
  const periods = usePeriods();
  const settings = useSettings();
  const [creating, setCreating] = useState(false);
  const [closing, setClosing] = useState<PeriodView | null>(null);
  const today = todayIso();
  const rows = [...(periods.data ?? [])].reverse();

  return (
    <>
      <PageHeader title="Periods" subtitle="Entries can be posted only into open periods. Closing is permanent."
        actions={can('periods:write') ? <Button variant="primary" onClick={() => setCreating(true)} data-testid="period-new">New period</Button> : undefined} />
      {settings.data && !settings.data.retained_earnings_account_id ? (
        <Notice tone="warning" title="No retained earnings account">
          Closing a period posts its result to the retained earnings account. <Link to="/settings">Choose it in Settings</Link> first.
        </Notice>
      ) : null}
      {periods.error ? <ErrorNotice error={periods.error} onRetry={periods.reload} /> : null}
      {periods.loading && !periods.data ? <Loading /> : null}
      {periods.data && rows.length === 0 ? <EmptyState title="No periods yet">Create one to start posting entries.</EmptyState> : null}
      {rows.length > 0 ? (
        <div className="card card--flush">
          <div className="table-wrap">
            <table className="table table--stack" data-testid="periods-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col" className="hide-narrow">From</th>
                  <th scope="col" className="hide-narrow">To</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="hide-narrow">Closed</th>
                  <th scope="col" className="col-actions"><span className="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {rows.map((period) => (
                  <tr key={period.id} data-testid="period-row" data-period-id={period.id}>
                    <td className="cell-key">
                      <Link to={`/journal?period=${period.id}`} title="Entries in this period">{period.name}</Link>
                      {period.start_date <= today && today <= period.end_date ? <> <Badge tone="info">today</Badge></> : null}
                      <span className="show-narrow muted small"><br />{formatRange(period.start_date, period.end_date)}</span>
                    </td>
                    <td className="nowrap hide-narrow">{formatDate(period.start_date)}</td>
                    <td className="nowrap hide-narrow">{formatDate(period.end_date)}</td>
                    <td>{period.status === 'open' ? <Badge tone="good">open</Badge> : <Badge>closed</Badge>}</td>
                    <td className="hide-narrow muted">
                      {period.closed_at ? formatTimestamp(period.closed_at) : ''}
                      {period.closing_entry_id ? <> · <Link to={`/journal/${period.closing_entry_id}`}>closing entry</Link></> : null}
                    </td>
                    <td className="col-actions">
                      <div className="row-actions">
                        <Link className="button button--ghost button--small" to={`/reports/income-statement?period=${period.id}`}>Results</Link>
                        {period.status === 'open' && can('periods:close') ? (
                          <Button variant="ghost" className="button--small" onClick={() => setClosing(period)}
                            aria-label={`Close ${period.name}`} data-testid="period-close">Close…</Button>
                        ) : null}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
      <Dialog open={creating} title="New period" onClose={() => setCreating(false)} data-testid="period-dialog">
        {creating ? <CreatePeriodForm existing={periods.data ?? []} onDone={() => setCreating(false)} /> : null}
      </Dialog>
      <Dialog open={closing !== null} title={closing ? `Close ${closing.name}` : 'Close period'} onClose={() => setClosing(null)} wide
        data-testid="close-dialog">
        {closing ? <ClosePeriodFlow period={closing} onDone={() => setClosing(null)} /> : null}
      </Dialog>
    </>
  );
}

function CreatePeriodForm({ existing, onDone }: { existing: PeriodView[]; onDone: () => void }) {
  const last = existing[existing.length - 1];
  const suggestion = last ? nextMonth(last.end_date) : monthOf(todayIso());
  const [name, setName] = useState(suggestion.name);
  const [start, setStart] = useState(suggestion.start);
  const [end, setEnd] = useState(suggestion.end);
  const { busy, error, run } = useSubmit();
  const reversed = start !== '' && end !== '' && end < start;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reversed) return;
    void run(async () => {
      const created = await periodsApi.create({ name: name.trim(), start_date: start, end_date: end });
      invalidate();
      toast(`Period ${created.name} created`);
      onDone();
    });
  };

  return (
    <form className="form" onSubmit={submit} data-testid="period-form">
      <InputField label="Name" required value={name} onChange={(event) => setName(event.target.value)} maxLength={200} autoFocus
        error={fieldError(error, 'name')} data-testid="period-name" />
      <div className="form-row">
        <InputField label="First day" type="date" required value={start} onChange={(event) => setStart(event.target.value)}
          error={fieldError(error, 'start_date')} data-testid="period-start" />
        <InputField label="Last day" type="date" required value={end} onChange={(event) => setEnd(event.target.value)}
          error={reversed ? 'The last day comes before the first' : fieldError(error, 'end_date')} data-testid="period-end" />
      </div>
      <p className="muted">Both days are included. Periods may not overlap.</p>
      {error && !isFieldError(error, ['name', 'start_date', 'end_date']) ? <ErrorNotice error={error} /> : null}
      <div className="form-actions">
        <Button onClick={onDone}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy} disabled={reversed} data-testid="period-save">Create period</Button>
      </div>
    </form>
  );
}

function ClosePeriodFlow({ period, onDone }: { period: PeriodView; onDone: () => void }) {
  const [preview, setPreview] = useState<ClosePeriodResult | null>(null);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState<'preview' | 'close' | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const currencies = useCurrencyMap();

  const runPreview = async () => {
    setBusy('preview');
    setError(undefined);
    try {
      setPreview(await periodsApi.close(period.id, true));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  };

  const close = async () => {
    setBusy('close');
    setError(undefined);
    try {
      await periodsApi.close(period.id, false);
      invalidate();
      toast(`${period.name} closed`);
      onDone();
    } catch (caught) {
      setError(caught);
      setBusy(null);
    }
  };

  const entries = preview?.closing_entries ?? [];

  return (
    <div className="form" data-testid="close-flow">
      <p>
        Closing <strong>{period.name}</strong> ({formatDate(period.start_date)} – {formatDate(period.end_date)}) posts a closing entry
        per currency that moves its revenue and expenses to that currency's retained earnings account. <strong>A closed period cannot be
        reopened</strong>, and no entry can be dated in it afterwards.
      </p>
      {!preview ? (
        <div className="form-actions">
          <Button onClick={onDone}>Cancel</Button>
          <Button variant="primary" onClick={() => void runPreview()} busy={busy === 'preview'} data-testid="close-preview">Preview closing entries</Button>
        </div>
      ) : null}
      {preview && entries.length === 0 ? <Notice tone="info" title="Nothing to post">This period has no revenue or expense activity; it closes without a closing entry.</Notice> : null}
      {entries.map((entry) => {
        const currency = currencies.get(entry.currency_id);
        return (
          <div className="table-section" data-testid="close-preview-entry" data-currency={currency?.code ?? entry.currency_id} key={entry.currency_id}>
            {/* Outside the scrolling frame, so that it stays in view when long amounts scroll. */}
            <h3 className="table__caption" id={`close-preview-caption-${entry.currency_id}`}>
              Closing entry dated {formatDate(entry.entry_date)} · {currency?.code}
            </h3>
            <div className="table-wrap">
              <table className="table table--compact table--key-column" aria-labelledby={`close-preview-caption-${entry.currency_id}`}>
                <thead>
                  <tr><th scope="col">Account</th><th scope="col" className="num">Debit</th><th scope="col" className="num">Credit</th></tr>
                </thead>
                <tbody>
                  {entry.lines.map((line) => (
                    <tr key={line.id}>
                      <td><span className="mono">{line.account_number}</span> {line.account_name}</td>
                      <td className="num">{line.debit_amount !== '0' ? <Money display={groupDigits(line.display_debit)} /> : null}</td>
                      <td className="num">{line.credit_amount !== '0' ? <Money display={groupDigits(line.display_credit)} /> : null}</td>
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr className="row--total">
                    <th scope="row">Total</th>
                    <td className="num">{displayMinor(sumMinor(entry.lines.map((line) => line.debit_amount)), currency?.asset_scale ?? 0)}</td>
                    <td className="num">{displayMinor(sumMinor(entry.lines.map((line) => line.credit_amount)), currency?.asset_scale ?? 0)}</td>
                  </tr>
                </tfoot>
              </table>
            </div>
          </div>
        );
      })}
      {isApiError(error) && error.code === 'CURRENCY_MISMATCH' ? (
        <Notice tone="info" title="A currency has no retained earnings account" data-testid="close-currency-fix">
          Choose one for it under <Link to="/settings">Settings → Retained earnings per currency</Link>, then preview again.
        </Notice>
      ) : null}
      {error ? <ErrorNotice error={error} /> : null}
      {preview ? (
        <>
          <label className="checkbox">
            <input type="checkbox" checked={confirmed} onChange={(event) => setConfirmed(event.target.checked)} data-testid="close-confirm-check" />
            <span>I understand that closing {period.name} is permanent.</span>
          </label>
          <div className="form-actions">
            <Button onClick={onDone}>Cancel</Button>
            <Button variant="danger" onClick={() => void close()} busy={busy === 'close'} disabled={!confirmed} data-testid="close-confirm">
              Close period
            </Button>
          </div>
        </>
      ) : null}
    </div>
  );
}
