/**
 * The Idempotency-Key header on POST requests under /api/v1 (see service/idempotency.ts). A dry run
 * (`?dry_run=true`) changes nothing, so it neither reserves nor replays a key: the key stays free
 * for the real request that usually follows.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { beginIdempotent, finishIdempotent } from '../../service/idempotency.js';
import type { LedgerService } from '../../service/ledger-service.js';
import { actorOf } from './auth.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey: string | undefined;
  }
}

export function registerIdempotency(app: FastifyInstance, service: LedgerService): void {
  app.addHook('preHandler', async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (request.method !== 'POST' || header === undefined || isDryRun(request)) return;
    const key = Array.isArray(header) ? header[0]! : header;
    const actor = actorOf(request);
    const requestHash = createHash('sha256')
      .update(`${request.method} ${request.url}\n${JSON.stringify(withoutSecrets(request.body ?? null))}`).digest('hex');
    const start = await beginIdempotent(service.ctx, actor.user_id, key, requestHash);
    if (start.kind === 'replay') {
      return reply.code(start.statusCode).header('idempotent-replayed', 'true')
        .type('application/json; charset=utf-8').send(start.body);
    }
    request.idempotencyKey = key;
    return undefined;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.idempotencyKey === undefined || reply.getHeader('idempotent-replayed')) return payload;
    await finishIdempotent(service.ctx, actorOf(request).user_id, request.idempotencyKey, reply.statusCode, storedAnswer(String(payload)));
    return payload;
  });
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
