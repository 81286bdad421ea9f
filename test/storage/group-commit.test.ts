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
import { credit, debit, EntryFixtures, insertBooks, standardBooks } from './contract/fixtures.js';
import type { LedgerStore } from '../../src/service/ports/ledger-store.js';
import { migrateSqlite, openSqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { fts5Structure } from '../helpers/fts5-structure.js';
import { walCommitCount } from '../helpers/wal-commits.js';

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

  it('commits posts queued together in one transaction (counted in the write-ahead log)', async () => {
    const books = standardBooks();
    const fixtures = new EntryFixtures('grouped');
    await store.write((tx) => insertBooks(tx, books));
    const before = walCommitCount(path);
    const entries = Array.from({ length: 48 }, (_, index) =>
      fixtures.entry({ date: '2026-02-10', period: books.february, lines: [debit(books.cash, index + 1), credit(books.sales, index + 1)] }));
    // One of them is refused (an unknown account): it is answered on its own, the others commit.
    const refused = fixtures.entry({ date: '2026-02-10', period: books.february,
      lines: [debit({ ...books.cash, id: 'no-such-account' }, 5), credit(books.sales, 5)] });
    const results = await Promise.allSettled([...entries.slice(0, 24), refused, ...entries.slice(24)]
      .map((entry) => store.write((tx) => tx.insertEntry(entry))));
    expect(results.map((result) => result.status).filter((status) => status === 'rejected')).toHaveLength(1);
    expect(results[24]!.status).toBe('rejected');
    expect((await store.listEntriesInPostingOrder({ limit: 100 })).items).toHaveLength(48);
    // Written together: one commit (or two, when the first job started a group of its own), not 48.
    expect(walCommitCount(path) - before).toBeLessThanOrEqual(2);
  });

  it('commits a job queued alone (a batch, an import) in a transaction of its own, in its place in the queue', async () => {
    const books = standardBooks();
    const fixtures = new EntryFixtures('alone');
    await store.write((tx) => insertBooks(tx, books));
    const sale = (value: number) => fixtures.entry({ date: '2026-02-10', period: books.february, lines: [debit(books.cash, value), credit(books.sales, value)] });
    const small = (value: number) => store.write((tx) => tx.insertEntry(sale(value)));
    const large = (value: number) => store.write(async (tx) => {
      for (let n = 0; n < 3; n++) await tx.insertEntry(sale(value + n));
    }, { alone: true });
    const before = walCommitCount(path);
    // Queued at once: two small jobs, a large one, a small one, two large ones, two small ones.
    await Promise.all([small(1), small(2), large(10), small(3), large(20), large(30), small(4), small(5)]);
    expect(await store.countEntries()).toBe(14);
    // [1, 2] [10] [3] [20] [30] [4, 5]: six commits. Grouped with the others, they would be one.
    expect(walCommitCount(path) - before).toBe(6);
  });

  it('indexes the words of posts queued together as one FTS5 segment, not one per post', async () => {
    const books = standardBooks();
    const fixtures = new EntryFixtures('words');
    await store.write((tx) => insertBooks(tx, books));
    const before = fts5Structure(path, 'entry_words').writeCounter;
    await Promise.all(Array.from({ length: 48 }, (_, index) => store.write((tx) => tx.insertEntry(fixtures.entry({
      date: '2026-02-10', period: books.february, description: `Sale ${index}`, lines: [debit(books.cash, index + 1), credit(books.sales, index + 1)],
    })))));
    // FTS5 writes the terms it holds as a segment at every savepoint; each job has one. Words
    // inserted under each job's savepoint made 48 segments here (about 10 µs a post).
    expect(fts5Structure(path, 'entry_words').writeCounter - before).toBeLessThanOrEqual(2n);
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
