/**
 * The command line's reports for people: rows grouped by currency (by code), a CURRENCY column,
 * each currency's totals under its rows, and amounts with thousands separators.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, ledger, operator, seedBooks, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('report-currencies');
afterAll(() => folder.remove());
const db = join(folder.dir, 'books.db');

describe('reports in several currencies', () => {
  beforeAll(async () => {
    const books = await seedBooks(db);
    await withLedger(db, async (service) => {
      const eur = await service.createFiatCurrency(operator, 'EUR');
      const account = (account_number: string, name: string, account_type: 'asset' | 'revenue') => service.createAccount(operator, {
        account_number, name, currency_id: eur.id, account_type, normal_balance: account_type === 'asset' ? 'debit' : 'credit',
      });
      const bank = await account('1100', 'Bank EUR', 'asset');
      const sales = await account('4100', 'Sales EUR', 'revenue');
      await service.postJournalEntry(operator, entry(books.cash.id, books.sales.id, '123456789', '2026-03-01', 'Big sale'));
      await service.postJournalEntry(operator, entry(bank.id, sales.id, '250000', '2026-03-02', 'Euro sale'));
    });
  }, 60_000);

  it('groups the trial balance by currency code with each currency\'s totals and thousands separators', () => {
    const run = ledger(['reports', 'trial-balance'], { db });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe([
      'Balances, all time',
      'CURRENCY  NUMBER  ACCOUNT    TYPE           DEBITS       CREDITS       BALANCE  DEBIT BALANCE  CREDIT BALANCE',
      'EUR       1100    Bank EUR   asset        2,500.00          0.00      2,500.00       2,500.00',
      'EUR       4100    Sales EUR  revenue          0.00      2,500.00      2,500.00                       2,500.00',
      'EUR               Total                   2,500.00      2,500.00                     2,500.00        2,500.00',
      'USD       1000    Cash       asset    1,234,567.89          0.00  1,234,567.89   1,234,567.89',
      'USD       4000    Sales      revenue          0.00  1,234,567.89  1,234,567.89                   1,234,567.89',
      'USD               Total               1,234,567.89  1,234,567.89                 1,234,567.89    1,234,567.89',
      'Balanced',
      '',
    ].join('\n'));
  });

  it('names the currency of a one-currency report in its CURRENCY column', () => {
    const run = ledger(['reports', 'income-statement', '--currency', 'EUR'], { db });
    expect(run.stdout.split('\n').slice(0, 2)).toEqual([
      'CURRENCY  SECTION  NUMBER  ACCOUNT           AMOUNT',
      'EUR       Revenue  4100    Sales EUR       2,500.00',
    ]);
  });
});
