/**
 * `idempotency_key` on the posting tools: the API's Idempotency-Key (service/idempotency.ts) for
 * tool calls. The key's record commits with the post and its result; a retry with the same key and
 * arguments returns the first result, a retry with other arguments is IDEMPOTENCY_CONFLICT, and a
 * failed call leaves the key free. Keys share the API's space per user, but a request is
 * fingerprinted with the tool's name, so a key used over HTTP cannot be replayed by a tool call.
 */
import { createHash } from 'node:crypto';
import type { Actor } from '../service/actor.js';
import { checkIdempotent, finishIdempotent, IdempotentReplay, newIntent, runIdempotent } from '../service/idempotency.js';
import type { LedgerService } from '../service/ledger-service.js';

const CREATED = 201;
const FAILED = 400;

export async function idempotentCall<T>(service: LedgerService, actor: Actor, key: string | undefined, tool: string, args: unknown,
  run: () => Promise<T>): Promise<T> {
  if (key === undefined) return run();
  const requestHash = createHash('sha256').update(`MCP ${tool}\n${JSON.stringify(args)}`).digest('hex');
  // The answer kept with the post is the use case's result; the tool's result is stored over it once known.
  const intent = newIntent(actor.user_id, key, requestHash, (result) => ({ statusCode: CREATED, body: JSON.stringify(result) }));
  const start = await checkIdempotent(service.ctx, intent);
  if (start.kind === 'replay') return JSON.parse(start.body) as T;
  let result: T;
  try {
    result = await runIdempotent(intent, run);
  } catch (error) {
    if (error instanceof IdempotentReplay) return JSON.parse(error.body) as T;
    await finishIdempotent(service.ctx, intent, FAILED, '');
    throw error;
  }
  await finishIdempotent(service.ctx, intent, CREATED, JSON.stringify(result));
  return result;
}
