/**
 * Authentication for /api/v1: every request carries `Authorization: Bearer <credential>`, which
 * the service resolves to an actor (API key now; JWT access tokens plug in here too).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../service/actor.js';
import type { LedgerService } from '../../service/ledger-service.js';
import { unauthorized } from '../../service/users.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | undefined;
  }
}

export function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header === undefined) throw unauthorized('Missing Authorization header');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('Authorization must be "Bearer <token>"');
  return match[1]!;
}

export async function authenticate(service: LedgerService, request: FastifyRequest): Promise<Actor> {
  const actor = await service.authenticate(bearerToken(request));
  request.actor = actor;
  return actor;
}

/** Adds the onRequest authentication step to every route of the scope `app`. */
export function requireAuthentication(app: FastifyInstance, service: LedgerService): void {
  app.addHook('onRequest', async (request) => {
    await authenticate(service, request);
  });
}

/** The authenticated actor of a request inside an authenticated scope. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized('Not authenticated');
  return request.actor;
}
