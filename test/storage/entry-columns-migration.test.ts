/**
 * Migration 15 (SQLite) / 16 (PostgreSQL): an entry's chain link and amount move from tables of
 * their own (`entry_hashes`, and `entry_amounts` or `entry_search.debit_total`) onto the entry.
 * A ledger in the shape before the migration (books written through the API, then put back into
 * the old tables exactly as the earlier migrations made them) is opened by a second store: `verify`
 * is clean before and after, every report and entry reads the same, finding by amount still works,
 * and the chain goes on from where it stood.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/app/open-ledger.js';
import { LOCAL_OPERATOR } from '../../src/service/actor.js';
import type { LedgerService } from '../../src/service/ledger-service.js';
import { type ApiFixture, startApi } from '../helpers/api-fixture.js';
import { rawQuery } from '../helpers/raw-sql.js';
import { testBackend } from '../helpers/test-location.js';
import { buildVerifyBooks, type VerifyBooks } from '../helpers/verify-books.js';

/** The old shape, as migrations 6 and 9 (SQLite) or 6 and 11 (PostgreSQL) made it, filled from the entries' columns. */
const BACK_TO_OLD_SHAPE = {
  sqlite: [
    `CREATE TABLE entry_hashes (
      entry_seq     INTEGER PRIMARY KEY REFERENCES journal_entries(seq),
      previous_hash TEXT NOT NULL,
      hash          TEXT NOT NULL
    ) STRICT`,
    'INSERT INTO entry_hashes (entry_seq, previous_hash, hash) SELECT seq, previous_hash, hash FROM journal_entries',
    `CREATE TRIGGER entry_hashes_no_update BEFORE UPDATE ON entry_hashes
     BEGIN SELECT RAISE(ABORT, 'entry hashes are immutable'); END`,
    `CREATE TRIGGER entry_hashes_no_delete BEFORE DELETE ON entry_hashes
     BEGIN SELECT RAISE(ABORT, 'entry hashes are immutable'); END`,
    `CREATE TABLE entry_amounts (
      entry_seq INTEGER PRIMARY KEY REFERENCES journal_entries(seq),
      debit_key TEXT NOT NULL
    ) STRICT`,
    'INSERT INTO entry_amounts (entry_seq, debit_key) SELECT seq, debit_key FROM journal_entries',
    'CREATE INDEX entry_amounts_debit ON entry_amounts(debit_key)',
    'DROP INDEX journal_entries_debit',
    'ALTER TABLE journal_entries DROP COLUMN previous_hash',
    'ALTER TABLE journal_entries DROP COLUMN hash',
    'ALTER TABLE journal_entries DROP COLUMN debit_key',
    'DELETE FROM schema_migrations WHERE version = 15',
  ],
  postgres: [
    `CREATE TABLE entry_hashes (
      entry_seq     bigint PRIMARY KEY REFERENCES journal_entries(seq),
      previous_hash text NOT NULL,
      hash          text NOT NULL
    )`,
    'INSERT INTO entry_hashes (entry_seq, previous_hash, hash) SELECT seq, previous_hash, hash FROM journal_entries',
    `CREATE TRIGGER entry_hashes_immutable BEFORE UPDATE OR DELETE ON entry_hashes
      FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change()`,
    'ALTER TABLE entry_search ADD COLUMN debit_total amount',
    'UPDATE entry_search s SET debit_total = e.debit_total FROM journal_entries e WHERE e.seq = s.entry_seq',
    'ALTER TABLE entry_search ALTER COLUMN debit_total SET NOT NULL',
    'CREATE INDEX entry_search_debit ON entry_search (debit_total)',
    'ALTER TABLE journal_entries DROP COLUMN previous_hash, DROP COLUMN hash, DROP COLUMN debit_total',
    // Only migration 16 is undone: a store opening the database applies whichever migrations are missing.
    'DELETE FROM schema_migrations WHERE version = 16',
  ],
} as const;

/** Everything a user reads of the books: verify, the reports, every entry with its chain link and number, finding by amount. */
async function whatUsersRead(service: LedgerService, books: VerifyBooks) {
  const verified = await service.verifyLedger(LOCAL_OPERATOR);
  return {
    verified: { ok: verified.ok, checked: verified.checked },
    trialBalance: await service.trialBalance({ as_of_date: '2026-03-31' }),
    balanceSheet: await service.balanceSheet({ as_of_date: '2026-03-31' }),
    incomeStatement: await service.incomeStatement({ start_date: '2026-01-01', end_date: '2026-03-31' }),
    generalLedger: await service.generalLedger({ account_id: books.accounts.cash, start_date: '2026-01-01', end_date: '2026-03-31' }),
    entries: await service.listJournalEntries({ limit: 100 }),
    byAmount: await service.listJournalEntries({ min_amount: '12000', max_amount: '20000', limit: 100 }),
  };
}

describe('moving the chain link and the amount onto the entry (migration)', () => {
  let api: ApiFixture;
  let books: VerifyBooks;

  beforeEach(async () => {
    api = await startApi();
    books = await buildVerifyBooks((method, path, body) => api.request(method, `/api/v1${path}`, body));
  }, 60_000);

  afterEach(async () => { await api.close(); });

  it('keeps verify clean and every report, entry and search the same, and the chain goes on', async () => {
    const before = await whatUsersRead(api.service, books);
    expect(before.verified.ok).toBe(true);
    expect(before.byAmount.data.map((entry) => entry.description).sort()).toEqual(
      ['Cash sale, part paid by Globex', 'February rent', 'January rent']);

    // The first store stays open, as another server on the database would.
    for (const statement of BACK_TO_OLD_SHAPE[testBackend()]) await rawQuery(api.location, statement);
    expect((await rawQuery<{ n: number | string }>(api.location, 'SELECT count(*) AS n FROM entry_hashes'))[0]!.n).toEqual(
      testBackend() === 'sqlite' ? books.entryCount : String(books.entryCount));

    const reopened = await openLedger(api.location);
    try {
      expect(await whatUsersRead(reopened, books)).toEqual(before);
      const tables = (await rawQuery<{ name: string }>(api.location, testBackend() === 'sqlite'
        ? "SELECT name FROM sqlite_master WHERE type = 'table'"
        : "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()")).map((row) => row.name);
      expect(tables).not.toContain('entry_hashes');
      expect(tables).not.toContain('entry_amounts');

      const lastUsd = before.entries.data.filter((entry) => entry.currency_id === books.currencies.usd)
        .sort((a, b) => b.entry_number - a.entry_number)[0]!;
      const next = await reopened.postJournalEntry(LOCAL_OPERATOR, { entry_date: '2026-03-20', description: 'After the migration',
        lines: [{ account_id: books.accounts.cash, debit_amount: '16000' }, { account_id: books.accounts.sales, credit_amount: '16000' }] });
      expect(next.previous_hash).toBe(lastUsd.hash);
      expect(next.entry_number).toBe(before.entries.data.length + 1);
      const found = await reopened.listJournalEntries({ min_amount: '16000', max_amount: '16000', limit: 10 });
      expect(found.data.map((entry) => entry.id)).toEqual([next.id]);
      expect((await reopened.verifyLedger(LOCAL_OPERATOR)).ok).toBe(true);
    } finally {
      await reopened.ctx.store.close();
    }
  }, 60_000);
});
