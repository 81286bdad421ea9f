/**
 * The benchmark's row-for-row copy of a SQLite ledger into PostgreSQL (bench/pg-copy.ts: the
 * PostgreSQL ledger of `npm run bench -- --backend postgres --only reports`). It refuses a table it
 * does not know, and so it had stopped working when the bank, rate, event and webhook tables came;
 * this runs it on books that fill those tables, and then PostgreSQL must show the same books and
 * go on numbering entries and events after the copied ones.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySqliteLedger } from '../../bench/pg-copy.js';
import { entry, ledger, ledgerJson, tempFolder } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { type Books, seedRichBooks } from '../helpers/rich-books.js';
import { testBackend } from '../helpers/test-location.js';

/**
 * What the reports benchmark reads, as the CLI prints it: the journal and each currency's trial
 * balance. (`ledger copy`'s tests compare every view; the copy itself compares every table's row
 * count and every maintained total with the lines.)
 */
function views(db: string, books: Books): unknown[] {
  return [['journal-entries', 'list', '--limit', '200'],
    ...[books.usd.id, books.eur.id, books.eth.id].map((currency) => ['reports', 'trial-balance', '--currency', currency])]
    .map((args) => ledgerJson(args, { db }));
}

/** The change feed from its start, as `ledger events tail --after 0 --json` prints it. */
function feed(db: string): { seq: string; type: string; data: { entry_number?: number } }[] {
  const run = ledger(['--json', 'events', 'tail', '--after', '0'], { db });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim().split('\n').map((line) => JSON.parse(line));
}

describe.runIf(testBackend() === 'postgres')('the benchmark\'s copy of a SQLite ledger into PostgreSQL (bench/pg-copy.ts)', () => {
  const folder = tempFolder('pg-copy');
  const source = join(folder.dir, 'source.db');
  let books: Books;
  let database: TestDatabase;

  beforeAll(async () => {
    books = await seedRichBooks(source);
    database = await createTestDatabase();
  }, 120_000);
  afterAll(async () => {
    await database?.drop();
    folder.remove();
  });

  it('copies books with bank statements, reconciliations, rates and events: the same journal, trial balances and change feed', async () => {
    const copied = await copySqliteLedger(source, database.url);
    expect(copied.rows).toBeGreaterThan(0);
    expect(views(database.url, books)).toEqual(views(source, books));
    expect(feed(database.url)).toEqual(feed(source));
  }, 120_000);

  it('leaves PostgreSQL numbering the next entry and the next event after the copied ones', () => {
    const before = feed(source);
    const lastNumber = Math.max(...(ledgerJson(['journal-entries', 'list', '--limit', '200'], { db: source }).data as { entry_number: number }[])
      .map((shown) => shown.entry_number));
    const body = JSON.stringify(entry(books.cash.id, books.sales.id, '1000', '2026-07-02', 'Posted after the copy'));
    const posted = ledgerJson(['journal-entries', 'create', '--file', '-'], { db: database.url, apiKey: books.posterKey, input: body });
    expect(posted.data.entry_number).toBe(lastNumber + 1);
    const after = feed(database.url);
    expect(after.slice(0, -1)).toEqual(before);
    expect(after.at(-1)).toMatchObject({ seq: String(Number(before.at(-1)!.seq) + 1), type: 'entry.posted', data: { entry_number: lastNumber + 1 } });
  }, 60_000);
});
