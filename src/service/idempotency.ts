/**
 * Idempotency keys, the executor's (execute-command.ts) half: a retry by the same actor with the
 * same key and the same request replays the first successful answer instead of acting again. Keys
 * are kept for 24 hours. A request is the use case's name and its input, so a key names one
 * request whichever face it came through (HTTP's Idempotency-Key header, an MCP tool's
 * `idempotency_key`, the command line's `--idempotency-key`).
 *
 * The key's record commits in the same write transaction as the action it guards, with the answer:
 * after a crash either both exist (a retry replays the answer) or neither does (a retry acts, once).
 * Nothing is reserved in a transaction of its own, so a crash can leave nothing behind that blocks
 * a retry:
 *
 * 1. Before the action, the executor reads the key (`keptAnswer`): a kept answer is replayed, a key
 *    used with another request is IDEMPOTENCY_CONFLICT, otherwise the action runs.
 * 2. Inside the action's write transaction, before its work, `claim` locks the key
 *    (`lockIdempotencyKey`: PostgreSQL takes a transaction advisory lock, so a concurrent request
 *    with the key in another process is told 409 "still being processed"; a dead process's lock went
 *    with its connection) and reads it again (an answer committed meanwhile, by this or another
 *    process, is replayed: `IdempotentReplay`); then the record is inserted, the work runs, and the
 *    answer made from its result is stored with it. A failed write rolls back its record with it,
 *    so a corrected retry can act.
 */
import { createHash, type Hash } from 'node:crypto';
import { LedgerError, validationError } from '../domain/errors.js';
import type { IdempotencyRecord, LedgerReads, LedgerTx } from './ports/ledger-store.js';

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
const PURGE_INTERVAL_MS = 60 * 60 * 1000;
let lastPurgeMs = 0;

/** One request under a key. */
export interface IdempotencyIntent {
  readonly principalId: string;
  readonly key: string;
  readonly requestHash: string;
}

/** An answer as it is kept: the record's status (201 for a creation, else 200) and its JSON text. */
export interface KeptAnswer {
  statusCode: number;
  body: string;
}

/** Thrown out of the write when another request with the key committed first: answer with its answer. */
export class IdempotentReplay extends Error {
  constructor(readonly kept: KeptAnswer) {
    super('replaying the answer kept for this idempotency key');
  }
}

/**
 * The request under `key`: the use case and its input. Its fingerprint leaves a password out: a
 * fast hash of it kept in the database would undo the slow password hash. A retry that differs only
 * in the password replays the first answer, which never contains it.
 */
export function intentOf(principalId: string, key: string, useCase: string, input: unknown): IdempotencyIntent {
  if (key.length < 1 || key.length > 255) {
    throw validationError('Idempotency-Key must be 1 to 255 characters', 'Idempotency-Key');
  }
  const hash = createHash('sha256').update(`${useCase}\n`);
  updateCanonical(hash, withoutSecrets(input ?? null));
  return { principalId, key, requestHash: hash.digest('hex') };
}

/**
 * Feeds the JSON of `value` to the hash with every object's keys sorted, piece by piece (a batch's
 * input is never one string): the same input whatever order a face built its objects in (an MCP
 * line whose account was named by number, an HTTP body as its client wrote it).
 */
function updateCanonical(hash: Hash, value: unknown): void {
  if (Array.isArray(value)) {
    hash.update('[');
    value.forEach((item, index) => {
      if (index > 0) hash.update(',');
      updateCanonical(hash, item === undefined ? null : item);
    });
    hash.update(']');
    return;
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    hash.update('{');
    Object.keys(record).filter((name) => record[name] !== undefined).sort().forEach((name, index) => {
      hash.update(`${index > 0 ? ',' : ''}${JSON.stringify(name)}:`);
      updateCanonical(hash, record[name]);
    });
    hash.update('}');
    return;
  }
  hash.update(JSON.stringify(value));
}

/** The answer committed under the key, if any, as the committed records stand. */
export async function keptAnswer(reads: LedgerReads, intent: IdempotencyIntent): Promise<KeptAnswer | undefined> {
  const record = await reads.getIdempotencyRecord(intent.principalId, intent.key);
  return record === undefined ? undefined : answerKept(intent, record);
}

/** Inside the action's write transaction, before its work: lock the key, replay an answer committed meanwhile, else reserve it. */
export async function claim(tx: LedgerTx, intent: IdempotencyIntent, nowMs: number): Promise<void> {
  if (!(await tx.lockIdempotencyKey(intent.principalId, intent.key))) throw stillProcessing();
  const record = await tx.getIdempotencyRecord(intent.principalId, intent.key);
  if (record !== undefined) throw new IdempotentReplay(answerKept(intent, record));
  if (nowMs - lastPurgeMs > PURGE_INTERVAL_MS) {
    lastPurgeMs = nowMs;
    await tx.deleteIdempotencyKeysBefore(new Date(nowMs - IDEMPOTENCY_RETENTION_MS).toISOString());
  }
  await tx.reserveIdempotencyKey(intent.principalId, intent.key, intent.requestHash, new Date(nowMs).toISOString());
}

/** Stores the answer with the action, in its transaction. */
export async function keep(tx: LedgerTx, intent: IdempotencyIntent, answer: KeptAnswer): Promise<void> {
  await tx.completeIdempotencyKey(intent.principalId, intent.key, answer.statusCode, answer.body);
}

/** The record's status: the HTTP status the first answer had, which a replay answers again. */
export function statusOf(created: boolean): number {
  return created ? 201 : 200;
}

/**
 * The JSON text kept for a replay, `{"data": ...}`. A service account's API key is shown once and
 * only its hash is stored, so the kept copy leaves the key out: a replay answers the account without it.
 */
export function keptJson(data: unknown): string {
  if (typeof data === 'object' && data !== null && 'api_key' in data) {
    const { api_key: _key, ...rest } = data as Record<string, unknown>;
    return JSON.stringify({ data: rest });
  }
  return JSON.stringify({ data });
}

/**
 * The answer kept for a batch of entries: their ids and the SHA-256 of the answer's JSON text, not
 * the answer itself (up to 34 MB of JSON for 10,000 entries, held in memory and written to the
 * database per request). A replay reads the entries back by their ids: the same entries, ids,
 * lines and amounts; what can change about a posted entry since (a reversal's `reversed_by_id`, an
 * account's name) shows as it is now.
 */
export interface KeptEntryIds {
  kept: 'entry_ids';
  entry_ids: string[];
  /** Of the first answer's JSON text; null until it was computed, after the write. */
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

/** The SHA-256 of `{"data": [entries]}` as JSON text, one entry at a time (never the whole text at once). */
export function answerDigest(entries: readonly unknown[]): string {
  const hash = createHash('sha256').update('{"data":[');
  entries.forEach((entry, index) => hash.update(index === 0 ? JSON.stringify(entry) : `,${JSON.stringify(entry)}`));
  return hash.update(']}').digest('hex');
}

function answerKept(intent: IdempotencyIntent, record: IdempotencyRecord): KeptAnswer {
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

function withoutSecrets(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || !('password' in input)) return input;
  const { password: _password, ...rest } = input as Record<string, unknown>;
  return rest;
}
