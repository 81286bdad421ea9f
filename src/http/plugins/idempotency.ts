/**
 * The Idempotency-Key header on POST requests under /api/v1 (see service/idempotency.ts). A dry run
 * (`?dry_run=true`) changes nothing, so it neither reserves nor replays a key: the key stays free
 * for the real request that usually follows.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  checkIdempotent, finishIdempotent, type IdempotencyIntent, IdempotentReplay, keepEntryIds, keptEntryIds, newIntent, runIdempotent,
} from '../../service/idempotency.js';
import type { LedgerService } from '../../service/ledger-service.js';
import { actorOf } from './auth.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotencyIntent | undefined;
  }
  interface FastifyContextConfig {
    /** The route answers a batch of entries: an Idempotency-Key keeps their ids, not the answer (service/idempotency.ts). */
    keepsEntryIds?: boolean;
    /**
     * The use case's result is more than the answer's data (a set that tells whether it created or
     * replaced): the status and data of the answer it makes, kept with the write as the route sends it.
     */
    answerOf?: (result: unknown) => { statusCode: number; data: unknown };
  }
}

export function registerIdempotency(app: FastifyInstance, service: LedgerService): void {
  app.decorateRequest('idempotency', undefined);

  // A callback hook, so that the route's handler runs inside runIdempotent: the use case's write
  // then claims the key in its own transaction (service/idempotency.ts).
  app.addHook('preHandler', (request, reply, done) => {
    const header = request.headers['idempotency-key'];
    if (request.method !== 'POST' || header === undefined || isDryRun(request)) {
      done();
      return;
    }
    const key = Array.isArray(header) ? header[0]! : header;
    const requestHash = createHash('sha256')
      .update(`${request.method} ${request.url}\n${JSON.stringify(withoutSecrets(request.body ?? null))}`).digest('hex');
    const statusCode = successStatus(request);
    const { keepsEntryIds, answerOf } = request.routeOptions.config;
    let intent: IdempotencyIntent;
    try {
      intent = newIntent(actorOf(request).user_id, key, requestHash, (result) => {
        if (answerOf !== undefined) {
          const answer = answerOf(result);
          return { statusCode: answer.statusCode, body: storedAnswer(JSON.stringify({ data: answer.data })) };
        }
        return { statusCode, body: keepsEntryIds === true ? keepEntryIds(result as { id: string }[]) : storedAnswer(JSON.stringify({ data: result })) };
      });
    } catch (error) {
      done(error as Error);
      return;
    }
    checkIdempotent(service.ctx, intent).then((start) => {
      if (start.kind === 'replay') {
        sendReplay(service, reply, start.statusCode, start.body).catch((error: Error) => done(error));
        return;
      }
      request.idempotency = intent;
      runIdempotent(intent, () => done());
    }, (error: Error) => done(error));
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const intent = request.idempotency;
    if (intent === undefined || reply.getHeader('idempotent-replayed')) return payload;
    const sent = String(payload);
    const kept = intent.kept === undefined ? undefined : keptEntryIds(intent.kept.body);
    const answer = kept === undefined ? storedAnswer(sent)
      : keepEntryIds(kept.entry_ids.map((id) => ({ id })), createHash('sha256').update(sent).digest('hex'));
    await finishIdempotent(service.ctx, intent, reply.statusCode, answer);
    return payload;
  });
}

/** Another request with the key committed while this one ran: its answer is this one's. */
export async function replayIfIdempotent(service: LedgerService, error: unknown, reply: FastifyReply): Promise<boolean> {
  if (!(error instanceof IdempotentReplay)) return false;
  await sendReplay(service, reply, error.statusCode, error.body);
  return true;
}

/** Sends the kept answer; a batch's kept ids are read back into its entries first. */
async function sendReplay(service: LedgerService, reply: FastifyReply, statusCode: number, body: string): Promise<void> {
  const kept = keptEntryIds(body);
  reply.code(statusCode).header('idempotent-replayed', 'true');
  if (kept !== undefined) {
    await reply.send({ data: await service.getJournalEntries(kept.entry_ids) });
    return;
  }
  await reply.type('application/json; charset=utf-8').send(body);
}

/** The status of the route's success: 201 where its schema declares one (a creation), else 200. */
function successStatus(request: FastifyRequest): number {
  const responses = request.routeOptions.schema?.response as Record<string, unknown> | undefined;
  return responses !== undefined && '201' in responses ? 201 : 200;
}

/** Runs after validation, so the query is already typed (`dry_run` coerced to a boolean). */
function isDryRun(request: FastifyRequest): boolean {
  const query = request.query as { dry_run?: unknown } | undefined;
  return query?.dry_run === true;
}

/**
 * The answer kept for replays. A service account's API key is shown once and only its hash is
 * stored, so the kept copy leaves the key out: a replay answers the account without it.
 */
function storedAnswer(payload: string): string {
  if (!payload.includes('"api_key"')) return payload;
  try {
    const body = JSON.parse(payload) as { data?: Record<string, unknown> };
    if (typeof body.data === 'object' && body.data !== null) delete body.data.api_key;
    return JSON.stringify(body);
  } catch {
    return payload;
  }
}

/**
 * The body as it is fingerprinted for idempotency. A password is left out: a fast hash of it kept
 * in the database would undo the slow password hash. A retry that differs only in the password
 * replays the first answer, which never contains it.
 */
function withoutSecrets(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('password' in body)) return body;
  const { password: _password, ...rest } = body as Record<string, unknown>;
  return rest;
}
