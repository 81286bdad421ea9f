/**
 * Webhook endpoints (permission webhooks:manage; docs/events.md, "Webhooks"): the list, with
 * where each one stands in the change feed, and the form that creates one and shows its secret
 * once. An endpoint's page (webhook-page.tsx) shows its attempts and its actions.
 */
import { useState } from 'react';
import { webhookEndpoints } from '../api/endpoints.js';
import type { WebhookEndpointCreatedView, WebhookEndpointView } from '../api/types.js';
import { useUser } from '../auth/auth.js';
import { Button, Dialog, EmptyState, ErrorNotice, Loading, Notice, PageHeader } from '../components/ui.js';
import { formatTimestampSeconds } from '../lib/dates.js';
import { Link, navigate } from '../lib/router.js';
import { useApi } from '../lib/use-api.js';
import { describeEventTypes, upcomingAttempt } from '../lib/webhooks.js';
import { EndpointStatus, SecretReveal, WebhookEndpointForm } from './webhook-form.js';

type DialogState = { kind: 'closed' } | { kind: 'new' } | { kind: 'created'; created: WebhookEndpointCreatedView };

export function WebhooksPage() {
  const { can } = useUser();
  const manage = can('webhooks:manage');
  const list = useApi(manage ? 'webhook-endpoints' : null, webhookEndpoints.all);
  const [dialog, setDialog] = useState<DialogState>({ kind: 'closed' });
  const close = () => setDialog({ kind: 'closed' });

  return (
    <>
      <PageHeader title="Webhooks" subtitle="Endpoints that receive the ledger's events as they happen, in order, signed with their secret."
        actions={manage ? <Button variant="primary" onClick={() => setDialog({ kind: 'new' })} data-testid="webhook-new">New endpoint</Button> : undefined} />
      {!manage ? <Notice tone="info" data-testid="webhooks-forbidden">Webhooks need the webhooks:manage permission.</Notice> : null}
      {list.error ? <ErrorNotice error={list.error} onRetry={list.reload} /> : null}
      {list.loading && !list.data ? <Loading /> : null}
      {list.data && list.data.length === 0 ? (
        <EmptyState title="No webhook endpoints yet">
          <p>An endpoint receives every event committed after it was created: entries posted, accounts changed, periods closed.</p>
        </EmptyState>
      ) : null}
      {list.data && list.data.length > 0 ? <EndpointsTable endpoints={list.data} /> : null}
      <Dialog open={dialog.kind !== 'closed'} title={dialog.kind === 'created' ? 'Endpoint created' : 'New webhook endpoint'} onClose={close} wide
        data-testid="webhook-dialog">
        {dialog.kind === 'new' ? <WebhookEndpointForm onDone={close} onCreated={(created) => setDialog({ kind: 'created', created })} /> : null}
        {dialog.kind === 'created' ? (
          <SecretReveal secret={dialog.created.secret} rotated={false} onDone={() => { close(); navigate(`/webhooks/${dialog.created.id}`); }} />
        ) : null}
      </Dialog>
    </>
  );
}

/** The retry's time when one is to come (after a failure), else a dash; on a phone the cell says what it is. */
function NextAttempt({ endpoint }: { endpoint: WebhookEndpointView }) {
  const upcoming = upcomingAttempt(endpoint.next_attempt_at, Date.now());
  return upcoming ? <><span className="show-narrow">next attempt </span>{formatTimestampSeconds(upcoming)}</> : <span className="hide-narrow">—</span>;
}

function EndpointsTable({ endpoints }: { endpoints: WebhookEndpointView[] }) {
  return (
    <div className="card card--flush">
      <div className="table-wrap">
        <table className="table table--stack" data-testid="webhooks-table">
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col">Events</th>
              <th scope="col">Status</th>
              <th scope="col" className="num">Delivered up to</th>
              <th scope="col">Next attempt</th>
            </tr>
          </thead>
          <tbody>
            {endpoints.map((endpoint) => (
              <tr key={endpoint.id} data-testid="webhook-row" data-endpoint-id={endpoint.id} className={endpoint.is_active ? '' : 'row--inactive'}>
                <td className="cell-key webhook-cell-url">
                  <Link to={`/webhooks/${endpoint.id}`} className="cell-break" data-testid="webhook-link">{endpoint.url}</Link>
                  {endpoint.description ? <div className="muted small">{endpoint.description}</div> : null}
                </td>
                <td className="webhook-cell-types"><span className="cell-break small">{describeEventTypes(endpoint.event_types)}</span></td>
                <td data-testid="webhook-status">
                  <EndpointStatus endpoint={endpoint} />
                  {endpoint.disabled_reason ? <div className="muted small" data-testid="webhook-disabled-reason">{endpoint.disabled_reason}</div> : null}
                </td>
                <td className="num nowrap" data-testid="webhook-last-seq"><span className="show-narrow muted">up to </span>#{endpoint.last_seq}</td>
                <td className="nowrap muted small" data-testid="webhook-next-attempt"><NextAttempt endpoint={endpoint} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
