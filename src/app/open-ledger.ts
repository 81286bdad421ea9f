/**
 * The composition root shared by `ledger serve` and the CLI commands: it chooses the storage
 * adapter from the database location (a SQLite file, or a PostgreSQL URL), the system clock and
 * UUIDv7 ids, and builds the service over them. Nothing above this file learns which store it has.
 */
import { randomFillSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { V7Generator } from 'uuidv7';
import type { ServiceOptions } from '../service/context.js';
import { LedgerService } from '../service/ledger-service.js';
import type { LedgerStore } from '../service/ports/ledger-store.js';
import type { LedgerObserver } from '../service/ports/observer.js';
import type { Runtime } from '../service/ports/runtime.js';
import { describeDatabaseLocation, parseDatabaseLocation } from './database-location.js';
import { MissingDatabaseError } from './missing-database-error.js';
import { webhookSettingsFrom } from '../service/webhooks/settings.js';

/**
 * The random numbers of the ids, drawn from the operating system 4 KiB at a time. The library's
 * default draws 32 bytes per `crypto.getRandomValues` call, about one call every two ids: 7% of an
 * import's time (three ids an entry). The bytes are as random; fewer system calls fetch them.
 */
class PooledRandom {
  private readonly pool = new Uint32Array(1024);
  private next = this.pool.length;

  nextUint32(): number {
    if (this.next === this.pool.length) {
      randomFillSync(this.pool);
      this.next = 0;
    }
    return this.pool[this.next++]!;
  }
}

const ids = new V7Generator(new PooledRandom());

export const systemRuntime: Runtime = {
  clock: { now: () => new Date() },
  newId: () => ids.generate().toString(),
};

export { MissingDatabaseError };

/** Creates the database (a SQLite file if missing) and brings its schema up to date. */
export async function initLedger(location: string): Promise<void> {
  const parsed = parseDatabaseLocation(location);
  if (parsed.kind === 'postgres') {
    const { migratePostgres } = await import('../storage/postgres/postgres-store.js');
    await migratePostgres(parsed.url);
  } else {
    const { migrateSqlite } = await import('../storage/sqlite/sqlite-store.js');
    migrateSqlite(parsed.path);
  }
}

/** True when the location holds a ledger whose schema has been created (`ledger init`). */
export async function ledgerExists(location: string): Promise<boolean> {
  const parsed = parseDatabaseLocation(location);
  if (parsed.kind === 'sqlite') return existsSync(parsed.path);
  const { postgresLedgerExists } = await import('../storage/postgres/postgres-store.js');
  return postgresLedgerExists(parsed.url);
}

/** Opens the store at an initialised location; a missing ledger is a MissingDatabaseError. `observer` hears of every committed write group. */
export async function openStore(location: string, observer?: LedgerObserver): Promise<LedgerStore> {
  const parsed = parseDatabaseLocation(location);
  if (parsed.kind === 'postgres') {
    const { openPostgresStore } = await import('../storage/postgres/postgres-store.js');
    return openPostgresStore({
      url: parsed.url,
      poolSize: process.env.LEDGER_PG_POOL_SIZE ? Number(process.env.LEDGER_PG_POOL_SIZE) : undefined,
      missing: () => new MissingDatabaseError(describeDatabaseLocation(parsed)),
      observer,
    });
  }
  if (!existsSync(parsed.path)) throw new MissingDatabaseError(parsed.path);
  const { openSqliteStore } = await import('../storage/sqlite/sqlite-store.js');
  const synchronous = process.env.LEDGER_SQLITE_SYNCHRONOUS === 'NORMAL' ? 'NORMAL' : 'FULL';
  return openSqliteStore({ path: parsed.path, synchronous, observer });
}

export async function openLedger(location: string, runtime: Runtime = systemRuntime, options: ServiceOptions = {}): Promise<LedgerService> {
  const store = await openStore(location, options.observer);
  try {
    return await LedgerService.create(store, runtime, {
      jwtSecret: process.env.LEDGER_JWT_SECRET || undefined, webhooks: webhookSettingsFrom(process.env), ...options,
    });
  } catch (error) {
    await store.close();
    throw error;
  }
}
