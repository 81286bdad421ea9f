/**
 * `ledger reconcile ...` on real SQLite files: a bank account reconciled to zero (start with the
 * statement balance in major units, the report, clearing the opening balance, finish refused at a
 * difference and done at zero, a reconciled line that can no longer be unmatched), a card account
 * (a liability: the statement balance is what is owed, positive), and `--json` equal to the HTTP
 * API's answers on the same file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEMICOLON_MAPPING, semicolonCsv } from '../helpers/bank-books.js';
import {
  type ApiOnFile, ROOT, entry, ledger, ledgerAsync, ledgerJson, ledgerJsonAsync, operator, seedBooks, serveFile, tableCells, tempFolder, withLedger,
} from '../helpers/cli.js';

const folder = tempFolder('reconcile');
afterAll(() => folder.remove());

function writeFile(name: string, content: string | object): string {
  const file = join(folder.dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const db = join(folder.dir, 'books.db');
let books: Awaited<ReturnType<typeof seedBooks>>;
let ids: Record<'checking' | 'card' | 'spending' | 'rewe' | 'fee' | 'acme' | 'opened' | 'openedLine' | 'payment' | 'cheque' | 'chequeLine',
  string>;
let api: ApiOnFile;
const cli = (args: string[]) => ledgerJson(args, { db, apiKey: books.adminKey });

/** Every row of an HTTP list, following next_cursor. */
async function walk(path: string): Promise<unknown[]> {
  const rows: unknown[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page: any = await api.get(cursor === null ? path : `${path}${separator}cursor=${encodeURIComponent(cursor)}`);
    rows.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return rows;
}

beforeAll(async () => {
  books = await seedBooks(db);
  ids = await withLedger(db, async (service) => {
    const admin = await service.authenticate(books.adminKey);
    const gbp = await service.createFiatCurrency(operator, 'GBP');
    const account = (account_number: string, name: string, currency_id: string, account_type: 'asset' | 'liability' | 'equity' | 'expense') =>
      service.createAccount(operator, { account_number, name, currency_id, account_type,
        normal_balance: account_type === 'asset' || account_type === 'expense' ? 'debit' : 'credit' });
    const checking = await account('1010', 'Checking', books.usd.id, 'asset');
    const opening = await account('3100', 'Opening balances', books.usd.id, 'equity');
    const fees = await account('6100', 'Bank fees', books.usd.id, 'expense');
    const groceries = await account('6200', 'Groceries', books.usd.id, 'expense');
    const card = await account('2200', 'UK card', gbp.id, 'liability');
    const current = await account('1050', 'GBP current account', gbp.id, 'asset');
    const spending = await account('6400', 'Card spending', gbp.id, 'expense');
    // The bank's statement of March: 1000.00 brought forward, three lines, 2435.90 at its end.
    const statement = await service.importBankStatement(admin, { account_id: checking.id, format: 'csv', csv: SEMICOLON_MAPPING, content: semicolonCsv([
      ['02.03.2026', 'Kartenzahlung REWE Markt', '-54,20', '945,80'],
      ['04.03.2026', 'Entgelt Kontoführung', '-9,90', '935,90'],
      ['06.03.2026', 'Gutschrift ACME RE-17', '1.500,00', '2.435,90'],
    ]) });
    const opened = await service.postJournalEntry(admin, entry(checking.id, opening.id, '100000', '2026-02-28', 'Opening balance'));
    const payment = await service.postJournalEntry(admin, entry(checking.id, books.acme.id, '150000', '2026-03-06', 'ACME pays RE-17'));
    // A cheque written at the end of March that the bank has not paid yet: outstanding.
    const cheque = await service.postJournalEntry(admin, entry(books.rent.id, checking.id, '10000', '2026-03-30', 'Cheque 1043'));
    await service.createBankRule(admin, { name: 'Fees', match: { description_contains: 'entgelt' }, counter_account_id: fees.id });
    await service.createBankRule(admin, { name: 'Groceries', match: { description_contains: 'rewe' }, counter_account_id: groceries.id });
    await service.createBankRule(admin, { name: 'Card spending', account_id: card.id, match: { direction: 'out' }, counter_account_id: spending.id });
    await service.createBankRule(admin, { name: 'Card payments', account_id: card.id, match: { description_contains: 'payment' },
      counter_account_id: current.id });
    const lines = (await service.listBankLines({ statement_id: statement.id, limit: 200 })).data;
    return {
      checking: checking.id, card: card.id, spending: spending.id, rewe: lines[0]!.id, fee: lines[1]!.id, acme: lines[2]!.id,
      opened: opened.id, openedLine: opened.lines[0]!.id, payment: payment.id, cheque: cheque.id, chequeLine: cheque.lines[1]!.id,
    };
  });
});

describe('reconciling a bank account to zero', () => {
  let id: string;

  it('starts with the statement balance in major units and prints the report', () => {
    const run = ledger(['reconcile', 'start', '--account', 'Checking', '--date', '2026-03-31', '--balance', '2435.90'], { db, apiKey: books.adminKey });
    id = /^Reconciliation (\S+) /.exec(run.stdout)?.[1] ?? '';
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    const [summary, outstanding, unmatched] = run.stdout.split('\n\n');
    expect(summary).toBe([
      `Reconciliation ${id} of 1010 Checking, statement of 2026-03-31: open`,
      'ITEM                           AMOUNT',
      'Statement balance         2435.90 USD',
      'Previously reconciled        0.00 USD',
      'Cleared lines (0)            0.00 USD',
      'Cleared balance              0.00 USD',
      'Outstanding items (3)     2400.00 USD',
      'Unmatched bank lines (3)  1435.90 USD',
      'Difference                2435.90 USD',
    ].join('\n'));
    expect(tableCells(outstanding!)).toEqual([
      ['Outstanding items (in the books, not on the statement):'],
      ['DATE', 'ENTRY', 'JOURNAL LINE', 'DESCRIPTION', 'REFERENCE', 'AMOUNT'],
      ['2026-02-28', ids.opened, ids.openedLine, 'Opening balance', '1000.00 USD'],
      ['2026-03-06', ids.payment, expect.any(String), 'ACME pays RE-17', '1500.00 USD'],
      ['2026-03-30', ids.cheque, ids.chequeLine, 'Cheque 1043', '-100.00 USD'],
    ]);
    expect(tableCells(unmatched!)).toEqual([
      ['Unmatched bank lines (on the statement, not in the books; the bank\'s sign: money in is positive):'],
      ['BANK LINE', 'DATE', 'DESCRIPTION', 'AMOUNT'],
      [ids.rewe, '2026-03-02', 'Kartenzahlung REWE Markt', '-54.20 USD'],
      [ids.fee, '2026-03-04', 'Entgelt Kontoführung', '-9.90 USD'],
      [ids.acme, '2026-03-06', 'Gutschrift ACME RE-17', '1500.00 USD'],
    ]);
    expect(cli(['reconcile', 'status', id]).data).toMatchObject({ statement_balance: '243590', cleared_balance: '0', difference: '243590',
      status: 'open', created_by: books.adminId });
  });

  it('refuses a second open reconciliation of the account (DUPLICATE, exit 1)', () => {
    const run = ledger(['--json', 'reconcile', 'start', '--account', '1010', '--date', '2026-04-30', '--balance', '0'], { db, apiKey: books.adminKey });
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ code: 'DUPLICATE', field: 'account_id' });
  });

  it('refuses to finish at a difference (RECONCILIATION_DIFFERENCE, exit 1)', () => {
    expect(ledger(['reconcile', 'finish', id], { db, apiKey: books.adminKey })).toEqual({ status: 1, stdout: '',
      stderr: 'error [RECONCILIATION_DIFFERENCE]: The statement balance 2435.90 USD differs from the cleared balance 0.00 USD by 2435.90 USD\n'
        + 'hint: Match or post the bank\'s lines, or clear the lines the bank has, until the difference is zero\n' });
    const json = ledger(['--json', 'reconcile', 'finish', id], { db, apiKey: books.adminKey });
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({ code: 'RECONCILIATION_DIFFERENCE' });
    expect(cli(['reconcile', 'status', id]).data.status).toBe('open');
  });

  it('clears the bank\'s lines as they are posted and matched, then the opening balance, down to zero', () => {
    cli(['bank', 'accept', ids.rewe, ids.fee]);
    cli(['bank', 'match', ids.acme, '--entry', ids.payment]);
    const matched = cli(['reconcile', 'status', id]).data;
    expect([matched.display_cleared_balance, matched.display_difference, matched.outstanding.map((line: any) => line.journal_entry_id)])
      .toEqual(['1435.90', '1000.00', [ids.opened, ids.cheque]]);
    expect(matched.unmatched_bank_lines).toEqual([]);

    const cleared = ledger(['reconcile', 'clear', id, '--line', ids.openedLine], { db, apiKey: books.adminKey });
    expect(cleared.status).toBe(0);
    expect(cleared.stdout.split('\n\n')[0]!.split('\n').slice(2)).toEqual([
      'Statement balance         2435.90 USD',
      'Previously reconciled        0.00 USD',
      'Cleared lines (4)         2435.90 USD',
      'Cleared balance           2435.90 USD',
      'Outstanding items (1)     -100.00 USD',
      'Unmatched bank lines (0)     0.00 USD',
      'Difference                   0.00 USD',
    ]);
    const unclear = cli(['reconcile', 'unclear', id, '--line', ids.openedLine]).data;
    expect(unclear.display_difference).toBe('1000.00');
    expect(cli(['reconcile', 'clear', id, '--line', ids.openedLine]).data.difference).toBe('0');
  });

  it('finishes at zero; the outstanding cheque stays in the report, and the lines stay reconciled', () => {
    const run = ledger(['reconcile', 'finish', id], { db, apiKey: books.adminKey });
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(new RegExp(`^Reconciliation ${id} of 1010 Checking, statement of 2026-03-31: finished \\(finished \\S+Z\\)$`));
    const report = cli(['reconcile', 'status', id]).data;
    expect(report).toMatchObject({ status: 'finished', cleared_balance: '243590', difference: '0', finished_by: books.adminId });
    expect(report.outstanding.map((line: any) => line.journal_line_id)).toEqual([ids.chequeLine]);
    expect(report.cleared).toHaveLength(4);
  });

  it('refuses to unmatch or exclude a line of the finished reconciliation (RECONCILED, exit 1)', async () => {
    const [unmatch, exclude] = await Promise.all([
      ledgerAsync(['bank', 'unmatch', ids.rewe], { db, apiKey: books.adminKey }),
      ledgerAsync(['--json', 'bank', 'exclude', ids.fee, '--reason', 'x'], { db, apiKey: books.adminKey }),
    ]);
    expect(unmatch.status).toBe(1);
    expect(unmatch.stderr).toBe(`error [RECONCILED]: Bank line ${ids.rewe} is part of finished reconciliation ${id}\n`
      + 'hint: A finished reconciliation is permanent: correct the books with a new entry, or a reversal, instead\n');
    expect(exclude.status).toBe(1);
    expect(JSON.parse(exclude.stderr).code).toBe('RECONCILED');
    expect(cli(['bank', 'line', ids.rewe]).data).toMatchObject({ status: 'matched', reconciliation_id: id });
  });

  it('lists reconciliations, and the next one starts after the last finished one', () => {
    expect(tableCells(ledger(['reconcile', 'list', '--account', 'Checking'], { db }).stdout)).toEqual([
      ['ID', 'ACCOUNT', 'STATEMENT DATE', 'STATEMENT BALANCE', 'CLEARED BALANCE', 'DIFFERENCE', 'STATUS'],
      [id, '1010 Checking', '2026-03-31', '2435.90 USD', '2435.90 USD', '0.00 USD', 'finished'],
    ]);
    const early = ledger(['--json', 'reconcile', 'start', '--account', '1010', '--date', '2026-03-31', '--balance', '2335.90'], { db, apiKey: books.adminKey });
    expect(early.status).toBe(1);
    expect(JSON.parse(early.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'statement_date' });
    // April: the cheque is paid (a bank line the books have), so April starts from March's 2435.90.
    const april = cli(['reconcile', 'start', '--account', '1010', '--date', '2026-04-30', '--balance', '2335.90']).data;
    expect(april).toMatchObject({ previously_reconciled_balance: '243590', cleared_balance: '243590', difference: '-10000' });
    expect(april.outstanding.map((line: any) => line.journal_line_id)).toEqual([ids.chequeLine]);
    expect(cli(['reconcile', 'clear', april.id, '--line', ids.chequeLine]).data.difference).toBe('0');
    expect(cli(['reconcile', 'finish', april.id]).data.status).toBe('finished');
  });

  it('needs an API key with bank:write to start, clear or finish (exit 3)', () => {
    const run = ledger(['--json', 'reconcile', 'start', '--account', '1010', '--date', '2026-05-31', '--balance', '0'], { db });
    expect(run.status).toBe(3);
    expect(JSON.parse(run.stderr)).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('reconciling a card account: the statement balance is what is owed, positive', () => {
  let id: string;

  it('imports the card statement and starts at the amount owed', () => {
    const map = writeFile('uk-card-map.json', { date_column: 'Posted Date', date_format: 'DD/MM/YYYY', description_column: 'Description', amount_column: 'Amount' });
    const statement = cli(['bank', 'import', join(ROOT, 'test/fixtures/bank/uk-card.csv'), '--account', 'UK card', '--format', 'csv', '--map', map]).data;
    expect(statement).toMatchObject({ line_count: 7, new_count: 7, opening_balance: null, closing_balance: null });
    const report = cli(['reconcile', 'start', '--account', '2200', '--date', '2026-01-31', '--balance', '1086.88']).data;
    id = report.id;
    expect(report).toMatchObject({ statement_balance: '108688', display_statement_balance: '1086.88', cleared_balance: '0', difference: '108688' });
    expect(report.unmatched_bank_lines).toHaveLength(7);
    // The report signs the bank's lines like the balance: purchases (money out of the card's view) add to what is owed.
    const summary = ledger(['reconcile', 'status', id], { db }).stdout.split('\n\n')[0]!.split('\n').slice(2);
    expect(summary).toEqual([
      'Statement balance         1086.88 GBP',
      'Previously reconciled        0.00 GBP',
      'Cleared lines (0)            0.00 GBP',
      'Cleared balance              0.00 GBP',
      'Outstanding items (0)        0.00 GBP',
      'Unmatched bank lines (7)  1086.88 GBP',
      'Difference                1086.88 GBP',
    ]);
  });

  it('posts the purchases, the payment and the refund, and finishes at zero with a positive cleared balance', () => {
    const lines = ledgerJson(['bank', 'lines', '--account', 'UK card', '--status', 'unmatched'], { db }).data;
    const suggested = lines.filter((line: any) => line.suggestion !== null);
    expect(suggested.map((line: any) => line.suggestion.rule_name)).toEqual(['Card spending', 'Card spending', 'Card spending', 'Card spending',
      'Card payments', 'Card spending']);
    cli(['bank', 'accept', ...suggested.map((line: any) => line.id)]);
    const [refund] = lines.filter((line: any) => line.suggestion === null);
    expect(refund.description).toBe('AMAZON.CO.UK REFUND');
    const posted = cli(['bank', 'post', refund.id, '--counter', 'Card spending']).data;
    const entryLines = ledgerJson(['journal-entries', 'get', posted.journal_entry_ids[0]], { db }).data.lines;
    // Money into the card (a refund) lowers what is owed: a debit of the liability.
    expect(entryLines.map((line: any) => [line.account_number, line.display_debit, line.display_credit])).toEqual([
      ['2200', '18.99', '0.00'], ['6400', '0.00', '18.99'],
    ]);
    const report = cli(['reconcile', 'finish', id]).data;
    expect(report).toMatchObject({ status: 'finished', cleared_balance: '108688', display_cleared_balance: '1086.88', difference: '0' });
    const balance = ledgerJson(['accounts', 'get', '2200'], { db }).data.balance;
    expect(balance.display_balance).toBe('1086.88');
  });
});

describe('--json prints exactly what the HTTP API answers on the same file', () => {
  // The server starts after the tests above, whose synchronous runs of the CLI would hold up its event loop.
  beforeAll(async () => { api = await serveFile(db); });
  afterAll(async () => { await api?.close(); });
  const cliAsync = (args: string[]) => ledgerJsonAsync(args, { db, apiKey: books.adminKey });
  let february: string;

  it('reconcile status, for finished reconciliations and an open one', async () => {
    const finished = (await walk('/reconciliations')) as any[];
    expect(finished.map((reconciliation) => reconciliation.status)).toEqual(['finished', 'finished', 'finished']);
    for (const reconciliation of finished) {
      expect(await cliAsync(['reconcile', 'status', reconciliation.id])).toEqual(await api.get(`/reconciliations/${reconciliation.id}`));
    }
    // February: the card statement says 5.00 more is owed, for a purchase the books have too.
    const started = await cliAsync(['reconcile', 'start', '--account', '2200', '--date', '2026-02-28', '--balance', '1091.88']);
    february = started.data.id;
    expect(started).toEqual(await api.get(`/reconciliations/${february}`));
    expect(await cliAsync(['reconcile', 'status', february])).toEqual(await api.get(`/reconciliations/${february}`));
  });

  it('reconcile list, with and without --account, and --limit', async () => {
    expect(await cliAsync(['reconcile', 'list'])).toEqual({ data: await walk('/reconciliations'), has_more: false, next_cursor: null });
    expect(await cliAsync(['reconcile', 'list', '--account', 'Checking'])).toEqual({ data: await walk(`/reconciliations?account_id=${ids.checking}`),
      has_more: false, next_cursor: null });
    expect(await cliAsync(['reconcile', 'list', '--limit', '1'])).toEqual(await api.get('/reconciliations?limit=1'));
  });

  it('a refused finish prints the API\'s error body; clear and unclear answer the report as the API reads it back', async () => {
    const refused = await ledgerAsync(['--json', 'reconcile', 'finish', february], { db, apiKey: books.adminKey });
    const overHttp = await api.request('POST', `/reconciliations/${february}/finish`);
    expect(overHttp.status).toBe(409);
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.stderr)).toEqual(overHttp.body);
    const spend = await cliAsync(['journal-entries', 'create', '--file', writeFile('spend.json', entry(ids.spending, ids.card, '500', '2026-02-10', 'Card purchase'))]);
    const cardLine = spend.data.lines[1].id;
    const cleared = await cliAsync(['reconcile', 'clear', february, '--line', cardLine]);
    expect(cleared).toEqual(await api.get(`/reconciliations/${february}`));
    expect(cleared.data.difference).toBe('0');
    expect(await cliAsync(['reconcile', 'unclear', february, '--line', cardLine])).toEqual(await api.get(`/reconciliations/${february}`));
    expect(await cliAsync(['reconcile', 'clear', february, '--line', cardLine])).toEqual(await api.get(`/reconciliations/${february}`));
    expect(await cliAsync(['reconcile', 'finish', february])).toEqual(await api.get(`/reconciliations/${february}`));
  });
});
