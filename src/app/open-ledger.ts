/**
 * The composition root shared by `ledger serve` and the CLI commands: it chooses the SQLite
 * adapter, the system clock and UUIDv7 ids, and builds the service over them.
 */
import { existsSync } from 'node:fs';
import { uuidv7 } from 'uuidv7';
import type { ServiceOptions } from '../service/context.js';
import { LedgerService } from '../service/ledger-service.js';
import type { Runtime } from '../service/ports/runtime.js';
import { migrateSqlite, openSqliteStore } from '../storage/sqlite/sqlite-store.js';
import { MissingDatabaseError } from './missing-database-error.js';

export const systemRuntime: Runtime = {
  clock: { now: () => new Date() },
  newId: uuidv7,
};

export { MissingDatabaseError };

export function databaseExists(path: string): boolean {
  return existsSync(path);
}

/** Creates the database file if missing and applies migrations. */
export async function initLedger(path: string): Promise<void> {
  migrateSqlite(path);
  const service = await openLedger(path);
  await service.ctx.store.close();
}

export async function openLedger(path: string, runtime: Runtime = systemRuntime, options: ServiceOptions = {}): Promise<LedgerService> {
  if (!existsSync(path)) throw new MissingDatabaseError(path);
  const synchronous = process.env.LEDGER_SQLITE_SYNCHRONOUS === 'NORMAL' ? 'NORMAL' : 'FULL';
  const store = openSqliteStore({ path, synchronous });
  return LedgerService.create(store, runtime, { jwtSecret: process.env.LEDGER_JWT_SECRET || undefined, ...options });
}
