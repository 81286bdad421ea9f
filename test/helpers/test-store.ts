/**
 * A migrated, open LedgerStore on the backend under test (LEDGER_TEST_BACKEND), for tests that
 * drive the store or the service directly rather than through the HTTP app.
 */
import type { LedgerStore } from '../../src/service/ports/ledger-store.js';
import { createTestLocation } from './test-location.js';

export interface TestStore {
  store: LedgerStore;
  /** The SQLite file's path or the PostgreSQL database's URL, for rawQuery. */
  location: string;
  /** Closes the store, then deletes the file or drops the database. */
  close(): Promise<void>;
}

export async function openTestStore(): Promise<TestStore> {
  const place = await createTestLocation('ledger-store');
  try {
    const store = await openStoreAt(place.backend, place.location);
    let closed = false;
    return {
      store,
      location: place.location,
      async close() {
        if (closed) return;
        closed = true;
        try {
          await store.close();
        } finally {
          await place.remove();
        }
      },
    };
  } catch (error) {
    await place.remove();
    throw error;
  }
}

/**
 * Each adapter is imported only when its backend is under test, so the SQLite runs need nothing
 * of PostgreSQL and the other way round.
 */
export async function openStoreAt(backend: 'sqlite' | 'postgres', location: string): Promise<LedgerStore> {
  if (backend === 'postgres') {
    const { migratePostgres, openPostgresStore } = await import('../../src/storage/postgres/postgres-store.js');
    await migratePostgres(location);
    return openPostgresStore({ url: location, missing: () => new Error('missing') });
  }
  const { migrateSqlite, openSqliteStore } = await import('../../src/storage/sqlite/sqlite-store.js');
  migrateSqlite(location);
  // NORMAL skips the fsync of each commit: durability is not what these tests are about, speed is.
  return openSqliteStore({ path: location, synchronous: 'NORMAL' });
}
