/** Rows of the webhook tables as both stores read them (service/ports/webhooks-store.ts). */
import type { WebhookDelivery, WebhookEndpoint, WebhookEndpointChanges } from '../../service/ports/webhooks-store.js';

export interface WebhookEndpointRow extends Omit<WebhookEndpoint, 'event_types' | 'is_active' | 'cursor_seq' | 'failed_attempts'> {
  event_types: string;
  is_active: number | boolean;
  cursor_seq: number | string;
  failed_attempts: number | string;
}

export const ENDPOINT_COLUMNS = ['id', 'url', 'description', 'event_types', 'is_active', 'disabled_reason', 'secret', 'previous_secret',
  'previous_secret_expires_at', 'cursor_seq', 'failed_attempts', 'next_attempt_at', 'created_at', 'updated_at'] as const;

export function toWebhookEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    ...row, event_types: JSON.parse(row.event_types) as string[], is_active: row.is_active === true || row.is_active === 1,
    cursor_seq: Number(row.cursor_seq), failed_attempts: Number(row.failed_attempts),
  };
}

/** The endpoint's values in ENDPOINT_COLUMNS order, booleans as the store keeps them. */
export function endpointValues(endpoint: WebhookEndpoint, booleans: (value: boolean) => number | boolean): (string | number | boolean | null)[] {
  return [endpoint.id, endpoint.url, endpoint.description, JSON.stringify(endpoint.event_types), booleans(endpoint.is_active),
    endpoint.disabled_reason, endpoint.secret, endpoint.previous_secret, endpoint.previous_secret_expires_at, endpoint.cursor_seq,
    endpoint.failed_attempts, endpoint.next_attempt_at, endpoint.created_at, endpoint.updated_at];
}

/** Changes as columns: the event types as JSON. */
export function endpointChanges(changes: WebhookEndpointChanges): Record<string, unknown> {
  const { event_types, ...rest } = changes;
  return event_types === undefined ? rest : { ...rest, event_types: JSON.stringify(event_types) };
}

export interface WebhookDeliveryRow extends Omit<WebhookDelivery, 'seq' | 'event_seq'> {
  seq: number | string;
  event_seq: number | string;
}

export function toWebhookDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return { ...row, seq: Number(row.seq), event_seq: Number(row.event_seq) };
}
