/**
 * `ledger verify` as a user runs it, on a SQLite file whose books were written through the HTTP
 * API: exit 0 and "no problems" on sound books; exit 1 with each problem named (the entry, the
 * account, the period) once the file has been changed behind the service's back. `--json` prints
 * exactly the answer of `GET /api/v1/verify`.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initLedger } from '../../src/app/open-ledger.js';
import { ledger, serveFile, tableCells, tempFolder } from '../helpers/cli.js';
import { TAMPERING, type VerifyBooks, buildVerifyBooks } from '../helpers/verify-books.js';

const folder = tempFolder('verify');
const pristine = join(folder.dir, 'books.db');
let books: VerifyBooks;
let apiAnswer: unknown;
let copies = 0;

beforeAll(async () => {
  await initLedger(pristine);
  const api = await serveFile(pristine);
  try {
    books = await buildVerifyBooks((method, path, body) => api.request(method, path, body));
    apiAnswer = await api.get('/verify');
  } finally {
    await api.close();
  }
}, 60_000);

afterAll(() => folder.remove());

/** A copy of the sound books to damage (the store closed cleanly, so the file holds everything). */
function damagedCopy(): string {
  copies += 1;
  const copy = join(folder.dir, `damaged-${copies}.db`);
  copyFileSync(pristine, copy);
  return copy;
}

function verifyJson(db: string): { status: number | null; data: any } {
  const run = ledger(['--json', 'verify'], { db });
  expect(run.stderr).toBe('');
  return { status: run.status, data: JSON.parse(run.stdout).data };
}

describe('ledger verify on sound books', () => {
  it('prints what it checked and "no problems", exit 0', () => {
    const run = ledger(['verify'], { db: pristine });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toBe(`Verified ${books.entryCount} entries (${books.lineCount} lines), 9 accounts, 3 periods, 2 currencies; 18 checks: no problems.\n`);
  });

  it('--json prints exactly what GET /api/v1/verify answers, exit 0', () => {
    const run = ledger(['--json', 'verify'], { db: pristine });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(apiAnswer);
    expect((apiAnswer as { data: { ok: boolean } }).data.ok).toBe(true);
  });
});

describe('ledger verify on damaged books', () => {
  it('a changed line amount: exit 1, the entry named, under --json and in the table', async () => {
    const db = damagedCopy();
    const { marchSale } = books.entries;
    await TAMPERING.changeLineAmount(db, marchSale.lines[0]!.id, '4500');
    const json = verifyJson(db);
    expect(json.status).toBe(1);
    expect(json.data.ok).toBe(false);
    expect(json.data.problems).toContainEqual(expect.objectContaining({ check: 'entry_balance', entry_id: marchSale.id }));

    const run = ledger(['verify'], { db });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 1, stderr: '' });
    const [summary, blank, header, ...rows] = run.stdout.trimEnd().split('\n');
    expect(summary).toMatch(/^Verified 16 entries .*: 6 problems found\.$/);
    expect(blank).toBe('');
    expect(tableCells(header!)[0]).toEqual(['Check', 'Where', 'Problem']);
    expect(rows.map((row) => tableCells(row)[0]![0])).toEqual(['entry_balance', 'account_totals', 'period_totals', 'daily_totals', 'currency_totals', 'hash_chain']);
    expect(tableCells(rows[0]!)[0]!.slice(1)).toEqual([
      `entry ${marchSale.id}, currency USD`,
      `Entry ${marchSale.id} (2026-03-05) does not balance: debits 45.00 USD, credits 40.00 USD (expected credits 4500; found credits 4000)`,
    ]);
  });

  it('a deleted line: exit 1, the entry named', async () => {
    const db = damagedCopy();
    await TAMPERING.deleteLine(db, books.entries.marchRent.lines[1]!.id);
    const json = verifyJson(db);
    expect(json.status).toBe(1);
    expect(json.data.problems).toContainEqual(expect.objectContaining({ check: 'entry_lines', entry_id: books.entries.marchRent.id }));
    expect(json.data.problems).toContainEqual(expect.objectContaining({ check: 'entry_balance', entry_id: books.entries.marchRent.id }));
  });

  it('a changed maintained total: exit 1, the account named', async () => {
    const db = damagedCopy();
    await TAMPERING.bumpTotal(db, 'account_balances', { account_id: books.accounts.rent }, -100n);
    const json = verifyJson(db);
    expect(json.status).toBe(1);
    expect(json.data.problems).toEqual([expect.objectContaining({
      check: 'account_totals', account_id: books.accounts.rent, expected: 'debits 25500, credits 24000', found: 'debits 25400, credits 24000',
    })]);
  });

  it('an entry moved out of its period: exit 1, the entry and the period named', async () => {
    const db = damagedCopy();
    await TAMPERING.setEntryColumn(db, books.entries.eurInterest.id, 'entry_date', '2026-02-27');
    const json = verifyJson(db);
    expect(json.status).toBe(1);
    expect(json.data.problems).toContainEqual(expect.objectContaining({
      check: 'entry_period', entry_id: books.entries.eurInterest.id, period_id: books.periods.march, found: '2026-02-27',
      message: expect.stringContaining('that date is in period February 2026'),
    }));
  });

  it('an amount that is not a number any more: exit 1, says it cannot read it and stopped there', async () => {
    const db = damagedCopy();
    await TAMPERING.changeLineAmount(db, books.entries.marchSale.lines[0]!.id, '12abc');
    const json = verifyJson(db);
    expect(json.status).toBe(1);
    expect(json.data.problems).toEqual([{
      check: 'stored_values',
      message: expect.stringMatching(/^stored amount "12abc" is not an integer within the signed 128-bit range; the verification stopped after \d+ entries$/),
    }]);
  });

  it('an edited description: exit 1, the entry named (hash chain)', async () => {
    const db = damagedCopy();
    await TAMPERING.setEntryColumn(db, books.entries.februaryRent.id, 'description', 'February rent (edited)');
    const json = verifyJson(db);
    expect(json.status).toBe(1);
    expect(json.data.problems).toEqual([expect.objectContaining({ check: 'hash_chain', entry_id: books.entries.februaryRent.id })]);
  });
});
