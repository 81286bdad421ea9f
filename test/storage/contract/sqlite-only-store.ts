/**
 * A stand-in for the shared `openTestStore()` of test/helpers/test-store.ts (which chooses the
 * backend from LEDGER_TEST_BACKEND) until that helper exists: a fresh, migrated SQLite store in a
 * temporary folder, with the same shape, `{ store, location, close() }`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LedgerStore } from '../../../src/service/ports/ledger-store.js';
import { migrateSqlite, openSqliteStore } from '../../../src/storage/sqlite/sqlite-store.js';

export async function openSqliteTestStore(): Promise<{ store: LedgerStore; location: string; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-contract-'));
  const location = join(dir, 'ledger.db');
  migrateSqlite(location);
  const store = openSqliteStore({ path: location });
  return {
    store,
    location,
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
