import Type, { type Static } from 'typebox';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../domain/audit.js';
import { DateString, Id, Nullable, PageQuery, Timestamp } from './common.js';

export const AuditActionSchema = Type.Enum(AUDIT_ACTIONS, { description: 'What happened (see docs/audit.md)' });

const FieldChange = Type.Object({
  old: Type.Unknown({ description: 'The value before (null for a create)' }),
  new: Type.Unknown({ description: 'The value after' }),
});

export const AuditRecord = Type.Object({
  id: Id,
  occurred_at: Timestamp,
  actor_id: Nullable(Type.String({ description: 'The user who acted; null when nobody authenticated (the command line, a failed login, first-user setup)' })),
  credential_type: Nullable(Type.Union([Type.Literal('api_key'), Type.Literal('session')])),
  credential_id: Nullable(Type.String({ description: "The API key's id or the login session's id; never a key or token" })),
  request_id: Nullable(Type.String({ description: 'The X-Request-Id of the HTTP request; null from the command line' })),
  action: AuditActionSchema,
  target_type: Nullable(Type.Enum(AUDIT_TARGET_TYPES)),
  target_id: Nullable(Type.String()),
  changes: Nullable(Type.Record(Type.String(), FieldChange, {
    description: 'Changed fields with their old and new values; for a create, the initial values (old null)',
  })),
  hash: Nullable(Type.String({
    pattern: '^[0-9a-f]{64}$',
    description: 'SHA-256 of the record in the audit chain (docs/audit.md); null for the moment between its commit and its seal. A post is its entry\'s own record: its id and hash are the entry\'s',
  })),
}, { description: 'One audit record' });
export type AuditRecordView = Static<typeof AuditRecord>;

export const AuditLogQuery = Type.Object({
  actor_id: Type.Optional(Id),
  action: Type.Optional(AuditActionSchema),
  target_id: Type.Optional(Id),
  start_date: Type.Optional(DateString),
  end_date: Type.Optional(DateString),
  sort: Type.Optional(Type.Union([Type.Literal('desc'), Type.Literal('asc')], {
    description: 'desc (default): newest first; asc: oldest first',
  })),
  ...PageQuery,
}, { additionalProperties: false });
export type AuditLogInput = Static<typeof AuditLogQuery>;
