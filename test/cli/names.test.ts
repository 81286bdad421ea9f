/**
 * Names instead of ids on the command line: accounts by number or name, currencies by code or
 * name, periods by name, through one resolver used by every command that takes them. Ids still
 * work; a text that fits several is a usage error listing them; one that fits none is not found.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, ledger, ledgerJson, operator, seedBooks, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('names');
afterAll(() => folder.remove());

describe('names instead of ids', () => {
  const db = join(folder.dir, 'names.db');
  let books: Awaited<ReturnType<typeof seedBooks>>;
  let june: { id: string };
  let pettyCash: { id: string };
  beforeAll(async () => {
    books = await seedBooks(db, { withPeriod: false });
    await withLedger(db, async (service) => {
      june = await service.createPeriod(operator, { name: 'June 2026', start_date: '2026-06-01', end_date: '2026-06-30' });
      await service.createPeriod(operator, { name: 'July 2026', start_date: '2026-07-01', end_date: '2026-07-31' });
      pettyCash = await service.createAccount(operator, {
        account_number: '1010', name: 'Petty cash', currency_id: books.usd.id, account_type: 'asset', normal_balance: 'debit',
      });
      await service.postJournalEntry(operator, { ...entry(pettyCash.id, books.sales.id, '1500', '2026-06-03', 'June sale'), reference: 'J-1' });
      await service.postJournalEntry(operator, entry(books.cash.id, books.sales.id, '2500', '2026-07-03', 'July sale'));
    });
  }, 60_000);

  it('shows an account by its number, its name (any case) or its id', () => {
    for (const text of ['1010', 'petty CASH', pettyCash.id]) {
      expect(ledgerJson(['accounts', 'get', text], { db }).data).toMatchObject({ id: pettyCash.id, account_number: '1010' });
    }
    expect(ledgerJson(['accounts', 'get', 'Petty'], { db }).data.id).toBe(pettyCash.id);
  });

  it('refuses a name that fits several accounts, listing them, and answers one that fits none as an unknown id', () => {
    const ambiguous = ledger(['accounts', 'get', 'CA'], { db });
    expect(ambiguous.status).toBe(1);
    expect(ambiguous.stderr).toMatch(/account "CA" matches 2 accounts: 1000 Cash \(.+\); 1010 Petty cash \(.+\)/);
    // A name equal to the text wins over names that contain it.
    const exact = ledgerJson(['accounts', 'get', 'cash'], { db });
    expect(exact.data.account_number).toBe('1000');
    const missing = ledger(['accounts', 'get', '9999'], { db });
    expect(missing.status).toBe(4);
    expect(missing.stderr).toMatch(/Account 9999 does not exist/);
  });

  it('takes --account and --period by number and name on journal-entries list', () => {
    const listed = ledgerJson(['journal-entries', 'list', '--account', '4000', '--period', 'June 2026'], { db }).data;
    expect(listed.map((e: { description: string }) => e.description)).toEqual(['June sale']);
    expect(ledgerJson(['journal-entries', 'list', '--account', 'Sales', '--period', june.id], { db }).data).toHaveLength(1);
    const ambiguous = ledger(['journal-entries', 'list', '--period', '2026'], { db });
    expect(ambiguous.status).toBe(1);
    expect(ambiguous.stderr).toMatch(/--period "2026" matches 2 periods: June 2026 2026-06-01\.\.2026-06-30 .*; July 2026/);
  });

  it('takes --currency by code and --period by name on the reports, and --account on the general ledger', () => {
    const trial = ledgerJson(['reports', 'trial-balance', '--currency', 'usd', '--period', 'july 2026'], { db }).data;
    expect(trial.rows.map((row: { account_number: string }) => row.account_number)).toEqual(['1000', '4000']);
    const general = ledgerJson(['reports', 'general-ledger', '--account', 'Petty cash'], { db }).data;
    expect(general.lines.map((line: { description: string }) => line.description)).toEqual(['June sale']);
    expect(ledger(['reports', 'income-statement', '--currency', 'EUR'], { db }).status).toBe(4);
  });

  it('takes --currency and --parent by code and number on accounts list and create', () => {
    const subs = ledgerJson(['accounts', 'list', '--parent', '1200', '--currency', 'US Dollar'], { db }).data;
    expect(subs.map((a: { account_number: string }) => a.account_number)).toEqual(['1200-001']);
    const created = ledgerJson(['accounts', 'create', '--number', '1020', '--name', 'Bank', '--currency', 'USD', '--type', 'asset', '--normal-balance', 'debit'], { db }).data;
    expect(created.currency_id).toBe(books.usd.id);
  });
});
