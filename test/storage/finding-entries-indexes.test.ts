/**
 * Finding entries reads indexes, not the whole journal (docs/api.md, "Finding entries"): the plan
 * of each filter of GET /journal-entries uses the index made for it, on both stores. Timings on a
 * million-line ledger belong to the bench (bench/), not here. Also: a ledger posted before the
 * search existed is searchable once migrated.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDatabaseLocation } from '../../src/app/database-location.js';
import { queryWords } from '../../src/domain/journal/search-words.js';
import { BACKFILL_BATCH_SQL } from '../../src/storage/postgres/entry-search.js';
import type { JournalEntry } from '../../src/domain/types.js';
import { credit, debit, EntryFixtures, insertBooks, standardBooks } from './contract/fixtures.js';
import { rawQuery } from '../helpers/raw-sql.js';
import { openStoreAt, openTestStore, type TestStore } from '../helpers/test-store.js';
import { testBackend } from '../helpers/test-location.js';

const ENTRIES = 3000;
const books = standardBooks();

/** The planner's plan of a statement, as one text. */
async function planOf(location: string, sql: string, params: unknown[]): Promise<string> {
  const parsed = parseDatabaseLocation(location);
  if (parsed.kind === 'sqlite') {
    const rows = await rawQuery<{ detail: string }>(location, `EXPLAIN QUERY PLAN ${sql.replace(/\$(\d+)(::\w+)?/g, '$$$1')}`, params);
    return rows.map((row) => row.detail).join('\n');
  }
  const client = new pg.Client({ connectionString: parsed.url });
  await client.connect();
  try {
    await client.query('ANALYZE');
    // A few thousand rows fit in a few pages, which PostgreSQL rightly reads whole; on a large
    // ledger the index is the cheaper path. Ruling out whole-table reads asks whether one exists.
    await client.query('SET enable_seqscan = off');
    const rows = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).rows;
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.end();
  }
}

function bookOf(fixtures: EntryFixtures, index: number): JournalEntry {
  const day = String((index % 28) + 1).padStart(2, '0');
  return fixtures.entry({
    date: `2026-01-${day}`, period: books.january, description: `Sale number ${index} to customer ${index % 97}`,
    reference: `INV-${index}`, lines: [debit(books.cash, index + 1, `item ${index}`), credit(books.sales, index + 1)],
  });
}

describe('finding entries on indexes', () => {
  let current: TestStore;
  beforeEach(async () => {
    current = await openTestStore();
    const fixtures = new EntryFixtures();
    await current.store.write(async (tx) => {
      await insertBooks(tx, books);
      for (let index = 0; index < ENTRIES; index += 1) await tx.insertEntry(bookOf(fixtures, index));
    });
  });
  afterEach(async () => { await current.close(); });

  const sqlite = () => testBackend() === 'sqlite';

  it('finds entries by words through the full-text index', async () => {
    const plan = sqlite()
      ? await planOf(current.location, 'SELECT e.id FROM journal_entries e WHERE e.seq IN (SELECT rowid FROM entry_words WHERE entry_words MATCH $1) ORDER BY e.entry_date, e.seq LIMIT 51', ['"custom"* AND "12"*'])
      // On a few thousand rows PostgreSQL walks entry_search's primary key rather than the GIN
      // index (cheaper there); the words' own lookup shows the index answers the filter.
      : await planOf(current.location, 'SELECT entry_seq FROM entry_search WHERE words @@ $1::tsquery', ["'custom':* & '1234':*"]);
    expect(plan).toMatch(sqlite() ? /VIRTUAL TABLE INDEX/ : /entry_search_words/);
    expect(plan).not.toMatch(sqlite() ? /SCAN e\b/ : /Seq Scan/);
  });

  it('finds entries by reference, type and amount through their indexes', async () => {
    const reference = await planOf(current.location,
      'SELECT e.id FROM journal_entries e WHERE e.reference = $1 ORDER BY e.entry_date, e.seq LIMIT 51', ['INV-17']);
    expect(reference).toMatch(/journal_entries_reference/);
    const type = await planOf(current.location,
      'SELECT e.id FROM journal_entries e WHERE e.entry_type = $1 ORDER BY e.entry_date, e.seq LIMIT 51', ['reversal']);
    expect(type).toMatch(/journal_entries_type/);
    const amount = sqlite()
      ? await planOf(current.location, 'SELECT e.id FROM journal_entries e WHERE e.debit_key BETWEEN $1 AND $2 ORDER BY e.entry_date, e.seq LIMIT 51',
        ['17'.padStart(39, '0'), '20'.padStart(39, '0')])
      : await planOf(current.location, 'SELECT e.id FROM journal_entries e WHERE e.debit_total >= $1::numeric AND e.debit_total <= $2::numeric ORDER BY e.entry_date, e.seq LIMIT 51',
        ['17', '20']);
    expect(amount).toMatch(/journal_entries_debit/);
  });

  it.runIf(testBackend() === 'postgres')('backfills each batch from its cursor, not from the first line (PostgreSQL)', async () => {
    // Without the lines' own bound the lines' index was read from the start for every batch.
    const plan = await planOf(current.location, BACKFILL_BATCH_SQL, ['1500', 1000]);
    expect(plan).toMatch(/Index Cond: \(\w*\.?entry_seq > /);
    expect(plan).not.toMatch(/Seq Scan/);
  });

  it('makes the entries of a ledger from before the search findable when it migrates', async () => {
    // The store of beforeEach stays open, as another server on the database would.
    const { location } = current;
    // The amounts are columns of the entries since migration 15 (SQLite) / 16 (PostgreSQL); the words are rebuilt here.
    const [words, version] = sqlite() ? ['entry_words', 9] : ['entry_search', 11];
    await rawQuery(location, `DROP TABLE ${words}`);
    await rawQuery(location, 'DROP INDEX journal_entries_reference');
    await rawQuery(location, 'DROP INDEX journal_entries_type');
    await rawQuery(location, `DELETE FROM schema_migrations WHERE version = ${version}`);
    const reopened = await openStoreAt(testBackend(), location);
    try {
      const found = await reopened.listEntries({ words: queryWords('customer 35 item 1005') }, 'asc', { limit: 10 });
      expect(found.items.map((entry) => entry.description)).toEqual(['Sale number 1005 to customer 35']);
      const byAmount = await reopened.listEntries({ min_amount: 2999n }, 'asc', { limit: 10 });
      expect(byAmount.items.map((entry) => entry.reference)).toEqual(['INV-2998', 'INV-2999']);
    } finally {
      await reopened.close();
    }
  });
});
