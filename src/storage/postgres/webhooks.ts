/** Webhook endpoints and delivery attempts (service/ports/webhooks-store.ts). */
import type {
  WebhookDelivery, WebhookEndpoint, WebhookEndpointChanges, WebhookEndpointVersion, WebhooksReads, WebhooksWrites,
} from '../../service/ports/webhooks-store.js';
import {
  ENDPOINT_COLUMNS, endpointChanges, endpointValues, toWebhookDelivery, toWebhookEndpoint, type WebhookDeliveryRow, type WebhookEndpointRow,
} from '../shared/webhooks.js';
import type { PgQueries } from './queries.js';

const SELECT_ENDPOINT = `SELECT ${ENDPOINT_COLUMNS.join(', ')} FROM webhook_endpoints`;

export abstract class PostgresWebhooksReads implements WebhooksReads {
  declare readonly q: PgQueries;

  async getWebhookEndpoint(id: string): Promise<WebhookEndpoint | undefined> {
    const row = await this.q.get<WebhookEndpointRow>(`${SELECT_ENDPOINT} WHERE id = $1`, id);
    return row === undefined ? undefined : toWebhookEndpoint(row);
  }

  async listWebhookEndpoints(): Promise<WebhookEndpoint[]> {
    return (await this.q.all<WebhookEndpointRow>(`${SELECT_ENDPOINT} ORDER BY created_at, id`)).map(toWebhookEndpoint);
  }

  async listWebhookDeliveries(endpointId: string, before: number | undefined, limit: number): Promise<WebhookDelivery[]> {
    return (await this.q.all<WebhookDeliveryRow>(`SELECT seq, endpoint_id, event_seq, event_id, attempt, status_code, error, attempted_at,
      next_attempt_at FROM webhook_deliveries WHERE endpoint_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`,
    endpointId, before ?? Number.MAX_SAFE_INTEGER, limit)).map(toWebhookDelivery);
  }

  async anyWebhookDue(now: string): Promise<boolean> {
    return (await this.q.get(`SELECT 1 FROM webhook_endpoints WHERE is_active AND next_attempt_at <= $1
      AND (lease_until IS NULL OR lease_until < $1) LIMIT 1`, now)) !== undefined;
  }
}

export abstract class PostgresWebhooksWrites implements WebhooksWrites {
  declare readonly q: PgQueries;

  async insertWebhookEndpoint(endpoint: WebhookEndpoint): Promise<void> {
    await this.q.run(`INSERT INTO webhook_endpoints (${ENDPOINT_COLUMNS.join(', ')})
      VALUES (${ENDPOINT_COLUMNS.map((_, index) => `$${index + 1}`).join(', ')})`, ...endpointValues(endpoint, (value) => value));
  }

  async updateWebhookEndpoint(id: string, changes: WebhookEndpointChanges): Promise<void> {
    await this.q.update('webhook_endpoints', id, endpointChanges(changes));
  }

  async deleteWebhookEndpoint(id: string): Promise<void> {
    await this.q.run('DELETE FROM webhook_deliveries WHERE endpoint_id = $1', id);
    await this.q.run('DELETE FROM webhook_endpoints WHERE id = $1', id);
  }

  async claimDueWebhookEndpoints(owner: string, now: string, leaseUntil: string, limit: number): Promise<WebhookEndpoint[]> {
    // SKIP LOCKED: another server claiming at the same moment takes other endpoints, never the same.
    return (await this.q.all<WebhookEndpointRow>(`UPDATE webhook_endpoints SET lease_owner = $1, lease_until = $2
      WHERE id IN (SELECT id FROM webhook_endpoints WHERE is_active AND next_attempt_at <= $3 AND (lease_until IS NULL OR lease_until < $3)
        ORDER BY next_attempt_at LIMIT $4 FOR UPDATE SKIP LOCKED)
      RETURNING ${ENDPOINT_COLUMNS.join(', ')}`, owner, leaseUntil, now, limit)).map(toWebhookEndpoint);
  }

  async releaseWebhookEndpoint(id: string, owner: string): Promise<void> {
    await this.q.run('UPDATE webhook_endpoints SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2', id, owner);
  }

  async updateLeasedWebhookEndpoint(id: string, owner: string, expected: WebhookEndpointVersion, changes: WebhookEndpointChanges): Promise<boolean> {
    const entries = Object.entries(endpointChanges(changes)).filter(([, value]) => value !== undefined);
    const at = entries.length;
    return await this.q.run(`UPDATE webhook_endpoints SET ${entries.map(([column], index) => `${column} = $${index + 1}`).join(', ')}
      WHERE id = $${at + 1} AND lease_owner = $${at + 2} AND cursor_seq = $${at + 3} AND failed_attempts = $${at + 4} AND updated_at = $${at + 5}`,
    ...entries.map(([, value]) => value as string | number | boolean | null), id, owner, expected.cursor_seq, expected.failed_attempts,
    expected.updated_at) === 1;
  }

  async insertWebhookDeliveries(deliveries: readonly Omit<WebhookDelivery, 'seq'>[]): Promise<void> {
    if (deliveries.length === 0) return;
    // One statement for the batch (arrays, so the statement text stays one): the seqs follow the order given.
    const column = (value: (delivery: Omit<WebhookDelivery, 'seq'>) => string | number | null) =>
      deliveries.map((delivery) => { const v = value(delivery); return v === null ? null : String(v); });
    await this.q.run(`INSERT INTO webhook_deliveries (endpoint_id, event_seq, event_id, attempt, status_code, error, attempted_at, next_attempt_at)
      SELECT endpoint_id, event_seq, event_id, attempt, status_code, error, attempted_at, next_attempt_at
      FROM unnest($1::text[], $2::bigint[], $3::text[], $4::integer[], $5::integer[], $6::text[], $7::text[], $8::text[])
        WITH ORDINALITY AS d (endpoint_id, event_seq, event_id, attempt, status_code, error, attempted_at, next_attempt_at, place)
      ORDER BY place`, column((d) => d.endpoint_id), column((d) => d.event_seq), column((d) => d.event_id), column((d) => d.attempt),
    column((d) => d.status_code), column((d) => d.error), column((d) => d.attempted_at), column((d) => d.next_attempt_at));
  }
}
