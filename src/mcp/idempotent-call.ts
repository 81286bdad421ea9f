/**
 * `idempotency_key` on the posting tools: the API's Idempotency-Key (service/idempotency.ts) for
 * tool calls. The key is reserved for the caller's user before the post runs; a retry with the same
 * key and arguments returns the first result, a retry with other arguments is IDEMPOTENCY_CONFLICT,
 * and a failed call releases the key. Keys share the API's space per user, but a request is
 * fingerprinted with the tool's name, so a key used over HTTP cannot be replayed by a tool call.
 */
import { createHash } from 'node:crypto';
import type { Actor } from '../service/actor.js';
import { beginIdempotent, finishIdempotent } from '../service/idempotency.js';
import type { LedgerService } from '../service/ledger-service.js';

const CREATED = 201;
const FAILED = 400;

export async function idempotentCall<T>(service: LedgerService, actor: Actor, key: string | undefined, tool: string, args: unknown,
  run: () => Promise<T>): Promise<T> {
  if (key === undefined) return run();
  const requestHash = createHash('sha256').update(`MCP ${tool}\n${JSON.stringify(args)}`).digest('hex');
  const start = await beginIdempotent(service.ctx, actor.user_id, key, requestHash);
  if (start.kind === 'replay') return JSON.parse(start.body) as T;
  let result: T;
  try {
    result = await run();
  } catch (error) {
    await finishIdempotent(service.ctx, actor.user_id, key, FAILED, '');
    throw error;
  }
  await finishIdempotent(service.ctx, actor.user_id, key, CREATED, JSON.stringify(result));
  return result;
}
