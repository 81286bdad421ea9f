/**
 * Migration 16 (SQLite) / 17 (PostgreSQL): an entry's lines are keyed by (entry_seq, seq), on
 * SQLite in a table without row ids (the lines live in their entry's range), and the index of the
 * lines by entry goes. A ledger in the shape before the migration (books and a bank
 * reconciliation written through the API, then the lines put back into the table migration 1
 * made) is opened by a second store: `verify` is clean before and after, every report, entry,
 * line, bank line and reconciliation reads the same, the references to lines (matches, marks,
 * reconciled lines) still hold, the lines are still immutable, and posting goes on after them.
 */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDatabaseLocation } from '../../src/app/database-location.js';
import { openLedger } from '../../src/app/open-ledger.js';
import { LOCAL_OPERATOR } from '../../src/service/actor.js';
import type { LedgerService } from '../../src/service/ledger-service.js';
import { type ApiFixture, dataOf, postEntry, startApi } from '../helpers/api-fixture.js';
import { bankBooks, bankLinesOf, importCsv, semicolonCsv } from '../helpers/bank-books.js';
import { rawQuery } from '../helpers/raw-sql.js';
import { testBackend } from '../helpers/test-location.js';
import { buildVerifyBooks, type VerifyBooks } from '../helpers/verify-books.js';

/** journal_lines as migration 1 made it (a row id, the line id unique, three indexes), filled from the table as it is. */
const SQLITE_OLD_SHAPE = `
BEGIN IMMEDIATE;
CREATE TABLE journal_lines_old (
  seq               INTEGER PRIMARY KEY,
  id                TEXT NOT NULL UNIQUE,
  entry_seq         INTEGER NOT NULL REFERENCES journal_entries(seq),
  account_id        TEXT NOT NULL REFERENCES accounts(id),
  parent_account_id TEXT REFERENCES accounts(id),
  entry_date        TEXT NOT NULL,
  debit_amount      TEXT NOT NULL,
  credit_amount     TEXT NOT NULL,
  description       TEXT
) STRICT;
INSERT INTO journal_lines_old (seq, id, entry_seq, account_id, parent_account_id, entry_date, debit_amount, credit_amount, description)
  SELECT seq, id, entry_seq, account_id, parent_account_id, entry_date, debit_amount, credit_amount, description
  FROM journal_lines ORDER BY entry_seq, seq;
DROP TABLE journal_lines;
ALTER TABLE journal_lines_old RENAME TO journal_lines;
CREATE INDEX journal_lines_account ON journal_lines(account_id, entry_date, seq);
CREATE INDEX journal_lines_parent ON journal_lines(parent_account_id, entry_date, seq) WHERE parent_account_id IS NOT NULL;
CREATE INDEX journal_lines_entry ON journal_lines(entry_seq);
CREATE TRIGGER journal_lines_no_update BEFORE UPDATE ON journal_lines
BEGIN SELECT RAISE(ABORT, 'journal lines are immutable'); END;
CREATE TRIGGER journal_lines_no_delete BEFORE DELETE ON journal_lines
BEGIN SELECT RAISE(ABORT, 'journal lines are immutable'); END;
DELETE FROM schema_migrations WHERE version = 16;
COMMIT;
`;

const POSTGRES_OLD_SHAPE = [
  'ALTER TABLE journal_lines DROP CONSTRAINT journal_lines_pkey, ADD CONSTRAINT journal_lines_pkey PRIMARY KEY (seq)',
  'CREATE INDEX journal_lines_entry ON journal_lines (entry_seq)',
  'DELETE FROM schema_migrations WHERE version = 17',
];

async function backToOldShape(location: string): Promise<void> {
  const parsed = parseDatabaseLocation(location);
  if (parsed.kind === 'postgres') {
    for (const statement of POSTGRES_OLD_SHAPE) await rawQuery(location, statement);
    return;
  }
  // Foreign keys off, as the table others refer to is rebuilt (SQLite's way of changing a key).
  const db = new Database(parsed.path, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = OFF');
    db.exec(SQLITE_OLD_SHAPE);
  } finally {
    db.close();
  }
}

/** The lines' indexes and key as the database describes them. */
async function lineIndexes(location: string): Promise<{ withoutRowId: boolean; indexes: string[] }> {
  if (testBackend() === 'sqlite') {
    const table = await rawQuery<{ sql: string }>(location, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'journal_lines'");
    const indexes = await rawQuery<{ name: string }>(location, "SELECT name FROM pragma_index_list('journal_lines')");
    return { withoutRowId: /WITHOUT ROWID/.test(table[0]!.sql), indexes: indexes.map((row) => row.name).sort() };
  }
  const indexes = await rawQuery<{ indexdef: string }>(location,
    "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'journal_lines'");
  return { withoutRowId: false, indexes: indexes.map((row) => row.indexdef.replace(/ ON \S+ USING btree/, '')).sort() };
}

/**
 * A bank account's March: two bank lines matched to entries, one excluded, the opening balance
 * marked cleared and the reconciliation finished (its lines reconciled for good), then April's
 * reconciliation left open with the cheque marked cleared: every table that refers to a line by id.
 */
async function reconciledBank(api: ApiFixture) {
  const books = await bankBooks(api);
  const opening = await postEntry(api, books.bank.id, books.equity.id, '100000', '2026-03-01', 'Opening balance');
  const fee = await postEntry(api, books.fees.id, books.bank.id, '990', '2026-03-04', 'Account fee');
  const payment = await postEntry(api, books.bank.id, books.receivables.id, '150000', '2026-03-06', 'ACME pays');
  const cheque = await postEntry(api, books.fees.id, books.bank.id, '25000', '2026-03-30', 'Cheque 1042');
  dataOf(await importCsv(api, books.bank.id, semicolonCsv([
    ['04.03.2026', 'Entgelt Kontoführung', '-9,90', '990,10'],
    ['06.03.2026', 'Gutschrift ACME', '1.500,00', '2.490,10'],
    ['20.03.2026', 'REWE', '-54,20', '2.435,90'],
  ])), 201);
  const lines = await bankLinesOf(api, `account_id=${books.bank.id}`);
  const onBank = (entry: any) => entry.lines.find((line: any) => line.account_id === books.bank.id).id as string;
  dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[0].id}/match`, { journal_entry_ids: [fee.id] }));
  dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[1].id}/match`, { journal_entry_ids: [payment.id] }));
  dataOf(await api.request('POST', `/api/v1/bank-lines/${lines[2].id}/exclude`, { reason: 'Disputed with the bank' }));
  const march = dataOf(await api.request('POST', '/api/v1/reconciliations', { account_id: books.bank.id, statement_date: '2026-03-31',
    statement_balance: '249010' }), 201);
  dataOf(await api.request('POST', `/api/v1/reconciliations/${march.id}/clear`, { journal_line_ids: [onBank(opening)] }));
  dataOf(await api.request('POST', `/api/v1/reconciliations/${march.id}/finish`));
  const april = dataOf(await api.request('POST', '/api/v1/reconciliations', { account_id: books.bank.id, statement_date: '2026-04-30',
    statement_balance: '224010' }), 201);
  dataOf(await api.request('POST', `/api/v1/reconciliations/${april.id}/clear`, { journal_line_ids: [onBank(cheque)] }));
  return { bank: books.bank.id, reconciliations: [march.id as string, april.id as string] };
}

/** Everything a user reads of the books and the bank, with every entry's lines. */
async function whatUsersRead(service: LedgerService, books: VerifyBooks, bank: Awaited<ReturnType<typeof reconciledBank>>) {
  const verified = await service.verifyLedger(LOCAL_OPERATOR);
  const range = { start_date: '2026-01-01', end_date: '2026-03-31' };
  return {
    verified: { ok: verified.ok, checked: verified.checked },
    trialBalance: await service.trialBalance({ as_of_date: '2026-03-31' }),
    midPeriodTrialBalance: await service.trialBalance({ as_of_date: '2026-03-05' }),
    balanceSheet: await service.balanceSheet({ as_of_date: '2026-03-31' }),
    incomeStatement: await service.incomeStatement(range),
    cashLedger: await service.generalLedger({ account_id: books.accounts.cash, ...range }),
    receivablesLedger: await service.generalLedger({ account_id: books.accounts.receivables, ...range }),
    bankLedger: await service.generalLedger({ account_id: bank.bank, ...range, sort: 'desc' }),
    cashTransactions: await service.listAccountTransactions(books.accounts.cash, { limit: 200 }),
    entries: await service.listJournalEntries({ limit: 200 }),
    bankLines: await service.listBankLines({ account_id: bank.bank, limit: 200 }),
    reconciliations: await Promise.all(bank.reconciliations.map((id) => service.getReconciliation(id))),
  };
}

describe('keying the lines by their entry (migration)', () => {
  let api: ApiFixture;
  let books: VerifyBooks;
  let bank: Awaited<ReturnType<typeof reconciledBank>>;

  beforeEach(async () => {
    api = await startApi();
    books = await buildVerifyBooks((method, path, body) => api.request(method, `/api/v1${path}`, body));
    bank = await reconciledBank(api);
  }, 60_000);

  afterEach(async () => { await api.close(); });

  it('keeps verify clean and every report, entry, line and reconciliation the same, and posting goes on', async () => {
    const before = await whatUsersRead(api.service, books, bank);
    expect(before.verified.ok).toBe(true);
    expect(before.reconciliations.map((reconciliation) => reconciliation.status)).toEqual(['finished', 'open']);

    // The first store stays open, as another server on the database would.
    await backToOldShape(api.location);
    expect((await lineIndexes(api.location)).indexes.join(' ')).toMatch(/journal_lines_entry/);

    const reopened = await openLedger(api.location);
    try {
      expect(await whatUsersRead(reopened, books, bank)).toEqual(before);
      const shape = await lineIndexes(api.location);
      if (testBackend() === 'sqlite') {
        expect(shape).toEqual({ withoutRowId: true, indexes: ['journal_lines_account', 'journal_lines_parent',
          'sqlite_autoindex_journal_lines_1', 'sqlite_autoindex_journal_lines_2'] });
        expect(await rawQuery(api.location, 'SELECT * FROM pragma_foreign_key_check')).toEqual([]);
      } else {
        expect(shape.indexes).toEqual([
          'CREATE INDEX journal_lines_account (account_id, entry_date, seq)',
          'CREATE INDEX journal_lines_parent (parent_account_id, entry_date, seq) WHERE (parent_account_id IS NOT NULL)',
          'CREATE UNIQUE INDEX journal_lines_id_key (id)',
          'CREATE UNIQUE INDEX journal_lines_pkey (entry_seq, seq)',
        ]);
      }
      await expect(rawQuery(api.location, "UPDATE journal_lines SET description = 'changed'")).rejects.toThrow(/immutable/);
      await expect(rawQuery(api.location, 'DELETE FROM journal_lines')).rejects.toThrow(/immutable/);

      // A line posted now goes after every line posted before, in the entry's own order.
      const next = await reopened.postJournalEntry(LOCAL_OPERATOR, { entry_date: '2026-03-31', description: 'After the migration', lines: [
        { account_id: books.accounts.rent, debit_amount: '700' }, { account_id: books.accounts.cash, credit_amount: '500' },
        { account_id: books.accounts.acme, credit_amount: '200' }] });
      expect(next.lines.map((line) => line.account_id)).toEqual([books.accounts.rent, books.accounts.cash, books.accounts.acme]);
      const cash = await reopened.generalLedger({ account_id: books.accounts.cash, start_date: '2026-01-01', end_date: '2026-03-31' });
      expect(cash.lines.at(-1)!.journal_entry_id).toBe(next.id);
      expect(cash.lines.slice(0, -1)).toEqual(before.cashLedger.lines);
      const receivables = await reopened.generalLedger({ account_id: books.accounts.receivables, start_date: '2026-03-31', end_date: '2026-03-31' });
      expect(receivables.lines.map((line) => line.journal_entry_id)).toEqual([next.id]);
      expect((await reopened.getJournalEntry(next.id)).lines).toEqual(next.lines);
      expect((await reopened.verifyLedger(LOCAL_OPERATOR)).ok).toBe(true);
    } finally {
      await reopened.ctx.store.close();
    }
  }, 60_000);
});
