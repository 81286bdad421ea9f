/**
 * The audit trail: every use case that changes something records it here, inside its own write
 * job, so the record commits exactly when the change does. Only admins read the log.
 */
import { createHash } from 'node:crypto';
import {
  type AuditAction, type AuditRecord, type AuditTargetType, type FieldChanges, AUDIT_ACTIONS, isAuditAction,
} from '../domain/audit.js';
import { parseDate } from '../domain/dates.js';
import { notFound, validationError } from '../domain/errors.js';
import type { AuditLogInput, AuditRecordView } from '../schemas/audit.js';
import { type Actor, isLocalOperator, requirePermission } from './actor.js';
import type { Page, ServiceContext } from './context.js';
import type { LedgerWrites } from './ports/ledger-store.js';

export interface AuditEvent {
  action: AuditAction;
  target_type: AuditTargetType | null;
  target_id: string | null;
  changes?: FieldChanges | null | undefined;
}

/** Who acted, as an audit record names them. */
export type AuditActor = Pick<AuditRecord, 'actor_id' | 'credential_type' | 'credential_id' | 'request_id'>;

/**
 * Who acted as the audit trail names them (an audit record, or a posted entry, which is its own
 * record): null for nobody authenticated and for the local operator. The request id is the
 * actor's unless given (requests without an actor: logins, setup). Every write records who made
 * it, so one acting on an API key taken from memory must have confirmed it first.
 */
export function auditActor(actor: Actor | null, requestId?: string): AuditActor {
  if (actor?.unconfirmed !== undefined) throw new Error('A write acted on an API key it had not confirmed (confirmCredential)');
  return {
    actor_id: actor === null || isLocalOperator(actor) ? null : actor.user_id,
    credential_type: actor?.credential?.type ?? null,
    credential_id: actor?.credential?.id ?? null,
    request_id: requestId ?? actor?.request_id ?? null,
  };
}

/**
 * Appends one record inside `tx`. `actor` is who acted (null: nobody authenticated); the request
 * id is the actor's, unless given (requests without an actor: logins, setup). `occurredAt` is the
 * change's own timestamp where it has one (created_at, closed_at). Posts append none: a posted
 * entry is its own record (postWithin, docs/audit.md).
 */
export async function recordAudit(ctx: ServiceContext, tx: Pick<LedgerWrites, 'insertAuditRecord'>, actor: Actor | null,
  event: AuditEvent, options: { occurredAt?: string; requestId?: string | undefined } = {}): Promise<void> {
  const record: AuditRecord = {
    id: ctx.runtime.newId(),
    occurred_at: options.occurredAt ?? ctx.now(),
    ...auditActor(actor, options.requestId),
    action: event.action,
    target_type: event.target_type,
    target_id: event.target_id,
    changes: event.changes ?? null,
    hash: null,
  };
  await tx.insertAuditRecord(record);
}


/**
 * The log, newest first unless `sort=asc`, for admins only (the local operator is one). The
 * cursor is bound to the filters and the order: a cursor from another query is refused.
 */
export async function listAuditLog(ctx: ServiceContext, actor: Actor, input: AuditLogInput): Promise<Page<AuditRecordView>> {
  requirePermission(actor, 'admin');
  if (input.action !== undefined && !isAuditAction(input.action)) {
    throw validationError(`Unknown action ${String(input.action)}`, 'action', `Use one of: ${AUDIT_ACTIONS.join(', ')}`);
  }
  if (input.start_date !== undefined) parseDate(input.start_date, 'start_date');
  if (input.end_date !== undefined) parseDate(input.end_date, 'end_date');
  const order = input.sort ?? 'desc';
  const filter = {
    actor_id: input.actor_id, action: input.action, target_id: input.target_id, start_date: input.start_date,
    end_date: input.end_date, order,
  };
  const list = `audit-log:${createHash('sha256').update(JSON.stringify(filter)).digest('base64url').slice(0, 16)}`;
  const request = ctx.pageRequest(list, input);
  // Users are never deleted, so an actor id that is no user's is a mistake worth saying.
  if (input.actor_id !== undefined && !(await ctx.store.getUser(input.actor_id))) throw notFound('User', input.actor_id, 'actor_id');
  // The wire shape is the record itself: the schema describes every field of it.
  return ctx.toPage(list, await ctx.store.listAuditLog(filter, request), (record): AuditRecordView => record);
}
