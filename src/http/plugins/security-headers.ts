/**
 * Headers every answer carries (API, /auth, the web UI, /docs, errors and 404s), and CORS: closed
 * unless an exact origin is listed (LEDGER_CORS_ORIGINS). Answers are `no-store` by default, as
 * most carry tokens or books; the static files of the UI and /docs set their own caching.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The web UI loads only its own scripts, styles and API: no inline code, no framing. */
const UI_POLICY = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/** Swagger UI sets inline styles; it is otherwise held to the UI's policy. */
const DOCS_POLICY = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/** JSON answers load nothing. */
const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** The path of a request URL, without its query. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** Paths outside /api/v1 and /auth that answer JSON (or text) to machines. */
const JSON_PATHS = new Set(['/health', '/livez', '/readyz', '/metrics', '/mcp']);

function policyFor(path: string): string {
  if (path === '/api/v1' || path.startsWith('/api/v1/') || path.startsWith('/auth/') || JSON_PATHS.has(path)) return API_POLICY;
  if (path === '/docs' || path.startsWith('/docs/')) return DOCS_POLICY;
  return UI_POLICY;
}

/** The security headers of an answer to `url`, for replies sent outside the request lifecycle too. */
export function securityHeadersFor(url: string): Record<string, string> {
  return { ...SECURITY_HEADERS, 'content-security-policy': policyFor(pathOf(url)) };
}

const CORS_METHODS = 'GET, POST, PATCH, PUT, DELETE';
const CORS_REQUEST_HEADERS = 'authorization, content-type, idempotency-key';
const CORS_EXPOSED_HEADERS = 'x-request-id, retry-after';
const CORS_MAX_AGE_SECONDS = '600';

/** `LEDGER_CORS_ORIGINS`: comma-separated exact origins (`https://books.example.com`). */
export function parseCorsOrigins(text: string | undefined): string[] {
  return (text ?? '').split(',').map((origin) => origin.trim().replace(/\/+$/, '')).filter((origin) => origin !== '');
}

export function registerSecurityHeaders(app: FastifyInstance, corsOrigins: readonly string[]): void {
  const allowed = new Set(corsOrigins);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(securityHeadersFor(request.url));
    const origin = request.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return;
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin')
      .header('access-control-expose-headers', CORS_EXPOSED_HEADERS);
    // A preflight is answered here, before authentication: the browser sends it without credentials.
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      return reply.code(204).header('access-control-allow-methods', CORS_METHODS)
        .header('access-control-allow-headers', CORS_REQUEST_HEADERS)
        .header('access-control-max-age', CORS_MAX_AGE_SECONDS).send();
    }
  });
}
