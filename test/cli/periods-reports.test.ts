/**
 * `ledger periods ...`, `ledger reports ...`, `ledger settings ...` and `ledger users list|get` as
 * transcripts over one quarter's books: Q1 2026 holds an invoice, rent and a payment and gets
 * closed; Q2 holds one cash sale.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, ledger, ledgerAsync, ledgerJson, ledgerJsonAsync, operator, seedBooks, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('periods');
afterAll(() => folder.remove());

const db = join(folder.dir, 'books.db');
let books: Awaited<ReturnType<typeof seedBooks>>;
let q1: string;
let q2: string;
let closingId: string;

beforeAll(async () => {
  books = await seedBooks(db, { withPeriod: false });
});

/** The closing entry of Q1 as the CLI prints it (after its first line). */
const closingEntryTable = (id: string, hash: string) => [
  '#5  2026-03-31  Closing entry for Q1 2026',
  `  id ${id}  closing`,
  `  hash ${hash}`,
  'ACCOUNT  NAME                     DEBIT      CREDIT  MEMO',
  '4000     Sales              1000.00 USD              Close to retained earnings',
  '6000     Rent                            400.00 USD  Close to retained earnings',
  '3000     Retained Earnings               600.00 USD  Net income for the period',
];

describe('ledger periods', () => {
  it('create prints the new period with its inclusive dates', () => {
    const run = ledger(['periods', 'create', '--name', 'Q1 2026', '--start', '2026-01-01', '--end', '2026-03-31'], { db });
    expect(run.status).toBe(0);
    q1 = /\(([0-9a-f-]{36})\)\n$/.exec(run.stdout)?.[1] ?? '';
    expect(run).toEqual({ status: 0, stdout: `Created period Q1 2026 2026-01-01..2026-03-31 (${q1})\n`, stderr: '' });
    q2 = ledgerJson(['periods', 'create', '--name', 'Q2 2026', '--start', '2026-04-01', '--end', '2026-06-30'], { db }).data.id;
  });

  it.each([
    ['a period sharing a day with another', ['--start', '2026-03-31', '--end', '2026-04-30'], 'PERIOD_OVERLAP'],
    ['an end before the start', ['--start', '2026-08-01', '--end', '2026-07-01'], 'VALIDATION_ERROR'],
    ['an impossible date', ['--start', '2026-07-01', '--end', '2026-09-31'], 'VALIDATION_ERROR'],
  ])('create refuses %s with exit 1', (_label, dates, code) => {
    const run = ledger(['--json', 'periods', 'create', '--name', 'X', ...dates], { db });
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stderr).code).toBe(code);
  });

  it('list prints every period as an aligned table ordered by start date', () => {
    expect(ledger(['periods', 'list'], { db })).toEqual({
      status: 0, stderr: '',
      stdout: [
        'ID                                    NAME     START       END         STATUS  CLOSED AT  CLOSING ENTRY',
        `${q1}  Q1 2026  2026-01-01  2026-03-31  open`,
        `${q2}  Q2 2026  2026-04-01  2026-06-30  open`,
        '',
      ].join('\n'),
    });
  });

  it('close --preview shows the closing entry and changes nothing', async () => {
    await withLedger(db, async (service) => {
      const admin = await service.authenticate(books.adminKey);
      await service.postJournalEntry(admin, entry(books.acme.id, books.sales.id, '100000', '2026-01-15', 'Invoice 1'));
      await service.postJournalEntry(admin, entry(books.rent.id, books.cash.id, '40000', '2026-02-01', 'Rent'));
      await service.postJournalEntry(admin, entry(books.cash.id, books.acme.id, '60000', '2026-03-10', 'Acme pays'));
      await service.postJournalEntry(admin, entry(books.cash.id, books.sales.id, '25000', '2026-04-05', 'Cash sale'));
    });
    const run = ledger(['periods', 'close', q1, '--preview'], { db, apiKey: books.adminKey });
    expect(run.status).toBe(0);
    const previewId = /\n {2}id (\S+) {2}closing\n/.exec(run.stdout)?.[1] ?? '';
    // A preview's entry is never stored; its hash is what the close would give it at that moment.
    const previewHash = /\n {2}hash ([0-9a-f]{64})\n/.exec(run.stdout)?.[1] ?? 'no hash printed';
    expect(run).toEqual({
      status: 0, stderr: '',
      stdout: ['Preview of closing Q1 2026 (nothing was changed):', ...closingEntryTable(previewId, previewHash), ''].join('\n'),
    });
    expect(ledgerJson(['periods', 'get', q1], { db }).data).toMatchObject({ status: 'open', closed_by: null, closing_entry_id: null });
    expect(ledgerJson(['journal-entries', 'list'], { db }).data).toHaveLength(4);
  });

  it('close posts the closing entry the preview showed and records the key\'s user as closed_by', () => {
    const run = ledger(['periods', 'close', q1], { db, apiKey: books.adminKey });
    expect(run.status).toBe(0);
    closingId = /\n {2}id (\S+) {2}closing\n/.exec(run.stdout)?.[1] ?? '';
    const closingHash = ledgerJson(['journal-entries', 'get', closingId], { db }).data.hash;
    expect(run).toEqual({ status: 0, stderr: '', stdout: ['Closed Q1 2026.', ...closingEntryTable(closingId, closingHash), ''].join('\n') });
    const period = ledgerJson(['periods', 'get', q1], { db }).data;
    expect(period).toMatchObject({ status: 'closed', closed_by: books.adminId, closing_entry_id: closingId });
    expect(ledger(['periods', 'get', q1], { db }).stdout).toBe([
      'ID                                    NAME     START       END         STATUS  CLOSED AT                 CLOSING ENTRY',
      `${q1}  Q1 2026  2026-01-01  2026-03-31  closed  ${period.closed_at}  ${closingId}`,
      '',
    ].join('\n'));
  });

  it('journal-entries reverse of the closing entry exits 1 with REVERSAL_NOT_ALLOWED and posts nothing', () => {
    const before = ledgerJson(['journal-entries', 'list'], { db }).data.length;
    const run = ledger(['--json', 'journal-entries', 'reverse', closingId, '--date', '2026-04-01'], { db, apiKey: books.adminKey });
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({
      code: 'REVERSAL_NOT_ALLOWED', message: 'A closing entry cannot be reversed; period close is permanent',
      suggestion: 'Post a correcting entry in an open period',
    });
    expect(ledgerJson(['journal-entries', 'list'], { db }).data.length).toBe(before);
    expect(ledgerJson(['journal-entries', 'get', closingId], { db }).data).toMatchObject({ entry_type: 'closing', reversed_by_id: null });
  });

  it('close of a closed period exits 1 with PERIOD_CLOSED, and the period takes no new entries', () => {
    expect(ledger(['periods', 'close', q1], { db, apiKey: books.adminKey })).toMatchObject({
      status: 1, stdout: '', stderr: expect.stringMatching(/^error \[PERIOD_CLOSED\]: /),
    });
    const late = ledger(['--json', 'journal-entries', 'create', '--file', '-'], {
      db, apiKey: books.adminKey, input: JSON.stringify(entry(books.cash.id, books.sales.id, '1', '2026-03-31')),
    });
    expect(late.status).toBe(1);
    expect(JSON.parse(late.stderr)).toMatchObject({ code: 'NO_OPEN_PERIOD', field: 'entry_date' });
  });

  it('get of an unknown period exits 4', () => {
    expect(ledger(['periods', 'get', 'nope'], { db })).toEqual({
      status: 4, stdout: '', stderr: 'error [NOT_FOUND]: Period nope does not exist\nhint: List periods to find a valid id\n',
    });
  });
});

describe.concurrent('ledger reports', () => {
  it('trial-balance prints every account with activity and the totals per currency', async () => {
    expect(await ledgerAsync(['reports', 'trial-balance'], { db })).toEqual({
      status: 0, stderr: '',
      stdout: [
        'Balances, all time',
        'CURRENCY  NUMBER    ACCOUNT            TYPE       DEBITS   CREDITS  BALANCE  DEBIT BALANCE  CREDIT BALANCE',
        'USD       1000      Cash               asset      850.00    400.00   450.00         450.00',
        'USD       1200-001  Acme Ltd           asset    1,000.00    600.00   400.00         400.00',
        'USD       3000      Retained Earnings  equity       0.00    600.00   600.00                         600.00',
        'USD       4000      Sales              revenue  1,000.00  1,250.00   250.00                         250.00',
        'USD       6000      Rent               expense    400.00    400.00     0.00',
        'USD                 Total                       3,250.00  3,250.00                  850.00          850.00',
        'Balanced',
        '',
      ].join('\n'),
    });
  });

  it('trial-balance --period covers only that period', async () => {
    expect((await ledgerAsync(['reports', 'trial-balance', '--period', q2], { db })).stdout).toBe([
      'Movement of Q2 2026 from 2026-04-01 to 2026-06-30 (activity in the range, not balances)',
      'CURRENCY  NUMBER  ACCOUNT  TYPE     DEBITS  CREDITS  BALANCE  DEBIT BALANCE  CREDIT BALANCE',
      'USD       1000    Cash     asset    250.00     0.00   250.00         250.00',
      'USD       4000    Sales    revenue    0.00   250.00   250.00                         250.00',
      'USD               Total             250.00   250.00                  250.00          250.00',
      'Balanced',
      '',
    ].join('\n'));
  });

  const balanceSheetAtQ1End = [
    'CURRENCY  SECTION  NUMBER    ACCOUNT                       BALANCE',
    'USD       Assets   1000      Cash                           200.00',
    'USD       Assets   1200-001  Acme Ltd                       400.00',
    'USD                          Total assets                   600.00',
    'USD                          Total liabilities                0.00',
    'USD       Equity   3000      Retained Earnings              600.00',
    'USD       Equity             Current earnings                 0.00',
    'USD                          Total equity                   600.00',
    'USD                          Total liabilities and equity   600.00',
    'As of 2026-03-31: balanced',
    '',
  ].join('\n');

  it('balance-sheet --as-of includes the entries of that day, and --period means through its end', async () => {
    expect(await ledgerAsync(['reports', 'balance-sheet', '--as-of', '2026-03-31'], { db })).toEqual({ status: 0, stdout: balanceSheetAtQ1End, stderr: '' });
    expect(await ledgerAsync(['reports', 'balance-sheet', '--period', q1], { db })).toEqual({ status: 0, stdout: balanceSheetAtQ1End, stderr: '' });
    expect((await ledgerAsync(['reports', 'balance-sheet', '--as-of', '2026-03-09'], { db })).stdout.split('\n').slice(1, 3)).toEqual([
      'USD       Assets   1000      Cash                           -400.00',
      'USD       Assets   1200-001  Acme Ltd                      1,000.00',
    ]);
  });

  it('balance-sheet without a date covers everything, with unclosed results as current earnings', async () => {
    expect((await ledgerAsync(['reports', 'balance-sheet'], { db })).stdout).toBe([
      'CURRENCY  SECTION  NUMBER    ACCOUNT                       BALANCE',
      'USD       Assets   1000      Cash                           450.00',
      'USD       Assets   1200-001  Acme Ltd                       400.00',
      'USD                          Total assets                   850.00',
      'USD                          Total liabilities                0.00',
      'USD       Equity   3000      Retained Earnings              600.00',
      'USD       Equity             Current earnings               250.00',
      'USD                          Total equity                   850.00',
      'USD                          Total liabilities and equity   850.00',
      'As of all dates: balanced',
      '',
    ].join('\n'));
  });

  it('income-statement --period shows a closed period\'s result, closing entry excluded', async () => {
    expect(await ledgerAsync(['reports', 'income-statement', '--period', q1], { db })).toEqual({
      status: 0, stderr: '',
      stdout: [
        'CURRENCY  SECTION   NUMBER  ACCOUNT           AMOUNT',
        'USD       Revenue   4000    Sales           1,000.00',
        'USD                         Total revenue   1,000.00',
        'USD       Expenses  6000    Rent              400.00',
        'USD                         Total expenses    400.00',
        'USD                         Net income        600.00',
        '',
      ].join('\n'),
    });
  });

  it('income-statement without --period covers all time', async () => {
    expect((await ledgerAsync(['reports', 'income-statement'], { db })).stdout.split('\n').slice(1, 2)).toEqual(['USD       Revenue   4000    Sales           1,250.00']);
    expect((await ledgerJsonAsync(['reports', 'income-statement'], { db })).data).toMatchObject({
      total_revenue: '125000', total_expenses: '40000', net_income: '85000', currency_id: books.usd.id,
    });
  });

  it('general-ledger --start --end prints the lines with running balances from the starting balance', async () => {
    expect(await ledgerAsync(['reports', 'general-ledger', '--account', books.cash.id, '--start', '2026-02-01', '--end', '2026-03-31'], { db })).toEqual({
      status: 0, stderr: '',
      stdout: [
        'Account:          1000 Cash',
        'Currency:         USD',
        'Range:            2026-02-01 to 2026-03-31',
        'Starting balance: 0.00',
        'DATE        NO.  DESCRIPTION  ACCOUNT   DEBIT  CREDIT  BALANCE',
        '2026-02-01  #2   Rent         1000             400.00  -400.00',
        '2026-03-10  #3   Acme pays    1000     600.00           200.00',
        'Ending balance: 200.00',
        '',
      ].join('\n'),
    });
    expect((await ledgerAsync(['reports', 'general-ledger', '--account', books.cash.id, '--start', '2026-03-01'], { db })).stdout.split('\n').slice(2, 4))
      .toEqual(['Range:            2026-03-01 to today', 'Starting balance: -400.00']);
  });

  it('general-ledger of a control account includes its sub-accounts\' lines, newest first with --sort desc', async () => {
    const body = (await ledgerJsonAsync(['reports', 'general-ledger', '--account', books.receivables.id, '--sort', 'desc'], { db })).data;
    expect(body.lines.map((line: any) => [line.entry_date, line.display_debit, line.display_credit, line.display_running_balance]))
      .toEqual([['2026-03-10', '0.00', '600.00', '400.00'], ['2026-01-15', '1000.00', '0.00', '1000.00']]);
    expect(body).toMatchObject({ display_starting_balance: '0.00', display_ending_balance: '400.00', has_more: false, next_cursor: null });
  });

  it('general-ledger without --account is a usage error, exit 2', async () => {
    const run = await ledgerAsync(['reports', 'general-ledger'], { db });
    expect(run.status).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe("error: required option '--account <account>' not specified");
  });

  it('refuses an unknown period with exit 4 and an impossible date with exit 1', async () => {
    expect(await ledgerAsync(['reports', 'trial-balance', '--period', 'nope'], { db })).toEqual({
      status: 4, stdout: '', stderr: 'error [NOT_FOUND] (period_id): Period nope does not exist\nhint: List periods to find a valid id\n',
    });
    expect((await ledgerAsync(['reports', 'balance-sheet', '--as-of', '2026-02-30'], { db })).status).toBe(1);
  });
});

describe('ledger settings', () => {
  it('get prints the retained earnings account', () => {
    expect(ledger(['settings', 'get'], { db })).toEqual({ status: 0, stdout: `Company name:              -\nBase currency:             USD\nLock date:                 none\nRetained earnings account: ${books.equity.id}\n`, stderr: '' });
  });

  it('set retained-earnings-account refuses an account that is not equity, exit 1, and keeps the setting', () => {
    const run = ledger(['--json', 'settings', 'set', 'retained-earnings-account', books.cash.id], { db });
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'retained_earnings_account_id' });
    expect(ledgerJson(['settings', 'get'], { db })).toEqual({ data: { company_name: null, retained_earnings_account_id: books.equity.id, retained_earnings_account_ids: {}, base_currency_id: expect.any(String), lock_date: null } });
  });

  it('set retained-earnings-account changes the setting', async () => {
    const other = await withLedger(db, (service) => service.createAccount(operator, {
      account_number: '3100', name: 'Other equity', currency_id: books.usd.id, account_type: 'equity', normal_balance: 'credit',
    }));
    expect(ledger(['settings', 'set', 'retained-earnings-account', other.id], { db }))
      .toEqual({ status: 0, stdout: `Company name:              -\nBase currency:             USD\nLock date:                 none\nRetained earnings account: ${other.id}\n`, stderr: '' });
    expect(ledgerJson(['settings', 'get'], { db })).toEqual({ data: { company_name: null, retained_earnings_account_id: other.id, retained_earnings_account_ids: {}, base_currency_id: expect.any(String), lock_date: null } });
  });
});

describe('ledger users list and get', () => {
  it('list and get print users as a table', () => {
    const header = 'ID                                    NAME         TYPE     EMAIL  ACTIVE  PERMISSIONS';
    const row = `${books.adminId}  admin agent  service         yes     admin`;
    expect(ledger(['users', 'list'], { db })).toEqual({ status: 0, stdout: `${header}\n${row}\n`, stderr: '' });
    expect(ledger(['users', 'get', books.adminId], { db })).toEqual({ status: 0, stdout: `${header}\n${row}\n`, stderr: '' });
    expect(ledger(['users', 'get', 'nope'], { db }).status).toBe(4);
  });
});
