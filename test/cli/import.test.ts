/**
 * `ledger journal-entries import`: JSON lines or CSV, all entries in one transaction. A large file
 * imports in one run; a file with one bad entry is refused whole, naming the line of the file.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, type CliRun, cliEnv, entry, ledger, ledgerJson, operator, ROOT, seedBooks, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('import');
afterAll(() => folder.remove());

type Books = Awaited<ReturnType<typeof seedBooks>>;

/** Runs a bash pipeline (the CLI's environment) and collects what it printed. */
function ledgerShell(script: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env: cliEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString('utf8'); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function write(name: string, text: string): string {
  const file = join(folder.dir, name);
  writeFileSync(file, text);
  return file;
}

describe('ledger journal-entries import of a large JSON-lines file', () => {
  const db = join(folder.dir, 'large.db');
  let books: Books;
  beforeAll(async () => {
    books = await seedBooks(db);
  });

  it('imports 10,000 entries in one run, with exact counts and balances', () => {
    const lines: string[] = [];
    let total = 0n;
    for (let index = 0; index < 10_000; index += 1) {
      const amount = 100 + (index % 997);
      total += BigInt(amount);
      const date = `2026-${String(1 + (index % 12)).padStart(2, '0')}-${String(1 + (index % 28)).padStart(2, '0')}`;
      lines.push(JSON.stringify({ ...entry(books.cash.id, books.sales.id, String(amount), date, `Sale ${index}`), reference: `R${index}` }));
    }
    const file = write('large.jsonl', `${lines.join('\n')}\n`);
    const run = ledger(['journal-entries', 'import', file], { db, apiKey: books.adminKey, timeoutMs: 120_000 });
    expect(run).toEqual({ status: 0, stdout: 'Imported 10000 entries.\n', stderr: '' });

    const listed = ledgerJson(['journal-entries', 'list'], { db });
    expect(listed.data).toHaveLength(10_000);
    expect(listed.has_more).toBe(false);
    expect(new Set(listed.data.map((e: { reference: string }) => e.reference)).size).toBe(10_000);
    expect(listed.data.every((e: { created_by: string }) => e.created_by === books.adminId)).toBe(true);
    const balance = ledgerJson(['accounts', 'get', books.cash.id], { db }).data.balance;
    expect(balance).toMatchObject({ total_debits: total.toString(), total_credits: '0', net_balance: total.toString() });
    const sales = ledgerJson(['accounts', 'get', books.sales.id], { db }).data.balance;
    expect(sales.net_balance).toBe(total.toString());
  });

  it('streams the large ledger through pipes: a slow reader gets every line, and a reader that stops early ends it quietly', async () => {
    const ledgerCommand = `"${process.execPath}" "${BIN}" --db "${db}"`;
    const pipeline = (text: string) => ledgerShell(`${text}; echo "ledger exited \${PIPESTATUS[0]}"`);
    const slowReader = await pipeline(`${ledgerCommand} export --format csv | (sleep 0.5; wc -l)`);
    expect(slowReader).toEqual({ status: 0, stdout: '20001\nledger exited 0\n', stderr: '' });
    const stoppers = await Promise.all([
      pipeline(`${ledgerCommand} journal-entries list | head -c 10`),
      pipeline(`${ledgerCommand} --json journal-entries list | head -c 10`),
      pipeline(`${ledgerCommand} export --format hledger | head -c 10`),
    ]);
    expect(stoppers).toEqual([
      { status: 0, stdout: 'NO.     IDledger exited 0\n', stderr: '' },
      { status: 0, stdout: '{\n  "data"ledger exited 0\n', stderr: '' },
      { status: 0, stdout: '; Exportedledger exited 0\n', stderr: '' },
    ]);
  });
});

describe('ledger journal-entries import of a file with a bad entry', () => {
  const db = join(folder.dir, 'bad.db');
  let books: Books;
  beforeAll(async () => {
    books = await seedBooks(db);
  });

  /** 40 good entries with a blank line after the 10th (so file lines and entries differ), and `bad` as line 37. */
  function fileWith(bad: string): string {
    const lines = Array.from({ length: 40 }, (_, index) => JSON.stringify(entry(books.cash.id, books.sales.id, String(index + 1))));
    lines.splice(10, 0, '');
    lines[36] = bad;
    return write('bad.jsonl', `${lines.join('\n')}\n`);
  }

  it.each([
    ['an unbalanced entry', () => JSON.stringify({ entry_date: '2026-03-01', description: 'Unbalanced', lines: [
      { account_id: books.cash.id, debit_amount: '100' }, { account_id: books.sales.id, credit_amount: '90' }] }),
    'error [UNBALANCED_ENTRY] (entries[35].lines): Line 37: Debits 1.00 USD differ from credits 0.90 USD\n'],
    ['an unknown account', () => JSON.stringify(entry(books.cash.id, 'no-such-account', '5')),
      'error [VALIDATION_ERROR] (entries[35].lines[1].account_id): Line 37: Account no-such-account does not exist\n'],
    ['malformed JSON', () => '{"entry_date": "2026-03-01", "description": ',
      'error [VALIDATION_ERROR] (file): Line 37: not valid JSON ('],
    ['an amount given as a JSON number', () => JSON.stringify({ ...entry(books.cash.id, books.sales.id, '5'), lines: [
      { account_id: books.cash.id, debit_amount: 5 }, { account_id: books.sales.id, credit_amount: '5' }] }),
    'error [VALIDATION_ERROR] (lines[0].debit_amount): Line 37: '],
  ])('refuses %s with exit 1, names its line, and imports nothing', (_label, bad, stderrStart) => {
    const run = ledger(['journal-entries', 'import', fileWith(bad())], { db, apiKey: books.adminKey });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.startsWith(stderrStart)).toBe(true);
    expect(run.stderr).toMatch(/\nhint: Fix the entry on line 37; nothing was imported\n$/);
    expect(ledgerJson(['journal-entries', 'list'], { db }).data).toEqual([]);
  });

  it('reads the entries from standard input when the file is -', () => {
    const stdinDb = join(folder.dir, 'stdin.db');
    return seedBooks(stdinDb).then((stdinBooks) => {
      const text = [1, 2, 3].map((amount) => JSON.stringify(entry(stdinBooks.cash.id, stdinBooks.sales.id, String(amount)))).join('\n');
      const run = ledger(['journal-entries', 'import', '-'], { db: stdinDb, apiKey: stdinBooks.adminKey, input: `${text}\n` });
      expect(run).toEqual({ status: 0, stdout: 'Imported 3 entries.\n', stderr: '' });
      expect(ledgerJson(['accounts', 'get', stdinBooks.cash.id], { db: stdinDb }).data.balance.total_debits).toBe('6');
    });
  });

  it('refuses an empty file with exit 1', () => {
    const file = write('empty.jsonl', '\n\n');
    expect(ledger(['journal-entries', 'import', file], { db, apiKey: books.adminKey })).toEqual({
      status: 1, stdout: '', stderr: `error [VALIDATION_ERROR] (file): ${file} holds no entries\n`,
    });
  });

  it('refuses an unknown --format as a usage error, exit 2', () => {
    const run = ledger(['journal-entries', 'import', fileWith('{}'), '--format', 'xml'], { db, apiKey: books.adminKey });
    expect(run.status).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe("error: option '--format <format>' argument 'xml' is invalid. Allowed choices are jsonl, csv.");
  });
});

describe('ledger journal-entries import of CSV', () => {
  const db = join(folder.dir, 'csv.db');
  let books: Books;
  beforeAll(async () => {
    books = await seedBooks(db);
  });

  const header = 'entry,entry_date,description,reference,account_id,debit_amount,credit_amount,line_description';

  it('imports consecutive rows with the same entry value as one entry', () => {
    const rows = [
      header,
      `a,2026-03-01,Invoice 1,INV-1,${books.acme.id},25000,,goods`,
      `a,,,,${books.sales.id},,20000,`,
      `a,,,,${books.sales.id},,5000,shipping`,
      `b,2026-03-05,"Payment, partial",,${books.cash.id},10000,,`,
      `b,,,,${books.acme.id},,10000,`,
    ];
    const file = write('entries.csv', `${rows.join('\n')}\n`);
    expect(ledger(['journal-entries', 'import', file], { db, apiKey: books.adminKey }))
      .toEqual({ status: 0, stdout: 'Imported 2 entries.\n', stderr: '' });
    const entries = ledgerJson(['journal-entries', 'list'], { db }).data;
    expect(entries.map((e: any) => [e.entry_date, e.description, e.reference, e.lines.map((l: any) => [l.account_number, l.debit_amount,
      l.credit_amount, l.description])])).toEqual([
      ['2026-03-01', 'Invoice 1', 'INV-1', [['1200-001', '25000', '0', 'goods'], ['4000', '0', '20000', null], ['4000', '0', '5000', 'shipping']]],
      ['2026-03-05', 'Payment, partial', null, [['1000', '10000', '0', null], ['1200-001', '0', '10000', null]]],
    ]);
    expect(ledgerJson(['accounts', 'get', books.receivables.id], { db }).data.balance.display_balance).toBe('150.00');
  });

  it('takes --format csv for a file without the .csv extension', () => {
    const file = write('entries.txt', `${header}\nc,2026-04-01,Cash sale,,${books.cash.id},700,,\nc,,,,${books.sales.id},,700,\n`);
    expect(ledger(['journal-entries', 'import', file, '--format', 'csv'], { db, apiKey: books.adminKey }).stdout).toBe('Imported 1 entries.\n');
  });

  it('refuses a CSV file with a bad entry, naming the line where that entry starts, and imports nothing', () => {
    const before = ledgerJson(['journal-entries', 'list'], { db }).data.length;
    const rows = [
      header,
      `a,2026-03-01,Good,,${books.cash.id},100,,`,
      `a,,,,${books.sales.id},,100,`,
      `b,2026-03-02,Unbalanced,,${books.cash.id},100,,`,
      `b,,,,${books.sales.id},,99,`,
    ];
    const run = ledger(['journal-entries', 'import', write('bad.csv', `${rows.join('\n')}\n`)], { db, apiKey: books.adminKey });
    expect(run).toEqual({
      status: 1, stdout: '',
      stderr: 'error [UNBALANCED_ENTRY] (entries[1].lines): Line 4: Debits 1.00 USD differ from credits 0.99 USD\n'
        + 'hint: Fix the entry on line 4; nothing was imported\n',
    });
    expect(ledgerJson(['journal-entries', 'list'], { db }).data).toHaveLength(before);
  });

  it('refuses a CSV file without the required columns', () => {
    const run = ledger(['journal-entries', 'import', write('columns.csv', 'date,amount\n2026-03-01,5\n')], { db, apiKey: books.adminKey });
    expect(run.status).toBe(1);
    expect(run.stderr.split('\n')[0]).toBe('error [VALIDATION_ERROR] (file): The CSV header lacks entry, entry_date, '
      + 'account_number (or account_id), debit (or debit_amount), credit (or credit_amount)');
  });
});

describe('ledger journal-entries import of CSV by account number, in major units', () => {
  const db = join(folder.dir, 'major.db');
  let books: Books;
  let yen: { cash: { id: string }; sales: { id: string } };
  beforeAll(async () => {
    books = await seedBooks(db);
    yen = await withLedger(db, async (service) => {
      const jpy = await service.createFiatCurrency(operator, 'JPY');
      const open = (account_number: string, name: string, account_type: 'asset' | 'revenue', normal_balance: 'debit' | 'credit') =>
        service.createAccount(operator, { account_number, name, currency_id: jpy.id, account_type, normal_balance });
      return { cash: await open('1100', 'Cash in yen', 'asset', 'debit'), sales: await open('4100', 'Sales in Japan', 'revenue', 'credit') };
    });
  });

  const header = 'entry,entry_date,description,reference,account_number,debit,credit,line_description';
  const importing = (name: string, rows: readonly string[]) =>
    ledger(['journal-entries', 'import', write(name, `${rows.join('\n')}\n`)], { db, apiKey: books.adminKey });
  const entryCount = () => ledgerJson(['journal-entries', 'list'], { db }).data.length as number;

  it('names accounts by number and writes amounts as people do, each currency at its own scale', () => {
    const run = importing('major.csv', [
      header,
      'rent,2026-03-01,March rent,R-3,6000,3200.00,,',
      'rent,,,,1000,,3200.00,',
      'inv,2026-03-02,Invoice 7,INV-7,1200-001,1250.5,,goods',
      'inv,,,,4000,,1250.50,',
      'yen,2026-03-03,Tokyo sale,,1100,15000,,',
      'yen,,,,4100,,15000,',
    ]);
    expect(run).toEqual({ status: 0, stdout: 'Imported 3 entries.\n', stderr: '' });
    const entries = ledgerJson(['journal-entries', 'list'], { db }).data;
    expect(entries.map((e: any) => [e.description, e.reference, e.lines.map((l: any) => [l.account_number, l.debit_amount, l.credit_amount,
      l.description])])).toEqual([
      ['March rent', 'R-3', [['6000', '320000', '0', null], ['1000', '0', '320000', null]]],
      ['Invoice 7', 'INV-7', [['1200-001', '125050', '0', 'goods'], ['4000', '0', '125050', null]]],
      ['Tokyo sale', null, [['1100', '15000', '0', null], ['4100', '0', '15000', null]]],
    ]);
    expect(ledgerJson(['accounts', 'get', yen.cash.id], { db }).data.balance.display_balance).toBe('15000');
  });

  it('takes account ids with major units, and account numbers with minor units', () => {
    const before = entryCount();
    expect(importing('ids-major.csv', ['entry,entry_date,description,account_id,debit,credit',
      `a,2026-03-04,Cash sale,${books.cash.id},19.99,`, `a,,,${books.sales.id},,19.99`]).stdout).toBe('Imported 1 entries.\n');
    expect(importing('numbers-minor.csv', ['entry,entry_date,description,account_number,debit_amount,credit_amount',
      'b,2026-03-05,Cash sale,1000,1999,', 'b,,,4000,,1999']).stdout).toBe('Imported 1 entries.\n');
    const [first, second] = ledgerJson(['journal-entries', 'list'], { db }).data.slice(before);
    expect([first.lines[0].debit_amount, second.lines[0].debit_amount, second.lines[0].account_id]).toEqual(['1999', '1999', books.cash.id]);
  });

  it.each([
    ['more decimal places than the currency has', ['a,2026-03-06,Good,,1000,5.00,,', 'a,,,,4000,,5.00,', 'b,2026-03-06,Typo,,6000,12.345,,',
      'b,,,,1000,,12.345,'], 'Line 4, column debit: 12.345 has 3 decimal places, and USD has 2',
    'Write the amount with at most 2 digits after the decimal point, e.g. 3200.00; nothing was imported'],
    ['any decimal places in a currency without them', ['a,2026-03-06,Yen,,1100,1500.5,,', 'a,,,,4100,,1500.5,'],
      'Line 2, column debit: 1500.5 has 1 decimal places, and JPY has 0',
      'Write the amount with at most 0 digits after the decimal point, e.g. 3200; nothing was imported'],
    ['an unknown account number', ['a,2026-03-06,Good,,1000,5.00,,', 'a,,,,4000,,5.00,', 'b,2026-03-06,Unknown,,6000,5.00,,',
      'b,,,,4010,,5.00,'], 'Line 5, column account_number: no account has the number "4010"',
    'Use the number of an existing account (ledger accounts list); nothing was imported'],
    ['a negative amount', ['a,2026-03-06,Refund,,1000,-5.00,,', 'a,,,,4000,,-5.00,'], 'Line 2, column debit: -5.00 is negative',
      'Write the amount without a sign, in the credit column; nothing was imported'],
    ['thousands separators', ['a,2026-03-06,Big,,1000,"3,200.00",,', 'a,,,,4000,,3200.00,'],
      'Line 2, column debit: "3,200.00" is not an amount in USD such as 3200.00',
      'Write digits with a decimal point, without thousands separators or a currency sign; nothing was imported'],
  ])('refuses %s, naming the row and column, and imports nothing', (_label, rows, message, hint) => {
    const before = entryCount();
    expect(importing('refused.csv', [header, ...rows])).toEqual({ status: 1, stdout: '',
      stderr: `error [VALIDATION_ERROR] (file): ${message}\nhint: ${hint}\n` });
    expect(entryCount()).toBe(before);
  });

  it('says what an unbalanced entry in major units is off by, in its currency', () => {
    const run = importing('unbalanced.csv', [header, 'a,2026-03-07,Typo,,1000,92.40,,', 'a,,,,4000,,92.04,']);
    expect(run.stderr).toBe('error [UNBALANCED_ENTRY] (entries[0].lines): Line 2: Debits 92.40 USD differ from credits 92.04 USD\n'
      + 'hint: Fix the entry on line 2; nothing was imported\n');
  });

  it.each([
    ['both account_number and account_id', 'entry,entry_date,description,account_number,account_id,debit,credit',
      'The CSV header has both account_number and account_id: a row names its account one way'],
    ['major and minor units together', 'entry,entry_date,description,account_number,debit,credit_amount',
      'The CSV header mixes amounts in major units (debit, credit) with amounts in minor units (debit_amount, credit_amount)'],
    ['only one amount column', 'entry,entry_date,description,account_number,debit', 'The CSV header lacks credit'],
  ])('refuses a header with %s rather than guess', (_label, head, message) => {
    const run = importing('header.csv', [head, head.split(',').map(() => '1').join(',')]);
    expect(run.status).toBe(1);
    expect(run.stderr.split('\n')[0]).toBe(`error [VALIDATION_ERROR] (file): ${message}`);
  });
});
