/**
 * Where a test ledger lives on the backend under test. LEDGER_TEST_BACKEND chooses it: `sqlite`
 * (the default) gives a path in a new temp folder, `postgres` a fresh database on the test server
 * (see postgres.ts). The postgres project of vitest.config.ts sets it, so the same test files run
 * once per backend.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from './postgres.js';

export type TestBackend = 'sqlite' | 'postgres';

export function testBackend(): TestBackend {
  const chosen = process.env.LEDGER_TEST_BACKEND ?? 'sqlite';
  if (chosen !== 'sqlite' && chosen !== 'postgres') {
    throw new Error(`LEDGER_TEST_BACKEND must be sqlite or postgres, not ${JSON.stringify(chosen)}`);
  }
  return chosen;
}

export interface TestLocation {
  backend: TestBackend;
  /** What initLedger and openLedger take: the SQLite file's path, or the database's URL. */
  location: string;
  /** The SQLite file (not created yet); undefined on PostgreSQL. */
  sqlitePath: string | undefined;
  /** The temp folder that holds the SQLite file; undefined on PostgreSQL. */
  folder: string | undefined;
  /** Deletes the folder, or drops the database. Call it after closing the store. */
  remove(): Promise<void>;
}

/** A new, empty place for one ledger; `prefix` names the temp folder of a SQLite ledger. */
export async function createTestLocation(prefix = 'ledger-test'): Promise<TestLocation> {
  if (testBackend() === 'postgres') {
    const database = await createTestDatabase();
    return { backend: 'postgres', location: database.url, sqlitePath: undefined, folder: undefined, remove: database.drop };
  }
  const folder = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const sqlitePath = join(folder, 'ledger.db');
  return {
    backend: 'sqlite', location: sqlitePath, sqlitePath, folder,
    async remove() { rmSync(folder, { recursive: true, force: true }); },
  };
}
