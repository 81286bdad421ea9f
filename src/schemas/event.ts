/** The change feed's wire shapes (CONTRACT.md, "Events and webhooks"; docs/events.md). */
import Type, { type Static } from 'typebox';
import { Id, Nullable, Timestamp } from './common.js';

const Seq = Type.String({ pattern: '^(0|[1-9][0-9]{0,15})$', description: 'An event seq: a decimal integer string' });

export const EventListQuery = Type.Object({
  after: Type.Optional(Type.String({ description: 'Events after this seq (default 0: from the first)' })),
  types: Type.Optional(Type.String({ description: 'Comma-separated event types, e.g. entry.posted,account.created' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: 'Page size; default 100, values above 1000 are clamped to 1000' })),
  cursor: Type.Optional(Type.String({ description: 'next_cursor of the previous page (the last seq it held)' })),
}, { additionalProperties: false });
export type EventListInput = Static<typeof EventListQuery>;

export const EventStreamQuery = Type.Object({
  after: Type.Optional(Type.String({ description: 'Start after this seq; Last-Event-ID wins over it; with neither, the next event' })),
  types: Type.Optional(Type.String({ description: 'Comma-separated event types' })),
}, { additionalProperties: false });

export const LedgerEvent = Type.Object({
  seq: Seq,
  id: Id,
  type: Type.String({ description: '<resource>.<past participle>: entry.posted, account.created, period.closed, ...' }),
  occurred_at: Timestamp,
  actor_id: Nullable(Type.String({ description: 'The user who acted; null from the command line' })),
  request_id: Nullable(Type.String({ description: 'The X-Request-Id of the HTTP request; null from the command line' })),
  data: Type.Unknown({ description: 'The resource as the API answers it (an entry.posted: the entry with its lines); never a secret' }),
});
