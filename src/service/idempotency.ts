/**
 * Idempotency keys: a retry by the same caller with the same key and body replays the first
 * successful answer instead of acting again. Keys are kept for 24 hours.
 *
 * The key's record commits in the same write transaction as the action it guards, with the answer:
 * after a crash either both exist (a retry replays the answer) or neither does (a retry acts, once).
 * Nothing is reserved in a transaction of its own, so a crash can leave nothing behind that blocks
 * a retry. How it works:
 *
 * 1. Before the action, `checkIdempotent` reads the key: a kept answer is replayed, a key used with
 *    another request is IDEMPOTENCY_CONFLICT, otherwise the action runs inside `runIdempotent`.
 * 2. The action's first write marked with `answering` (the use cases that create something) is
 *    claimed by the store decorator `withIdempotencyClaims`: inside that write transaction, before
 *    the use case's work, the key is locked (`lockIdempotencyKey`: PostgreSQL takes a transaction
 *    advisory lock, so a concurrent request with the key in another process is told 409 "still being
 *    processed"; a dead process's lock went with its connection) and read again (an answer committed
 *    meanwhile, by this or another process, is replayed: `IdempotentReplay`); then the record is
 *    inserted, the work runs, and the answer the work's result makes is stored with it.
 * 3. Once the answer has been sent, `finishIdempotent` stores it over the one kept in step 2 only
 *    if the route serialised it differently (usually they are the same bytes: nothing is written);
 *    a request that failed after all forgets its key, so a corrected retry can act. A failed write
 *    rolls back its record with it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { LedgerError, validationError } from '../domain/errors.js';
import type { ServiceContext } from './context.js';
import type { LedgerStore, LedgerTx } from './ports/ledger-store.js';
import type { Clock } from './ports/runtime.js';

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export type IdempotencyStart =
  | { kind: 'proceed' }
  | { kind: 'replay'; statusCode: number; body: string };

export interface IdempotentAnswer {
  statusCode: number;
  body: string;
}

/** One request under an Idempotency-Key, while its action runs. */
export interface IdempotencyIntent {
  readonly principalId: string;
  readonly key: string;
  readonly requestHash: string;
  /** The answer stored with the action: made from the result of the claimed write. */
  readonly answerOf: (result: unknown) => IdempotentAnswer;
  /** True once a write of this request has claimed the key (its record then exists if that write committed). */
  claimed: boolean;
  /** The answer the claiming write stored with its action. */
  kept?: IdempotentAnswer;
}

/** Thrown out of the action when another request with the key committed first: answer with its answer. */
export class IdempotentReplay extends Error {
  constructor(readonly statusCode: number, readonly body: string) {
    super('replaying the answer kept for this Idempotency-Key');
  }
}

const scope = new AsyncLocalStorage<IdempotencyIntent>();
const ANSWERING = Symbol('answering');
let lastPurgeMs = 0;

/**
 * The answer kept for a batch of entries: their ids and the SHA-256 of the answer sent, not the
 * answer itself (up to 34 MB of JSON for 10,000 entries, held in memory and written to the
 * database per request). A replay reads the entries back by their ids (`getJournalEntries`):
 * the same entries, ids, lines and amounts; what can change about a posted entry since (a
 * reversal's `reversed_by_id`, an account's name) shows as it is now.
 */
export interface KeptEntryIds {
  kept: 'entry_ids';
  entry_ids: string[];
  /** Of the first answer's bytes; null until the answer was sent. */
  sha256: string | null;
}

export function keepEntryIds(entries: readonly { id: string }[], sha256: string | null = null): string {
  const kept: KeptEntryIds = { kept: 'entry_ids', entry_ids: entries.map((entry) => entry.id), sha256 };
  return JSON.stringify(kept);
}

const KEPT_ENTRY_IDS_PREFIX = '{"kept":"entry_ids"';

/** The kept ids when `body` is a batch's compact answer, else undefined (an answer kept whole). */
export function keptEntryIds(body: string): KeptEntryIds | undefined {
  return body.startsWith(KEPT_ENTRY_IDS_PREFIX) ? JSON.parse(body) as KeptEntryIds : undefined;
}

/** Marks a write job whose result is the use case's answer: under an Idempotency-Key it claims the key. */
export function answering<T>(work: (tx: LedgerTx) => Promise<T>): (tx: LedgerTx) => Promise<T> {
  return Object.assign(async (tx: LedgerTx) => work(tx), { [ANSWERING]: true });
}

export function newIntent(principalId: string, key: string, requestHash: string,
  answerOf: (result: unknown) => IdempotentAnswer): IdempotencyIntent {
  if (key.length < 1 || key.length > 255) {
    throw validationError('Idempotency-Key must be 1 to 255 characters', 'Idempotency-Key');
  }
  return { principalId, key, requestHash, answerOf, claimed: false };
}

/** What to do with a request under the key, as the committed records stand. */
export async function checkIdempotent(ctx: ServiceContext, intent: IdempotencyIntent): Promise<IdempotencyStart> {
  const record = await ctx.store.getIdempotencyRecord(intent.principalId, intent.key);
  if (record === undefined) return { kind: 'proceed' };
  return { kind: 'replay', ...answerKept(intent, record) };
}

/** Runs `action` (and everything it calls, however asynchronously) under the request's key. */
export function runIdempotent<T>(intent: IdempotencyIntent, action: () => T): T {
  return scope.run(intent, action);
}

/** After the answer was sent: keep the exact answer of a success, forget the key of a failure. */
export async function finishIdempotent(ctx: ServiceContext, intent: IdempotencyIntent, statusCode: number, body: string): Promise<void> {
  if (!intent.claimed) return;
  const success = statusCode >= 200 && statusCode < 300;
  // Usually the answer sent is the one already kept with the action: nothing to write again.
  if (success && intent.kept?.statusCode === statusCode && intent.kept.body === body) return;
  await ctx.store.write(async (tx) => {
    if (success) await tx.completeIdempotencyKey(intent.principalId, intent.key, statusCode, body);
    else await tx.releaseIdempotencyKey(intent.principalId, intent.key);
  });
}

/** The store the use cases see: a write marked `answering`, under a key, claims it in its own transaction. */
export function withIdempotencyClaims(store: LedgerStore, clock: Clock): LedgerStore {
  const write = <T>(work: (tx: LedgerTx) => Promise<T>): Promise<T> => {
    const intent = scope.getStore();
    if (intent === undefined || intent.claimed || !(ANSWERING in work)) return store.write(work);
    intent.claimed = true;
    return store.write(async (tx) => {
      await claim(tx, intent, clock.now().getTime());
      const result = await work(tx);
      const answer = intent.answerOf(result);
      await tx.completeIdempotencyKey(intent.principalId, intent.key, answer.statusCode, answer.body);
      intent.kept = answer;
      return result;
    });
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === 'write') return write;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function claim(tx: LedgerTx, intent: IdempotencyIntent, nowMs: number): Promise<void> {
  if (!(await tx.lockIdempotencyKey(intent.principalId, intent.key))) throw stillProcessing();
  const record = await tx.getIdempotencyRecord(intent.principalId, intent.key);
  if (record !== undefined) {
    const kept = answerKept(intent, record);
    throw new IdempotentReplay(kept.statusCode, kept.body);
  }
  if (nowMs - lastPurgeMs > PURGE_INTERVAL_MS) {
    lastPurgeMs = nowMs;
    await tx.deleteIdempotencyKeysBefore(new Date(nowMs - IDEMPOTENCY_RETENTION_MS).toISOString());
  }
  await tx.reserveIdempotencyKey(intent.principalId, intent.key, intent.requestHash, new Date(nowMs).toISOString());
}

function answerKept(intent: IdempotencyIntent, record: { request_hash: string; status_code: number | null; response_body: string | null }): IdempotentAnswer {
  if (record.request_hash !== intent.requestHash) {
    throw new LedgerError('IDEMPOTENCY_CONFLICT', 'This Idempotency-Key was used with a different request', {
      field: 'Idempotency-Key', suggestion: 'Use a new key for a new request',
    });
  }
  // Only a record written by an older version (a reservation of its own) can lack its answer.
  if (record.status_code === null || record.response_body === null) throw stillProcessing();
  return { statusCode: record.status_code, body: record.response_body };
}

function stillProcessing(): LedgerError {
  return new LedgerError('IDEMPOTENCY_CONFLICT', 'A request with this Idempotency-Key is still being processed', {
    field: 'Idempotency-Key', suggestion: 'Retry after the first request has finished',
  });
}
