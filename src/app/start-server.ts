/** `ledger serve`: the HTTP server's composition root. */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../http/build-app.js';
import { hostPolicyFor, parseAllowedHosts } from '../http/plugins/host-check.js';
import { parseCorsOrigins } from '../http/plugins/security-headers.js';
import { describeDatabaseLocation, parseDatabaseLocation } from './database-location.js';
import { initLedger, ledgerExists, openLedger } from './open-ledger.js';
import { builtWebRoot, packageVersion } from './package-files.js';
import { parseTrustProxy } from './trust-proxy-setting.js';
import { createMetrics, metricsTokenFrom } from './metrics.js';

export interface ServerOptions {
  /** A SQLite file path or a PostgreSQL URL. */
  database: string;
  port: number;
  host: string;
}

export async function startServer(options: ServerOptions): Promise<void> {
  if (!(await ledgerExists(options.database))) {
    await initLedger(options.database);
    process.stdout.write(`Initialised a new ledger database at ${describeDatabaseLocation(parseDatabaseLocation(options.database))}\n`);
  }
  const trustProxy = parseTrustProxy(process.env.LEDGER_TRUST_PROXY);
  const metricsToken = metricsTokenFrom(process.env);
  const metrics = metricsToken === undefined ? undefined : createMetrics(metricsToken);
  const service = await openLedger(options.database, undefined, { observer: metrics?.observer });
  metrics?.readGaugesFrom(() => service.gauges());
  const bodyLimitBytes = positiveIntegerSetting('LEDGER_BODY_LIMIT_BYTES');
  const batchBodyLimitBytes = positiveIntegerSetting('LEDGER_BATCH_BODY_LIMIT_BYTES');
  const webRoot = process.env.LEDGER_WEB_ROOT ?? builtWebRoot();
  const corsOrigins = parseCorsOrigins(process.env.LEDGER_CORS_ORIGINS);
  const requestTimeoutMs = positiveIntegerSetting('LEDGER_REQUEST_TIMEOUT_MS');
  const hostPolicy = hostPolicyFor(options.host, parseAllowedHosts(process.env.LEDGER_ALLOWED_HOSTS));
  const app = await buildApp({ service, bodyLimitBytes, batchBodyLimitBytes, logLevel: process.env.LEDGER_LOG_LEVEL ?? 'info', webRoot, corsOrigins,
    trustProxy, requestTimeoutMs, hostPolicy, version: packageVersion(), metrics });
  const address = await app.listen({ port: options.port, host: options.host });
  const deliverer = service.startWebhookDelivery({ owner: `${hostname()}:${process.pid}:${randomUUID()}` });
  process.stdout.write(`ledger listening on ${address} (API ${address}/api/v1, docs ${address}/docs)\n`);
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`ledger: ${signal}: finishing the requests in flight, then stopping\n`);
    process.exitCode = await shutDown(app, async () => {
      await deliverer.stop();
      await service.close();
    });
    process.exit();
  };
  process.on('SIGINT', (signal) => void stop(signal));
  process.on('SIGTERM', (signal) => void stop(signal));
}

/** A size or time from the environment: a positive integer, or unset; anything else stops the start. */
function positiveIntegerSetting(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  if (!/^[1-9][0-9]*$/.test(text)) throw new Error(`${name} must be a positive integer, not ${JSON.stringify(text)}`);
  return Number(text);
}

/** How long requests in flight may take to finish once the server is stopping. */
const SHUTDOWN_GRACE_MS = Number(process.env.LEDGER_SHUTDOWN_GRACE_MS ?? 10_000);
/** How often a stopping server closes the keep-alive connections that have gone idle. */
const IDLE_SWEEP_MS = 50;

/**
 * Stops accepting connections, lets the requests in flight finish (a request arriving meanwhile on
 * a kept-alive connection is answered 503), then writes what the store has queued and closes it.
 * Node closes only the connections idle at the moment the server closes; one that was busy stays
 * open after its answer until its keep-alive times out, and so did the process: the idle ones are
 * closed as they go idle. Past the grace period every connection is cut. Answers the exit code.
 */
async function shutDown(app: FastifyInstance, closeStore: () => Promise<void>): Promise<number> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  const cut = setTimeout(() => {
    process.stderr.write(`ledger: requests still in flight after ${SHUTDOWN_GRACE_MS} ms; closing their connections\n`);
    app.server.closeAllConnections();
  }, SHUTDOWN_GRACE_MS);
  try {
    await app.close();
    await closeStore();
    return 0;
  } catch (error) {
    process.stderr.write(`ledger: error while stopping: ${String(error)}\n`);
    return 1;
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
}
