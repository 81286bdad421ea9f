/**
 * `ledger reports aged-balances` as transcripts, on books whose buckets are computed by hand
 * (USD, as of 2026-06-30; days old in brackets):
 *
 *   1200-001 Acme     invoices 03-01 1,234,567.89 [121] and 06-30 100.00 [0]; paid 04-10 234,567.89,
 *                     which settles the oldest invoice first: over 90 1,000,000.00, current 100.00.
 *   1200-002 Globex   invoices 05-01 40.00 [60] and 06-15 250.00 [15]: 31-60 40.00, 1-30 250.00.
 *   1200-003 Initech  paid 05-20 75.00 [41] with nothing invoiced: a credit, 31-60 -75.00.
 *   After the date: Globex invoice 07-01 999.00, left out.
 *   Totals: current 100.00, 1-30 250.00, 31-60 -35.00, 61-90 0.00, over 90 1,000,000.00; 1,000,315.00.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, ledgerAsync, ledgerJsonAsync, operator, seedBooks, serveFile, tableCells, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('aged-balances');
afterAll(() => folder.remove());
const db = join(folder.dir, 'books.db');
let books: Awaited<ReturnType<typeof seedBooks>>;

beforeAll(async () => {
  books = await seedBooks(db);
  await withLedger(db, async (service) => {
    const { receivables, acme, cash, sales } = books;
    const globex = await service.createAccount(operator, { account_number: '1200-002', name: 'Globex', parent_id: receivables.id, entity_id: 'globex' });
    const initech = await service.createAccount(operator, { account_number: '1200-003', name: 'Initech', parent_id: receivables.id, entity_id: 'initech' });
    const post = (debit: string, credit: string, amount: string, date: string) => service.postJournalEntry(operator, entry(debit, credit, amount, date));
    await post(acme.id, sales.id, '123456789', '2026-03-01');
    await post(acme.id, sales.id, '10000', '2026-06-30');
    await post(cash.id, acme.id, '23456789', '2026-04-10');
    await post(globex.id, sales.id, '4000', '2026-05-01');
    await post(globex.id, sales.id, '25000', '2026-06-15');
    await post(cash.id, initech.id, '7500', '2026-05-20');
    await post(globex.id, sales.id, '99900', '2026-07-01');
  });
}, 60_000);

describe.concurrent('ledger reports aged-balances', () => {
  it('prints each customer\'s buckets and the totals, amounts grouped in thousands', async () => {
    const run = await ledgerAsync(['reports', 'aged-balances', '--account', '1200', '--as-of', '2026-06-30', '--terms', '0'], { db });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    const [title, ...table] = tableCells(run.stdout);
    expect(title).toEqual(['Aged balances of 1200 Receivables as of 2026-06-30, days past due (terms 0 days unless an entry states its due date)']);
    expect(table).toEqual([
      ['CURRENCY', 'NUMBER', 'ACCOUNT', 'CURRENT', '1-30', '31-60', '61-90', 'OVER 90', 'TOTAL'],
      ['USD', '1200-001', 'Acme Ltd', '100.00', '0.00', '0.00', '0.00', '1,000,000.00', '1,000,100.00'],
      ['USD', '1200-002', 'Globex', '0.00', '250.00', '40.00', '0.00', '0.00', '290.00'],
      ['USD', '1200-003', 'Initech', '0.00', '0.00', '-75.00', '0.00', '0.00', '-75.00'],
      ['USD', 'Total', '100.00', '250.00', '-35.00', '0.00', '1,000,000.00', '1,000,315.00'],
    ]);
    // Amounts are right-aligned under their headers.
    const lines = run.stdout.split('\n');
    expect(lines[2]!.indexOf('1,000,100.00') + '1,000,100.00'.length).toBe(lines[1]!.indexOf('TOTAL') + 'TOTAL'.length);
  });

  it('ages by net 30 without --terms, and refuses terms that are not a number of days (usage error)', async () => {
    const net30 = await ledgerJsonAsync(['reports', 'aged-balances', '--account', '1200', '--as-of', '2026-06-30'], { db });
    expect(net30.data.terms_days).toBe(30);
    const net0 = await ledgerJsonAsync(['reports', 'aged-balances', '--account', '1200', '--as-of', '2026-06-30', '--terms', '0'], { db });
    expect(net30.data.totals.total).toBe(net0.data.totals.total);
    expect(BigInt(net30.data.totals.current)).toBeGreaterThan(BigInt(net0.data.totals.current));
    expect((await ledgerAsync(['reports', 'aged-balances', '--account', '1200', '--terms', 'net30'], { db })).status).toBe(2);
  });

  it('takes the control account by name or id, and ages as of today without --as-of', async () => {
    const byName = await ledgerJsonAsync(['reports', 'aged-balances', '--account', 'receivables', '--as-of', '2026-06-30'], { db });
    expect(byName.data).toMatchObject({ account_id: books.receivables.id, as_of_date: '2026-06-30' });
    expect(byName.data.totals.total).toBe('100031500');
    const today = await ledgerJsonAsync(['reports', 'aged-balances', '--account', books.receivables.id], { db });
    expect(today.data.as_of_date).toBe(new Date().toISOString().slice(0, 10));
  });

  it('--json prints exactly what the API answers', async () => {
    const api = await serveFile(db);
    try {
      const fromApi = await api.get(`/reports/aged-balances?account_id=${books.receivables.id}&as_of_date=2026-06-30`);
      const fromCli = await ledgerJsonAsync(['--json', 'reports', 'aged-balances', '--account', '1200', '--as-of', '2026-06-30'], { db });
      expect(fromCli).toEqual(fromApi);
    } finally {
      await api.close();
    }
  });

  it('refuses an account that is not a control account (exit 1), with the API\'s error under --json', async () => {
    const plain = await ledgerAsync(['reports', 'aged-balances', '--account', 'Cash', '--as-of', '2026-06-30'], { db });
    expect(plain.status).toBe(1);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toMatch(/^error \[VALIDATION_ERROR\] \(account_id\): Account 1000 Cash is not a control account/);
    expect(plain.stderr).toMatch(/hint: .*control account \(has_subledger: true\)/);
    const json = await ledgerAsync(['--json', 'reports', 'aged-balances', '--account', '1200-001'], { db });
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'account_id' });
  });

  it('refuses a date that is not a calendar date (exit 1) and a missing --account (usage, exit 2)', async () => {
    const badDate = await ledgerAsync(['--json', 'reports', 'aged-balances', '--account', '1200', '--as-of', '2026-02-30'], { db });
    expect(badDate.status).toBe(1);
    expect(JSON.parse(badDate.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'as_of_date' });
    const noAccount = await ledgerAsync(['reports', 'aged-balances'], { db });
    expect(noAccount.status).toBe(2);
    expect(noAccount.stderr).toMatch(/--account/);
  });
});
