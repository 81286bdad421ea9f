/**
 * `ledger journal-entries ...` and the API-key rules of the command line: the commands that write
 * attributed records (create, reverse, import, periods close) act as the key's user, with that
 * user's permissions; every other command needs no key.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, ledger, ledgerAsync, ledgerJson, operator, seedBooks, tableCells, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('entries');
afterAll(() => folder.remove());

type Books = Awaited<ReturnType<typeof seedBooks>>;

function writeJson(name: string, value: unknown): string {
  const file = join(folder.dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

const entryCount = (db: string) => ledgerJson(['journal-entries', 'list'], { db }).data.length as number;

describe('ledger journal-entries create', () => {
  const db = join(folder.dir, 'create.db');
  let books: Books;
  beforeAll(async () => {
    books = await seedBooks(db);
  });

  it('posts the entry of a JSON file and prints it with its lines', () => {
    const file = writeJson('invoice.json', {
      entry_date: '2026-03-01', description: 'Invoice 1001', reference: 'INV-1001',
      lines: [{ account_id: books.acme.id, debit_amount: '25000' }, { account_id: books.sales.id, credit_amount: '25000', description: 'March sale' }],
    });
    const run = ledger(['journal-entries', 'create', '--file', file], { db, apiKey: books.adminKey });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    const id = /\n {2}id (\S+) {2}standard\n/.exec(run.stdout)?.[1];
    expect(run.stdout).toBe([
      'Posted:',
      '#1  2026-03-01  Invoice 1001  [INV-1001]',
      `  id ${id}  standard`,
      `  hash ${ledgerJson(['journal-entries', 'get', id!], { db }).data.hash}`,
      'ACCOUNT   NAME           DEBIT      CREDIT  MEMO',
      '1200-001  Acme Ltd  250.00 USD',
      '4000      Sales                 250.00 USD  March sale',
      '',
    ].join('\n'));
  });

  it('reads the entry from stdin with --file -, takes the key from LEDGER_API_KEY and records its user as created_by', () => {
    const body = entry(books.cash.id, books.acme.id, '10050', '2026-03-02', 'Payment from Acme');
    const run = ledger(['--json', 'journal-entries', 'create', '--file', '-'], {
      db, input: JSON.stringify(body), env: { LEDGER_API_KEY: books.adminKey },
    });
    expect(run.status).toBe(0);
    const created = JSON.parse(run.stdout).data;
    expect(created).toMatchObject({
      entry_date: '2026-03-02', description: 'Payment from Acme', entry_type: 'standard', created_by: books.adminId,
      period_id: books.period.id, reverses_id: null, reversed_by_id: null,
    });
    expect(created.lines.map((line: any) => [line.account_number, line.display_debit, line.display_credit]))
      .toEqual([['1000', '100.50', '0.00'], ['1200-001', '0.00', '100.50']]);
  });

  it.concurrent.each([
    ['an unbalanced entry', { entry_date: '2026-03-03', description: 'x', lines: [
      { account_id: 'CASH', debit_amount: '100' }, { account_id: 'SALES', credit_amount: '99' }] }, 'UNBALANCED_ENTRY', 'lines'],
    ['an amount given as a JSON number', { entry_date: '2026-03-03', description: 'x', lines: [
      { account_id: 'CASH', debit_amount: 100 }, { account_id: 'SALES', credit_amount: '100' }] }, 'VALIDATION_ERROR', 'lines[0].debit_amount'],
    ['a date outside every open period', { entry_date: '2027-01-01', description: 'x', lines: [
      { account_id: 'CASH', debit_amount: '100' }, { account_id: 'SALES', credit_amount: '100' }] }, 'NO_OPEN_PERIOD', 'entry_date'],
    ['a line on a control account', { entry_date: '2026-03-03', description: 'x', lines: [
      { account_id: 'RECEIVABLES', debit_amount: '100' }, { account_id: 'SALES', credit_amount: '100' }] }, 'CONTROL_ACCOUNT', 'lines[0].account_id'],
    ['a file that is not JSON', '{"entry_date": ', 'VALIDATION_ERROR', 'file'],
  ])('refuses %s with exit 1 and posts nothing', async (label, body, code, field) => {
    const text = JSON.stringify(body).replace(/"CASH"/g, `"${books.cash.id}"`).replace(/"SALES"/g, `"${books.sales.id}"`)
      .replace(/"RECEIVABLES"/g, `"${books.receivables.id}"`);
    const file = writeJson(`bad-${label.replace(/\W+/g, '-')}.json`, typeof body === 'string' ? body : text);
    const run = await ledgerAsync(['--json', 'journal-entries', 'create', '--file', file], { db, apiKey: books.adminKey });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr)).toMatchObject({ code, field });
  });

  it('posted nothing for the refused entries', () => {
    expect(entryCount(db)).toBe(2);
  });

  it('refuses a file that does not exist with exit 1, naming the path', () => {
    const missing = join(folder.dir, 'no-such.json');
    expect(ledger(['journal-entries', 'create', '--file', missing], { db, apiKey: books.adminKey })).toEqual({
      status: 1, stdout: '', stderr: `error [VALIDATION_ERROR] (file): Cannot read ${missing}: ENOENT\nhint: Check the path of the file\n`,
    });
  });
});

describe('ledger journal-entries list, get and reverse', () => {
  const db = join(folder.dir, 'list.db');
  let books: Books;
  let fy2027: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    books = await seedBooks(db);
    await withLedger(db, async (service) => {
      const admin = await service.authenticate(books.adminKey);
      fy2027 = (await service.createPeriod(admin, { name: 'FY2027', start_date: '2027-01-01', end_date: '2027-12-31' })).id;
      ids.sale = (await service.postJournalEntry(admin, { ...entry(books.acme.id, books.sales.id, '120000', '2026-02-10', 'Invoice 7'), reference: 'INV-7' })).id;
      ids.rent = (await service.postJournalEntry(admin, entry(books.rent.id, books.cash.id, '80000', '2026-02-28', 'February rent'))).id;
      ids.payment = (await service.postJournalEntry(admin, entry(books.cash.id, books.acme.id, '120000', '2026-03-15', 'Acme pays'))).id;
      ids.next = (await service.postJournalEntry(admin, entry(books.cash.id, books.sales.id, '999', '2027-01-05', 'Next year'))).id;
    });
  });

  it('list prints every entry as an aligned table, ordered by date', () => {
    expect(ledger(['journal-entries', 'list'], { db })).toEqual({
      status: 0, stderr: '',
      stdout: [
        'NO.  ID                                    DATE        TYPE      DESCRIPTION    REFERENCE  AMOUNT',
        `#1   ${ids.sale}  2026-02-10  standard  Invoice 7      INV-7      1200.00 USD`,
        `#2   ${ids.rent}  2026-02-28  standard  February rent             800.00 USD`,
        `#3   ${ids.payment}  2026-03-15  standard  Acme pays                 1200.00 USD`,
        `#4   ${ids.next}  2027-01-05  standard  Next year                 9.99 USD`,
        '',
      ].join('\n'),
    });
  });

  it('list --period, --start, --end and --account keep only the matching entries', async () => {
    const cases: [string[], string[]][] = [
      [['--period', books.period.id], [ids.sale!, ids.rent!, ids.payment!]],
      [['--period', fy2027], [ids.next!]],
      [['--start', '2026-02-28'], [ids.rent!, ids.payment!, ids.next!]],
      [['--end', '2026-02-28'], [ids.sale!, ids.rent!]],
      [['--start', '2026-02-11', '--end', '2026-03-15'], [ids.rent!, ids.payment!]],
      [['--account', books.rent.id], [ids.rent!]],
      [['--account', books.receivables.id], [ids.sale!, ids.payment!]],
    ];
    const runs = await Promise.all(cases.map(([args]) => ledgerAsync(['--json', 'journal-entries', 'list', ...args], { db })));
    runs.forEach((run, index) => {
      expect({ args: cases[index]![0], ids: JSON.parse(run.stdout).data.map((e: { id: string }) => e.id) })
        .toEqual({ args: cases[index]![0], ids: cases[index]![1] });
    });
  });

  it('list refuses an impossible date with exit 1 and an unknown period with exit 4', () => {
    const badDate = ledger(['journal-entries', 'list', '--start', '2026-02-30'], { db });
    expect(badDate).toEqual({
      status: 1, stdout: '', stderr: 'error [VALIDATION_ERROR] (start_date): start_date must be a calendar date in the form YYYY-MM-DD\n'
        + 'hint: Use an existing date such as 2026-01-31\n',
    });
    expect(ledger(['journal-entries', 'list', '--period', 'nope'], { db }).status).toBe(4);
  });

  it('reverse --date posts the swapped entry on that date, attributed to the key\'s user', () => {
    const run = ledger(['journal-entries', 'reverse', ids.rent!, '--date', '2026-03-31'], { db, apiKey: books.adminKey });
    expect(run.status).toBe(0);
    ids.rentReversal = /\n {2}id (\S+) {2}reversal/.exec(run.stdout)?.[1] ?? '';
    expect(run.stdout).toBe([
      'Posted reversal:',
      '#5  2026-03-31  Reversal of: February rent',
      `  id ${ids.rentReversal}  reversal  (reverses ${ids.rent})`,
      `  hash ${ledgerJson(['journal-entries', 'get', ids.rentReversal], { db }).data.hash}`,
      'ACCOUNT  NAME       DEBIT      CREDIT  MEMO',
      '6000     Rent              800.00 USD',
      '1000     Cash  800.00 USD',
      '',
    ].join('\n'));
    expect(ledgerJson(['journal-entries', 'get', ids.rentReversal], { db }).data).toMatchObject({
      entry_type: 'reversal', reverses_id: ids.rent, created_by: books.adminId, entry_date: '2026-03-31',
    });
  });

  it('reverse without --date uses the original entry\'s date', () => {
    const reversal = ledgerJson(['journal-entries', 'reverse', ids.sale!], { db, apiKey: books.adminKey }).data;
    expect(reversal).toMatchObject({ entry_date: '2026-02-10', description: 'Reversal of: Invoice 7', reference: 'INV-7', reverses_id: ids.sale });
    ids.saleReversal = reversal.id;
  });

  it('get prints the entry with its lines and the reversal that cancels it', () => {
    expect(ledger(['journal-entries', 'get', ids.sale!], { db })).toEqual({
      status: 0, stderr: '',
      stdout: [
        '#1  2026-02-10  Invoice 7  [INV-7]',
        `  id ${ids.sale}  standard  (reversed by ${ids.saleReversal})`,
        `  hash ${ledgerJson(['journal-entries', 'get', ids.sale!], { db }).data.hash}`,
        'ACCOUNT   NAME            DEBIT       CREDIT  MEMO',
        '1200-001  Acme Ltd  1200.00 USD',
        '4000      Sales                  1200.00 USD',
        '',
      ].join('\n'),
    });
  });

  it.each([
    ['an entry that is itself a reversal', () => ids.rentReversal!, 1, 'REVERSAL_NOT_ALLOWED'],
    ['an entry that was reversed already', () => ids.rent!, 1, 'REVERSAL_NOT_ALLOWED'],
    ['an unknown entry', () => 'no-such-entry', 4, 'NOT_FOUND'],
  ])('reverse refuses %s', (_label, id, status, code) => {
    const run = ledger(['--json', 'journal-entries', 'reverse', id()], { db, apiKey: books.adminKey });
    expect(run.status).toBe(status);
    expect(JSON.parse(run.stderr).code).toBe(code);
  });

  it('reverse refuses a date in no open period with exit 1', () => {
    const run = ledger(['--json', 'journal-entries', 'reverse', ids.payment!, '--date', '2030-01-01'], { db, apiKey: books.adminKey });
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ code: 'NO_OPEN_PERIOD' });
  });

  it('get of an unknown id exits 4', () => {
    expect(ledger(['journal-entries', 'get', 'nope'], { db })).toEqual({
      status: 4, stdout: '', stderr: 'error [NOT_FOUND]: Journal entry nope does not exist\nhint: List journal entries to find a valid id\n',
    });
  });
});

describe('API keys on the command line', () => {
  const db = join(folder.dir, 'keys.db');
  let books: Books;
  let readOnlyKey: string;
  let clerk: { id: string; key: string };
  let entryId: string;
  let entryFile: string;
  let importFile: string;
  beforeAll(async () => {
    books = await seedBooks(db);
    await withLedger(db, async (service) => {
      readOnlyKey = (await service.createServiceAccount(null, { name: 'reader', permissions: {} })).api_key;
      const created = await service.createServiceAccount(null, {
        name: 'clerk', permissions: { 'journals:create': true, 'journals:reverse': true, 'periods:close': true },
      });
      clerk = { id: created.id, key: created.api_key };
      entryId = (await service.postJournalEntry(await service.authenticate(books.adminKey), entry(books.cash.id, books.sales.id, '500'))).id;
    });
    entryFile = writeJson('keys-entry.json', entry(books.cash.id, books.sales.id, '700', '2026-04-01', 'Cash sale'));
    importFile = writeJson('keys-import.jsonl', `${JSON.stringify(entry(books.cash.id, books.sales.id, '1', '2026-04-02'))}\n`);
  });

  const commands: [string, () => string[], string][] = [
    ['journal-entries create', () => ['journal-entries', 'create', '--file', entryFile], 'journals:create'],
    ['journal-entries reverse', () => ['journal-entries', 'reverse', entryId], 'journals:reverse'],
    ['journal-entries import', () => ['journal-entries', 'import', importFile], 'journals:create'],
    ['periods close', () => ['periods', 'close', books.period.id], 'periods:close'],
    ['periods close --preview', () => ['periods', 'close', books.period.id, '--preview'], 'periods:close'],
  ];

  it.concurrent.each(commands)('%s without a key exits 3 and names --api-key', async (name, args) => {
    const run = await ledgerAsync(args(), { db });
    expect(run.status).toBe(3);
    expect(run.stdout).toBe('');
    const what = name.replace(' --preview', '');
    expect(run.stderr).toBe(`error [UNAUTHORIZED]: ${what} needs an API key so that the record is attributed to a user\n`
      + 'hint: Pass --api-key <tsk_...> or set LEDGER_API_KEY (create one with `ledger users create-service-account`)\n');
  });

  it.concurrent.each(commands)('%s with an unknown key exits 3 UNAUTHORIZED', async (_name, args) => {
    const run = await ledgerAsync(['--json', ...args()], { db, apiKey: 'tsk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(run.status).toBe(3);
    expect(JSON.parse(run.stderr)).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it.concurrent.each(commands)('%s with the key of a user without the permission exits 3 FORBIDDEN', async (_name, args, permission) => {
    const run = await ledgerAsync(['--json', ...args()], { db, apiKey: readOnlyKey });
    expect(run.status).toBe(3);
    expect(JSON.parse(run.stderr)).toEqual({
      code: 'FORBIDDEN', message: `This action needs the permission ${permission}`, suggestion: `Ask an administrator to grant ${permission}`,
    });
  });

  it('wrote nothing for any refused command', () => {
    const entries = ledgerJson(['journal-entries', 'list'], { db }).data;
    expect(entries.map((e: { id: string }) => e.id)).toEqual([entryId]);
    expect(entries[0].reversed_by_id).toBeNull();
    expect(ledgerJson(['periods', 'get', books.period.id], { db }).data.status).toBe('open');
  });

  it('with a valid key, records that key\'s user as created_by and closed_by', async () => {
    const [created, reversal, imported] = await Promise.all([
      ledgerAsync(['--json', 'journal-entries', 'create', '--file', entryFile], { db, apiKey: clerk.key }),
      ledgerAsync(['--json', 'journal-entries', 'reverse', entryId], { db, apiKey: clerk.key }),
      ledgerAsync(['--json', 'journal-entries', 'import', importFile], { db, env: { LEDGER_API_KEY: clerk.key } }),
    ]);
    expect([created.status, reversal.status, imported.status]).toEqual([0, 0, 0]);
    expect(JSON.parse(imported.stdout)).toEqual({ data: { imported: 1 } });
    const entries = ledgerJson(['journal-entries', 'list'], { db }).data;
    expect(entries.map((e: any) => [e.description, e.created_by])).toEqual([
      ['entry', books.adminId], [`Reversal of: entry`, clerk.id], ['Cash sale', clerk.id], ['entry', clerk.id],
    ]);
    const closed = ledgerJson(['periods', 'close', books.period.id], { db, apiKey: clerk.key }).data;
    expect(closed.period).toMatchObject({ status: 'closed', closed_by: clerk.id });
    expect(closed.closing_entry.created_by).toBe(clerk.id);
  });

  it('needs no key for the commands that record no author', async () => {
    const fresh = join(folder.dir, 'keyless.db');
    expect(ledger(['init'], { db: fresh }).status).toBe(0);
    const usd = ledgerJson(['currencies', 'create-fiat', 'USD'], { db: fresh }).data.id;
    const equity = ledgerJson(['accounts', 'create', '--number', '3000', '--name', 'RE', '--currency', usd, '--type', 'equity',
      '--normal-balance', 'credit'], { db: fresh }).data.id;
    ledgerJson(['periods', 'create', '--name', 'FY', '--start', '2026-01-01', '--end', '2026-12-31'], { db: fresh });
    expect(ledgerJson(['settings', 'set', 'retained-earnings-account', equity], { db: fresh }))
      .toEqual({ data: { company_name: null, retained_earnings_account_id: equity, retained_earnings_account_ids: {}, base_currency_id: expect.any(String), lock_date: null } });
    ledgerJson(['currencies', 'create', '--code', 'ETH', '--name', 'Ether', '--symbol', 'E', '--asset-scale', '18', '--type', 'crypto',
      '--caip19', 'eip155:1/slip44:60'], { db: fresh });
    const reads = [['currencies', 'list'], ['accounts', 'list'], ['accounts', 'get', equity], ['periods', 'list'], ['reports', 'trial-balance'],
      ['users', 'list'], ['settings', 'get']];
    const runs = await Promise.all(reads.map((args) => ledgerAsync(args, { db: fresh })));
    expect(runs.map((run, index) => ({ args: reads[index], status: run.status })))
      .toEqual(reads.map((args) => ({ args, status: 0 })));
  });
});

describe('ledger journal-entries list: finding entries', () => {
  const db = join(folder.dir, 'find.db');
  let books: Books;
  beforeAll(async () => {
    books = await seedBooks(db);
    await withLedger(db, async (service) => {
      const entries = Array.from({ length: 700 }, (_, index) => ({
        ...entry(books.cash.id, books.sales.id, String(index + 1), '2026-03-01', `Invoice ${index} for customer ${index % 10}`),
        reference: `INV-${String(index).padStart(4, '0')}`,
      }));
      await service.postJournalEntries(operator, entries);
      await service.postJournalEntry(operator, {
        ...entry(books.rent.id, books.cash.id, '250000', '2026-03-31', 'Office rent, Café Müller'), reference: 'LEASE-7',
      });
    });
  }, 60_000);

  it('finds one invoice among hundreds by --reference', () => {
    const run = ledger(['journal-entries', 'list', '--reference', 'INV-0650'], { db });
    expect(run.status).toBe(0);
    expect(tableCells(run.stdout).slice(1).map((row) => row.slice(2))).toEqual([['2026-03-01', 'standard', 'Invoice 650 for customer 0', 'INV-0650', '6.51 USD']]);
  });

  it('finds entries by --search words, each the start of a word, with the other filters', () => {
    const found = ledgerJson(['journal-entries', 'list', '--search', 'cafe off'], { db }).data;
    expect(found.map((e: { description: string }) => e.description)).toEqual(['Office rent, Café Müller']);
    const invoices = ledgerJson(['journal-entries', 'list', '--search', 'invoice 65', '--min-amount', '651', '--max-amount', '660', '--type', 'standard'], { db }).data;
    expect(invoices.map((e: { reference: string }) => e.reference)).toEqual(['INV-0650', 'INV-0651', 'INV-0652', 'INV-0653', 'INV-0654', 'INV-0655', 'INV-0656', 'INV-0657', 'INV-0658', 'INV-0659']);
    expect(ledgerJson(['journal-entries', 'list', '--search', 'lease', '--account', books.sales.id], { db }).data).toEqual([]);
  });

  it('refuses a search without words and a cursor made with other filters, as usage errors', () => {
    const empty = ledger(['journal-entries', 'list', '--search', ' -- '], { db });
    expect(empty.status).toBe(1);
    expect(empty.stderr).toMatch(/q must contain a letter or a digit/);
    const first = ledgerJson(['journal-entries', 'list', '--search', 'invoice', '--limit', '2'], { db });
    const other = ledger(['journal-entries', 'list', '--search', 'customer', '--limit', '2', '--cursor', first.next_cursor], { db });
    expect(other.status).toBe(1);
    expect(other.stderr).toMatch(/other filters or another order/);
    const same = ledgerJson(['journal-entries', 'list', '--search', 'invoice', '--limit', '2', '--cursor', first.next_cursor], { db });
    expect(same.data).toHaveLength(2);
  });
});
