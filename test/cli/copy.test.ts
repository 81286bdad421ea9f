/**
 * `ledger copy --from <db> --to <db>` as a user runs it: the compiled program on real files. A
 * ledger with three currencies, sub-accounts, closed periods, reversals, users and service
 * accounts is copied, and then every report, balance, list and credential is the same on both
 * sides, as the CLI prints them under --json.
 */
import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { type Books, everyView, expectSameViews, seedRichBooks } from '../helpers/rich-books.js';
import { testBackend } from '../helpers/test-location.js';
import { type CliOptions, entry, ledger, ledgerJson, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('copy');
afterAll(() => folder.remove());

let serial = 0;
/** A path for a database file that does not exist yet. */
function newDbPath(): string {
  serial += 1;
  return join(folder.dir, `copy-${serial}.db`);
}

/** How many records the ledger's audit log holds (every change of seeding it, and any login since). */
function auditRecordCount(db: string): number {
  return (ledgerJson(['audit-log'], { db }).data as unknown[]).length;
}

function copy(from: string, to: string, options: CliOptions = {}) {
  return ledger(['copy', '--from', from, '--to', to], options);
}

// The SQLite runs copy between files; the postgres project runs this file again for the round trip.
describe.runIf(testBackend() === 'sqlite')('ledger copy', () => {
  const source = newDbPath();
  const target = newDbPath();
  let books: Books;
  let sourceViews: Record<string, unknown>;

  beforeAll(async () => {
    books = await seedRichBooks(source);
    sourceViews = await everyView(source, books);
  }, 120_000);

  it('copies the whole ledger into a new file and prints what it copied', () => {
    const auditRecords = auditRecordCount(source);
    const run = copy(source, target);
    expect(run).toEqual({
      status: 0, stderr: '',
      stdout: [
        `Copied the ledger from ${source} to ${target}`,
        'Currencies:      3',
        'Accounts:        14',
        'Periods:         3',
        'Journal entries: 17',
        'Journal lines:   35',
        'Users:           4',
        'API keys:        2',
        'Settings:        3',
        `Audit records:   ${auditRecords}`,
        'Bank statements: 1',
        'Bank lines:      4',
        'Bank rules:      1',
        'Reconciliations: 2',
        'Exchange rates:  3',
        'Refresh tokens are not copied: users of the web UI log in again.',
        '',
      ].join('\n'),
    });
  });

  it('gives every report, balance, list and user on the copy exactly as on the source', async () => {
    expectSameViews(await everyView(target, books), sourceViews);
    // The closing entries and reversals are there with their links.
    const periods = (sourceViews['periods list'] as { data: { status: string; closing_entry_id: string | null }[] }).data;
    expect(periods.map((period) => period.status)).toEqual(['closed', 'open', 'open']);
    expect(periods[0]!.closing_entry_id).not.toBeNull();
    const entries = (sourceViews['journal-entries list'] as { data: { entry_type: string }[] }).data;
    expect(entries.filter((entry) => entry.entry_type === 'reversal')).toHaveLength(2);
    expect(entries.filter((entry) => entry.entry_type === 'closing')).toHaveLength(1);
  }, 120_000);

  it('keeps the order of entries posted on the same day', () => {
    const ids = (db: string) => (ledgerJson(['journal-entries', 'list', '--start', '2026-05-03', '--end', '2026-05-03'], { db }).data as { id: string }[])
      .map((entry) => entry.id);
    expect(ids(source)).toHaveLength(2);
    expect(ids(target)).toEqual(ids(source));
  });

  it('keeps list cursors working: a cursor from the source continues on the copy', () => {
    const first = ledgerJson(['journal-entries', 'list', '--limit', '4'], { db: source });
    const args = ['journal-entries', 'list', '--limit', '4', '--cursor', first.next_cursor];
    expect(ledgerJson(args, { db: target })).toEqual(ledgerJson(args, { db: source }));
  });

  it('keeps passwords working, not sessions: a user logs in on the copy, and a token from the source is refused there', async () => {
    const fromSource = await withLedger(source, (service) => service.login({ email: 'ada@example.com', password: books.adaPassword }, 'copy-test'));
    await withLedger(target, async (service) => {
      const login = await service.login({ email: 'ada@example.com', password: books.adaPassword }, 'copy-test');
      expect((await service.authenticate(login.access_token)).user_id).toBe(books.ada.id);
      // An access token belongs to its login's session, and sessions are not copied.
      await expect(service.authenticate(fromSource.access_token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    });
  });

  it('keeps API keys working: the copied keys post on the copy, attributed to their users', () => {
    const body = JSON.stringify(entry(books.cash.id, books.sales.id, '1000', '2026-07-02', 'Posted on the copy'));
    const byAdmin = ledgerJson(['journal-entries', 'create', '--file', '-'], { db: target, apiKey: books.adminKey, input: body });
    expect(byAdmin.data.created_by).toBe(books.adminId);
    const byPoster = ledger(['journal-entries', 'create', '--file', '-'], { db: target, apiKey: books.posterKey, input: body });
    expect(byPoster.status).toBe(0);
    const unknown = ledger(['journal-entries', 'create', '--file', '-'], { db: target, apiKey: 'tsk_not-a-key', input: body });
    expect(unknown.status).toBe(3);
  });

  it('prints counts and both locations under --json', () => {
    const to = newDbPath();
    const auditRecords = auditRecordCount(source);
    expect(ledgerJson(['copy', '--from', source, '--to', to])).toEqual({
      data: {
        from: source, to,
        currencies: 3, accounts: 14, periods: 3, entries: 17, lines: 35, users: 4, api_keys: 2, settings: 3, audit_records: auditRecords,
        bank_statements: 1, bank_lines: 4, bank_rules: 1, reconciliations: 2, exchange_rates: 3,
      },
    });
  });

  it('draws a progress bar on stderr when it is a terminal', () => {
    const preload = join(folder.dir, 'stderr-tty.mjs');
    writeFileSync(preload, 'process.stderr.isTTY = true;\n');
    const run = ledger(['--json', 'copy', '--from', source, '--to', newDbPath()], { nodeArgs: ['--import', pathToFileURL(preload).href] });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(`\r[${'#'.repeat(30)}] 17/17\n`);
  });

  it.each([
    ['a currency', ['currencies', 'create-fiat', 'EUR']],
    ['a user', ['users', 'create-service-account', '--name', 'someone']],
    ['only the secrets that the first command on it stored', ['currencies', 'list']],
  ])('refuses a target that already holds %s (exit 1) and changes nothing', (_label, seed) => {
    const busy = newDbPath();
    expect(ledger(['init'], { db: busy }).status).toBe(0);
    expect(ledger(seed, { db: busy }).status).toBe(0);
    const before = ['currencies list', 'accounts list', 'periods list', 'journal-entries list', 'users list', 'settings get']
      .map((command) => ledgerJson(command.split(' '), { db: busy }));
    const run = copy(source, busy);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error \[VALIDATION_ERROR\] \(to\): The target database is not empty: it holds .*Nothing was copied\.\nhint: /);
    const json = ledger(['--json', 'copy', '--from', source, '--to', busy]);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'to' });
    const after = ['currencies list', 'accounts list', 'periods list', 'journal-entries list', 'users list', 'settings get']
      .map((command) => ledgerJson(command.split(' '), { db: busy }));
    expect(after).toEqual(before);
  }, 120_000);

  it('refuses to copy a database onto itself', () => {
    // The same file, spelled differently.
    const run = ledger(['--json', 'copy', '--from', source, '--to', `${dirname(source)}/./${basename(source)}`]);
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'to' });
  });

  it('fails with exit 4 on a missing source and creates no target', () => {
    const missing = join(folder.dir, 'missing.db');
    const to = newDbPath();
    const run = ledger(['--json', 'copy', '--from', missing, '--to', to]);
    expect(run.status).toBe(4);
    expect(JSON.parse(run.stderr)).toMatchObject({ code: 'NOT_FOUND' });
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(to)).toBe(false);
  });

  it('copies an empty ledger into an empty, already initialised database', () => {
    const empty = newDbPath();
    const to = newDbPath();
    expect(ledger(['init'], { db: empty }).status).toBe(0);
    expect(ledger(['init'], { db: to }).status).toBe(0);
    expect(ledgerJson(['copy', '--from', empty, '--to', to]).data).toMatchObject({ currencies: 0, entries: 0, users: 0, settings: 0 });
  });

  it('makes an existing empty --to file readable by its owner only, like every database file', () => {
    const to = newDbPath();
    writeFileSync(to, '', { mode: 0o644 });
    chmodSync(to, 0o644);
    expect(ledgerJson(['copy', '--from', source, '--to', to]).data.entries).toBeGreaterThan(0);
    for (const file of [to, `${to}-wal`, `${to}-shm`].filter((path) => existsSync(path))) {
      expect((statSync(file).mode & 0o777).toString(8), file).toBe('600');
    }
  });

  it('needs both --from and --to (usage error, exit 2)', () => {
    const run = ledger(['copy', '--from', source]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("required option '--to <path|url>' not specified");
  });
});

describe.runIf(testBackend() === 'postgres')('ledger copy from SQLite to PostgreSQL and back', () => {
  const source = newDbPath();
  const back = newDbPath();
  let books: Books;
  let sourceViews: Record<string, unknown>;
  let database: TestDatabase;
  /** The database's URL with a password in it (the test server trusts local connections and ignores it). */
  let url: string;
  let shownUrl: string;

  beforeAll(async () => {
    books = await seedRichBooks(source);
    sourceViews = await everyView(source, books);
    database = await createTestDatabase();
    const withPassword = new URL(database.url);
    withPassword.password = 's3cret';
    url = withPassword.toString();
    withPassword.password = '***';
    shownUrl = withPassword.toString();
  }, 120_000);
  afterAll(async () => {
    await database?.drop();
  });

  it('copies into a PostgreSQL database without the ledger\'s schema, and shows the URL without its password', () => {
    expect(ledgerJson(['copy', '--from', source, '--to', url])).toEqual({
      data: {
        from: source, to: shownUrl,
        currencies: 3, accounts: 14, periods: 3, entries: 17, lines: 35, users: 4, api_keys: 2, settings: 3,
        audit_records: auditRecordCount(source), bank_statements: 1, bank_lines: 4, bank_rules: 1, reconciliations: 2, exchange_rates: 3,
      },
    });
  });

  it('gives every report, balance, list and user on PostgreSQL exactly as on SQLite', async () => {
    expectSameViews(await everyView(url, books), sourceViews);
  }, 120_000);

  it('copies back from PostgreSQL into a new SQLite file that equals the original', async () => {
    const run = ledgerJson(['copy', '--from', url, '--to', back]);
    expect(run.data).toMatchObject({ from: shownUrl, to: back, entries: 17, lines: 35 });
    expectSameViews(await everyView(back, books), sourceViews);
  }, 120_000);

  it('keeps a cursor from the SQLite source working on PostgreSQL', () => {
    const first = ledgerJson(['journal-entries', 'list', '--limit', '4'], { db: source });
    const args = ['journal-entries', 'list', '--limit', '4', '--cursor', first.next_cursor];
    expect(ledgerJson(args, { db: url })).toEqual(ledgerJson(args, { db: source }));
  });

  it('refuses to copy into the PostgreSQL database again, now that it holds a ledger', () => {
    const run = ledger(['--json', 'copy', '--from', source, '--to', url]);
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'to' });
    expect(ledgerJson(['journal-entries', 'list'], { db: url }).data).toHaveLength(17);
  });

  it('keeps API keys working on PostgreSQL', () => {
    const body = JSON.stringify(entry(books.cash.id, books.sales.id, '1000', '2026-07-02', 'Posted on PostgreSQL'));
    const posted = ledgerJson(['journal-entries', 'create', '--file', '-'], { db: url, apiKey: books.posterKey, input: body });
    expect(posted.data.entry_type).toBe('standard');
  });
});
