/**
 * The security log: structured events in the server's log (pino, with the request id as `reqId`)
 * for what an operator watches for attacks and privilege changes: failed logins, throttling,
 * refusals for lack of permission, permission changes, API-key creation and rotation, password
 * changes and sign-outs everywhere. The audit log holds the same changes inside the database;
 * this log also sees what was refused, which the audit log does not always record (429, 403).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

type Level = 'info' | 'warn';

/** Successful requests worth a security event, by method and route pattern. */
const SUCCESS_EVENTS: Record<string, string> = {
  'POST /api/v1/users': 'user.create',
  'POST /api/v1/users/service-accounts': 'api_key.create',
  'POST /api/v1/users/:id/api-key/rotate': 'api_key.rotate',
  'POST /auth/password': 'auth.password_change',
  'POST /auth/logout-all': 'auth.logout_all',
};

function eventOf(request: FastifyRequest, reply: FastifyReply): { event: string; level: Level } | undefined {
  const route = `${request.method} ${request.routeOptions.url ?? ''}`;
  const status = reply.statusCode;
  if (status === 429) return { event: 'auth.throttled', level: 'warn' };
  if (status === 403) return { event: 'access.forbidden', level: 'warn' };
  if (route === 'POST /auth/login' && status === 401) return { event: 'auth.login_failed', level: 'warn' };
  if (status >= 300) return undefined;
  if (route === 'PATCH /api/v1/users/:id') {
    const body = request.body as { permissions?: unknown; is_active?: unknown } | undefined;
    if (body?.permissions !== undefined) return { event: 'user.permissions_change', level: 'info' };
    if (body?.is_active !== undefined) return { event: 'user.active_change', level: 'info' };
    return undefined;
  }
  const event = SUCCESS_EVENTS[route];
  return event === undefined ? undefined : { event, level: 'info' };
}

export function registerSecurityLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const found = eventOf(request, reply);
    if (found === undefined) return;
    const params = request.params as { id?: string } | undefined;
    logSecurityEvent(request, found, reply.statusCode, params?.id ?? null);
  });
}

/** An MCP tool call refused for lack of permission: the same event as a 403 of /api/v1, naming the tool. */
export function logForbidden(request: FastifyRequest, tool: string): void {
  logSecurityEvent(request, { event: 'access.forbidden', level: 'warn' }, 403, null, { tool });
}

function logSecurityEvent(request: FastifyRequest, found: { event: string; level: Level }, status: number, targetId: string | null,
  extra: Record<string, string> = {}): void {
  request.log[found.level]({
    security_event: found.event, status, method: request.method, route: request.routeOptions.url,
    client: request.ip, actor_id: request.actor?.user_id ?? null, target_id: targetId, ...extra,
  }, `security: ${found.event}`);
}
