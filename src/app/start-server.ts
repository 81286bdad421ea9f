/** `ledger serve`: the HTTP server's composition root. */
import { fileURLToPath } from 'node:url';
import { buildApp } from '../http/build-app.js';
import { parseCorsOrigins } from '../http/plugins/security-headers.js';
import { describeDatabaseLocation, parseDatabaseLocation } from './database-location.js';
import { initLedger, ledgerExists, openLedger } from './open-ledger.js';
import { parseTrustProxy } from './trust-proxy-setting.js';

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
  const service = await openLedger(options.database);
  const bodyLimitBytes = process.env.LEDGER_BODY_LIMIT_BYTES ? Number(process.env.LEDGER_BODY_LIMIT_BYTES) : undefined;
  const batchBodyLimitBytes = process.env.LEDGER_BATCH_BODY_LIMIT_BYTES ? Number(process.env.LEDGER_BATCH_BODY_LIMIT_BYTES) : undefined;
  const webRoot = process.env.LEDGER_WEB_ROOT ?? fileURLToPath(new URL('../web/', import.meta.url));
  const corsOrigins = parseCorsOrigins(process.env.LEDGER_CORS_ORIGINS);
  const app = await buildApp({ service, bodyLimitBytes, batchBodyLimitBytes, logLevel: process.env.LEDGER_LOG_LEVEL ?? 'info', webRoot, corsOrigins,
    trustProxy });
  const address = await app.listen({ port: options.port, host: options.host });
  process.stdout.write(`ledger listening on ${address} (API ${address}/api/v1, docs ${address}/docs)\n`);
  const stop = async () => {
    await app.close();
    await service.ctx.store.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}
