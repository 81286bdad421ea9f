/**
 * One webhook endpoint (docs/events.md, "Webhooks"): its settings, its delivery attempts (newest
 * first, fetched again every few seconds while the page is shown, older ones on "Load more"), and
 * what an operator does when a receiver fails: re-enable after fixing it, replay a range, rotate a
 * secret that may have leaked, disable or delete.
 */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { webhookEndpoints } from '../api/endpoints.js';
import type { WebhookDeliveryView, WebhookEndpointView } from '../api/types.js';
import { useUser } from '../auth/auth.js';
import { Badge, Button, Card, Dialog, EmptyState, ErrorNotice, InputField, Loading, Notice, PageHeader } from '../components/ui.js';
import { formatTimestamp, formatTimestampSeconds } from '../lib/dates.js';
import { fieldError, isFieldError } from '../lib/form-errors.js';
import { Link, navigate } from '../lib/router.js';
import { toast } from '../lib/toast.js';
import { invalidate, useApi } from '../lib/use-api.js';
import { useSubmit } from '../lib/use-submit.js';
import {
  type DeliveryLog, deliveryKey, deliveryOutcome, describeEventTypes, EMPTY_LOG, upcomingAttempt, withNewestPage, withOlderPage,
} from '../lib/webhooks.js';
import { EndpointStatus, SecretReveal, WebhookEndpointForm } from './webhook-form.js';

/** Deliveries happen in the server's own time; the page looks again this often while it is shown. */
const REFRESH_MS = 2_000;

type DialogState =
  | { kind: 'closed' } | { kind: 'edit' } | { kind: 'replay' } | { kind: 'rotate' } | { kind: 'rotated'; secret: string } | { kind: 'delete' };

/** Calls `refresh` every `intervalMs` while the tab is visible and `paused` is false. */
function useRefresh(refresh: () => void, intervalMs: number, paused: boolean): void {
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => {
    if (paused) return undefined;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') latest.current();
    }, intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs, paused]);
}

export function WebhookPage({ params }: { params: Record<string, string> }) {
  const id = params.id ?? '';
  const { can } = useUser();
  const manage = can('webhooks:manage');
  const endpoint = useApi(manage ? `webhook-endpoint:${id}` : null, () => webhookEndpoints.get(id));
  const [dialog, setDialog] = useState<DialogState>({ kind: 'closed' });
  const close = () => setDialog({ kind: 'closed' });
  const { busy, error: toggleError, run } = useSubmit();
  const gone = endpoint.error !== undefined && !endpoint.data;

  const setActive = (active: boolean) => void run(async () => {
    const answer = await webhookEndpoints.update(id, { is_active: active });
    invalidate();
    toast(active ? `Endpoint re-enabled: it goes on after event #${answer.last_seq}` : 'Endpoint disabled');
  });

  const shown = endpoint.data;
  return (
    <>
      <nav className="breadcrumbs no-print" aria-label="Breadcrumb"><Link to="/webhooks">Webhooks</Link></nav>
      <PageHeader title={shown ? <span className="webhook-title">{shown.url}</span> : 'Webhook endpoint'}
        subtitle={shown?.description ?? undefined}
        actions={shown ? (
          <>
            {shown.is_active
              ? <Button onClick={() => setActive(false)} busy={busy} data-testid="webhook-disable">Disable</Button>
              : <Button variant="primary" onClick={() => setActive(true)} busy={busy} data-testid="webhook-enable">Re-enable</Button>}
            <Button onClick={() => setDialog({ kind: 'replay' })} data-testid="webhook-replay">Replay…</Button>
            <Button onClick={() => setDialog({ kind: 'rotate' })} data-testid="webhook-rotate">Rotate secret…</Button>
            <Button variant="danger" onClick={() => setDialog({ kind: 'delete' })} data-testid="webhook-delete">Delete…</Button>
          </>
        ) : undefined} />
      {!manage ? <Notice tone="info">Webhooks need the webhooks:manage permission.</Notice> : null}
      {endpoint.error ? <ErrorNotice error={endpoint.error} onRetry={gone ? endpoint.reload : undefined} /> : null}
      {toggleError ? <ErrorNotice error={toggleError} /> : null}
      {endpoint.loading && !shown ? <Loading /> : null}
      {shown && !shown.is_active ? (
        <Notice tone="warning" title="Disabled: no deliveries" data-testid="webhook-disabled-notice">
          <p data-testid="webhook-disabled-reason">{shown.disabled_reason ?? 'Disabled by hand.'}</p>
          <p>Fix the receiver, then re-enable: it goes on from the event after #{shown.last_seq}, the one that failed included.</p>
        </Notice>
      ) : null}
      {shown ? <EndpointSettings endpoint={shown} onEdit={() => setDialog({ kind: 'edit' })} /> : null}
      {/* Not while the delete dialog is open: a look between the delete and leaving the page would find nothing (404). */}
      {shown ? <DeliveryAttempts endpointId={id} onRefresh={endpoint.reload} paused={dialog.kind === 'delete'} /> : null}

      <Dialog open={dialog.kind === 'edit'} title="Edit endpoint" onClose={close} wide data-testid="webhook-edit-dialog">
        {dialog.kind === 'edit' && shown ? <WebhookEndpointForm endpoint={shown} onDone={close} /> : null}
      </Dialog>
      <Dialog open={dialog.kind === 'replay'} title="Replay events" onClose={close} data-testid="webhook-replay-dialog">
        {dialog.kind === 'replay' && shown ? <ReplayForm endpoint={shown} onDone={close} /> : null}
      </Dialog>
      <Dialog open={dialog.kind === 'rotate' || dialog.kind === 'rotated'} title={dialog.kind === 'rotated' ? 'New secret' : 'Rotate the secret'}
        onClose={close} data-testid="webhook-rotate-dialog">
        {dialog.kind === 'rotate' ? <RotateSecret endpointId={id} onCancel={close} onRotated={(secret) => setDialog({ kind: 'rotated', secret })} /> : null}
        {dialog.kind === 'rotated' ? <SecretReveal secret={dialog.secret} rotated onDone={close} /> : null}
      </Dialog>
      <Dialog open={dialog.kind === 'delete'} title="Delete endpoint" onClose={close} data-testid="webhook-delete-dialog">
        {dialog.kind === 'delete' && shown ? <DeleteEndpoint endpoint={shown} onCancel={close} /> : null}
      </Dialog>
    </>
  );
}

function EndpointSettings({ endpoint, onEdit }: { endpoint: WebhookEndpointView; onEdit: () => void }) {
  const upcoming = upcomingAttempt(endpoint.next_attempt_at, Date.now());
  return (
    <Card title="Settings" actions={<Button className="button--small" onClick={onEdit} data-testid="webhook-edit">Edit</Button>}
      data-testid="webhook-settings">
      <dl className="details">
        <div className="details__wide"><dt>URL</dt><dd className="mono" data-testid="webhook-url-shown">{endpoint.url}</dd></div>
        <div className="details__wide"><dt>Events</dt><dd data-testid="webhook-types-shown">{describeEventTypes(endpoint.event_types)}</dd></div>
        <div><dt>Status</dt><dd data-testid="webhook-status"><EndpointStatus endpoint={endpoint} /></dd></div>
        <div><dt>Delivered up to</dt><dd data-testid="webhook-last-seq">event #{endpoint.last_seq}</dd></div>
        <div><dt>Next attempt</dt><dd data-testid="webhook-next-attempt">{upcoming ? formatTimestampSeconds(upcoming) : 'when the next event comes'}</dd></div>
        <div><dt>Created</dt><dd>{formatTimestamp(endpoint.created_at)}</dd></div>
      </dl>
    </Card>
  );
}

/** The attempts, newest first: the newest page is fetched again every few seconds, older pages on demand. */
function DeliveryAttempts({ endpointId, onRefresh, paused }: { endpointId: string; onRefresh: () => void; paused: boolean }) {
  const newest = useApi(`webhook-deliveries:${endpointId}`, () => webhookEndpoints.deliveries(endpointId));
  const [log, setLog] = useState<DeliveryLog>(EMPTY_LOG);
  const [moreError, setMoreError] = useState<unknown>();
  const [loadingMore, setLoadingMore] = useState(false);
  useEffect(() => {
    if (newest.data) setLog((previous) => withNewestPage(previous, newest.data!));
  }, [newest.data]);
  useRefresh(() => { newest.reload(); onRefresh(); }, REFRESH_MS, paused);

  const loadMore = async () => {
    if (!log.nextCursor) return;
    setLoadingMore(true);
    setMoreError(undefined);
    try {
      const page = await webhookEndpoints.deliveries(endpointId, log.nextCursor);
      setLog((previous) => withOlderPage(previous, page));
    } catch (error) {
      setMoreError(error);
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <Card title="Delivery attempts" className="card--flush webhook-attempts" data-testid="webhook-attempts">
      <p className="muted small webhook-attempts__note">Newest first; the list updates by itself while this page is open.</p>
      {newest.error && !newest.data ? <ErrorNotice error={newest.error} onRetry={newest.reload} /> : null}
      {newest.loading && !newest.data ? <Loading /> : null}
      {newest.data && log.rows.length === 0 ? (
        <EmptyState title="No attempts yet">
          <p>The endpoint gets the events committed after it was created.</p>
        </EmptyState>
      ) : null}
      {log.rows.length > 0 ? <AttemptsTable rows={log.rows} /> : null}
      {moreError ? <ErrorNotice error={moreError} /> : null}
      {log.nextCursor ? (
        <div className="load-more">
          <Button onClick={() => void loadMore()} busy={loadingMore} data-testid="webhook-attempts-more">Load more</Button>
          <span className="muted">{log.rows.length} shown</span>
        </div>
      ) : null}
    </Card>
  );
}

function AttemptsTable({ rows }: { rows: WebhookDeliveryView[] }) {
  const now = Date.now();
  return (
    <div className="table-wrap">
      <table className="table table--stack" data-testid="webhook-attempts-table">
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col" className="num">Attempt</th>
            <th scope="col">Result</th>
            <th scope="col">When</th>
            <th scope="col">Next attempt</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const outcome = deliveryOutcome(row);
            const next = upcomingAttempt(row.next_attempt_at, now);
            return (
              <tr key={deliveryKey(row)} data-testid="webhook-attempt" data-seq={row.event_seq} data-attempt={row.attempt}
                data-outcome={outcome.ok ? 'ok' : 'failed'}>
                <td className="nowrap"><strong>#{row.event_seq}</strong></td>
                <td className="num nowrap"><span className="show-narrow muted">attempt </span>{row.attempt}</td>
                <td className="cell-key webhook-cell-result">
                  <Badge tone={outcome.ok ? 'good' : 'bad'}>{outcome.ok ? 'delivered' : 'failed'}</Badge>{' '}
                  <span className="cell-break small" data-testid="webhook-attempt-result">{outcome.text}</span>
                </td>
                <td className="nowrap muted small">{formatTimestampSeconds(row.attempted_at)}</td>
                <td className="nowrap muted small">{next ? <><span className="show-narrow">retry </span>{formatTimestampSeconds(next)}</> : <span className="hide-narrow">—</span>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function ReplayForm({ endpoint, onDone }: { endpoint: WebhookEndpointView; onDone: () => void }) {
  const [afterSeq, setAfterSeq] = useState('');
  const { busy, error, run } = useSubmit();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const answer = await webhookEndpoints.replay(endpoint.id, afterSeq.trim());
      invalidate();
      toast(`Delivering again every event after #${answer.last_seq}`);
      onDone();
    });
  };
  return (
    <form className="form" onSubmit={submit} noValidate data-testid="webhook-replay-form">
      <p>The endpoint receives again, in order, every event of its types after the one you name, then goes on with new events.
        Receivers drop repeats by <code>webhook-id</code>.</p>
      <InputField label="Deliver every event after seq" value={afterSeq} onChange={(event) => setAfterSeq(event.target.value)} required
        inputMode="numeric" autoComplete="off" autoFocus placeholder="0"
        hint={`It has delivered up to event #${endpoint.last_seq}. 0 delivers every event from the first.`}
        error={fieldError(error, 'after_seq')} data-testid="webhook-replay-after" />
      {error && !isFieldError(error, ['after_seq']) ? <ErrorNotice error={error} /> : null}
      <div className="form-actions">
        <Button onClick={onDone}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy} disabled={afterSeq.trim() === ''} data-testid="webhook-replay-confirm">Replay</Button>
      </div>
    </form>
  );
}

function RotateSecret({ endpointId, onCancel, onRotated }: { endpointId: string; onCancel: () => void; onRotated: (secret: string) => void }) {
  const { busy, error, run } = useSubmit();
  return (
    <div className="form">
      <p>A new secret signs every delivery from now on. The current one keeps signing beside it for 24 hours, so the receiver can
        switch without missing a delivery; then it stops.</p>
      {error ? <ErrorNotice error={error} /> : null}
      <div className="form-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="primary" busy={busy} data-testid="webhook-rotate-confirm" onClick={() => void run(async () => {
          const answer = await webhookEndpoints.rotateSecret(endpointId);
          invalidate();
          onRotated(answer.secret);
        })}>Rotate secret</Button>
      </div>
    </div>
  );
}

function DeleteEndpoint({ endpoint, onCancel }: { endpoint: WebhookEndpointView; onCancel: () => void }) {
  const { busy, error, run } = useSubmit();
  return (
    <div className="form">
      <p>Delete the endpoint <strong className="cell-break">{endpoint.url}</strong> and its delivery attempts? It receives nothing more.
        The events stay in the change feed.</p>
      {error ? <ErrorNotice error={error} /> : null}
      <div className="form-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="danger" busy={busy} data-testid="webhook-delete-confirm" onClick={() => void run(async () => {
          await webhookEndpoints.delete(endpoint.id);
          navigate('/webhooks');
          invalidate();
          toast('Endpoint deleted');
        })}>Delete endpoint</Button>
      </div>
    </div>
  );
}
