/**
 * `ledger reports trial-balance|balance-sheet|income-statement`: a contra account prints the same
 * signed balance on the trial balance and the balance sheet, and without --currency the one-
 * currency reports use the only currency with posted lines.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { entry, ledger, ledgerJson, operator, tableCells, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('report-signs');
afterAll(() => folder.remove());

describe('ledger reports with contra accounts', () => {
  it('prints accumulated depreciation and drawings as negative balances on the trial balance and the balance sheet', async () => {
    const db = join(folder.dir, 'contra.db');
    await withLedger(db, async (service) => {
      const usd = await service.createFiatCurrency(operator, 'USD');
      await service.createPeriod(operator, { name: 'FY2026', start_date: '2026-01-01', end_date: '2026-12-31' });
      const open = (account_number: string, name: string, account_type: 'asset' | 'equity' | 'expense', normal_balance: 'debit' | 'credit') =>
        service.createAccount(operator, { account_number, name, currency_id: usd.id, account_type, normal_balance });
      const cash = await open('1000', 'Cash', 'asset', 'debit');
      const depreciation = await open('1590', 'Accumulated depreciation', 'asset', 'credit');
      const capital = await open('3000', 'Capital', 'equity', 'credit');
      const drawings = await open('3200', 'Drawings', 'equity', 'debit');
      const expense = await open('6400', 'Depreciation expense', 'expense', 'debit');
      await service.postJournalEntry(operator, entry(cash.id, capital.id, '100000', '2026-01-02'));
      await service.postJournalEntry(operator, entry(expense.id, depreciation.id, '10000', '2026-01-31'));
      await service.postJournalEntry(operator, entry(drawings.id, cash.id, '5000', '2026-02-01'));
    });
    const trial = ledger(['reports', 'trial-balance'], { db });
    expect(trial.status).toBe(0);
    const trialRows = tableCells(trial.stdout);
    // Currency, number, name, type, debits, credits, net (signed by the account's type), then the
    // debit- and credit-balance columns (an empty cell is not a cell).
    expect(trialRows.find((cells) => cells[1] === '1590')).toEqual(['USD', '1590', 'Accumulated depreciation', 'asset', '0.00', '100.00', '-100.00', '100.00']);
    expect(trialRows.find((cells) => cells[1] === '3200')).toEqual(['USD', '3200', 'Drawings', 'equity', '50.00', '0.00', '-50.00', '50.00']);
    const sheet = ledger(['reports', 'balance-sheet'], { db });
    expect(sheet.status).toBe(0);
    const sheetRows = tableCells(sheet.stdout);
    expect(sheetRows.find((cells) => cells[2] === '1590')).toEqual(['USD', 'Assets', '1590', 'Accumulated depreciation', '-100.00']);
    expect(sheetRows.find((cells) => cells[2] === '3200')).toEqual(['USD', 'Equity', '3200', 'Drawings', '-50.00']);
  });
});

describe('ledger reports without --currency', () => {
  it('uses the only currency with posted lines when another currency has accounts but no activity', async () => {
    const db = join(folder.dir, 'currency.db');
    const eurId = await withLedger(db, async (service) => {
      const usd = await service.createFiatCurrency(operator, 'USD');
      const eur = await service.createFiatCurrency(operator, 'EUR');
      await service.createPeriod(operator, { name: 'FY2026', start_date: '2026-01-01', end_date: '2026-12-31' });
      await service.createAccount(operator, { account_number: '1000', name: 'Cash USD', currency_id: usd.id, account_type: 'asset', normal_balance: 'debit' });
      const bank = await service.createAccount(operator, { account_number: '1050', name: 'Bank EUR', currency_id: eur.id, account_type: 'asset', normal_balance: 'debit' });
      const sales = await service.createAccount(operator, { account_number: '4030', name: 'Consulting EUR', currency_id: eur.id, account_type: 'revenue', normal_balance: 'credit' });
      await service.postJournalEntry(operator, entry(bank.id, sales.id, '42000', '2026-03-01'));
      return eur.id;
    });
    expect(ledgerJson(['reports', 'balance-sheet'], { db }).data).toMatchObject({ currency_id: eurId, total_assets: '42000', is_balanced: true });
    expect(ledgerJson(['reports', 'income-statement'], { db }).data).toMatchObject({ currency_id: eurId, net_income: '42000' });
  });
});
