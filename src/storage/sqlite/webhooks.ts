/** Webhook endpoints and delivery attempts (service/ports/webhooks-store.ts). */
import type {
  WebhookDelivery, WebhookEndpoint, WebhookEndpointChanges, WebhookEndpointVersion, WebhooksReads, WebhooksWrites,
} from '../../service/ports/webhooks-store.js';
import {
  ENDPOINT_COLUMNS, endpointChanges, endpointValues, toWebhookDelivery, toWebhookEndpoint, type WebhookDeliveryRow, type WebhookEndpointRow,
} from '../shared/webhooks.js';
import { placeholders, type SqliteQueries } from './queries.js';

const SELECT_ENDPOINT = `SELECT ${ENDPOINT_COLUMNS.join(', ')} FROM webhook_endpoints`;

export abstract class SqliteWebhooksReads implements WebhooksReads {
  declare readonly q: SqliteQueries;

  async getWebhookEndpoint(id: string): Promise<WebhookEndpoint | undefined> {
    const row = this.q.get<WebhookEndpointRow>(`${SELECT_ENDPOINT} WHERE id = ?`, id);
    return row === undefined ? undefined : toWebhookEndpoint(row);
  }

  async listWebhookEndpoints(): Promise<WebhookEndpoint[]> {
    return this.q.all<WebhookEndpointRow>(`${SELECT_ENDPOINT} ORDER BY created_at, id`).map(toWebhookEndpoint);
  }

  async listWebhookDeliveries(endpointId: string, before: number | undefined, limit: number): Promise<WebhookDelivery[]> {
    return this.q.all<WebhookDeliveryRow>(`SELECT seq, endpoint_id, event_seq, event_id, attempt, status_code, error, attempted_at, next_attempt_at
      FROM webhook_deliveries WHERE endpoint_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
    endpointId, before ?? Number.MAX_SAFE_INTEGER, limit).map(toWebhookDelivery);
  }

  async anyWebhookDue(now: string): Promise<boolean> {
    return this.q.get(`SELECT 1 FROM webhook_endpoints WHERE is_active = 1 AND next_attempt_at <= ?
      AND (lease_until IS NULL OR lease_until < ?) LIMIT 1`, now, now) !== undefined;
  }
}

export abstract class SqliteWebhooksWrites implements WebhooksWrites {
  declare readonly q: SqliteQueries;

  async insertWebhookEndpoint(endpoint: WebhookEndpoint): Promise<void> {
    this.q.run(`INSERT INTO webhook_endpoints (${ENDPOINT_COLUMNS.join(', ')}) VALUES (${placeholders(ENDPOINT_COLUMNS.length)})`,
      ...endpointValues(endpoint, (value) => (value ? 1 : 0)) as (string | number | null)[]);
  }

  async updateWebhookEndpoint(id: string, changes: WebhookEndpointChanges): Promise<void> {
    this.q.update('webhook_endpoints', id, endpointChanges(changes));
  }

  async deleteWebhookEndpoint(id: string): Promise<void> {
    this.q.run('DELETE FROM webhook_deliveries WHERE endpoint_id = ?', id);
    this.q.run('DELETE FROM webhook_endpoints WHERE id = ?', id);
  }

  async claimDueWebhookEndpoints(owner: string, now: string, leaseUntil: string, limit: number): Promise<WebhookEndpoint[]> {
    // One writer at a time: the UPDATE sees every other process's committed lease.
    return this.q.all<WebhookEndpointRow>(`UPDATE webhook_endpoints SET lease_owner = ?, lease_until = ?
      WHERE id IN (SELECT id FROM webhook_endpoints WHERE is_active = 1 AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)
        ORDER BY next_attempt_at LIMIT ?)
      RETURNING ${ENDPOINT_COLUMNS.join(', ')}`, owner, leaseUntil, now, now, limit).map(toWebhookEndpoint);
  }

  async releaseWebhookEndpoint(id: string, owner: string): Promise<void> {
    this.q.run('UPDATE webhook_endpoints SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?', id, owner);
  }

  async updateLeasedWebhookEndpoint(id: string, owner: string, expected: WebhookEndpointVersion, changes: WebhookEndpointChanges): Promise<boolean> {
    const entries = Object.entries(endpointChanges(changes)).filter(([, value]) => value !== undefined);
    const values = entries.map(([, value]) => (typeof value === 'boolean' ? (value ? 1 : 0) : value as string | number | null));
    return this.q.run(`UPDATE webhook_endpoints SET ${entries.map(([column]) => `${column} = ?`).join(', ')}
      WHERE id = ? AND lease_owner = ? AND cursor_seq = ? AND failed_attempts = ? AND updated_at = ?`,
    ...values, id, owner, expected.cursor_seq, expected.failed_attempts, expected.updated_at).changes === 1;
  }

  async insertWebhookDeliveries(deliveries: readonly Omit<WebhookDelivery, 'seq'>[]): Promise<void> {
    for (const delivery of deliveries) {
      this.q.run(`INSERT INTO webhook_deliveries (endpoint_id, event_seq, event_id, attempt, status_code, error, attempted_at, next_attempt_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, delivery.endpoint_id, delivery.event_seq, delivery.event_id, delivery.attempt, delivery.status_code,
      delivery.error, delivery.attempted_at, delivery.next_attempt_at);
    }
  }
}
