/**
 * The `ledger` program as a whole: version, help for every command, usage errors, the database
 * file (init, LEDGER_DB, a missing file), colour rules and where errors go.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, inParallel, ledger, ledgerAsync, ledgerJson, operator, ROOT, seedBooks, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('program');
afterAll(() => folder.remove());

/** The leaf commands of docs/cli.md. */
const DOCUMENTED_COMMANDS = [
  'init', 'serve',
  'currencies list', 'currencies create', 'currencies create-fiat',
  'rates set', 'rates list', 'rates import',
  'accounts list', 'accounts get', 'accounts create', 'accounts delete',
  'journal-entries list', 'journal-entries get', 'journal-entries create', 'journal-entries reverse', 'journal-entries import',
  'periods list', 'periods get', 'periods create', 'periods close', 'periods delete',
  'reports trial-balance', 'reports balance-sheet', 'reports income-statement', 'reports general-ledger', 'reports aged-balances',
  'bank import', 'bank statements', 'bank lines', 'bank line', 'bank candidates', 'bank post', 'bank accept', 'bank match', 'bank exclude',
  'bank unmatch', 'bank rules list', 'bank rules get', 'bank rules create', 'bank rules update', 'bank rules delete', 'bank rules preview',
  'reconcile start', 'reconcile status', 'reconcile clear', 'reconcile unclear', 'reconcile finish', 'reconcile list',
  'users list', 'users get', 'users create', 'users create-service-account', 'users rotate-key', 'users update',
  'settings get', 'settings set company-name', 'settings set retained-earnings-account', 'settings unset company-name',
  'settings unset retained-earnings-account', 'settings set lock-date', 'settings set base-currency', 'settings unset lock-date',
  'settings unset base-currency',
  'audit-log', 'events tail',
  'webhooks create', 'webhooks list', 'webhooks show', 'webhooks update', 'webhooks delete', 'webhooks rotate-secret', 'webhooks replay',
  'webhooks deliveries',
  'export', 'copy', 'verify', 'backup', 'mcp', 'doctor', 'health',
];

/** The names under "Commands:" in a help text, without commander's own `help`. */
function subcommandsIn(help: string): string[] {
  const section = help.split('\nCommands:\n')[1];
  if (section === undefined) return [];
  const names: string[] = [];
  for (const line of section.split('\n')) {
    if (line.trim() === '' || !line.startsWith(' ')) break;
    const name = /^ {2}([a-z][a-z0-9-]*)/.exec(line)?.[1];
    if (name !== undefined && name !== 'help') names.push(name);
  }
  return names;
}

describe('ledger --version and --help', () => {
  it('prints the package version and exits 0', () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(ledger(['--version'])).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' });
    expect(ledger(['-V'])).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('has exactly the documented commands, and every command\'s --help shows its usage and an example', async () => {
    const helps = new Map<string, CliRun>();
    let level = [''];
    const leaves: string[] = [];
    while (level.length > 0) {
      const runs = await inParallel(level.map((path) => () => ledgerAsync([...path.split(' ').filter(Boolean), '--help'])));
      const next: string[] = [];
      level.forEach((path, index) => {
        const run = runs[index]!;
        helps.set(path, run);
        const children = subcommandsIn(run.stdout);
        if (children.length === 0) leaves.push(path);
        next.push(...children.map((child) => `${path} ${child}`.trim()));
      });
      level = next;
    }
    expect(leaves.sort()).toEqual([...DOCUMENTED_COMMANDS].sort());
    for (const [path, run] of helps) {
      expect({ path, status: run.status, stderr: run.stderr }).toEqual({ path, status: 0, stderr: '' });
      expect(run.stdout.split('\n')[0]).toMatch(new RegExp(`^Usage: ledger${path ? ` ${path}` : ''} \\[options\\]`));
    }
    for (const path of leaves) {
      const help = helps.get(path)!.stdout;
      expect({ path, example: /\nExamples?:\n/.test(help) && help.includes('\n  $ ledger ') }).toEqual({ path, example: true });
    }
  });

  it('lists the global options in the top-level help', () => {
    const run = ledger(['--help']);
    expect(run.status).toBe(0);
    for (const option of ['--db <path|url>', '--json', '--api-key <key>', '-V, --version', '-h, --help']) expect(run.stdout).toContain(option);
    expect(run.stdout).toContain('env: LEDGER_DB');
    expect(run.stdout).toContain('env: LEDGER_API_KEY');
  });
});

describe('usage errors exit 2 without touching the database', () => {
  let db: string;
  beforeAll(async () => {
    db = join(folder.dir, 'usage.db');
    await seedBooks(db);
  });

  it.concurrent.each([
    ['an unknown command', ['frobnicate'], "error: unknown command 'frobnicate'\n"],
    ['an unknown subcommand', ['accounts', 'lst'], "error: unknown command 'lst'\n(Did you mean list?)\n"],
    ['an unknown option', ['accounts', 'list', '--bogus'], "error: unknown option '--bogus'\n"],
    ['a --limit that is not a number', ['accounts', 'list', '--limit', 'ten'],
      "error: option '--limit <n>' argument 'ten' is invalid. expected a whole number of at least 1\n"],
    ['a --limit of 0', ['journal-entries', 'list', '--limit', '0'],
      "error: option '--limit <n>' argument '0' is invalid. expected a whole number of at least 1\n"],
    ['a negative --limit', ['periods', 'list', '--limit', '-3'],
      "error: option '--limit <n>' argument '-3' is invalid. expected a whole number of at least 1\n"],
    ['a value outside the choices', ['accounts', 'list', '--type', 'cash'],
      "error: option '--type <type>' argument 'cash' is invalid. Allowed choices are asset, liability, equity, revenue, expense.\n"],
    ['a missing required option', ['periods', 'create', '--name', 'Q1', '--start', '2026-01-01'],
      "error: required option '--end <date>' not specified\n"],
    ['a missing argument', ['accounts', 'get'], "error: missing required argument 'account'\n"],
    ['a group command without its subcommand', ['accounts'], 'Usage: ledger accounts [options] [command]\n'],
  ])('exits 2 for %s, with the error and the usage on stderr', async (_label, args, firstLines) => {
    const run = await ledgerAsync(args, { db });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.startsWith(firstLines)).toBe(true);
    expect(run.stderr).toContain('Usage: ledger');
  });

  it('prints a usage error as the JSON error body under --json', async () => {
    const run = await ledgerAsync(['--json', 'accounts', 'list', '--limit', '0'], { db });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr)).toEqual({
      code: 'VALIDATION_ERROR',
      message: "option '--limit <n>' argument '0' is invalid. expected a whole number of at least 1",
      suggestion: 'See `ledger --help` or `ledger <command> --help`',
    });
  });

  it('exits 2 for the program without a command', () => {
    const run = ledger([], { db });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.startsWith('Usage: ledger [options] [command]\n')).toBe(true);
  });
});

describe('the database file', () => {
  it('init creates the file, and running it again is safe and keeps the data', () => {
    const db = join(folder.dir, 'init.db');
    expect(ledger(['init'], { db })).toEqual({ status: 0, stdout: `Initialised ledger database ${db}\n`, stderr: '' });
    expect(existsSync(db)).toBe(true);
    ledgerJson(['currencies', 'create-fiat', 'USD'], { db });
    expect(ledger(['init'], { db })).toEqual({ status: 0, stdout: `Initialised ledger database ${db}\n`, stderr: '' });
    expect(ledgerJson(['init'], { db })).toEqual({ data: { database: db, initialized: true } });
    expect(ledgerJson(['currencies', 'list'], { db }).data.map((currency: { code: string }) => currency.code)).toEqual(['USD']);
  });

  it('on a missing file, every command but init says to run `ledger init`, exits 4 and creates nothing', () => {
    const db = join(folder.dir, 'missing.db');
    const run = ledger(['accounts', 'list'], { db });
    expect(run).toEqual({
      status: 4, stdout: '', stderr: `error: No ledger database at ${db}. Run \`ledger init\` (or pass --db / LEDGER_DB) first.\n`,
    });
    const json = ledger(['--json', 'reports', 'trial-balance'], { db });
    expect(json.status).toBe(4);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr)).toEqual({
      code: 'NOT_FOUND', message: `No ledger database at ${db}. Run \`ledger init\` (or pass --db / LEDGER_DB) first.`,
      suggestion: 'Run `ledger init` to create it',
    });
    expect(existsSync(db)).toBe(false);
  });

  it('takes the file from LEDGER_DB, and --db wins over it', () => {
    const fromEnv = join(folder.dir, 'env.db');
    const fromOption = join(folder.dir, 'option.db');
    expect(ledger(['init'], { env: { LEDGER_DB: fromEnv } }).stdout).toBe(`Initialised ledger database ${fromEnv}\n`);
    ledgerJson(['currencies', 'create-fiat', 'EUR'], { env: { LEDGER_DB: fromEnv } });
    expect(ledger(['init'], { db: fromOption, env: { LEDGER_DB: fromEnv } }).stdout).toBe(`Initialised ledger database ${fromOption}\n`);
    expect(ledgerJson(['currencies', 'list'], { db: fromOption, env: { LEDGER_DB: fromEnv } }).data).toEqual([]);
    expect(ledgerJson(['currencies', 'list'], { env: { LEDGER_DB: fromEnv } }).data).toHaveLength(1);
  });
});

describe('output', () => {
  let db: string;
  let books: Awaited<ReturnType<typeof seedBooks>>;
  let preload: string;
  beforeAll(async () => {
    db = join(folder.dir, 'output.db');
    books = await seedBooks(db);
    // Makes the program believe its stdout is a terminal, as it is for a person at a shell.
    const file = join(folder.dir, 'tty.mjs');
    writeFileSync(file, 'process.stdout.isTTY = true;\n');
    preload = pathToFileURL(file).href;
  });

  it('prints bold table headers on a terminal, and no escape codes with NO_COLOR or when piped', () => {
    const terminal = ledger(['currencies', 'list'], { db, nodeArgs: ['--import', preload], env: { NO_COLOR: undefined } });
    expect(terminal.status).toBe(0);
    expect(terminal.stdout.split('\n')[0]).toBe('\u001b[1mID                                    CODE  NAME       SYMBOL  SCALE  TYPE  CAIP-19\u001b[0m');
    const noColour = ledger(['currencies', 'list'], { db, nodeArgs: ['--import', preload], env: { NO_COLOR: '1' } });
    // no-color.org: an empty NO_COLOR does not turn colour off.
    const emptyNoColour = ledger(['currencies', 'list'], { db, nodeArgs: ['--import', preload], env: { NO_COLOR: '' } });
    expect(emptyNoColour.stdout).toContain('\u001b[1m');
    const piped = ledger(['currencies', 'list'], { db, env: { NO_COLOR: undefined } });
    const expected = 'ID                                    CODE  NAME       SYMBOL  SCALE  TYPE  CAIP-19\n'
      + `${books.usd.id}  USD   US Dollar  $       2      fiat  swift:0/iso4217:USD\n`;
    expect(noColour).toEqual({ status: 0, stdout: expected, stderr: '' });
    expect(piped).toEqual({ status: 0, stdout: expected, stderr: '' });
    const report = ledger(['reports', 'trial-balance'], { db, nodeArgs: ['--import', preload], env: { NO_COLOR: '1' } });
    expect(report.stdout).not.toContain('\u001b');
  });

  it('lines up names in any script: wide CJK characters take two columns, combining accents none', async () => {
    const [tokyo, cafe] = await withLedger(db, async (service) => [
      await service.createAccount(operator, { account_number: '2000', name: '東京支店', currency_id: books.usd.id, account_type: 'liability', normal_balance: 'credit' }),
      await service.createAccount(operator, { account_number: '2100', name: 'Cafe\u0301 owed', currency_id: books.usd.id, account_type: 'liability', normal_balance: 'credit' }),
    ]);
    expect(ledger(['accounts', 'list', '--type', 'liability'], { db }).stdout).toBe([
      'ID                                    NUMBER  NAME       TYPE       NORMAL  CURRENCY  PARENT  ACTIVE',
      `${tokyo!.id}  2000    東京支店   liability  credit  USD               yes`,
      `${cafe!.id}  2100    Cafe\u0301 owed  liability  credit  USD               yes`,
      '',
    ].join('\n'));
  });

  it('prints a rejected operation on stderr as `error [CODE] (field): message` and a hint, exit 1', () => {
    const run = ledger(['settings', 'set', 'retained-earnings-account', books.cash.id], { db });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error \[VALIDATION_ERROR\] \(retained_earnings_account_id\): .+\n(hint: .+\n)?$/);
  });

  it('prints the JSON error body on stderr under --json, and nothing on stdout', () => {
    const run = ledger(['--json', 'accounts', 'get', 'no-such-account'], { db });
    expect(run.status).toBe(4);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr)).toEqual({
      code: 'NOT_FOUND', message: 'Account no-such-account does not exist', suggestion: 'List accounts to find a valid id',
    });
    expect(ledger(['accounts', 'get', 'no-such-account'], { db })).toEqual({
      status: 4, stdout: '', stderr: 'error [NOT_FOUND]: Account no-such-account does not exist\nhint: List accounts to find a valid id\n',
    });
  });

  it('prints "(none)" for an empty list', () => {
    expect(ledger(['journal-entries', 'list'], { db })).toEqual({ status: 0, stdout: '(none)\n', stderr: '' });
  });
});
