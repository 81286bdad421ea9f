/**
 * The company name on the command line: `settings set|unset company-name`, the first line of every
 * report's table, `company_name` in every report's --json, and the head of the exported journals
 * (read back by hledger and bean-check, which must be installed: these tests fail without them).
 * The CSV export keeps its header row first and carries no name.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, ledger, ledgerJson, seedBooks, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('company-name');
afterAll(() => folder.remove());
const db = join(folder.dir, 'books.db');
const COMPANY = 'Acme "Consulting" Ltd; Zürich';
let books: Awaited<ReturnType<typeof seedBooks>>;

beforeAll(async () => {
  books = await seedBooks(db);
  await withLedger(db, async (service) => {
    const admin = await service.authenticate(books.adminKey);
    await service.postJournalEntry(admin, entry(books.cash.id, books.sales.id, '123456', '2026-03-01', 'Invoice 1'));
    await service.postJournalEntry(admin, entry(books.rent.id, books.cash.id, '40000', '2026-03-02', 'Rent'));
  });
});

const REPORTS = [
  ['reports', 'trial-balance'],
  ['reports', 'balance-sheet'],
  ['reports', 'income-statement'],
  ['reports', 'income-statement', '--start', '2026-01-01', '--end', '2026-03-31', '--columns', 'month'],
  ['reports', 'general-ledger', '--account', '1000'],
];

describe('ledger settings set company-name', () => {
  it('stores the name trimmed and prints it with the other settings', () => {
    expect(ledger(['settings', 'set', 'company-name', `  ${COMPANY}  `], { db })).toEqual({
      status: 0, stderr: '', stdout: `Company name:              ${COMPANY}\nBase currency:             USD\nLock date:                 none\nRetained earnings account: ${books.equity.id}\n`,
    });
    expect(ledgerJson(['settings', 'get'], { db })).toEqual({
      data: { company_name: COMPANY, retained_earnings_account_id: books.equity.id, retained_earnings_account_ids: {}, base_currency_id: expect.any(String), lock_date: null },
    });
  });

  it.each([
    ['an empty name', ''],
    ['a name of spaces', '   '],
    ['201 characters', 'x'.repeat(201)],
    ['a line break', 'Acme\nLtd'],
  ])('refuses %s with exit 1 naming company_name, and keeps the name', (_case, name) => {
    const run = ledger(['--json', 'settings', 'set', 'company-name', name], { db });
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'company_name', suggestion: expect.any(String) });
    expect(ledgerJson(['settings', 'get'], { db }).data.company_name).toBe(COMPANY);
  });
});

describe('reports and exports with a company name', () => {
  it.each(REPORTS.map((args) => [args.slice(1).join(' '), args] as const))('%s prints the company on its first line', (_name, args) => {
    const run = ledger(args, { db });
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe(COMPANY);
    expect(ledgerJson(args, { db }).data.company_name).toBe(COMPANY);
  });

  it('heads the hledger journal with a comment that hledger reads past', () => {
    const file = join(folder.dir, 'books.journal');
    expect(ledger(['export', '--format', 'hledger', '--out', file], { db }).status).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n')[0]).toBe(`; ${COMPANY}`);
    const balances = spawnSync('hledger', ['-f', file, 'bal', '-O', 'csv', '--no-total', '--flat'], { encoding: 'utf8' });
    expect(balances.status).toBe(0);
    expect(balances.stdout).toContain('"assets:1000 Cash","834.56 USD"');
  });

  it('names the Beancount file with its title option, which bean-check accepts', () => {
    const file = join(folder.dir, 'books.beancount');
    expect(ledger(['export', '--format', 'beancount', '--out', file], { db }).status).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('option "title" "Acme \\"Consulting\\" Ltd; Zürich"\n');
    const check = spawnSync('bean-check', [file], { encoding: 'utf8' });
    expect({ status: check.status, stderr: check.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('keeps the CSV export\'s header row first, without the name', () => {
    const run = ledger(['export', '--format', 'csv'], { db });
    expect(run.stdout.split('\n')[0]).toMatch(/^entry_id,entry_number,entry_date,/);
    expect(run.stdout).not.toContain('Acme');
  });
});

describe('ledger settings unset company-name', () => {
  it('removes the name: reports start with their own first line again and --json carries null', () => {
    expect(ledger(['settings', 'unset', 'company-name'], { db })).toEqual({
      status: 0, stderr: '', stdout: `Company name:              -\nBase currency:             USD\nLock date:                 none\nRetained earnings account: ${books.equity.id}\n`,
    });
    for (const args of REPORTS) {
      expect(ledger(args, { db }).stdout.split('\n')[0]).not.toBe(COMPANY);
      expect(ledgerJson(args, { db }).data.company_name).toBeNull();
    }
    expect(readFileSync(join(folder.dir, 'books.journal'), 'utf8')).toContain(COMPANY);
    expect(ledger(['export', '--format', 'hledger'], { db }).stdout.split('\n')[0]).toBe('; Exported by ledger. Amounts are exact; debits positive, credits negative.');
  });
});
