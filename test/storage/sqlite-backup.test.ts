/**
 * The SQLite adapter's online backup (`ledger backup`) copies one snapshot even when another
 * connection writes between every two steps: SQLite restarts a plain online backup after each such
 * write, which under steady posting never ends. Deterministic: the writes happen in the progress
 * callback, between steps.
 */
import Database from 'better-sqlite3';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupSqliteFile } from '../../src/storage/sqlite/backup.js';
import { entry, seedBooks, tempFolder, withLedger } from '../helpers/cli.js';
import { rawQuery } from '../helpers/raw-sql.js';
import { testBackend } from '../helpers/test-location.js';

// The online backup is a mechanism of the SQLite file; PostgreSQL has pg_dump.
describe.runIf(testBackend() === 'sqlite')('SQLite online backup', () => {
  const folder = tempFolder('sqlite-backup');
  const source = join(folder.dir, 'books.db');
  let entries = 0;

  beforeAll(async () => {
    const books = await seedBooks(source);
    await withLedger(source, async (service) => {
      const actor = await service.authenticate(books.adminKey);
      await service.postJournalEntries(actor, Array.from({ length: 500 }, (_, index) =>
        entry(books.cash.id, books.sales.id, String(index + 1), '2026-04-01', `Entry ${index}`)));
    });
    entries = 500;
  });

  afterAll(() => folder.remove());

  it('copies the state at its start, in many steps, while another connection writes between every two', async () => {
    const target = join(folder.dir, 'copy.db');
    closeSync(openSync(target, 'wx'));
    const writer = new Database(source);
    writer.pragma('busy_timeout = 5000');
    const write = writer.prepare('INSERT INTO settings (key, value) VALUES (?, ?)');
    const progress: number[] = [];
    let totalPages = 0;
    try {
      const summary = await backupSqliteFile(source, target, {
        pagesPerStep: 4,
        onProgress: (copied, total) => {
          progress.push(copied);
          totalPages = total;
          write.run(`test.written-during-step-${progress.length}`, 'x');
        },
      });
      expect(summary).toEqual({ entries, pages: totalPages, bytes: totalPages * 4096 });
    } finally {
      writer.close();
    }
    // Many steps, each further than the last: the backup never started over.
    expect(progress.length).toBeGreaterThan(10);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(totalPages);

    const count = async (file: string, sql: string) => Number((await rawQuery<{ count: number }>(file, sql))[0]!.count);
    const duringSteps = "SELECT COUNT(*) AS count FROM settings WHERE key LIKE 'test.written-during-step-%'";
    expect(await count(target, 'SELECT COUNT(*) AS count FROM journal_entries')).toBe(entries);
    expect(await count(target, duringSteps)).toBe(0);
    expect(await count(source, duringSteps)).toBe(progress.length);
    expect((await rawQuery<{ integrity_check: string }>(target, 'PRAGMA integrity_check'))[0]!.integrity_check).toBe('ok');
  });
});
