/**
 * Idempotency keys: a retry by the same caller with the same key and body replays the first
 * successful answer instead of acting again. A key is reserved before the action runs, so two
 * concurrent retries cannot both act. Only successful answers are kept; a failed request releases
 * its key so that a corrected retry can act. Keys are kept for 24 hours.
 */
import { LedgerError, validationError } from '../domain/errors.js';
import type { ServiceContext } from './context.js';

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export type IdempotencyStart =
  | { kind: 'proceed' }
  | { kind: 'replay'; statusCode: number; body: string };

let lastPurgeMs = 0;

export async function beginIdempotent(ctx: ServiceContext, principalId: string, key: string, requestHash: string): Promise<IdempotencyStart> {
  if (key.length < 1 || key.length > 255) {
    throw validationError('Idempotency-Key must be 1 to 255 characters', 'Idempotency-Key');
  }
  const nowMs = ctx.runtime.clock.now().getTime();
  return ctx.store.write(async (tx) => {
    if (nowMs - lastPurgeMs > PURGE_INTERVAL_MS) {
      lastPurgeMs = nowMs;
      await tx.deleteIdempotencyKeysBefore(new Date(nowMs - IDEMPOTENCY_RETENTION_MS).toISOString());
    }
    if (await tx.reserveIdempotencyKey(principalId, key, requestHash, new Date(nowMs).toISOString())) {
      return { kind: 'proceed' } as const;
    }
    const record = (await tx.getIdempotencyRecord(principalId, key))!;
    if (record.request_hash !== requestHash) {
      throw new LedgerError('IDEMPOTENCY_CONFLICT', 'This Idempotency-Key was used with a different request', {
        field: 'Idempotency-Key', suggestion: 'Use a new key for a new request',
      });
    }
    if (record.status_code === null || record.response_body === null) {
      throw new LedgerError('IDEMPOTENCY_CONFLICT', 'A request with this Idempotency-Key is still being processed', {
        field: 'Idempotency-Key', suggestion: 'Retry after the first request has finished',
      });
    }
    return { kind: 'replay', statusCode: record.status_code, body: record.response_body } as const;
  });
}

export async function finishIdempotent(ctx: ServiceContext, principalId: string, key: string, statusCode: number, body: string): Promise<void> {
  await ctx.store.write(async (tx) => {
    if (statusCode >= 200 && statusCode < 300) await tx.completeIdempotencyKey(principalId, key, statusCode, body);
    else await tx.releaseIdempotencyKey(principalId, key);
  });
}
