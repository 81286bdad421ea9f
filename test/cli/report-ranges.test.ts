/**
 * `ledger reports income-statement --start/--end --columns` and `ledger reports trial-balance
 * --as-of | --start/--end` as transcripts, the month columns checked against `hledger is -M` on
 * the exported journal (hledger must be installed: without it the comparison fails, it does not skip).
 * Books: Q1 2026 closed (a sale in January and February, rent in February), Q2 open (rent in
 * April, a sale in May).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, ledger, ledgerAsync, ledgerJson, seedBooks, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('report-ranges');
afterAll(() => folder.remove());
const db = join(folder.dir, 'books.db');

beforeAll(async () => {
  const books = await seedBooks(db, { withPeriod: false });
  await withLedger(db, async (service) => {
    const admin = await service.authenticate(books.adminKey);
    const q1 = await service.createPeriod(admin, { name: 'Q1 2026', start_date: '2026-01-01', end_date: '2026-03-31' });
    await service.createPeriod(admin, { name: 'Q2 2026', start_date: '2026-04-01', end_date: '2026-06-30' });
    const { cash, sales, rent } = books;
    await service.postJournalEntry(admin, entry(cash.id, sales.id, '100000', '2026-01-10', 'January sale'));
    await service.postJournalEntry(admin, entry(rent.id, cash.id, '30000', '2026-02-05', 'February rent'));
    await service.postJournalEntry(admin, entry(cash.id, sales.id, '50000', '2026-02-20', 'February sale'));
    await service.closePeriod(admin, q1.id, false);
    await service.postJournalEntry(admin, entry(rent.id, cash.id, '30000', '2026-04-15', 'April rent'));
    await service.postJournalEntry(admin, entry(cash.id, sales.id, '20000', '2026-05-02', 'May sale'));
  });
});

describe.concurrent('ledger reports income-statement over a range', () => {
  it('--start/--end covers any dates across a closed quarter, without the closing entry', async () => {
    expect(await ledgerAsync(['reports', 'income-statement', '--start', '2026-01-01', '--end', '2026-05-31'], { db })).toEqual({
      status: 0, stderr: '',
      stdout: [
        'CURRENCY  SECTION   NUMBER  ACCOUNT           AMOUNT',
        'USD       Revenue   4000    Sales           1,700.00',
        'USD                         Total revenue   1,700.00',
        'USD       Expenses  6000    Rent              600.00',
        'USD                         Total expenses    600.00',
        'USD                         Net income      1,100.00',
        '',
      ].join('\n'),
    });
  });

  it('--columns month prints the months side by side and the range\'s total', async () => {
    expect(await ledgerAsync(['reports', 'income-statement', '--start', '2026-01-01', '--end', '2026-05-31', '--columns', 'month'], { db }))
      .toEqual({
        status: 0, stderr: '',
        stdout: [
          'Income statement 2026-01-01 to 2026-05-31',
          'CURRENCY  SECTION   NUMBER  ACCOUNT          2026-01  2026-02  2026-03  2026-04  2026-05     TOTAL',
          'USD       Revenue   4000    Sales           1,000.00   500.00     0.00     0.00   200.00  1,700.00',
          'USD                         Total revenue   1,000.00   500.00     0.00     0.00   200.00  1,700.00',
          'USD       Expenses  6000    Rent                0.00   300.00     0.00   300.00     0.00    600.00',
          'USD                         Total expenses      0.00   300.00     0.00   300.00     0.00    600.00',
          'USD                         Net income      1,000.00   200.00     0.00  -300.00   200.00  1,100.00',
          '',
        ].join('\n'),
      });
  });

  it('--columns quarter with --json answers what the API does', async () => {
    const report = ledgerJson(['reports', 'income-statement', '--start', '2026-01-01', '--end', '2026-06-30', '--columns', 'quarter'], { db });
    expect(report.data.columns.map((column: any) => [column.label, column.start_date, column.end_date, column.net_income])).toEqual([
      ['2026-Q1', '2026-01-01', '2026-03-31', '120000'], ['2026-Q2', '2026-04-01', '2026-06-30', '-10000'],
    ]);
    expect(report.data.revenue[0].column_amounts).toEqual([
      { amount: '150000', display_amount: '1500.00' }, { amount: '20000', display_amount: '200.00' }]);
  });

  it('refuses --columns without a start, and an unknown interval', async () => {
    const unbounded = await ledgerAsync(['--json', 'reports', 'income-statement', '--end', '2026-05-31', '--columns', 'month'], { db });
    expect(unbounded.status).toBe(1);
    expect(JSON.parse(unbounded.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'columns' });
    const week = await ledgerAsync(['reports', 'income-statement', '--start', '2026-01-01', '--end', '2026-05-31', '--columns', 'week'], { db });
    expect(week.status).not.toBe(0);
    expect(week.stderr).toContain('week');
  });

  it('agrees, month by month, with hledger is -M on the exported journal (closing entries left out)', () => {
    const journal = join(folder.dir, 'books.journal');
    expect(ledger(['export', '--format', 'hledger', '--out', journal], { db }).status).toBe(0);
    const run = spawnSync('hledger', ['-f', journal, 'is', '-M', '-b', '2026-01-01', '-e', '2026-06-01', '--flat', '--no-total',
      'not:tag:type=closing', '-O', 'csv'], { encoding: 'utf8' });
    if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') throw new Error('hledger is not installed (apt-get install hledger)');
    expect(run.stderr).toBe('');
    const rows = parse(run.stdout, { relax_column_count: true }) as string[][];
    const hledgerRow = (name: string) => rows.find((row) => row[0] === name)?.slice(1, 6).map((cell) => cell.replace(/[^0-9.-]/g, '') || '0');
    const ours = ledgerJson(['reports', 'income-statement', '--start', '2026-01-01', '--end', '2026-05-31', '--columns', 'month'], { db }).data;
    const amounts = (row: any) => row.column_amounts.map((cell: any) => cell.display_amount);
    const asHledger = (values: string[]) => values.map((value) => (Number(value) === 0 ? '0' : value));
    expect(asHledger(amounts(ours.revenue[0]))).toEqual(hledgerRow('revenues:4000 Sales'));
    expect(asHledger(amounts(ours.expenses[0]))).toEqual(hledgerRow('expenses:6000 Rent'));
  });
});

describe.concurrent('ledger reports trial-balance as of a date or over a range', () => {
  it('--as-of prints the balances through that day, with debit- and credit-balance columns', async () => {
    expect(await ledgerAsync(['reports', 'trial-balance', '--as-of', '2026-02-05'], { db })).toEqual({
      status: 0, stderr: '',
      stdout: [
        'Balances as of 2026-02-05',
        'CURRENCY  NUMBER  ACCOUNT  TYPE       DEBITS   CREDITS   BALANCE  DEBIT BALANCE  CREDIT BALANCE',
        'USD       1000    Cash     asset    1,000.00    300.00    700.00         700.00',
        'USD       4000    Sales    revenue      0.00  1,000.00  1,000.00                       1,000.00',
        'USD       6000    Rent     expense    300.00      0.00    300.00         300.00',
        'USD               Total             1,300.00  1,300.00                 1,000.00        1,000.00',
        'Balanced',
        '',
      ].join('\n'),
    });
  });

  it('--start/--end prints the movement of the range and says so', async () => {
    expect(await ledgerAsync(['reports', 'trial-balance', '--start', '2026-04-01', '--end', '2026-05-31'], { db })).toEqual({
      status: 0, stderr: '',
      stdout: [
        'Movement from 2026-04-01 to 2026-05-31 (activity in the range, not balances)',
        'CURRENCY  NUMBER  ACCOUNT  TYPE     DEBITS  CREDITS  BALANCE  DEBIT BALANCE  CREDIT BALANCE',
        'USD       1000    Cash     asset    200.00   300.00  -100.00                         100.00',
        'USD       4000    Sales    revenue    0.00   200.00   200.00                         200.00',
        'USD       6000    Rent     expense  300.00     0.00   300.00         300.00',
        'USD               Total             500.00   500.00                  300.00          300.00',
        'Balanced',
        '',
      ].join('\n'),
    });
  });

  it('refuses --as-of together with a range', async () => {
    const run = await ledgerAsync(['--json', 'reports', 'trial-balance', '--as-of', '2026-03-31', '--start', '2026-01-01'], { db });
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'as_of_date' });
  });
});
