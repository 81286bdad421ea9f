/**
 * `ledger backup <file>` with real processes: `ledger serve` keeps posting to a SQLite file
 * through HTTP while `ledger backup` copies it; the copy opens, `ledger verify` finds it sound, and
 * it holds a consistent prefix of the posts (between the counts before and after the backup). It
 * never overwrites a file, and sends PostgreSQL users to pg_dump and `ledger copy`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, ledger, ledgerAsync, seedBooks, tempFolder, withLedger } from '../helpers/cli.js';
import { rawQuery } from '../helpers/raw-sql.js';
import { type ServeProcess, startServe } from '../helpers/serve-process.js';

const folder = tempFolder('backup');
const db = join(folder.dir, 'books.db');
/** Enough history that the copy takes several steps (a few MiB), so posts land while it runs. */
const HISTORY_ENTRIES = 20_000;
let books: Awaited<ReturnType<typeof seedBooks>>;
let server: ServeProcess | undefined;
let baseUrl: string;

async function countEntries(file: string): Promise<number> {
  const [row] = await rawQuery<{ count: number }>(file, 'SELECT COUNT(*) AS count FROM journal_entries');
  return Number(row!.count);
}

beforeAll(async () => {
  books = await seedBooks(db);
  await withLedger(db, async (service) => {
    const actor = await service.authenticate(books.adminKey);
    for (let posted = 0; posted < HISTORY_ENTRIES; posted += 5000) {
      await service.postJournalEntries(actor, Array.from({ length: 5000 }, (_, index) =>
        entry(books.cash.id, books.sales.id, String(1 + index), '2026-02-01', `History ${posted + index}`)));
    }
  });
  server = await startServe(db);
  baseUrl = server.baseUrl;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  folder.remove();
});

async function post(index: number): Promise<number> {
  const response = await fetch(`${baseUrl}/api/v1/journal-entries`, {
    method: 'POST', body: JSON.stringify(entry(books.cash.id, books.sales.id, '100', '2026-03-03', `Live ${index}`)),
    headers: { authorization: `Bearer ${books.adminKey}`, 'content-type': 'application/json' },
  });
  await response.text();
  return response.status;
}

describe('ledger backup of a SQLite file that ledger serve keeps writing', () => {
  it('copies one consistent state: the copy verifies clean and holds every entry committed before it began, none half', async () => {
    const backup = join(folder.dir, 'backup.db');
    let backingUp = false;
    let postsDuringBackup = 0;
    let stopPosting = false;
    const statuses: number[] = [];
    // Four clients post one entry after another until told to stop.
    const posting = Promise.all(Array.from({ length: 4 }, async (_, client) => {
      for (let index = 0; !stopPosting; index += 1) {
        statuses.push(await post(client * 1_000_000 + index));
        if (backingUp) postsDuringBackup += 1;
      }
    }));
    while (statuses.length < 20) await new Promise((resolve) => setTimeout(resolve, 10));

    const before = await countEntries(db);
    backingUp = true;
    const run = await ledgerAsync(['--json', 'backup', backup], { db });
    backingUp = false;
    const after = await countEntries(db);
    stopPosting = true;
    await posting;

    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(postsDuringBackup).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set([201]));
    const summary = JSON.parse(run.stdout).data;
    const copied = await countEntries(backup);
    expect(summary).toEqual({ from: db, to: backup, entries: copied, pages: expect.any(Number), bytes: expect.any(Number) });
    expect(copied).toBeGreaterThanOrEqual(before);
    expect(copied).toBeLessThanOrEqual(after);
    expect(copied).toBeGreaterThan(HISTORY_ENTRIES);

    const verify = ledger(['--json', 'verify'], { db: backup, timeoutMs: 60_000 });
    expect({ status: verify.status, stderr: verify.stderr }).toEqual({ status: 0, stderr: '' });
    expect(JSON.parse(verify.stdout).data).toMatchObject({ ok: true, problems: [], checked: { entries: copied } });
    // The copy is a ledger like any other: the CLI reads it.
    const trialBalance = ledger(['--json', 'reports', 'trial-balance'], { db: backup });
    expect(JSON.parse(trialBalance.stdout).data.is_balanced).toBe(true);
  }, 120_000);

  it('refuses to overwrite an existing file (exit 1) and leaves it as it was', () => {
    const existing = join(folder.dir, 'existing.db');
    writeFileSync(existing, 'keep me');
    const run = ledger(['backup', existing], { db });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`error [VALIDATION_ERROR] (file): ${existing} already exists; ledger backup never overwrites a file\n`
      + 'hint: Choose a new file name, or move the old backup away first\n');
    expect(readFileSync(existing, 'utf8')).toBe('keep me');
  });

  it('refuses a PostgreSQL --db (exit 1), pointing to pg_dump and ledger copy, and creates no file', () => {
    const target = join(folder.dir, 'from-postgres.db');
    const run = ledger(['--json', 'backup', target], { db: 'postgres://ledger:secret@127.0.0.1:1/books' });
    expect(run.status).toBe(1);
    const error = JSON.parse(run.stderr);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'db' });
    expect(error.message).toBe('ledger backup copies a SQLite file; postgres://ledger:***@127.0.0.1:1/books is a PostgreSQL database');
    expect(error.suggestion).toContain('pg_dump');
    expect(error.suggestion).toContain('ledger copy --from <postgres-url> --to backup.db');
    expect(existsSync(target)).toBe(false);
  });

  it('says to run ledger init when the ledger does not exist (exit 4), and creates no file', () => {
    const target = join(folder.dir, 'from-nothing.db');
    const run = ledger(['backup', target], { db: join(folder.dir, 'missing.db') });
    expect(run.status).toBe(4);
    expect(run.stderr).toContain('ledger init');
    expect(existsSync(target)).toBe(false);
  });
});
