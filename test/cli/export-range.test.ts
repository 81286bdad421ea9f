/**
 * `ledger export --start/--end` writes only the entries dated in the range, and an --out that
 * cannot be written is the caller's mistake (exit 1, a message naming --out), not an internal error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, ledger, ledgerJson, operator, seedBooks, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('export-range');
afterAll(() => folder.remove());
const db = join(folder.dir, 'books.db');

describe('ledger export of a date range', () => {
  beforeAll(async () => {
    const books = await seedBooks(db);
    await withLedger(db, async (service) => {
      for (const [date, description] of [['2026-01-15', 'January sale'], ['2026-02-10', 'February sale'], ['2026-03-05', 'March sale']]) {
        await service.postJournalEntry(operator, entry(books.cash.id, books.sales.id, '1000', date!, description!));
      }
    });
  }, 60_000);

  it('exports only the entries dated from --start to --end, both inclusive', () => {
    const out = join(folder.dir, 'february.journal');
    const run = ledgerJson(['export', '--format', 'hledger', '--start', '2026-02-01', '--end', '2026-03-05', '--out', out], { db });
    expect(run.data).toEqual({ format: 'hledger', file: out, entries: 2 });
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('February sale');
    expect(text).toContain('March sale');
    expect(text).not.toContain('January sale');
    expect(ledgerJson(['export', '--format', 'csv', '--end', '2026-01-31', '--out', join(folder.dir, 'january.csv')], { db }).data.entries).toBe(1);
  });

  it.each([
    ['a folder that does not exist', () => join(folder.dir, 'missing', 'books.journal'), /cannot write --out .*missing.* \(ENOENT\)/],
    ['a folder', () => folder.dir, /cannot write --out .* \(EISDIR\)/],
  ])('refuses --out naming %s with exit 1', (_label, path, message) => {
    const run = ledger(['export', '--format', 'hledger', '--out', path()], { db });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/INTERNAL/);
  });

  it('refuses an impossible --start with exit 1 before creating the file', () => {
    const out = join(folder.dir, 'never.journal');
    const run = ledger(['export', '--format', 'hledger', '--start', '2026-02-30', '--out', out], { db });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/--start must be a calendar date/);
    expect(existsSync(out)).toBe(false);
  });
});
