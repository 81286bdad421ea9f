/**
 * The audit log reads indexes, not the whole log or journal (docs/audit.md, "Storage and cost"): a
 * page of the log is the audit_log table merged with the posts read from their entries, each
 * source one index range in log order, for every filter and both orders, on both stores. Timings
 * belong to the bench; here the plans show that no source is read whole and nothing is sorted.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDatabaseLocation } from '../../src/app/database-location.js';
import type { AuditLogFilter, PageRequest } from '../../src/service/ports/ledger-store.js';
import { auditRecordFixture, credit, debit, EntryFixtures, insertBooks, standardBooks } from './contract/fixtures.js';
import { rawQuery } from '../helpers/raw-sql.js';
import { openTestStore, type TestStore } from '../helpers/test-store.js';
import { testBackend } from '../helpers/test-location.js';

const ENTRIES = 3000;
const books = standardBooks();

/** The planner's plan of a statement, as one text. */
async function planOf(location: string, sql: string, params: unknown[]): Promise<string> {
  const parsed = parseDatabaseLocation(location);
  if (parsed.kind === 'sqlite') {
    const rows = await rawQuery<{ detail: string }>(location, `EXPLAIN QUERY PLAN ${sql}`, params);
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

describe('the audit log on indexes', () => {
  let current: TestStore;
  beforeAll(async () => {
    current = await openTestStore();
    const fixtures = new EntryFixtures();
    await current.store.write(async (tx) => {
      await insertBooks(tx, books);
      for (let index = 0; index < ENTRIES; index += 1) {
        const day = String((index % 28) + 1).padStart(2, '0');
        const entry = fixtures.entry({
          date: `2026-01-${day}`, period: books.january, created_by: `user-${index % 50}`, credential_type: 'api_key',
          credential_id: `key-${index % 50}`, request_id: `request-${index}`, hash_version: index < ENTRIES / 3 ? 1 : 2,
          posted_at: new Date(Date.parse('2026-01-01T00:00:00.000Z') + index * 60_000).toISOString(),
          lines: [debit(books.cash, index + 1), credit(books.sales, index + 1)],
        });
        await tx.insertEntry(entry);
        if (index % 10 === 0) {
          await tx.insertEntry(fixtures.reversal(entry, [books.cash, books.sales], entry.entry_date, books.january));
        }
        await tx.insertAuditRecord(auditRecordFixture(index + 1, { actor_id: `user-${index % 50}` }));
      }
    });
  }, 120_000);
  afterAll(async () => { await current?.close(); });

  const sqlite = () => testBackend() === 'sqlite';
  /** The plan of the adapter's own listing query (SQLite's `?` markers numbered, as rawQuery binds them). */
  const plan = async (filter: AuditLogFilter, page: PageRequest = { limit: 50 }) => {
    const { auditLogListing } = sqlite()
      ? await import('../../src/storage/sqlite/audit-log.js') : await import('../../src/storage/postgres/audit-log.js');
    const { sql, params } = auditLogListing(filter, page);
    let position = 0;
    return planOf(current.location, sqlite() ? sql.replace(/\?/g, () => `$${++position}`) : sql, params);
  };

  /**
   * Each filter, the index each source of posts reads it through, and whether it matches so many
   * posts that a source must be read in order, never gathered and sorted (PostgreSQL rightly
   * sorts the few dozen rows an index range of a narrow filter finds).
   */
  const FILTERS: { filter: AuditLogFilter; entries: RegExp; many: boolean }[] = [
    { filter: {}, entries: /journal_entries_audit\b/, many: true },
    { filter: { actor_id: 'user-7' }, entries: /journal_entries_audit_actor/, many: false },
    { filter: { action: 'journal_entry.create' }, entries: /journal_entries_audit\b/, many: true },
    { filter: { action: 'journal_entry.reverse' }, entries: /journal_entries_audit\b/, many: true },
    { filter: { start_date: '2026-01-02', end_date: '2026-01-02' }, entries: /journal_entries_audit\b/, many: false },
    // Either index bounds this one: the planner weighs the actor against the dates.
    { filter: { actor_id: 'user-7', action: 'journal_entry.create', start_date: '2026-01-02' }, entries: /journal_entries_audit/, many: false },
  ];
  const CURSOR = ['2026-01-02T00:00:00.000Z', 'x'];

  it('reads each source of a page as one index range in log order, for every filter, in both orders, from any page', async () => {
    for (const { filter, entries, many } of FILTERS) {
      for (const order of ['desc', 'asc'] as const) {
        for (const page of [{ limit: 50 }, { limit: 50, after: CURSOR }]) {
          const text = await plan({ ...filter, order }, page);
          const what = `${JSON.stringify({ ...filter, order })}${page.after ? ' after a cursor' : ''}:\n${text}`;
          expect(text, what).toMatch(entries);
          if (sqlite()) {
            // MERGE of sources read in order: nothing read whole (SCAN of the entries) or sorted (a temporary b-tree).
            expect(text, what).toMatch(/MERGE \(UNION ALL\)/);
            expect(text, what).not.toMatch(/SCAN journal_entries|TEMP B-TREE/);
          } else {
            expect(text, what).toMatch(/Merge Append/);
            expect(text, what).not.toMatch(/Seq Scan/);
            if (many) expect(text, what).not.toMatch(/Sort  \(|Bitmap Heap Scan/);
          }
        }
      }
    }
  });

  it('finds the posts about an entry through the unique keys of entries and reversals', async () => {
    for (const page of [{ limit: 50 }, { limit: 50, after: CURSOR }]) {
      const text = await plan({ target_id: 'entry-2500' }, page);
      expect(text).toMatch(sqlite() ? /journal_entries USING INDEX sqlite_autoindex_journal_entries_1 \(id=\?\)/ : /journal_entries_id_key/);
      expect(text).toMatch(sqlite() ? /journal_entries USING INDEX sqlite_autoindex_journal_entries_2 \(reverses_id=\?\)/
        : /journal_entries_reverses_id_key/);
      expect(text).toMatch(/audit_log_target/);
      expect(text).not.toMatch(sqlite() ? /SCAN journal_entries/ : /Seq Scan/);
    }
  });
});
