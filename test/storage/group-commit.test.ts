/**
 * The SQLite adapter's group commit: jobs queued together share one transaction, a rejected job
 * rolls back only itself, and a transaction that cannot even start fails its jobs without
 * stopping later writes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LedgerError } from '../../src/domain/errors.js';
import type { LedgerStore } from '../../src/service/ports/ledger-store.js';
import { migrateSqlite, openSqliteStore } from '../../src/storage/sqlite/sqlite-store.js';

describe('SQLite group commit', () => {
  let dir: string;
  let path: string;
  let store: LedgerStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-group-commit-'));
    path = join(dir, 'ledger.db');
    migrateSqlite(path);
    store = openSqliteStore({ path, busyTimeoutMs: 50 });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits the jobs queued together and rolls back only the one that fails', async () => {
    const results = await Promise.allSettled([
      store.write(async (tx) => tx.setSetting('a', '1')),
      store.write(async (tx) => {
        await tx.setSetting('b', '2');
        throw new LedgerError('VALIDATION_ERROR', 'refused');
      }),
      store.write(async (tx) => tx.setSetting('c', '3')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect([await store.getSetting('a'), await store.getSetting('b'), await store.getSetting('c')]).toEqual(['1', undefined, '3']);
  });

  it('fails the jobs of a transaction that cannot start, then keeps writing once the file is free', async () => {
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    const blocked = await Promise.allSettled([
      store.write(async (tx) => tx.setSetting('x', '1')),
      store.write(async (tx) => tx.setSetting('y', '2')),
    ]);
    expect(blocked.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    other.exec('ROLLBACK');
    other.close();
    await store.write(async (tx) => tx.setSetting('z', '3'));
    expect([await store.getSetting('x'), await store.getSetting('y'), await store.getSetting('z')]).toEqual([undefined, undefined, '3']);
  });
});
