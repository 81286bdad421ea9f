/**
 * Posted history is immutable in the database itself, not only in the service: a second
 * connection that goes around the service cannot edit or delete journal rows, and cannot record a
 * second reversal of the same entry.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiFixture, createAccount, createCurrency, createPeriod, dataOf, postEntry, startApi,
} from '../helpers/api-fixture.js';

interface EntryRow {
  seq: number; id: string; entry_date: string; description: string; period_id: string; entry_type: string;
  reverses_id: string | null; posted_at: string; currency_id: string;
}

describe('journal immutability in SQLite', () => {
  let api: ApiFixture;
  let db: Database.Database;
  let original: { id: string };
  let reversal: { id: string };

  beforeAll(async () => {
    api = await startApi();
    await createPeriod(api, 'FY2026', '2026-01-01', '2026-12-31');
    const currency = await createCurrency(api);
    const cash = await createAccount(api, { account_number: '1000', name: 'Cash', currency_id: currency.id, account_type: 'asset', normal_balance: 'debit' });
    const sales = await createAccount(api, { account_number: '4000', name: 'Sales', currency_id: currency.id, account_type: 'revenue', normal_balance: 'credit' });
    original = await postEntry(api, cash.id, sales.id, '25000', '2026-03-01', 'Cash sale');
    reversal = dataOf(await api.request('POST', `/api/v1/journal-entries/${original.id}/reverse`), 201);
    db = new Database(api.dbPath, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
  });
  afterAll(async () => {
    db.close();
    await api.close();
  });

  const snapshot = () => ({
    entries: db.prepare('SELECT * FROM journal_entries ORDER BY seq').all(),
    lines: db.prepare('SELECT * FROM journal_lines ORDER BY seq').all(),
  });

  it('holds the posted entries and lines in the tables the statements below target', () => {
    const { entries, lines } = snapshot();
    expect(entries.map((row) => (row as EntryRow).id)).toEqual([original.id, reversal.id]);
    expect(lines).toHaveLength(4);
  });

  it('refuses to UPDATE a journal line', () => {
    const before = snapshot();
    expect(() => db.prepare("UPDATE journal_lines SET debit_amount = '1' WHERE debit_amount <> '0'").run())
      .toThrow(/journal lines are immutable/);
    expect(() => db.prepare('UPDATE journal_lines SET description = description').run()).toThrow(/immutable/);
    expect(snapshot()).toEqual(before);
  });

  it('refuses to DELETE a journal line', () => {
    const before = snapshot();
    expect(() => db.prepare('DELETE FROM journal_lines').run()).toThrow(/journal lines are immutable/);
    expect(() => db.prepare('DELETE FROM journal_lines WHERE seq = (SELECT MAX(seq) FROM journal_lines)').run()).toThrow(/immutable/);
    expect(snapshot()).toEqual(before);
  });

  it('refuses to UPDATE a journal entry', () => {
    const before = snapshot();
    expect(() => db.prepare("UPDATE journal_entries SET description = 'edited' WHERE id = ?").run(original.id))
      .toThrow(/journal entries are immutable/);
    expect(() => db.prepare('UPDATE journal_entries SET reverses_id = NULL WHERE id = ?').run(reversal.id))
      .toThrow(/journal entries are immutable/);
    expect(snapshot()).toEqual(before);
  });

  it('refuses to DELETE a journal entry', () => {
    const before = snapshot();
    expect(() => db.prepare('DELETE FROM journal_entries WHERE id = ?').run(reversal.id)).toThrow(/journal entries are immutable/);
    expect(() => db.prepare('DELETE FROM journal_entries').run()).toThrow(/immutable/);
    expect(snapshot()).toEqual(before);
  });

  it('refuses a second reversal row for the same entry by its UNIQUE constraint', () => {
    const before = snapshot();
    const row = db.prepare('SELECT * FROM journal_entries WHERE id = ?').get(reversal.id) as EntryRow;
    expect(row.reverses_id).toBe(original.id);
    let failure: unknown;
    try {
      db.prepare(`INSERT INTO journal_entries (id, entry_date, description, period_id, entry_type, reverses_id, posted_at, currency_id)
        VALUES (?, ?, ?, ?, 'reversal', ?, ?, ?)`)
        .run('second-reversal', row.entry_date, 'Reversal again', row.period_id, original.id, row.posted_at, row.currency_id);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(Error);
    expect((failure as { code?: string }).code).toBe('SQLITE_CONSTRAINT_UNIQUE');
    expect((failure as Error).message).toMatch(/journal_entries\.reverses_id/);
    expect(snapshot()).toEqual(before);
  });

  it('still answers the API with the entries exactly as posted', async () => {
    const fetched = dataOf(await api.request('GET', `/api/v1/journal-entries/${original.id}`));
    expect(fetched).toMatchObject({ description: 'Cash sale', reversed_by_id: reversal.id });
    expect(fetched.lines.map((line: { debit_amount: string; credit_amount: string }) => [line.debit_amount, line.credit_amount]))
      .toEqual([['25000', '0'], ['0', '25000']]);
  });
});
