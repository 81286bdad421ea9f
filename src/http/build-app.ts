/**
 * Builds the Fastify application over a LedgerService. It does not listen: the server start-up
 * (cli serve) and the tests decide where it runs.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { BODY_AJV_OPTIONS, addBoundKeywords } from '../schemas/validate.js';
import { illFormedTextError } from '../schemas/well-formed-text.js';
import { MAX_JSON_NESTING, nestsDeeperThan } from '../schemas/json-depth.js';
import { validationError } from '../domain/errors.js';
import type { LedgerService } from '../service/ledger-service.js';
import { authenticate, requireAuthentication } from './plugins/auth.js';
import { registerErrorHandling, sendError } from './plugins/errors.js';
import { type HostPolicy, registerHostCheck } from './plugins/host-check.js';
import { limitLargeBodies } from './plugins/large-bodies.js';
import { clientErrorHandler, frameworkErrorHandler, needsAuthentication } from './plugins/malformed-requests.js';
import { pathOf, registerSecurityHeaders } from './plugins/security-headers.js';
import { registerSecurityLog } from './plugins/security-log.js';
import { accountRoutes } from './routes/accounts.js';
import { auditLogRoutes } from './routes/audit-log.js';
import { eventRoutes } from './routes/events.js';
import { webhookRoutes } from './routes/webhooks.js';
import { bankRoutes } from './routes/bank.js';
import { authRoutes } from './routes/auth.js';
import { currencyRoutes } from './routes/currencies.js';
import { exchangeRateRoutes } from './routes/exchange-rates.js';
import { journalEntryRoutes } from './routes/journal-entries.js';
import { mcpRoutes } from './routes/mcp.js';
import { periodRoutes } from './routes/periods.js';
import { reportRoutes } from './routes/reports.js';
import { settingsRoutes } from './routes/settings.js';
import { userRoutes } from './routes/users.js';
import { verifyRoutes } from './routes/verify.js';

export interface AppOptions {
  service: LedgerService;
  /** The package's version (package.json), announced to MCP clients at /mcp. */
  version: string;
  /** Largest accepted request body; 1 MiB by default. */
  bodyLimitBytes?: number;
  /** Largest body of POST /journal-entries/batch; 32 MiB by default, and never below bodyLimitBytes. */
  batchBodyLimitBytes?: number;
  logLevel?: string;
  /** Folder of the built web UI (index.html and assets); served at / when it exists. */
  webRoot?: string | undefined;
  /** Exact origins allowed to call the API from a browser (CORS); none by default. */
  corsOrigins?: readonly string[];
  /**
   * Which proxies' X-Forwarded-For to believe for the client's address (Fastify's `trustProxy`:
   * true, a hop count, or addresses and CIDRs); none by default (LEDGER_TRUST_PROXY).
   */
  trustProxy?: TrustProxy;
  /**
   * How long a request may take to arrive whole, headers and body (LEDGER_REQUEST_TIMEOUT_MS,
   * 30 s by default): a client that stops sending mid-body is cut off then, on every route.
   */
  requestTimeoutMs?: number;
  /** The Host names answered (plugins/host-check.ts); any when undefined. */
  hostPolicy?: HostPolicy | undefined;
  /** Where the server's log lines go (standard output by default); the tests read them. */
  logStream?: { write(line: string): void };
  /** The Prometheus metrics (app/metrics.ts): /metrics is served only with them, to their token. */
  metrics?: HttpMetrics | undefined;
}

/** What the HTTP face needs of the metrics: a place to count requests, the text of a scrape, and its guard. */
export interface HttpMetrics {
  /** The bearer token a scrape must send (LEDGER_METRICS_TOKEN). */
  readonly token: string;
  /** `route` is the route's template (`/api/v1/accounts/:id`), never the raw path, so the series stay few. */
  requestFinished(method: string, route: string, status: number, seconds: number): void;
  render(): Promise<{ contentType: string; text: string }>;
}

export type TrustProxy = boolean | number | string | string[];

export const API_PREFIX = '/api/v1';
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
/** 10,000 entries (the most one batch takes) of a few lines each fit with room to spare. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_BATCH_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * Bodies are validated strictly (a JSON number where a string is expected is an error, unknown
 * fields are refused); query strings and path parameters are coerced from text.
 */
function validatorCompiler() {
  const body = addBoundKeywords(new Ajv(BODY_AJV_OPTIONS));
  const query = new Ajv({ strict: false, coerceTypes: true, allErrors: false, removeAdditional: false, useDefaults: true });
  return ({ schema, httpPart }: { schema: object; httpPart?: string }) =>
    (httpPart === 'body' ? body : query).compile(schema);
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { service } = options;
  const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const batchBodyLimitBytes = Math.max(options.batchBodyLimitBytes ?? DEFAULT_BATCH_BODY_LIMIT_BYTES, bodyLimitBytes);
  const app = Fastify({
    serverFactory: (handler) => createHttpServer(handler, options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS),
    logger: { level: options.logLevel ?? 'warn', ...(options.logStream === undefined ? {} : { stream: options.logStream }) },
    trustProxy: trustProxyOption(options.trustProxy),
    bodyLimit: bodyLimitBytes,
    ajv: { customOptions: { strict: false } },
    // Per-request log lines cost throughput; errors are still logged with their request id.
    logController: new LogController({ disableRequestLogging: true }),
    // Every request gets a unique id (UUIDv7), answered as X-Request-Id and kept in the audit
    // records it writes. A client's own X-Request-Id is not taken: the log names only ids the
    // server made.
    genReqId: () => service.newId(),
    frameworkErrors: frameworkErrorHandler(service),
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerSecurityHeaders(app, options.corsOrigins ?? []);
  if (options.hostPolicy !== undefined) registerHostCheck(app, options.hostPolicy);
  registerSecurityLog(app);
  // Unknown /api/v1 paths answer only authenticated callers, and authentication comes before the
  // body is read (docs/errors.md), so a stranger learns nothing from a 413 or a 400 either.
  app.addHook('onRequest', async (request) => {
    if (request.is404 && needsAuthentication(request.url)) await authenticate(service, request);
  });
  app.setValidatorCompiler(validatorCompiler());
  // Only JSON bodies are accepted; any other content type is a 415. An empty JSON body counts as
  // no body, so POSTs whose fields are all optional (a reversal) work with or without one.
  app.removeContentTypeParser(['text/plain']);
  // Keys named __proto__ or constructor are parsed as plain keys and then refused by name (well-formed-text.ts).
  const parseJson = app.getDefaultJsonParser('ignore', 'ignore');
  // Bytes that are not UTF-8 are refused, not replaced with U+FFFD: what is stored is what was sent.
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = typeof body === 'string' ? body : utf8.decode(body);
    } catch {
      done(validationError('The request body is not valid UTF-8', 'body', 'Send the JSON body encoded as UTF-8'));
      return;
    }
    if (text.trim() === '') done(null, undefined);
    else if (nestsDeeperThan(text, MAX_JSON_NESTING)) {
      done(validationError(`The request body nests deeper than ${MAX_JSON_NESTING} levels`, 'body',
        'Send a flatter body: no field of the API nests more than a few levels'));
    } else {
      parseJson(request, text, (error, value) => {
        if (error) return done(error);
        const illFormed = illFormedTextError(value);
        return illFormed ? done(illFormed) : done(null, value);
      });
    }
  });
  limitLargeBodies(app, bodyLimitBytes);
  app.decorateRequest('actor', undefined);
  registerErrorHandling(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'ledger',
        version: '1',
        description: 'Double-entry bookkeeping API. Amounts are integer strings in the smallest currency unit.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'tsk_ API key or JWT access token' } },
      },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.get('/health', { schema: { hide: true } }, async (_request, reply) => {
    const ok = await service.health().catch(() => false);
    return ok ? { status: 'ok' } : reply.code(503).send({ status: 'unavailable' });
  });
  if (options.metrics !== undefined) registerMetrics(app, options.metrics);
  // Liveness: the process answers (a load balancer or an orchestrator restarts it when it does not).
  app.get('/livez', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  // Readiness: the database answers and its schema is current (send traffic here only then).
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const readiness = await service.readiness();
    if (readiness.ready) return { status: 'ok', schema_version: readiness.schema_version };
    return sendError(reply.header('retry-after', '2'), { code: 'UNAVAILABLE', message: `Not ready: ${readiness.reason}`,
      suggestion: 'Check the database (ledger doctor) and the server log; this answers 200 again once the database does' });
  });

  // The OpenAPI document is public so that /docs and code generators can read it without a key.
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());

  await app.register(authRoutes, { service, prefix: '/auth' });

  await app.register(async (api) => {
    requireAuthentication(api, service);
    const routeOptions = { service, batchBodyLimitBytes };
    for (const routes of [currencyRoutes, accountRoutes, periodRoutes, journalEntryRoutes, reportRoutes, settingsRoutes, userRoutes, auditLogRoutes, eventRoutes, webhookRoutes, verifyRoutes,
      bankRoutes, exchangeRateRoutes]) {
      await api.register(routes, routeOptions);
    }
  }, { prefix: API_PREFIX });

  // The Model Context Protocol for agents, over the same service and the same Bearer credentials.
  await app.register(mcpRoutes, { service, bodyLimitBytes: batchBodyLimitBytes, version: options.version });

  const webRoot = options.webRoot !== undefined && existsSync(join(options.webRoot, 'index.html')) ? options.webRoot : undefined;
  if (webRoot !== undefined) {
    // Files are routed one by one (no wildcard), so unknown API paths still reach the JSON 404.
    // Source maps are not served, even if a build left some in the folder.
    await app.register(fastifyStatic, { root: webRoot, prefix: '/', wildcard: false, decorateReply: true, index: ['index.html'],
      allowedPath: (path) => !path.endsWith('.map') });
  }

  app.setNotFoundHandler(async (request, reply) => {
    // Client-side routes of the single-page app (any other GET that wants HTML) get index.html.
    if (webRoot !== undefined && request.method === 'GET' && !isApiPath(request.url)
      && (request.headers.accept ?? '').includes('text/html')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', webRoot);
    }
    return sendError(reply, {
      code: 'NOT_FOUND', message: `No route ${request.method} ${request.url.split('?')[0]}`,
      suggestion: `See ${API_PREFIX}/openapi.json or /docs for the available endpoints`,
    });
  });

  return app;
}

/**
 * Times every request by its route's template (unknown paths as one `unmatched` route), and serves
 * /metrics only to the metrics token: without it, or with another, the path does not exist (404).
 */
function registerMetrics(app: FastifyInstance, metrics: HttpMetrics): void {
  const expected = createHash('sha256').update(`Bearer ${metrics.token}`).digest();
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.requestFinished(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = createHash('sha256').update(request.headers.authorization ?? '').digest();
    if (!timingSafeEqual(given, expected)) {
      return sendError(reply, { code: 'NOT_FOUND', message: `No route GET ${pathOf(request.url)}`,
        suggestion: `See ${API_PREFIX}/openapi.json or /docs for the available endpoints` });
    }
    const scrape = await metrics.render();
    return reply.header('cache-control', 'no-store').type(scrape.contentType).send(scrape.text);
  });
}

/**
 * How long an idle keep-alive connection stays open: Fastify's own default, which a server of our
 * own making (below) does not get. Node's 5 s is shorter than the idle timeout of the load balancers
 * and clients in front of a server (60 s for some): a connection the server closes while the other
 * side sends on it again is reset, and the request fails (seen in the tests as ECONNRESET when a
 * client reused a connection at the moment the server dropped it).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/**
 * Node checks the time a request takes to arrive only every `connectionsCheckingInterval` (30 s by
 * default), so a stalled body could live twice the timeout: it is checked every second instead.
 * The headers get the same bound (Node's own default of 60 s is longer than the whole request's).
 */
function createHttpServer(handler: (request: IncomingMessage, response: ServerResponse) => void, requestTimeoutMs: number): Server {
  return createServer({
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    requestTimeout: requestTimeoutMs, headersTimeout: requestTimeoutMs,
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(requestTimeoutMs / 2))),
  }, handler);
}

/** A hop count trusts that many proxies nearest to the server (Fastify's types take it as a function). */
function trustProxyOption(trustProxy: TrustProxy | undefined): boolean | string | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  return trustProxy ?? false;
}

function isApiPath(url: string): boolean {
  const path = pathOf(url);
  return path.startsWith(`${API_PREFIX}/`) || path === API_PREFIX || path.startsWith('/auth/') || path.startsWith('/docs')
    || path === '/mcp';
}

