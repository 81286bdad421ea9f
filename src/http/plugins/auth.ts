/**
 * Authentication for /api/v1: every request carries `Authorization: Bearer <credential>`, which
 * the service resolves to an actor (API key now; JWT access tokens plug in here too).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Actor, type PermissionKey, requirePermission } from '../../service/actor.js';
import type { LedgerService } from '../../service/ledger-service.js';
import { unauthorized } from '../../service/users.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | undefined;
  }
  interface FastifyContextConfig {
    /** The permission a write route needs; checked before the body is validated. */
    permission?: PermissionKey;
    /**
     * The route's write confirms its credential inside its transaction (service/auth/authenticate.ts),
     * so an API key this process checked before need not be read first.
     */
    confirmsCredential?: boolean;
  }
}

export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header === undefined) throw unauthorized('Missing Authorization header');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('Authorization must be "Bearer <token>"');
  return match[1]!;
}

/**
 * The request's actor carries the request id, so the audit records it writes name the request. On
 * a route whose write confirms its credential, a key checked before may come from memory, unless
 * the request has an Idempotency-Key: a kept answer is replayed before any write would confirm it.
 */
export async function authenticate(service: LedgerService, request: FastifyRequest): Promise<Actor> {
  const { permission, confirmsCredential } = request.routeOptions.config;
  const confirmedInWrite = confirmsCredential === true && request.headers['idempotency-key'] === undefined ? permission : undefined;
  const actor: Actor = { ...(await service.authenticate(bearerToken(request), { confirmedInWrite })), request_id: request.id };
  request.actor = actor;
  return actor;
}

/**
 * Adds authentication (before the body is read) and the route's permission check (before the body
 * is validated, so a caller without the permission learns nothing about the input rules) to every
 * route of the scope `app`. The service checks the permission again, for every face.
 */
export function requireAuthentication(app: FastifyInstance, service: LedgerService): void {
  app.addHook('onRequest', async (request) => {
    await authenticate(service, request);
  });
  app.addHook('preValidation', async (request) => {
    const permission = request.routeOptions.config.permission;
    if (permission !== undefined) requirePermission(actorOf(request), permission);
  });
}

/** The authenticated actor of a request inside an authenticated scope. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized('Not authenticated');
  return request.actor;
}
