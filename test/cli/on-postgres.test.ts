/**
 * The command line on PostgreSQL: one switch (`--db postgres://...` or LEDGER_DB, `postgresql://`
 * too) makes `ledger init` and every command use the PostgreSQL adapter, and a database that
 * cannot be used says why in a sentence, never a stack trace. Runs in the postgres project.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, entry, ledger, ledgerJson, seedBooks, tempFolder } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const folder = tempFolder('postgres');
let database: TestDatabase;
let empty: TestDatabase;

beforeAll(async () => {
  [database, empty] = await Promise.all([createTestDatabase(), createTestDatabase()]);
});

afterAll(async () => {
  await Promise.all([database?.drop(), empty?.drop()]);
  folder.remove();
});

/** The URL with another database name on the same server. */
function otherDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

describe('ledger on PostgreSQL', () => {
  it('initialises the database and runs the bookkeeping commands on it, from --db or LEDGER_DB', () => {
    const db = database.url;
    expect(ledgerJson(['init'], { db }).data).toEqual({ database: expect.stringMatching(/^postgres/), initialized: true });
    // Initialising again is harmless (migrations are versioned).
    expect(ledger(['init'], { db }).status).toBe(0);
    const usd = ledgerJson(['currencies', 'create-fiat', 'USD'], { db }).data;
    const account = (number: string, name: string, type: string, normal: string) => ledgerJson(['accounts', 'create',
      '--number', number, '--name', name, '--currency', usd.id, '--type', type, '--normal-balance', normal], { db }).data;
    const cash = account('1000', 'Cash', 'asset', 'debit');
    const sales = account('4000', 'Sales', 'revenue', 'credit');
    ledgerJson(['periods', 'create', '--name', '2026', '--start', '2026-01-01', '--end', '2026-12-31'], { db });
    const key = ledgerJson(['users', 'create-service-account', '--name', 'agent'], { db }).data.api_key as string;
    const file = join(folder.dir, 'sale.json');
    writeFileSync(file, JSON.stringify(entry(cash.id, sales.id, '123456789012345678901234567890', '2026-03-01', 'big sale')));
    expect(ledger(['journal-entries', 'create', '--file', file], { db, apiKey: key }).status).toBe(0);

    // The same books through LEDGER_DB, with the postgresql:// spelling.
    const env = { LEDGER_DB: db.replace(/^postgres:/, 'postgresql:') };
    const trial = ledgerJson(['reports', 'trial-balance'], { env }).data;
    expect(trial.is_balanced).toBe(true);
    expect(trial.totals).toEqual([expect.objectContaining({ debit_total: '123456789012345678901234567890', credit_total: '123456789012345678901234567890' })]);
    const listed = ledgerJson(['accounts', 'list'], { env }).data.map((a: { account_number: string }) => a.account_number);
    expect(listed).toEqual(['1000', '4000']);

    // A dry run changes nothing; verify finds the books sound; the audit log names every change.
    const dryRun = ledgerJson(['journal-entries', 'create', '--file', file, '--dry-run'], { db, apiKey: key }).data;
    expect(dryRun).toMatchObject({ dry_run: true, entry: { description: 'big sale' } });
    expect(ledgerJson(['journal-entries', 'list'], { db }).data).toHaveLength(1);
    const verified = ledger(['--json', 'verify'], { db });
    expect(verified.status).toBe(0);
    expect(JSON.parse(verified.stdout).data).toMatchObject({ ok: true, problems: [], checked: { entries: 1, lines: 2 } });
    const actions = ledgerJson(['audit-log', '--sort', 'asc'], { db }).data.map((record: { action: string }) => record.action);
    expect(actions).toEqual(['currency.create', 'account.create', 'account.create', 'period.create', 'service_account.create', 'journal_entry.create']);
  // Sixteen `ledger` processes, each connecting to PostgreSQL: 25-45 s on a busy 2-core machine, as its siblings' 90 s allow.
  }, 90_000);

  it('imports a bank statement, posts its lines by rules and reconciles the account to zero', async () => {
    const books = await createTestDatabase();
    try {
      const db = books.url;
      ledgerJson(['init'], { db });
      ledgerJson(['currencies', 'create-fiat', 'USD'], { db });
      for (const [number, name, type, normal] of [['1010', 'Checking', 'asset', 'debit'], ['3100', 'Opening balances', 'equity', 'credit'],
        ['4000', 'Income', 'revenue', 'credit'], ['6100', 'Spending', 'expense', 'debit']]) {
        ledgerJson(['accounts', 'create', '--number', number!, '--name', name!, '--currency', 'USD', '--type', type!, '--normal-balance', normal!], { db });
      }
      ledgerJson(['periods', 'create', '--name', '2026', '--start', '2026-01-01', '--end', '2026-12-31'], { db });
      const apiKey = ledgerJson(['users', 'create-service-account', '--name', 'bookkeeper'], { db }).data.api_key as string;
      const accountId = (number: string) => ledgerJson(['accounts', 'get', number], { db }).data.id as string;
      const opening = join(folder.dir, 'opening.json');
      writeFileSync(opening, JSON.stringify(entry(accountId('1010'), accountId('3100'), '67055', '2026-01-01', 'Opening balance')));
      const openingEntry = ledgerJson(['journal-entries', 'create', '--file', opening], { db, apiKey }).data;

      const map = join(folder.dir, 'us-map.json');
      writeFileSync(map, JSON.stringify({ date_column: 'Posting Date', date_format: 'MM/DD/YYYY', description_column: 'Description',
        debit_column: 'Debit', credit_column: 'Credit', id_column: 'Transaction ID', balance_column: 'Balance' }));
      const statement = ledgerJson(['bank', 'import', join(ROOT, 'test/fixtures/bank/us-bank-checking.csv'), '--account', 'Checking', '--format', 'csv',
        '--map', map], { db, apiKey }).data;
      expect(statement).toMatchObject({ new_count: 6, opening_balance: '67055', closing_balance: '1210' });
      ledgerJson(['bank', 'rules', 'create', '--name', 'Out', '--direction', 'out', '--counter', 'Spending'], { db, apiKey });
      ledgerJson(['bank', 'rules', 'create', '--name', 'In', '--direction', 'in', '--counter', 'Income'], { db, apiKey });
      const lines = ledgerJson(['bank', 'lines', '--status', 'unmatched'], { db }).data.map((line: { id: string }) => line.id);
      expect(ledgerJson(['bank', 'accept', ...lines], { db, apiKey }).data.map((line: { status: string }) => line.status)).toEqual(Array(6).fill('matched'));

      const started = ledgerJson(['reconcile', 'start', '--account', '1010', '--date', '2026-01-31', '--balance', '12.10'], { db, apiKey }).data;
      expect(started).toMatchObject({ cleared_balance: '-65845', difference: '67055' });
      expect(ledgerJson(['reconcile', 'clear', started.id, '--line', openingEntry.lines[0].id], { db, apiKey }).data.difference).toBe('0');
      expect(ledgerJson(['reconcile', 'finish', started.id], { db, apiKey }).data).toMatchObject({ status: 'finished', cleared_balance: '1210' });
      const unmatch = ledger(['bank', 'unmatch', lines[0]], { db, apiKey });
      expect([unmatch.status, unmatch.stderr.split(']')[0]]).toEqual([1, 'error [RECONCILED']);
      expect(JSON.parse(ledger(['--json', 'verify'], { db }).stdout).data.ok).toBe(true);
    } finally {
      await books.drop();
    }
    // Some twenty CLI processes, each connecting to PostgreSQL: about 10 s alone, more on a busy machine.
  }, 90_000);

  it('sets, imports, lists and exports exchange rates, a bad file importing nothing', async () => {
    const books = await createTestDatabase();
    try {
      const db = books.url;
      ledgerJson(['init'], { db });
      for (const code of ['USD', 'EUR', 'GBP']) ledgerJson(['currencies', 'create-fiat', code], { db });
      ledgerJson(['settings', 'set', 'base-currency', 'USD'], { db });
      const apiKey = ledgerJson(['users', 'create-service-account', '--name', 'treasurer', '--permissions', '{"rates:write":true}'], { db }).data.api_key as string;
      expect(ledgerJson(['rates', 'set', 'EUR', '2026-01-15', '1.0842'], { db, apiKey }).data).toMatchObject({ currency_code: 'EUR', rate: '1.0842' });
      const good = join(folder.dir, 'rates.csv');
      writeFileSync(good, 'currency,date,rate\nEUR,2026-01-15,1.09\nGBP,2026-01-15,1.27\n');
      expect(ledgerJson(['rates', 'import', good], { db, apiKey }).data).toEqual({ count: 2, created: 1, replaced: 1 });
      const bad = join(folder.dir, 'bad-rates.csv');
      writeFileSync(bad, 'currency,date,rate\nEUR,2026-02-01,1.1\nGBP,2026-02-01,-1\n');
      const refused = ledger(['rates', 'import', bad], { db, apiKey });
      expect([refused.status, refused.stderr]).toEqual([1, expect.stringMatching(/line 3: rate must be a positive decimal/)]);
      const listed = ledgerJson(['rates', 'list'], { db }).data.map((rate: { currency_code: string; rate: string }) => `${rate.currency_code} ${rate.rate}`);
      expect(listed).toEqual(['EUR 1.09', 'GBP 1.27']);
      const exported = ledger(['export', '--format', 'hledger'], { db }).stdout;
      expect(exported.split('\n').filter((line) => line.startsWith('P '))).toEqual(['P 2026-01-15 EUR 1.09 USD', 'P 2026-01-15 GBP 1.27 USD']);
    } finally {
      await books.drop();
    }
  }, 90_000);

  it('leaves backups of a PostgreSQL ledger to pg_dump and ledger copy, and says so', () => {
    const run = ledger(['backup', join(folder.dir, 'copy.db')], { db: database.url });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/pg_dump/);
    expect(run.stderr).toMatch(/ledger copy/);
  });

  it('says a database has no ledger yet, exits 4, and creates nothing', () => {
    const run = ledger(['accounts', 'list'], { db: empty.url });
    expect(run.status).toBe(4);
    expect(run.stderr).toMatch(/^error: No ledger database at postgres:\/\/.*Run `ledger init`/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    // Still no schema: a second look says the same.
    expect(ledger(['accounts', 'list'], { db: empty.url }).status).toBe(4);
  });

  it('names a database that does not exist (exit 4), an unreachable server (exit 6, unavailable) and a malformed URL (exit 1)', () => {
    const missing = ledger(['--json', 'accounts', 'list'], { db: otherDatabase(database.url, 'no_such_books') });
    expect(missing.status).toBe(4);
    expect(JSON.parse(missing.stderr)).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('"no_such_books" does not exist') });

    const unreachable = ledger(['accounts', 'list'], { db: 'postgres://ledger:secret@127.0.0.1:1/books' });
    expect(unreachable.status).toBe(6);
    expect(unreachable.stderr).toBe('error: Cannot reach PostgreSQL at 127.0.0.1:1 (ECONNREFUSED)\n'
      + 'Check that the server is running (and not still starting up) and that the URL\'s host and port are right\n');

    for (const url of ['postgres://', 'postgres://127.0.0.1:5432', 'postgres://[bad']) {
      const malformed = ledger(['--json', 'accounts', 'list'], { db: url });
      expect(malformed.status).toBe(1);
      expect(JSON.parse(malformed.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', suggestion: expect.stringContaining('postgres://') });
    }
  });

  it('never prints the password of the URL', () => {
    const withPassword = new URL(database.url);
    withPassword.username = 'ledger_user';
    withPassword.password = 's3cret-pass';
    const run = ledger(['init'], { db: withPassword.toString() });
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).not.toContain('s3cret-pass');
    const init = ledgerJson(['init'], { db: database.url.replace('://', '://postgres:hunter22@') });
    expect(JSON.stringify(init)).not.toContain('hunter22');
  });

  it('imports a file of more entries than one write of pending rows, all or nothing', async () => {
    const own = await createTestDatabase();
    try {
      const books = await seedBooks(own.url);
      const lines = Array.from({ length: 2500 }, (_, index) => JSON.stringify(entry(books.cash.id, books.sales.id, String(index + 1))));
      const bad = [...lines, JSON.stringify(entry(books.cash.id, 'no-such-account', '5'))];
      const badFile = join(folder.dir, 'bad.jsonl');
      writeFileSync(badFile, `${bad.join('\n')}\n`);
      const refused = ledger(['journal-entries', 'import', badFile], { db: own.url, apiKey: books.adminKey, timeoutMs: 120_000 });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('Line 2501: Account no-such-account does not exist');
      expect(ledgerJson(['journal-entries', 'list'], { db: own.url }).data).toEqual([]);

      const goodFile = join(folder.dir, 'good.jsonl');
      writeFileSync(goodFile, `${lines.join('\n')}\n`);
      const run = ledger(['journal-entries', 'import', goodFile], { db: own.url, apiKey: books.adminKey, timeoutMs: 120_000 });
      expect(run).toEqual({ status: 0, stdout: 'Imported 2500 entries.\n', stderr: '' });
      expect(ledgerJson(['accounts', 'get', books.cash.id], { db: own.url }).data.balance.total_debits).toBe(String((2500 * 2501) / 2));
      expect(ledger(['verify'], { db: own.url, apiKey: books.adminKey, timeoutMs: 60_000 }).status).toBe(0);
    } finally {
      await own.drop();
    }
  });
  it('imports a CSV journal by account number in major units, and refuses a row in more decimals than its currency has', async () => {
    const own = await createTestDatabase();
    try {
      const books = await seedBooks(own.url);
      const header = 'entry,entry_date,description,reference,account_number,debit,credit,line_description';
      const file = (name: string, rows: string[]) => {
        const path = join(folder.dir, name);
        writeFileSync(path, `${[header, ...rows].join('\n')}\n`);
        return path;
      };
      const refused = ledger(['journal-entries', 'import', file('scale.csv', ['a,2026-03-01,Rent,,6000,3200.00,,', 'a,,,,1000,,3200.00,',
        'b,2026-03-02,Typo,,1200-001,99.999,,', 'b,,,,4000,,99.999,'])], { db: own.url, apiKey: books.adminKey });
      expect(refused).toEqual({ status: 1, stdout: '', stderr: 'error [VALIDATION_ERROR] (file): Line 4, column debit: 99.999 has 3 decimal places, '
        + 'and USD has 2\nhint: Write the amount with at most 2 digits after the decimal point, e.g. 3200.00; nothing was imported\n' });
      expect(ledgerJson(['journal-entries', 'list'], { db: own.url }).data).toEqual([]);

      const run = ledger(['journal-entries', 'import', file('good.csv', ['a,2026-03-01,Rent,,6000,3200.00,,', 'a,,,,1000,,3200.00,',
        'b,2026-03-02,Invoice,INV-1,1200-001,99.99,,', 'b,,,,4000,,99.99,'])], { db: own.url, apiKey: books.adminKey });
      expect(run).toEqual({ status: 0, stdout: 'Imported 2 entries.\n', stderr: '' });
      expect(ledgerJson(['accounts', 'get', '6000'], { db: own.url }).data.balance.net_balance).toBe('320000');
      expect(ledgerJson(['accounts', 'get', '1200-001'], { db: own.url }).data.balance.display_balance).toBe('99.99');
    } finally {
      await own.drop();
    }
  });
});
