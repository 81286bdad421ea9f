/**
 * One journal entry with its lines, its links to a reversal or original, and its actions: copy
 * (a standard entry, into the new-entry form) and reverse (not a reversal, not one already
 * reversed, and never a closing entry: a period close is permanent, and the API refuses it too).
 */
import { type FormEvent, useEffect, useState } from 'react';
import { journalEntries, users } from '../api/endpoints.js';
import type { EntryView } from '../api/types.js';
import { useUser } from '../auth/auth.js';
import { Badge, Button, ButtonLink, Card, Dialog, ErrorNotice, InputField, Loading, Money, Notice, PageHeader } from '../components/ui.js';
import { formatDate, formatTimestamp, todayIso } from '../lib/dates.js';
import { fieldError, isFieldError } from '../lib/form-errors.js';
import { displayMinor, groupDigits, sumMinor } from '../lib/money.js';
import { periodCovering, useCurrencyMap, usePeriods, useSettings } from '../lib/reference.js';
import { Link, navigate } from '../lib/router.js';
import { toast } from '../lib/toast.js';
import { invalidate, useApi } from '../lib/use-api.js';
import { useSubmit } from '../lib/use-submit.js';
import { canCopyEntry, isLocked, LockNotice } from './new-entry-page.js';

export function EntryPage({ params }: { params: Record<string, string> }) {
  const entryId = params.id ?? '';
  const { can } = useUser();
  const entry = useApi(`entry:${entryId}`, () => journalEntries.get(entryId));
  const currencies = useCurrencyMap();
  const periods = usePeriods();
  const people = useApi('users:all', users.all);
  const [reversing, setReversing] = useState(false);
  // The entry's human name is its number: the tab says "Entry #12" once the entry is there.
  const number = entry.data?.entry_number;
  useEffect(() => {
    if (number !== undefined) document.title = `Entry #${number} · Ledger`;
  }, [number]);

  if (entry.error) return <><PageHeader title="Journal entry" /><ErrorNotice error={entry.error} /></>;
  if (!entry.data) return <Loading />;
  const row: EntryView = entry.data;
  const currency = currencies.get(row.currency_id);
  const scale = currency?.asset_scale ?? 0;
  const period = periods.data?.find((candidate) => candidate.id === row.period_id);
  const author = people.data?.find((user) => user.id === row.created_by);
  const debits = sumMinor(row.lines.map((line) => line.debit_amount));
  const credits = sumMinor(row.lines.map((line) => line.credit_amount));
  const canReverse = can('journals:reverse') && row.entry_type === 'standard' && row.reversed_by_id === null;
  const canCopy = can('journals:create') && canCopyEntry(row);

  return (
    <>
      <nav className="breadcrumbs no-print" aria-label="Breadcrumb"><Link to="/journal">Journal entries</Link></nav>
      <PageHeader title={<><span className="entry-number" data-testid="entry-number">Entry #{row.entry_number}</span> {row.description}</>}
        subtitle={<>
          {formatDate(row.entry_date)}{period ? ` · ${period.name}` : ''}{row.reference ? ` · ref. ${row.reference}` : ''}
          {' '}<Badge tone={row.entry_type === 'standard' ? 'neutral' : row.entry_type === 'closing' ? 'info' : 'warn'}>{row.entry_type}</Badge>
        </>}
        actions={<>
          <Button onClick={() => window.print()}>Print</Button>
          {canCopy ? <ButtonLink to={`/journal/new?copy=${encodeURIComponent(row.id)}`} data-testid="entry-copy">Copy entry</ButtonLink> : null}
          {canReverse ? <Button variant="danger" onClick={() => setReversing(true)} data-testid="entry-reverse">Reverse…</Button> : null}
        </>} />

      {row.override_reason !== null ? (
        <Notice tone="info" title="Posted on or before the lock date" data-testid="entry-override-note">
          Reason given: <q>{row.override_reason}</q>
        </Notice>
      ) : null}
      {row.entry_type === 'closing' ? (
        <Notice tone="info" data-testid="entry-closing-note">
          This closing entry was posted by closing {period ? period.name : 'its period'}. A close is permanent, so it cannot be
          reversed or copied; correct the books with a new entry in an open period.
        </Notice>
      ) : null}
      {row.reverses_id ? (
        <Notice tone="info" data-testid="entry-reverses">
          This entry reverses <Link to={`/journal/${row.reverses_id}`} data-testid="entry-original-link">the original entry</Link>.
        </Notice>
      ) : null}
      {row.reversed_by_id ? (
        <Notice tone="warning" data-testid="entry-reversed-by">
          This entry has been reversed by <Link to={`/journal/${row.reversed_by_id}`} data-testid="entry-reversal-link">a reversal entry</Link>.
        </Notice>
      ) : null}

      <Card>
        <div className="table-wrap">
          <table className="table" data-testid="entry-lines">
            <thead>
              <tr>
                <th scope="col" className="col-number hide-narrow">Number</th>
                <th scope="col" className="col-text">Account</th>
                <th scope="col" className="hide-narrow">Line description</th>
                <th scope="col" className="num">Debit</th>
                <th scope="col" className="num">Credit</th>
              </tr>
            </thead>
            <tbody>
              {row.lines.map((line) => (
                <tr key={line.id} data-testid="entry-line">
                  <td className="col-number mono hide-narrow"><Link to={`/accounts/${line.account_id}`}>{line.account_number}</Link></td>
                  <td><span className="show-narrow mono muted">{line.account_number} </span>{line.account_name}</td>
                  <td className="hide-narrow muted">{line.description ?? ''}</td>
                  <td className="num">{line.debit_amount !== '0' ? <Money display={groupDigits(line.display_debit)} /> : null}</td>
                  <td className="num">{line.credit_amount !== '0' ? <Money display={groupDigits(line.display_credit)} /> : null}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr className="row--total">
                <td className="hide-narrow" />
                <th scope="row">Total {currency?.code}</th>
                <td className="hide-narrow" />
                <td className="num"><Money display={displayMinor(debits, scale)} /></td>
                <td className="num"><Money display={displayMinor(credits, scale)} /></td>
              </tr>
            </tfoot>
          </table>
        </div>
      </Card>

      <Card title="Details">
        <dl className="details">
          <div><dt>Number</dt><dd className="mono">#{row.entry_number}</dd></div>
          <div><dt>Entry id</dt><dd className="mono">{row.id}</dd></div>
          {row.override_reason !== null ? <div><dt>Override reason</dt><dd>{row.override_reason}</dd></div> : null}
          <div><dt>Posted</dt><dd>{formatTimestamp(row.posted_at)}{author ? ` by ${author.name}` : ''}</dd></div>
          <div><dt>Period</dt><dd>{period ? `${period.name} (${period.status})` : row.period_id}</dd></div>
          <div><dt>Currency</dt><dd>{currency ? `${currency.code} · ${currency.name}` : row.currency_id}</dd></div>
          {row.metadata && Object.keys(row.metadata).length > 0 ? (
            <div className="details__wide"><dt>Metadata</dt><dd><pre className="code">{JSON.stringify(row.metadata, null, 2)}</pre></dd></div>
          ) : null}
        </dl>
      </Card>

      {/* Mounted afresh on each opening, so that its date is chosen from the periods as they are then (loaded by now). */}
      <ReverseDialog key={reversing ? 'open' : 'closed'} open={reversing} entry={row} onClose={() => setReversing(false)} defaultDate={
        periodCovering(periods.data?.filter((candidate) => candidate.status === 'open'), row.entry_date) ? row.entry_date : todayIso()} />
    </>
  );
}

function ReverseDialog({ open, entry, onClose, defaultDate }: { open: boolean; entry: EntryView; onClose: () => void; defaultDate: string }) {
  const { can } = useUser();
  const lockDate = useSettings().data?.lock_date ?? null;
  const [date, setDate] = useState(defaultDate);
  const [reason, setReason] = useState('');
  const { busy, error, run } = useSubmit();
  const locked = isLocked(date, lockDate);
  const canOverride = can('periods:override');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const reversal = await journalEntries.reverse(entry.id, { entry_date: date, ...(locked && canOverride ? { override_reason: reason.trim() } : {}) });
      invalidate();
      toast('Reversal posted');
      onClose();
      navigate(`/journal/${reversal.id}`);
    });
  };

  return (
    <Dialog open={open} title="Reverse this entry" onClose={onClose} data-testid="reverse-dialog">
      <form className="form" onSubmit={submit}>
        <p>A new entry with every debit and credit swapped will be posted. The original stays as it is.</p>
        <InputField label="Reversal date" type="date" required value={date} onChange={(event) => setDate(event.target.value)}
          hint="Must fall in an open period." error={fieldError(error, 'entry_date')} data-testid="reverse-date" />
        {locked ? <LockNotice lockDate={lockDate} canOverride={canOverride} what="The reversal" /> : null}
        {locked && canOverride ? (
          <InputField label="Override reason" required value={reason} maxLength={1000} onChange={(event) => setReason(event.target.value)}
            hint="Why the reversal belongs on or before the lock date" error={fieldError(error, 'override_reason')} data-testid="reverse-override-reason" />
        ) : null}
        {error && !isFieldError(error, ['entry_date', 'override_reason']) ? <ErrorNotice error={error} /> : null}
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="danger" busy={busy} disabled={locked && canOverride && !reason.trim()} data-testid="reverse-confirm">Post reversal</Button>
        </div>
      </form>
    </Dialog>
  );
}
