/**
 * Migration 17 (SQLite) / 18 (PostgreSQL): a posted entry becomes its own audit record. A ledger in
 * the shape before the migration is made from books written through the API, put back exactly as
 * the code before it left them: every post has a record of its own in audit_log (sealed into the
 * audit chain), the entries carry no credential, request or hash version, and every entry's hash is
 * of the first canonical form. A second store opens it: `verify` is clean before and after, every
 * report reads the same, the whole audit log lists exactly what it listed before (each earlier
 * post once, from its record), and a post after the migration is listed once, from its entry,
 * writing no row of the log.
 */
import { uuidv7 } from 'uuidv7';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/app/open-ledger.js';
import { type AuditRecord, postingRecord } from '../../src/domain/audit.js';
import type { JournalEntryView } from '../../src/domain/types.js';
import { LOCAL_OPERATOR } from '../../src/service/actor.js';
import { entryHash, GENESIS_HASH } from '../../src/service/entry-hash.js';
import type { LedgerService } from '../../src/service/ledger-service.js';
import type { LedgerStore } from '../../src/service/ports/ledger-store.js';
import { AUDIT_SELECT, type AuditRow, toAuditRecord } from '../../src/storage/shared/audit-log.js';
import { type ApiFixture, startApi } from '../helpers/api-fixture.js';
import { rawQuery } from '../helpers/raw-sql.js';
import { testBackend } from '../helpers/test-location.js';
import { buildVerifyBooks, type VerifyBooks } from '../helpers/verify-books.js';

/** The columns and indexes the migration adds, removed as the schema before it had none of them. */
const BACK_TO_OLD_SCHEMA = {
  sqlite: [
    'DROP INDEX journal_entries_audit',
    'DROP INDEX journal_entries_audit_actor',
    ...['hash_version', 'credential_type', 'credential_id', 'request_id'].map((column) => `ALTER TABLE journal_entries DROP COLUMN ${column}`),
    'DELETE FROM schema_migrations WHERE version = 17',
  ],
  postgres: [
    `ALTER TABLE journal_entries DROP COLUMN hash_version, DROP COLUMN credential_type, DROP COLUMN credential_id,
      DROP COLUMN request_id`,
    'DELETE FROM schema_migrations WHERE version = 18',
  ],
} as const;

/** Lets the statements below rewrite posted entries, and puts the refusal back afterwards. */
const HISTORY_EDITS = {
  sqlite: {
    allow: ['DROP TRIGGER journal_entries_no_update'],
    refuse: [`CREATE TRIGGER journal_entries_no_update BEFORE UPDATE ON journal_entries
      BEGIN SELECT RAISE(ABORT, 'journal entries are immutable'); END`],
  },
  postgres: {
    allow: ['ALTER TABLE journal_entries DISABLE TRIGGER journal_entries_immutable'],
    refuse: ['ALTER TABLE journal_entries ENABLE TRIGGER journal_entries_immutable'],
  },
} as const;

async function everyEntry(store: LedgerStore): Promise<JournalEntryView[]> {
  const entries: JournalEntryView[] = [];
  let page = await store.listEntriesInPostingOrder({ limit: 100 });
  entries.push(...page.items);
  while (page.next !== undefined) {
    page = await store.listEntriesInPostingOrder({ limit: 100, after: page.next });
    entries.push(...page.items);
  }
  return entries;
}

/** The whole log through the service, in pages of a few records (so that pages cut across records and posts). */
async function wholeLog(service: LedgerService, sort: 'asc' | 'desc' = 'asc') {
  const records = [];
  let cursor: string | undefined;
  do {
    const page = await service.listAuditLog(LOCAL_OPERATOR, { sort, limit: 7, cursor });
    records.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return records;
}

/** Everything a user reads of the books, entries without what the migration's shape changes. */
async function whatUsersRead(service: LedgerService, books: VerifyBooks) {
  const verified = await service.verifyLedger(LOCAL_OPERATOR);
  const entries = await service.listJournalEntries({ limit: 100 });
  return {
    verified: { ok: verified.ok, problems: verified.problems, checked: verified.checked },
    trialBalance: await service.trialBalance({ as_of_date: '2026-03-31' }),
    balanceSheet: await service.balanceSheet({ as_of_date: '2026-03-31' }),
    incomeStatement: await service.incomeStatement({ start_date: '2026-01-01', end_date: '2026-03-31' }),
    generalLedger: await service.generalLedger({ account_id: books.accounts.cash, start_date: '2026-01-01', end_date: '2026-03-31' }),
    entries: entries.data.map(({ hash: _hash, previous_hash: _previous, hash_version: _version, credential_type: _type,
      credential_id: _credential, request_id: _request, ...entry }) => entry),
  };
}

/**
 * Puts the books back into the shape the code before the migration left them in: a record of its
 * own for every post, sealed; every entry hashed in the first canonical form, the chains and their
 * heads with it; the new columns gone. Answers each entry's hash as it now stands.
 */
async function backToTheOldShape(api: ApiFixture): Promise<Map<string, string>> {
  const { store } = api.service.ctx;
  const entries = await everyEntry(store);
  const records = entries.filter((entry) => entry.entry_type !== 'closing')
    .map((entry): AuditRecord => ({ ...postingRecord({ ...entry, entry_type: entry.entry_type as 'standard' | 'reversal' }), id: uuidv7(), hash: null }));
  await store.write(async (tx) => {
    for (const record of records) await tx.insertAuditRecord(record);
  });
  // Verify seals every record first.
  expect((await api.service.verifyLedger(LOCAL_OPERATOR)).ok).toBe(true);

  const backend = testBackend();
  const heads = new Map<string, string>();
  const hashes = new Map<string, string>();
  for (const statement of HISTORY_EDITS[backend].allow) await rawQuery(api.location, statement);
  for (const entry of entries) {
    const previous = heads.get(entry.currency_id) ?? GENESIS_HASH;
    const hash = entryHash({ ...entry, hash_version: 1 }, previous);
    await rawQuery(api.location, 'UPDATE journal_entries SET previous_hash = $1, hash = $2 WHERE id = $3', [previous, hash, entry.id]);
    heads.set(entry.currency_id, hash);
    hashes.set(entry.id, hash);
  }
  for (const statement of HISTORY_EDITS[backend].refuse) await rawQuery(api.location, statement);
  for (const [currencyId, head] of heads) {
    await rawQuery(api.location, 'UPDATE currency_totals SET chain_hash = $1 WHERE currency_id = $2', [head, currencyId]);
  }
  for (const statement of BACK_TO_OLD_SCHEMA[backend]) await rawQuery(api.location, statement);
  return hashes;
}

describe('a posted entry becomes its own audit record (migration)', () => {
  let api: ApiFixture;
  let books: VerifyBooks;

  beforeEach(async () => {
    api = await startApi();
    books = await buildVerifyBooks((method, path, body) => api.request(method, `/api/v1${path}`, body));
    // A post on or before the lock date: its record names its reason.
    await api.request('PATCH', '/api/v1/settings', { lock_date: '2026-03-07' });
    const late = await api.request('POST', '/api/v1/journal-entries', { entry_date: '2026-03-07', description: 'Late receipt',
      override_reason: 'receipt found late', lines: [{ account_id: books.accounts.cash, debit_amount: '250' }, { account_id: books.accounts.sales, credit_amount: '250' }] });
    expect(late.status).toBe(201);
  }, 60_000);

  afterEach(async () => { await api.close(); });

  it('keeps verify clean, every report and the whole audit log the same, and lists a later post once, from its entry', async () => {
    const before = await whatUsersRead(api.service, books);
    expect(before.verified.ok).toBe(true);

    // The first store stays open, as another server on the database would.
    const oldHashes = await backToTheOldShape(api);
    // The log as the code before the migration listed it: the table, each record with its seal's hash.
    const oldLog = (await rawQuery<AuditRow>(api.location, `SELECT ${AUDIT_SELECT} FROM audit_log ORDER BY occurred_at, id`)).map(toAuditRecord);
    expect(oldLog.every((record) => record.hash !== null)).toBe(true);
    expect(oldLog.filter((record) => record.action === 'journal_entry.create')).toHaveLength(13);
    expect(oldLog.filter((record) => record.action === 'journal_entry.reverse')).toHaveLength(2);
    const oldRows = async () => Number((await rawQuery<{ n: number | string }>(api.location, 'SELECT count(*) AS n FROM audit_log'))[0]!.n);
    const rowsBefore = await oldRows();

    const reopened = await openLedger(api.location);
    try {
      expect(await whatUsersRead(reopened, books)).toEqual(before);
      const entries = await reopened.listJournalEntries({ limit: 100 });
      for (const entry of entries.data) {
        expect(entry).toMatchObject({ hash: oldHashes.get(entry.id), hash_version: 1, credential_type: null, credential_id: null, request_id: null });
      }
      // Every earlier post once, from its record: the log lists exactly what it listed before.
      expect(await wholeLog(reopened)).toEqual(oldLog);
      expect(await wholeLog(reopened, 'desc')).toEqual([...oldLog].reverse());

      // After the migration a post and a reversal (of an entry posted before it) write no row of the log.
      const lastUsd = entries.data.filter((entry) => entry.currency_id === books.currencies.usd)
        .sort((a, b) => b.entry_number - a.entry_number)[0]!;
      const next = await reopened.postJournalEntry(LOCAL_OPERATOR, { entry_date: '2026-03-20', description: 'After the migration',
        lines: [{ account_id: books.accounts.cash, debit_amount: '16000' }, { account_id: books.accounts.sales, credit_amount: '16000' }] });
      expect(next).toMatchObject({ previous_hash: lastUsd.hash, hash_version: 2 });
      const undo = await reopened.reverseJournalEntry(LOCAL_OPERATOR, books.entries.marchSale.id, { entry_date: '2026-03-21' });
      expect(await oldRows()).toBe(rowsBefore);
      const log = await wholeLog(reopened);
      expect(log.slice(0, oldLog.length)).toEqual(oldLog);
      expect(log.slice(oldLog.length)).toEqual([
        { id: next.id, occurred_at: next.posted_at, actor_id: null, credential_type: null, credential_id: null, request_id: null,
          action: 'journal_entry.create', target_type: 'journal_entry', target_id: next.id, changes: null, hash: next.hash },
        { id: undo.id, occurred_at: undo.posted_at, actor_id: null, credential_type: null, credential_id: null, request_id: null,
          action: 'journal_entry.reverse', target_type: 'journal_entry', target_id: books.entries.marchSale.id,
          changes: { reversed_by_id: { old: null, new: undo.id } }, hash: undo.hash },
      ]);
      // The earlier entry reversed: its post from its record, its reversal from the new entry.
      const aboutMarchSale = await reopened.listAuditLog(LOCAL_OPERATOR, { target_id: books.entries.marchSale.id, sort: 'asc' });
      expect(aboutMarchSale.data.map((record) => [record.action, record.id === undo.id])).toEqual(
        [['journal_entry.create', false], ['journal_entry.reverse', true]]);
      expect((await reopened.verifyLedger(LOCAL_OPERATOR)).ok).toBe(true);
    } finally {
      await reopened.ctx.store.close();
    }
  }, 120_000);
});
