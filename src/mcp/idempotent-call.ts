/**
 * `idempotency_key` on the posting tools: the API's Idempotency-Key (service/idempotency.ts) for
 * tool calls. The key's record commits with the post and its result; a retry with the same key and
 * arguments returns the first result, a retry with other arguments is IDEMPOTENCY_CONFLICT, and a
 * failed call leaves the key free. Keys share the API's space per user, but a request is
 * fingerprinted with the tool's name, so a key used over HTTP cannot be replayed by a tool call.
 */
import { createHash } from 'node:crypto';
import type { Actor } from '../service/actor.js';
import {
  checkIdempotent, finishIdempotent, IdempotentReplay, keepEntryIds, keptEntryIds, newIntent, runIdempotent,
} from '../service/idempotency.js';
import type { LedgerService } from '../service/ledger-service.js';

const CREATED = 201;
const FAILED = 400;

/**
 * `keepsEntryIds`: the call answers a batch of entries, whose ids are kept instead of the answer
 * (service/idempotency.ts); a replay reads them back.
 */
export async function idempotentCall<T>(service: LedgerService, actor: Actor, key: string | undefined, tool: string, args: unknown,
  run: () => Promise<T>, keepsEntryIds = false): Promise<T> {
  if (key === undefined) return run();
  const requestHash = createHash('sha256').update(`MCP ${tool}\n${JSON.stringify(args)}`).digest('hex');
  const kept = (result: unknown, text: string | null) => (keepsEntryIds
    ? keepEntryIds(result as { id: string }[], text === null ? null : createHash('sha256').update(text).digest('hex'))
    : text ?? JSON.stringify(result));
  // The answer kept with the post is the use case's result; the tool's result is stored over it once known.
  const intent = newIntent(actor.user_id, key, requestHash, (result) => ({ statusCode: CREATED, body: kept(result, null) }));
  const start = await checkIdempotent(service.ctx, intent);
  if (start.kind === 'replay') return replayed<T>(service, start.body);
  let result: T;
  try {
    result = await runIdempotent(intent, run);
  } catch (error) {
    if (error instanceof IdempotentReplay) return replayed<T>(service, error.body);
    await finishIdempotent(service.ctx, intent, FAILED, '');
    throw error;
  }
  await finishIdempotent(service.ctx, intent, CREATED, kept(result, JSON.stringify(result)));
  return result;
}

async function replayed<T>(service: LedgerService, body: string): Promise<T> {
  const keptIds = keptEntryIds(body);
  return (keptIds === undefined ? JSON.parse(body) : await service.getJournalEntries(keptIds.entry_ids)) as T;
}
