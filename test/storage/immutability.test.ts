/**
 * Posted history is immutable in the database itself, not only in the service: a second
 * connection that goes around the service cannot edit or delete journal rows, and cannot record a
 * second reversal of the same entry. The statements are the same on both backends; each
 * backend's schema refuses them (SQLite and PostgreSQL triggers, a UNIQUE constraint).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiFixture, createAccount, createCurrency, createPeriod, dataOf, postEntry, startApi,
} from '../helpers/api-fixture.js';
import { failureOf, rawQuery, uniqueViolation } from '../helpers/raw-sql.js';
import { testBackend } from '../helpers/test-location.js';

interface EntryRow {
  seq: number; id: string; entry_date: unknown; description: string; period_id: string; entry_type: string;
  reverses_id: string | null; posted_at: unknown; currency_id: string; hash: string;
}


describe('journal immutability in the database', () => {
  let api: ApiFixture;
  let original: { id: string };
  let reversal: { id: string };
  const sql = (text: string, params: unknown[] = []) => rawQuery(api.location, text, params);

  beforeAll(async () => {
    api = await startApi();
    await createPeriod(api, 'FY2026', '2026-01-01', '2026-12-31');
    const currency = await createCurrency(api);
    const cash = await createAccount(api, { account_number: '1000', name: 'Cash', currency_id: currency.id, account_type: 'asset', normal_balance: 'debit' });
    const sales = await createAccount(api, { account_number: '4000', name: 'Sales', currency_id: currency.id, account_type: 'revenue', normal_balance: 'credit' });
    original = await postEntry(api, cash.id, sales.id, '25000', '2026-03-01', 'Cash sale');
    reversal = dataOf(await api.request('POST', `/api/v1/journal-entries/${original.id}/reverse`), 201);
  });
  afterAll(async () => {
    await api.close();
  });

  const snapshot = async () => ({
    entries: await sql('SELECT * FROM journal_entries ORDER BY seq'),
    lines: await sql('SELECT * FROM journal_lines ORDER BY seq'),
  });

  it('holds the posted entries and lines in the tables the statements below target', async () => {
    const { entries, lines } = await snapshot();
    expect(entries.map((row) => (row as unknown as EntryRow).id)).toEqual([original.id, reversal.id]);
    expect(lines).toHaveLength(4);
  });

  it('refuses to UPDATE a journal line', async () => {
    const before = await snapshot();
    expect((await failureOf(sql("UPDATE journal_lines SET debit_amount = '1' WHERE debit_amount <> '0'"))).message)
      .toMatch(/journal lines are immutable/);
    expect((await failureOf(sql('UPDATE journal_lines SET description = description'))).message).toMatch(/immutable/);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses to DELETE a journal line', async () => {
    const before = await snapshot();
    expect((await failureOf(sql('DELETE FROM journal_lines'))).message).toMatch(/journal lines are immutable/);
    expect((await failureOf(sql('DELETE FROM journal_lines WHERE seq = (SELECT MAX(seq) FROM journal_lines)'))).message)
      .toMatch(/immutable/);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses to UPDATE a journal entry', async () => {
    const before = await snapshot();
    expect((await failureOf(sql("UPDATE journal_entries SET description = 'edited' WHERE id = $1", [original.id]))).message)
      .toMatch(/journal entries are immutable/);
    expect((await failureOf(sql('UPDATE journal_entries SET reverses_id = NULL WHERE id = $1', [reversal.id]))).message)
      .toMatch(/journal entries are immutable/);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses to DELETE a journal entry', async () => {
    const before = await snapshot();
    expect((await failureOf(sql('DELETE FROM journal_entries WHERE id = $1', [reversal.id]))).message)
      .toMatch(/journal entries are immutable/);
    expect((await failureOf(sql('DELETE FROM journal_entries'))).message).toMatch(/immutable/);
    expect(await snapshot()).toEqual(before);
  });

  // SQLite has no TRUNCATE: its unqualified DELETE, refused above, is the same operation.
  it.runIf(testBackend() === 'postgres')('refuses to TRUNCATE the journal tables', async () => {
    const before = await snapshot();
    // Bank matches and reconciliations refer to journal lines, so PostgreSQL refuses the plain
    // TRUNCATE for their foreign keys before any trigger; with CASCADE the triggers refuse it.
    expect((await failureOf(sql('TRUNCATE journal_lines'))).message).toMatch(/journal lines are immutable|foreign key/);
    expect((await failureOf(sql('TRUNCATE journal_lines CASCADE'))).message).toMatch(/immutable/);
    expect((await failureOf(sql('TRUNCATE journal_entries CASCADE'))).message).toMatch(/immutable/);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a second reversal row for the same entry by its UNIQUE constraint', async () => {
    const before = await snapshot();
    const [row] = await sql('SELECT * FROM journal_entries WHERE id = $1', [reversal.id]) as unknown as EntryRow[];
    expect(row!.reverses_id).toBe(original.id);
    // Every NOT NULL column is given (PostgreSQL checks those first), so only the reversal's uniqueness can refuse it.
    const failure = await failureOf(sql(`INSERT INTO journal_entries (id, entry_date, description, period_id, entry_type, reverses_id, posted_at, currency_id,
      entry_number, previous_hash, hash, ${testBackend() === 'postgres' ? 'debit_total' : 'debit_key'}) VALUES ($1, $2, $3, $4, 'reversal', $5, $6, $7, 999999, $8, $8, '0')`,
    ['second-reversal', row!.entry_date, 'Reversal again', row!.period_id, original.id, row!.posted_at, row!.currency_id, row!.hash]));
    expect(uniqueViolation(failure), failure.message).toEqual({ table: 'journal_entries', columns: ['reverses_id'] });
    expect(await snapshot()).toEqual(before);
  });

  it('still answers the API with the entries exactly as posted', async () => {
    const fetched = dataOf(await api.request('GET', `/api/v1/journal-entries/${original.id}`));
    expect(fetched).toMatchObject({ description: 'Cash sale', reversed_by_id: reversal.id });
    expect(fetched.lines.map((line: { debit_amount: string; credit_amount: string }) => [line.debit_amount, line.credit_amount]))
      .toEqual([['25000', '0'], ['0', '25000']]);
  });
});
