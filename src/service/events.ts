/**
 * The change feed (docs/events.md): every committed change is one event, numbered `seq` in commit
 * order without gaps by the store (service/ports/events-store.ts). A posted entry is its own event
 * (`entry.posted`, written by the store with the entry). Every other change's event is appended
 * by the executor (execute-command.ts) inside the change's own transaction, from the use case's
 * declaration (`event` in use-cases.ts) and its answer: the resource as the API answers it. So a
 * rolled-back write, a dry run, a refused request or a replay appends none.
 */
import { validationError } from '../domain/errors.js';
import type { EventListInput } from '../schemas/event.js';
import { type Actor, requirePermission } from './actor.js';
import { auditActor } from './audit-log.js';
import type { Page, ServiceContext } from './context.js';
import { getJournalEntries } from './journal-entries.js';
import type { LedgerTx } from './ports/ledger-store.js';
import type { StoredEvent } from './ports/events-store.js';
import type { EventDeclaration } from './use-case.js';


export interface EventView {
  seq: string;
  id: string;
  type: string;
  occurred_at: string;
  actor_id: string | null;
  request_id: string | null;
  data: unknown;
}

/** Fields that are never part of an event, wherever they sit in its data: secrets and their hashes. */
const SECRET_FIELDS = new Set(['api_key', 'password', 'password_hash', 'secret', 'token', 'access_token', 'refresh_token', 'key_hash',
  'token_hash']);

/** The data without any secret field, at any depth (a created service account's answer carries its API key). */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !SECRET_FIELDS.has(key)).map(([key, item]) => [key, withoutSecrets(item)]));
}

/** JSON with bigints as decimal strings (amounts are strings on the wire already; this is the safety net). */
function eventJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
}

/** Appends the events of a committed answer inside its transaction. */
export async function appendEvents(ctx: ServiceContext, tx: LedgerTx, actor: Actor, declaration: EventDeclaration, data: unknown): Promise<void> {
  const items = declaration.each === true && Array.isArray(data) ? data : [data];
  const { actor_id, request_id } = auditActor(actor);
  for (const item of items) {
    await tx.insertEvent({
      id: ctx.runtime.newId(), type: declaration.type, occurred_at: ctx.now(), actor_id, request_id, data: eventJson(withoutSecrets(item)),
    });
  }
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

/** A seq as the wire spells it (a decimal integer string), or the error that names `field`. */
export function parseSeq(value: string | undefined, field: string): number {
  if (value === undefined || value === '') return 0;
  if (!/^(0|[1-9][0-9]{0,15})$/.test(value)) {
    throw validationError(`${field} must be an event seq (a decimal integer)`, field, 'Use the seq of the last event you have, or 0 for the first');
  }
  return Number(value);
}

/** The type filter: comma-separated event types. */
export function parseTypes(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const types = value.split(',').map((type) => type.trim()).filter((type) => type !== '');
  for (const type of types) {
    if (!/^[a-z_]+\.[a-z_]+$/.test(type)) {
      throw validationError(`Unknown event type ${type}`, 'types', 'Use types such as entry.posted,account.created (docs/events.md)');
    }
  }
  return types;
}

/** Stored events as the wire shows them: a post's data is its entry with its lines. */
export async function eventViews(ctx: ServiceContext, events: readonly StoredEvent[]): Promise<EventView[]> {
  const postIds = events.flatMap((event) => (event.entry_id === null ? [] : [event.entry_id]));
  const entries = new Map((postIds.length === 0 ? [] : await getJournalEntries(ctx, postIds)).map((entry) => [entry.id, entry]));
  return events.map((event) => ({
    seq: String(event.seq), id: event.id, type: event.type, occurred_at: event.occurred_at, actor_id: event.actor_id,
    request_id: event.request_id, data: event.entry_id === null ? JSON.parse(event.data!) : entries.get(event.entry_id),
  }));
}

/** Events after `after` (or the cursor, which is the last seq of the previous page), oldest first. */
export async function listEvents(ctx: ServiceContext, actor: Actor, input: EventListInput): Promise<Page<EventView>> {
  requirePermission(actor, 'events:read');
  const after = parseSeq(input.cursor ?? input.after, input.cursor === undefined ? 'after' : 'cursor');
  const limit = Math.min(input.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  const events = await ctx.store.listEvents(after, parseTypes(input.types), limit + 1);
  const page = events.slice(0, limit);
  const hasMore = events.length > limit;
  return { data: await eventViews(ctx, page), has_more: hasMore, next_cursor: hasMore ? String(page[page.length - 1]!.seq) : null };
}
