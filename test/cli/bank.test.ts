/**
 * `ledger bank ...` on real SQLite files: importing every statement format (the file's bytes, so
 * encodings are detected as over HTTP), its dry run, the duplicate file and the bad file, rules
 * with amount bounds typed in major units, the lines table with suggestions, posting by suggestion, accepting (all or
 * none), matching one line to several entries, candidates, excluding and unmatching, the API-key
 * rules of writes, and `--json` equal to what the HTTP API answers on the same file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEMICOLON_MAPPING, semicolonCsv } from '../helpers/bank-books.js';
import {
  type ApiOnFile, ROOT, entry, ledger, ledgerAsync, ledgerJson, ledgerJsonAsync, operator, seedBooks, serveFile, tableCells, tempFolder, withLedger,
} from '../helpers/cli.js';

const folder = tempFolder('bank');
afterAll(() => folder.remove());

const fixture = (name: string) => join(ROOT, 'test/fixtures/bank', name);

function writeFile(name: string, content: string | object): string {
  const file = join(folder.dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const SEMICOLON_MAP = writeFile('semicolon-map.json', SEMICOLON_MAPPING);

/** The usual books plus bank, card and expense accounts in the fixtures' currencies, and keys with fewer rights. */
async function bankBooks(db: string) {
  const books = await seedBooks(db);
  return withLedger(db, async (service) => {
    const eur = await service.createFiatCurrency(operator, 'EUR');
    const chf = await service.createFiatCurrency(operator, 'CHF');
    const kwd = await service.createFiatCurrency(operator, 'KWD');
    const account = (account_number: string, name: string, currency_id: string, account_type: 'asset' | 'liability' | 'expense') =>
      service.createAccount(operator, { account_number, name, currency_id, account_type, normal_balance: account_type === 'liability' ? 'credit' : 'debit' });
    const accounts = {
      checking: await account('1010', 'US checking', books.usd.id, 'asset'),
      checkingOfx: await account('1011', 'US checking OFX', books.usd.id, 'asset'),
      savings: await account('1040', 'US savings', books.usd.id, 'asset'),
      giro: await account('1020', 'Giro', eur.id, 'asset'),
      giroCsv: await account('1021', 'Giro CSV', eur.id, 'asset'),
      swiss: await account('1030', 'Swiss account', chf.id, 'asset'),
      kuwait: await account('1060', 'Kuwait account', kwd.id, 'asset'),
      visa: await account('2100', 'Visa card', books.usd.id, 'liability'),
      fees: await account('6100', 'Bank fees', books.usd.id, 'expense'),
      groceries: await account('6200', 'Groceries', books.usd.id, 'expense'),
      kuwaitFees: await account('6300', 'Kuwait fees', kwd.id, 'expense'),
    };
    const journalsOnly = await service.createServiceAccount(null, { name: 'bookkeeper', permissions: { 'journals:create': true } });
    const bankOnly = await service.createServiceAccount(null, { name: 'bank clerk', permissions: { 'bank:write': true } });
    return { ...books, ...accounts, eur, journalsOnlyKey: journalsOnly.api_key, bankOnlyKey: bankOnly.api_key };
  });
}

const US_MAP = writeFile('us-map.json', {
  date_column: 'Posting Date', date_format: 'MM/DD/YYYY', description_column: 'Description', debit_column: 'Debit', credit_column: 'Credit',
  id_column: 'Transaction ID', balance_column: 'Balance',
});

const GIRO_1252_MAP = writeFile('giro-map.json', {
  delimiter: ';', skip_rows: 7, date_column: 'Buchungstag', date_format: 'DD.MM.YYYY', description_column: 'Verwendungszweck',
  amount_column: 'Betrag (EUR)', decimal_separator: ',',
});

describe('ledger bank import', () => {
  const db = join(folder.dir, 'import.db');
  let books: Awaited<ReturnType<typeof bankBooks>>;
  beforeAll(async () => {
    books = await bankBooks(db);
  });

  it('previews an import with --dry-run (the same summary, nothing stored), then imports a CSV file with --map and prints the statement', () => {
    const args = ['bank', 'import', fixture('us-bank-checking.csv'), '--account', 'US checking', '--format', 'csv', '--map', US_MAP];
    const summary = [
      'Account:         1010 US checking',
      'Format:          csv',
      'Period:          2026-01-02 to 2026-01-09',
      'Lines:           6 in the file: 6 new, 0 duplicate',
      'Opening balance: 670.55 USD',
      'Closing balance: 12.10 USD',
      '',
    ];
    const preview = ledger([...args, '--dry-run'], { db, apiKey: books.adminKey });
    expect(preview).toEqual({ status: 0, stderr: '', stdout: ['Dry run, nothing imported. The import would store this statement:', ...summary].join('\n') });
    const previewJson = ledgerJson([...args, '--dry-run'], { db, apiKey: books.adminKey }).data;
    expect(previewJson).toMatchObject({ dry_run: true, statement: { line_count: 6, new_count: 6, duplicate_count: 0, closing_balance: '1210' } });
    expect(ledgerJson(['bank', 'statements', '--account', '1010'], { db }).data).toEqual([]);
    expect(ledgerJson(['bank', 'lines', '--account', '1010'], { db }).data).toEqual([]);

    const run = ledger(args, { db, apiKey: books.adminKey });
    const id = /Statement: +(\S+)/.exec(run.stdout)?.[1];
    expect(run).toEqual({ status: 0, stderr: '', stdout: ['Imported bank statement:', `Statement:       ${id}`, ...summary].join('\n') });
    const statement = ledgerJson(['bank', 'statements', '--account', '1010'], { db }).data;
    expect(statement.map((row: any) => [row.id, row.imported_by])).toEqual([[id, books.adminId]]);
  });

  it.each([
    ['ofx102-checking-1252.ofx', 'ofx', '1011'],
    ['qfx-savings.qfx', 'ofx', '1040'],
    ['camt053-001-02.xml', 'camt053', '1020'],
    ['camt053-001-08.xml', 'camt053', '1030'],
    ['ofx211-creditcard.ofx', 'ofx', '2100'],
  ])('imports %s (--format %s) into account %s', async (name, format, number) => {
    const imported = await ledgerJsonAsync(['bank', 'import', fixture(name), '--account', number, '--format', format], { db, apiKey: books.adminKey });
    expect(imported.data).toMatchObject({ format, duplicate_count: 0 });
    expect(imported.data.new_count).toBe(imported.data.line_count);
    expect(imported.data.new_count).toBeGreaterThan(0);
    const lines = await ledgerJsonAsync(['bank', 'lines', '--statement', imported.data.id], { db });
    expect(lines.data).toHaveLength(imported.data.new_count);
  });

  it('reads a Windows-1252 CSV from its bytes, as the API reads content_base64', () => {
    const imported = ledgerJson(['bank', 'import', fixture('de-bank-giro-1252.csv'), '--account', 'Giro CSV', '--format', 'csv', '--map', GIRO_1252_MAP],
      { db, apiKey: books.adminKey });
    const lines = ledgerJson(['bank', 'lines', '--statement', imported.data.id], { db }).data;
    expect(lines.length).toBe(imported.data.line_count);
    expect(lines.map((line: any) => line.description)).toContain('girocard 14.01. 16:05 Café Süß');
  });

  it('answers the same file again with exit 1 and DUPLICATE, importing nothing', () => {
    const args = ['bank', 'import', fixture('qfx-savings.qfx'), '--account', '1040', '--format', 'ofx'];
    const before = ledgerJson(['bank', 'lines', '--account', '1040'], { db }).data;
    const human = ledger(args, { db, apiKey: books.adminKey });
    expect(human.status).toBe(1);
    expect(human.stdout).toBe('');
    expect(human.stderr).toMatch(/^error \[DUPLICATE\] \(content\): This file was imported for the account already \(statement \S+, \S+\)\nhint: /);
    const json = ledger(['--json', ...args], { db, apiKey: books.adminKey });
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({ code: 'DUPLICATE', field: 'content' });
    expect(ledgerJson(['bank', 'lines', '--account', '1040'], { db }).data).toEqual(before);
    expect(ledgerJson(['bank', 'statements', '--account', '1040'], { db }).data).toHaveLength(1);
  });

  it('imports nothing from a file with one bad line, naming the line, with exit 1', () => {
    const bad = writeFile('bad.csv', semicolonCsv([['02.03.2026', 'Miete', '-1.200,00', '3.800,00'], ['31.02.2026', 'Unmöglich', '-1,00', '3.799,00']]));
    const run = ledger(['--json', 'bank', 'import', bad, '--account', 'Giro', '--format', 'csv', '--map', SEMICOLON_MAP], { db, apiKey: books.adminKey });
    expect(run.status).toBe(1);
    const error = JSON.parse(run.stderr);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'content' });
    expect(error.message).toMatch(/line 5/);
    const statements = ledgerJson(['bank', 'statements', '--account', 'Giro'], { db }).data;
    expect(statements.map((statement: any) => statement.format)).toEqual(['camt053']);
  });

  it('refuses a CSV without --map, and --map with another format, before reading anything', async () => {
    const [noMap, mapWithOfx] = await Promise.all([
      ledgerAsync(['bank', 'import', fixture('uk-card.csv'), '--account', '2100', '--format', 'csv'], { db, apiKey: books.adminKey }),
      ledgerAsync(['bank', 'import', fixture('qfx-savings.qfx'), '--account', '2100', '--format', 'ofx', '--map', US_MAP], { db, apiKey: books.adminKey }),
    ]);
    expect(noMap.status).toBe(1);
    expect(noMap.stderr).toMatch(/^error \[VALIDATION_ERROR\] \(--map\): A CSV statement needs its column mapping: pass --map <mapping.json>\nhint: /);
    expect(mapWithOfx.status).toBe(1);
    expect(mapWithOfx.stderr).toMatch(/^error \[VALIDATION_ERROR\] \(--map\): --map is for CSV files only/);
  });

  it('needs an API key whose user holds bank:write (exit 3), and reads without one', async () => {
    const args = ['--json', 'bank', 'import', fixture('uk-card.csv'), '--account', '2100', '--format', 'csv', '--map', US_MAP];
    const [withoutKey, journalsOnly] = await Promise.all([
      ledgerAsync(args, { db }), ledgerAsync(args, { db, apiKey: books.journalsOnlyKey }),
    ]);
    expect(withoutKey.status).toBe(3);
    expect(JSON.parse(withoutKey.stderr)).toMatchObject({ code: 'UNAUTHORIZED', message: 'bank import needs an API key so that the record is attributed to a user' });
    expect(journalsOnly.status).toBe(3);
    expect(JSON.parse(journalsOnly.stderr)).toMatchObject({ code: 'FORBIDDEN', message: 'This action needs the permission bank:write' });
    expect((await ledgerJsonAsync(['bank', 'statements'], { db })).data).toHaveLength(7);
  });
});

/** A March statement of the bank account (semicolons, decimal commas): the lines the decision tests work on. */
const MARCH = semicolonCsv([
  ['02.03.2026', 'Kartenzahlung REWE Markt 4711', '-54,20', '945,80'],
  ['03.03.2026', 'Kaffee Bohne', '-3,40', '942,40'],
  ['04.03.2026', 'Entgelt Kontoführung', '-9,90', '932,50'],
  ['05.03.2026', 'Kartenzahlung Fehlbuchung', '-20,00', '912,50'],
  ['05.03.2026', 'Storno Fehlbuchung', '20,00', '932,50'],
  ['06.03.2026', 'Gutschrift ACME RE-17 RE-18', '1.500,00', '2.432,50'],
]);

describe('ledger bank rules, lines and decisions', () => {
  const db = join(folder.dir, 'decide.db');
  let books: Awaited<ReturnType<typeof bankBooks>>;
  let lines: Record<'rewe' | 'coffee' | 'fee' | 'charge' | 'reversal' | 'acme', any>;
  let api: ApiOnFile;
  const cli = (args: string[]) => ledgerJson(args, { db, apiKey: books.adminKey });
  const entryCount = () => ledgerJson(['journal-entries', 'list'], { db }).data.length as number;
  const lineOf = (id: string) => ledgerJson(['bank', 'line', id], { db }).data;

  beforeAll(async () => {
    books = await bankBooks(db);
    const statement = cli(['bank', 'import', writeFile('march.csv', MARCH), '--account', '1010', '--format', 'csv', '--map', SEMICOLON_MAP]).data;
    const [rewe, coffee, fee, charge, reversal, acme] = ledgerJson(['bank', 'lines', '--statement', statement.id], { db }).data;
    lines = { rewe, coffee, fee, charge, reversal, acme };
  });

  it('creates rules whose amount bounds are typed in major units and stored exactly in minor units', () => {
    const run = ledger(['bank', 'rules', 'create', '--name', 'Groceries', '--regex', '\\b(rewe|edeka)\\b', '--min', '12.5', '--max', '150.00',
      '--counter', 'Groceries', '--priority', '10', '--description', 'Groceries'], { db, apiKey: books.adminKey });
    const id = /rule Groceries \((\S+)\)/.exec(run.stdout)?.[1];
    expect(run).toEqual({ status: 0, stderr: '', stdout: [
      `Created rule Groceries (${id}):`,
      'ID                                    PRIORITY  NAME       BANK ACCOUNT  CONDITIONS                                          COUNTER ACCOUNT  DESCRIPTION',
      `${id}        10  Groceries  (every one)   matches /\\b(rewe|edeka)\\b/, amount 12.50 to 150.00  6200 Groceries   Groceries`,
      '',
    ].join('\n') });
    expect(ledgerJson(['bank', 'rules', 'get', id!], { db }).data).toMatchObject({ name: 'Groceries', priority: 10, account_id: null,
      counter_account_id: books.groceries.id, match: { description_regex: '\\b(rewe|edeka)\\b', amount_min: '1250', amount_max: '15000' } });
    const fees = cli(['bank', 'rules', 'create', '--name', 'Fees', '--account', '1010', '--contains', 'entgelt', '--direction', 'out', '--max', '50',
      '--counter', '6100']).data;
    expect(fees).toMatchObject({ account_id: books.checking.id, match: { description_contains: 'entgelt', direction: 'out', amount_max: '5000' } });
  });

  it('converts bounds at the scale of the rule\'s currency, and refuses more decimals than it has or a sign', async () => {
    const kuwait = await ledgerJsonAsync(['bank', 'rules', 'create', '--name', 'KWD fees', '--account', '1060', '--max', '12.5', '--counter', '6300'],
      { db, apiKey: books.adminKey });
    expect(kuwait.data.match).toEqual({ amount_max: '12500' });
    const [tooPrecise, signed, unknownCounter] = await Promise.all([
      ledgerAsync(['--json', 'bank', 'rules', 'create', '--name', 'x', '--max', '1.234', '--counter', '6100'], { db, apiKey: books.adminKey }),
      ledgerAsync(['--json', 'bank', 'rules', 'create', '--name', 'x', '--min=-5', '--counter', '6100'], { db, apiKey: books.adminKey }),
      ledgerAsync(['--json', 'bank', 'rules', 'create', '--name', 'x', '--max', '5', '--counter', 'no-such-account'], { db, apiKey: books.adminKey }),
    ]);
    expect(unknownCounter.status).toBe(4);
    expect(JSON.parse(unknownCounter.stderr)).toMatchObject({ code: 'NOT_FOUND', field: 'counter_account_id' });
    expect(tooPrecise.status).toBe(1);
    expect(JSON.parse(tooPrecise.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: '--max', message: '--max has more than 2 decimal places' });
    expect(signed.status).toBe(1);
    expect(JSON.parse(signed.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: '--min' });
    await ledgerJsonAsync(['bank', 'rules', 'delete', kuwait.data.id], { db, apiKey: books.adminKey });
    expect((await ledgerJsonAsync(['bank', 'rules', 'list'], { db })).data.map((rule: any) => rule.name)).toEqual(['Groceries', 'Fees']);
  });

  it('updates a rule: the conditions given replace those of their kind, the others stay', () => {
    const fees = ledgerJson(['bank', 'rules', 'list'], { db }).data.find((rule: any) => rule.name === 'Fees');
    const updated = cli(['bank', 'rules', 'update', fees.id, '--max', '60', '--priority', '50']).data;
    expect(updated).toMatchObject({ priority: 50, account_id: books.checking.id,
      match: { description_contains: 'entgelt', direction: 'out', amount_max: '6000' } });
    const refused = ledger(['--json', 'bank', 'rules', 'update', fees.id, '--priority', '1', '--file', SEMICOLON_MAP], { db, apiKey: books.adminKey });
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: '--file' });
    cli(['bank', 'rules', 'update', fees.id, '--priority', '100']);
  });

  it('previews a rule on the unmatched lines without saving it', () => {
    const run = ledger(['bank', 'rules', 'preview', '--name', 'Coffee', '--contains', 'kaffee', '--counter', '6200'], { db, apiKey: books.adminKey });
    expect(run.status).toBe(0);
    expect(tableCells(run.stdout)).toEqual([
      ['BANK LINE', 'DATE', 'AMOUNT', 'DESCRIPTION', 'WHY', 'SUGGESTED NOW BY'],
      [lines.coffee.id, '2026-03-03', '-3.40 USD', 'Kaffee Bohne', 'Rule "Coffee" (priority 100): description contains "kaffee"'],
      ['1 of 6 unmatched lines examined would match; nothing was saved'],
    ]);
    expect(ledgerJson(['bank', 'rules', 'list'], { db }).data).toHaveLength(2);
  });

  it('lists lines as a table: date, amount with its currency, description, status, the suggestion\'s counter account and rule', () => {
    const run = ledger(['bank', 'lines', '--account', 'US checking'], { db });
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe(
      'ID                                    DATE             AMOUNT  DESCRIPTION                    STATUS     SUGGESTION      RULE');
    expect(tableCells(run.stdout).slice(1)).toEqual([
      [lines.rewe.id, '2026-03-02', '-54.20 USD', 'Kartenzahlung REWE Markt 4711', 'unmatched', '6200 Groceries', 'Groceries'],
      [lines.coffee.id, '2026-03-03', '-3.40 USD', 'Kaffee Bohne', 'unmatched'],
      [lines.fee.id, '2026-03-04', '-9.90 USD', 'Entgelt Kontoführung', 'unmatched', '6100 Bank fees', 'Fees'],
      [lines.charge.id, '2026-03-05', '-20.00 USD', 'Kartenzahlung Fehlbuchung', 'unmatched'],
      [lines.reversal.id, '2026-03-05', '20.00 USD', 'Storno Fehlbuchung', 'unmatched'],
      [lines.acme.id, '2026-03-06', '1500.00 USD', 'Gutschrift ACME RE-17 RE-18', 'unmatched'],
    ]);
    const filtered = ledgerJson(['bank', 'lines', '--account', '1010', '--from', '2026-03-03', '--to', '2026-03-04'], { db }).data;
    expect(filtered.map((line: any) => line.id)).toEqual([lines.coffee.id, lines.fee.id]);
    expect(ledgerJson(['bank', 'lines', '--account', '1010', '--limit', '2'], { db })).toMatchObject({ has_more: true });
  });

  it('shows one line with its suggestion and why', () => {
    expect(ledger(['bank', 'line', lines.fee.id], { db })).toEqual({ status: 0, stderr: '', stdout: [
      `Bank line:      ${lines.fee.id}`,
      'Account:        1010 US checking',
      `Statement:      ${lines.fee.statement_id} (line 6 of the file)`,
      'Date:           2026-03-04',
      'Amount:         -9.90 USD',
      'Description:    Entgelt Kontoführung',
      'Bank reference: -',
      'Status:         unmatched',
      'Suggestion:     post against 6100 Bank fees as "Entgelt Kontoführung"',
      'Because:        Rule "Fees" (priority 100): description contains "entgelt", money out, amount 9.90 is at most 60.00',
      '',
    ].join('\n') });
  });

  it('posts a line by its suggestion: dry run first (nothing stored), then the entry, matched to the line', () => {
    const count = entryCount();
    const dry = ledger(['bank', 'post', lines.fee.id, '--dry-run'], { db, apiKey: books.adminKey });
    expect(dry.status).toBe(0);
    expect(dry.stdout).toMatch(/^Dry run \(nothing was posted\):\n#\d+ {2}2026-03-04 {2}Entgelt Kontoführung\n/);
    expect(entryCount()).toBe(count);
    expect(lineOf(lines.fee.id).status).toBe('unmatched');

    const run = ledger(['bank', 'post', lines.fee.id], { db, apiKey: books.adminKey });
    const posted = lineOf(lines.fee.id);
    expect(posted).toMatchObject({ status: 'matched', suggestion: null });
    const entryId = posted.journal_entry_ids[0];
    const { hash, entry_number: entryNumber } = ledgerJson(['journal-entries', 'get', entryId], { db }).data;
    expect(run).toEqual({ status: 0, stderr: '', stdout: [
      `Posted bank line ${lines.fee.id} (2026-03-04  -9.90 USD  Entgelt Kontoführung) as:`,
      `#${entryNumber}  2026-03-04  Entgelt Kontoführung`,
      `  id ${entryId}  standard`,
      `  hash ${hash}`,
      'ACCOUNT  NAME            DEBIT    CREDIT  MEMO',
      '1010     US checking            9.90 USD',
      '6100     Bank fees    9.90 USD',
      '',
    ].join('\n') });
    expect(entryCount()).toBe(count + 1);
    const again = ledger(['--json', 'bank', 'post', lines.fee.id], { db, apiKey: books.adminKey });
    expect(again.status).toBe(1);
    expect(JSON.parse(again.stderr)).toMatchObject({ code: 'BANK_LINE_RESOLVED' });
  });

  it('posts against the account given, on the date given, with the description given', () => {
    const line = cli(['bank', 'post', lines.charge.id, '--counter', 'Groceries', '--date', '2026-03-06', '--description', 'Card charge']).data;
    const posted = ledgerJson(['journal-entries', 'get', line.journal_entry_ids[0]], { db }).data;
    expect([posted.entry_date, posted.description, posted.lines.map((l: any) => [l.account_number, l.debit_amount, l.credit_amount])]).toEqual([
      '2026-03-06', 'Card charge', [['1010', '0', '2000'], ['6200', '2000', '0']],
    ]);
    cli(['bank', 'unmatch', line.id]);
  });

  it('accepts suggestions all or none: a line without a suggestion fails the batch and nothing is posted', () => {
    const count = entryCount();
    const refused = ledger(['--json', 'bank', 'accept', lines.rewe.id, lines.coffee.id], { db, apiKey: books.adminKey });
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'line_ids[1]' });
    expect(entryCount()).toBe(count);
    expect(lineOf(lines.rewe.id).status).toBe('unmatched');

    const accepted = ledger(['bank', 'accept', lines.rewe.id], { db, apiKey: books.adminKey });
    const entryId = lineOf(lines.rewe.id).journal_entry_ids[0];
    expect(accepted).toEqual({ status: 0, stderr: '', stdout: [
      'Posted 1 bank line:',
      'BANK LINE                             DATE            AMOUNT  DESCRIPTION                    ENTRY',
      `${lines.rewe.id}  2026-03-02  -54.20 USD  Kartenzahlung REWE Markt 4711  ${entryId}`,
      '',
    ].join('\n') });
    expect(ledgerJson(['journal-entries', 'get', entryId], { db }).data.description).toBe('Groceries');
    expect(entryCount()).toBe(count + 1);
  });

  it('lists candidate entries with a score and a reason, and matches a line to one', () => {
    const coffee = ledgerJson(['journal-entries', 'create', '--file', writeFile('coffee.json', entry(books.groceries.id, books.checking.id, '340',
      '2026-03-03', 'Coffee at Bohne'))], { db, apiKey: books.adminKey }).data;
    expect(tableCells(ledger(['bank', 'candidates', lines.coffee.id], { db }).stdout)).toEqual([
      ['ENTRY', 'DATE', 'DESCRIPTION', 'REFERENCE', 'SCORE', 'REASON'],
      [coffee.id, '2026-03-03', 'Coffee at Bohne', '90', 'Same amount, same day, shares "bohne"'],
    ]);
    const run = ledger(['bank', 'match', lines.coffee.id, '--entry', coffee.id], { db, apiKey: books.adminKey });
    expect(run).toEqual({ status: 0, stderr: '', stdout: `Matched bank line ${lines.coffee.id} (2026-03-03  -3.40 USD  Kaffee Bohne) to ${coffee.id}\n` });
    expect(ledger(['bank', 'candidates', lines.coffee.id], { db }).stdout).toBe('(none)\n');
  });

  it('matches one deposit to two entries that add up to it, and refuses a sum that differs (AMOUNT_MISMATCH, exit 1)', () => {
    const paid17 = cli(['journal-entries', 'create', '--file', writeFile('paid17.json', entry(books.checking.id, books.acme.id, '100000', '2026-03-06', 'ACME pays RE-17'))]).data;
    const paid18 = cli(['journal-entries', 'create', '--file', writeFile('paid18.json', entry(books.checking.id, books.acme.id, '50000', '2026-03-06', 'ACME pays RE-18'))]).data;
    const mismatch = ledger(['bank', 'match', lines.acme.id, '--entry', paid17.id], { db, apiKey: books.adminKey });
    expect(mismatch).toEqual({ status: 1, stdout: '', stderr: 'error [AMOUNT_MISMATCH] (journal_entry_ids): The entries move the bank account by '
      + '1000.00 USD, the bank line by 1500.00 USD\nhint: Match entries whose lines on the bank account add up to exactly the bank line (money in is a '
      + 'debit of the bank account)\n' });
    const matched = cli(['bank', 'match', lines.acme.id, '--entry', paid17.id, '--entry', paid18.id]).data;
    expect(matched).toMatchObject({ status: 'matched', journal_entry_ids: [paid17.id, paid18.id] });
    cli(['bank', 'unmatch', lines.acme.id]);
    // --entry takes several ids at once too; the line lists its entries in the order given.
    expect(cli(['bank', 'match', lines.acme.id, '--entry', paid18.id, paid17.id]).data.journal_entry_ids).toEqual([paid18.id, paid17.id]);
  });

  it('excludes a line with its reason, and unmatch takes the exclusion back', () => {
    const run = ledger(['bank', 'exclude', lines.charge.id, '--reason', 'Reversed by the bank the same day'], { db, apiKey: books.adminKey });
    expect(run).toEqual({ status: 0, stderr: '',
      stdout: `Excluded bank line ${lines.charge.id} (2026-03-05  -20.00 USD  Kartenzahlung Fehlbuchung): Reversed by the bank the same day\n` });
    expect(lineOf(lines.charge.id)).toMatchObject({ status: 'excluded', excluded_reason: 'Reversed by the bank the same day' });
    expect(ledger(['bank', 'unmatch', lines.charge.id], { db, apiKey: books.adminKey }).stdout)
      .toBe(`Bank line ${lines.charge.id} (2026-03-05  -20.00 USD  Kartenzahlung Fehlbuchung) is unmatched; its entries stay posted\n`);
    expect(lineOf(lines.charge.id)).toMatchObject({ status: 'unmatched', excluded_reason: null });
    cli(['bank', 'exclude', lines.charge.id, '--reason', 'Reversed by the bank']);
    cli(['bank', 'exclude', lines.reversal.id, '--reason', 'Reverses the charge']);
    expect(ledgerJson(['bank', 'lines', '--account', '1010', '--status', 'unmatched'], { db }).data).toEqual([]);
    expect(tableCells(ledger(['bank', 'lines', '--status', 'excluded'], { db }).stdout).map((row) => row[4])).toEqual(['STATUS', 'excluded', 'excluded']);
  });

  it('needs journals:create as well as bank:write to post, and bank:write to match or exclude (exit 3)', async () => {
    const other = cli(['bank', 'import', writeFile('april.csv', semicolonCsv([['01.04.2026', 'Entgelt April', '-9,90', '922,60']])), '--account', '1010',
      '--format', 'csv', '--map', SEMICOLON_MAP]).data;
    const [line] = ledgerJson(['bank', 'lines', '--statement', other.id], { db }).data;
    const [bankOnly, journalsOnly] = await Promise.all([
      ledgerAsync(['--json', 'bank', 'post', line.id], { db, apiKey: books.bankOnlyKey }),
      ledgerAsync(['--json', 'bank', 'exclude', line.id, '--reason', 'x'], { db, apiKey: books.journalsOnlyKey }),
    ]);
    expect([bankOnly.status, JSON.parse(bankOnly.stderr).message]).toEqual([3, 'This action needs the permission journals:create']);
    expect([journalsOnly.status, JSON.parse(journalsOnly.stderr).message]).toEqual([3, 'This action needs the permission bank:write']);
    expect(lineOf(line.id).status).toBe('unmatched');
  });

  describe('--json prints exactly what the HTTP API answers on the same file', () => {
    // The server starts after the tests above, whose synchronous runs of the CLI would hold up its event loop.
    beforeAll(async () => { api = await serveFile(db); });
    afterAll(async () => { await api?.close(); });

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

    it.each([
      ['bank lines', ['bank', 'lines'], '/bank-lines'],
      ['bank lines --account --status', ['bank', 'lines', '--account', '1010', '--status', 'matched'], 'ACCOUNT&status=matched'],
      ['bank lines --from --to', ['bank', 'lines', '--from', '2026-03-03', '--to', '2026-03-05'], '/bank-lines?start_date=2026-03-03&end_date=2026-03-05'],
      ['bank statements', ['bank', 'statements'], '/bank-statements'],
      ['bank rules list', ['bank', 'rules', 'list'], '/bank-rules'],
    ])('%s lists every row as the API pages them', async (_label, args, path) => {
      const resolved = path === 'ACCOUNT&status=matched' ? `/bank-lines?account_id=${books.checking.id}&status=matched` : path;
      const [printed, rows] = await Promise.all([ledgerJsonAsync(args, { db }), walk(resolved)]);
      expect(printed).toEqual({ data: rows, has_more: false, next_cursor: null });
      expect(rows.length).toBeGreaterThan(0);
    });

    it('bank lines --limit and --cursor page as the API does', async () => {
      const first = await ledgerJsonAsync(['bank', 'lines', '--limit', '2'], { db });
      expect(first).toEqual(await api.get('/bank-lines?limit=2'));
      const second = await ledgerJsonAsync(['bank', 'lines', '--limit', '2', '--cursor', first.next_cursor], { db });
      expect(second).toEqual(await api.get(`/bank-lines?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`));
    });

    it('bank line, bank candidates and bank rules get', async () => {
      for (const line of Object.values(lines)) expect(await ledgerJsonAsync(['bank', 'line', line.id], { db })).toEqual(await api.get(`/bank-lines/${line.id}`));
      const unmatched = (await walk('/bank-lines?status=unmatched')) as any[];
      for (const line of unmatched) {
        expect(await ledgerJsonAsync(['bank', 'candidates', line.id], { db })).toEqual(await api.get(`/bank-lines/${line.id}/candidates`));
      }
      const [rule] = (await walk('/bank-rules')) as any[];
      expect(await ledgerJsonAsync(['bank', 'rules', 'get', rule.id], { db })).toEqual(await api.get(`/bank-rules/${rule.id}`));
    });

    it('the answers of import, post, match, exclude and unmatch are the resources as the API reads them back', async () => {
      const imported = await ledgerJsonAsync(['bank', 'import', writeFile('may.csv', semicolonCsv([['04.05.2026', 'Entgelt Mai', '-9,90', '912,70'],
        ['05.05.2026', 'Zins', '0,12', '912,82']])), '--account', '1010', '--format', 'csv', '--map', SEMICOLON_MAP], { db, apiKey: books.adminKey });
      expect(imported).toEqual(await api.get(`/bank-statements/${imported.data.id}`));
      const [fee, interest] = (await walk(`/bank-lines?statement_id=${imported.data.id}`)) as any[];
      const posted = await ledgerJsonAsync(['bank', 'post', fee.id], { db, apiKey: books.adminKey });
      expect(posted).toEqual(await api.get(`/bank-lines/${fee.id}`));
      const unmatched = await ledgerJsonAsync(['bank', 'unmatch', fee.id], { db, apiKey: books.adminKey });
      expect(unmatched).toEqual(await api.get(`/bank-lines/${fee.id}`));
      const matched = await ledgerJsonAsync(['bank', 'match', fee.id, '--entry', posted.data.journal_entry_ids[0]], { db, apiKey: books.adminKey });
      expect(matched).toEqual(await api.get(`/bank-lines/${fee.id}`));
      const excluded = await ledgerJsonAsync(['bank', 'exclude', interest.id, '--reason', 'Booked with the quarter'], { db, apiKey: books.adminKey });
      expect(excluded).toEqual(await api.get(`/bank-lines/${interest.id}`));
    });

    it('a dry run answers what the API\'s dry run answers, but for the ids and times it makes up', async () => {
      const [line] = (await walk('/bank-lines?status=unmatched')) as any[];
      const body = { counter_account_id: books.fees.id };
      const [printed, overHttp] = await Promise.all([
        ledgerJsonAsync(['bank', 'post', line.id, '--counter', '6100', '--dry-run'], { db, apiKey: books.adminKey }),
        api.request('POST', `/bank-lines/${line.id}/post?dry_run=true`, body),
      ]);
      expect(overHttp.status).toBe(200);
      expect(madeUpValuesOut(printed)).toEqual(madeUpValuesOut(overHttp.body));
      expect(printed.data.dry_run).toBe(true);
    });

    it('a refusal prints the API\'s error body', async () => {
      const duplicate = await ledgerAsync(['--json', 'bank', 'import', writeFile('march.csv', MARCH), '--account', '1010', '--format', 'csv',
        '--map', SEMICOLON_MAP], { db, apiKey: books.adminKey });
      const overHttp = await api.request('POST', '/bank-statements', { account_id: books.checking.id, format: 'csv',
        content_base64: Buffer.from(MARCH).toString('base64'), csv: SEMICOLON_MAPPING });
      expect(overHttp.status).toBe(409);
      expect(JSON.parse(duplicate.stderr)).toEqual(overHttp.body);
      const accept = await ledgerAsync(['--json', 'bank', 'accept', lines.acme.id], { db, apiKey: books.adminKey });
      expect(JSON.parse(accept.stderr)).toEqual((await api.request('POST', '/bank-lines/accept', { line_ids: [lines.acme.id] })).body);
    });
  });
});

/**
 * The ids, hashes and times a dry run makes up afresh each time, replaced by placeholders; and the
 * request that posted an entry, which the command line (in no request) leaves empty.
 */
function madeUpValuesOut(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)
    .replace(/"request_id":("[^"]*"|null)/g, '"request_id":"<request>"')
    .replace(/"[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}"/g, '"<id>"')
    .replace(/"[0-9a-f]{64}"/g, '"<hash>"')
    .replace(/"\d{4}-\d{2}-\d{2}T[0-9:.]+Z"/g, '"<time>"'));
}

