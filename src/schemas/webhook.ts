/** Webhook endpoints' wire shapes (CONTRACT.md, "Events and webhooks"; docs/events.md). */
import Type, { type Static } from 'typebox';
import { Id, Nullable, PageQuery, Timestamp } from './common.js';

const EventType = Type.String({ pattern: '^(\\*|[a-z_]+\\.[a-z_]+)$', maxLength: 100, description: 'An event type, or * for all' });
const Url = Type.String({ minLength: 1, maxLength: 2000, description: 'https:// or http:// URL that receives the events (POST)' });
const Description = Type.String({ maxLength: 500 });

export const CreateWebhookEndpointBody = Type.Object({
  url: Url,
  event_types: Type.Array(EventType, { minItems: 1, maxItems: 100, description: 'Event types it receives; ["*"] for all' }),
  description: Type.Optional(Nullable(Description)),
}, { additionalProperties: false });
export type CreateWebhookEndpointInput = Static<typeof CreateWebhookEndpointBody>;

export const UpdateWebhookEndpointBody = Type.Object({
  url: Type.Optional(Url),
  event_types: Type.Optional(CreateWebhookEndpointBody.properties.event_types),
  description: Type.Optional(Nullable(Description)),
  is_active: Type.Optional(Type.Boolean({ description: 'false stops deliveries; true re-enables a disabled endpoint (it goes on where it stopped)' })),
}, { additionalProperties: false });
export type UpdateWebhookEndpointInput = Static<typeof UpdateWebhookEndpointBody>;

export const ReplayWebhookBody = Type.Object({
  after_seq: Type.String({ pattern: '^(0|[1-9][0-9]{0,15})$', description: 'Deliver again every event after this seq' }),
}, { additionalProperties: false });

export const WebhookDeliveriesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const WebhookEndpointView = Type.Object({
  id: Id,
  url: Type.String(),
  description: Nullable(Type.String()),
  event_types: Type.Array(Type.String()),
  is_active: Type.Boolean(),
  disabled_reason: Nullable(Type.String({ description: 'Why the server disabled it (a 410 Gone, retries exhausted)' })),
  last_seq: Type.String({ description: 'The last event seq delivered or given up' }),
  next_attempt_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type WebhookEndpointViewType = Static<typeof WebhookEndpointView>;

export const WebhookEndpointWithSecret = Type.Object({
  ...WebhookEndpointView.properties,
  secret: Type.String({ description: 'whsec_ + base64 of 32 random bytes: shown only in this response' }),
});

export const WebhookDeliveryView = Type.Object({
  event_seq: Type.String(),
  event_id: Id,
  attempt: Type.Integer(),
  status_code: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  attempted_at: Timestamp,
  next_attempt_at: Nullable(Timestamp),
});
