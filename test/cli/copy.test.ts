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
import type { CreateEntryInput } from '../../src/schemas/journal-entry.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { testBackend } from '../helpers/test-location.js';
import {
  type CliOptions, entry, inParallel, ledger, ledgerAsync, ledgerJson, ledgerJsonAsync, operator, seedBooks, tempFolder, withLedger,
} from '../helpers/cli.js';

const folder = tempFolder('copy');
afterAll(() => folder.remove());

let serial = 0;
/** A path for a database file that does not exist yet. */
function newDbPath(): string {
  serial += 1;
  return join(folder.dir, `copy-${serial}.db`);
}

/**
 * The books to copy: USD (the retained earnings currency), EUR and ETH; a control account whose
 * sub-account is numbered before it (so account-number order is not parents-first); Q1 closed
 * with a reversal in it, Q2 with another reversal and activity in two currencies, Q3 open; an
 * inactive account; a human admin, an inactive restricted human, and two service accounts.
 */
async function seedRichBooks(db: string) {
  const books = await seedBooks(db, { withPeriod: false });
  return withLedger(db, async (service) => {
    const admin = await service.authenticate(books.adminKey);
    const eur = await service.createFiatCurrency(operator, 'EUR');
    const eth = await service.createCurrency(operator, {
      code: 'ETH', name: 'Ether', symbol: 'ETH', asset_scale: 18, asset_type: 'crypto', caip19_id: 'eip155:1/slip44:60',
    });
    const account = (account_number: string, name: string, currency_id: string, account_type: 'asset' | 'liability' | 'equity' | 'revenue' | 'expense',
      extra: Record<string, unknown> = {}) => service.createAccount(operator, {
      account_number, name, currency_id, account_type,
      normal_balance: account_type === 'asset' || account_type === 'expense' ? 'debit' : 'credit', ...extra,
    });
    const bankEur = await account('1100', 'Bank EUR', eur.id, 'asset', { xbrl_tag: 'ifrs-full:CashAndCashEquivalents' });
    const capitalEur = await account('3100', 'Capital EUR', eur.id, 'equity');
    const salesEur = await account('4100', 'Sales EUR', eur.id, 'revenue');
    const wallet = await account('1020', 'ETH wallet', eth.id, 'asset');
    const capitalEth = await account('3200', 'Capital ETH', eth.id, 'equity');
    const payables = await account('2500', 'Payables', books.usd.id, 'liability', { has_subledger: true });
    const supplier = await service.createAccount(operator, { account_number: '0500', name: 'Supplier Z', parent_id: payables.id, entity_id: 'supplier-z' });
    const unused = await account('6100', 'Old expense', books.usd.id, 'expense');
    await service.updateAccount(operator, unused.id, { is_active: false });

    const q1 = await service.createPeriod(operator, { name: 'Q1 2026', start_date: '2026-01-01', end_date: '2026-03-31' });
    const q2 = await service.createPeriod(operator, { name: 'Q2 2026', start_date: '2026-04-01', end_date: '2026-06-30' });
    const q3 = await service.createPeriod(operator, { name: 'Q3 2026', start_date: '2026-07-01', end_date: '2026-09-30' });

    const post = (input: CreateEntryInput) => service.postJournalEntry(admin, input);
    await post({ ...entry(books.acme.id, books.sales.id, '100000', '2026-01-15', 'Invoice 1'), reference: 'INV-1', metadata: { customer: 'acme', lines: 1 } });
    await post(entry(books.rent.id, supplier.id, '40000', '2026-02-01', 'Rent invoice'));
    await post(entry(supplier.id, books.cash.id, '40000', '2026-02-05', 'Rent paid'));
    await post(entry(books.cash.id, books.acme.id, '60000', '2026-03-10', 'Acme pays'));
    await post(entry(bankEur.id, capitalEur.id, '500000', '2026-01-02', 'EUR capital'));
    await post(entry(wallet.id, capitalEth.id, '1500000000000000000', '2026-01-03', 'ETH contributed'));
    const mistake = await post(entry(books.rent.id, books.cash.id, '9900', '2026-03-20', 'Rent twice by mistake'));
    await service.reverseJournalEntry(admin, mistake.id, {});
    await service.closePeriod(admin, q1.id, false);

    await post(entry(books.cash.id, books.sales.id, '25000', '2026-04-05', 'Cash sale'));
    await post(entry(bankEur.id, salesEur.id, '12345', '2026-04-06', 'EUR sale'));
    const wrongSale = await post(entry(books.acme.id, books.sales.id, '7000', '2026-05-01', 'Invoice 2 (wrong amount)'));
    await service.reverseJournalEntry(admin, wrongSale.id, { entry_date: '2026-05-03' });
    await post(entry(books.acme.id, books.sales.id, '7500', '2026-05-03', 'Invoice 2'));
    await post(entry(books.rent.id, books.cash.id, '40000', '2026-07-01', 'Rent Q3'));

    const ada = await service.createUser(null, { name: 'Ada', email: 'ada@example.com', password: 'correct horse battery' });
    const bob = await service.createUser(null, {
      name: 'Bob', email: 'bob@example.com', password: 'bob password 123', permissions: { 'journals:create': true },
    });
    await service.updateUser(null, bob.id, { is_active: false });
    const poster = await service.createServiceAccount(null, { name: 'poster', permissions: { 'journals:create': true } });
    const banking = await seedBanking(service, admin, books);
    // Exchange rates into the base currency (USD, the retained earnings account's), one of them replaced.
    await service.setExchangeRates(admin, [
      { currency_id: eur.id, rate_date: '2026-01-02', rate: '1.0842' }, { currency_id: eur.id, rate_date: '2026-04-06', rate: '1.1' },
      { currency_id: eth.id, rate_date: '2026-01-03', rate: '3312.123456789012' },
    ]);
    await service.setExchangeRate(admin, { currency_id: eur.id, rate_date: '2026-04-06', rate: '1.0991' });
    return {
      banking,
      ...books, eur, eth, bankEur, capitalEur, salesEur, wallet, capitalEth, payables, supplier, unused, q1, q2, q3,
      ada, adaPassword: 'correct horse battery', bob, posterKey: poster.api_key,
    };
  });
}

/**
 * The bank's side: a statement of Cash in July with four lines (one posted by a rule, one matched
 * to an entry, one excluded, one left unmatched), a rule, a finished reconciliation of July and an
 * open one of August with a marked line.
 */
async function seedBanking(service: Parameters<Parameters<typeof withLedger>[1]>[0], admin: Awaited<ReturnType<typeof service.authenticate>>,
  books: Awaited<ReturnType<typeof seedBooks>>) {
  const sale = await service.postJournalEntry(admin, entry(books.cash.id, books.sales.id, '12000', '2026-07-05', 'Cash sale'));
  const statement = await service.importBankStatement(admin, { account_id: books.cash.id, format: 'csv', content: [
    'Date,Description,Amount', '2026-07-05,Deposit,120.00', '2026-07-07,Bank fee,-4.50', '2026-07-08,Private,-10.00', '2026-07-09,Unknown,-1.00',
  ].join('\n'), csv: { date_column: 'Date', date_format: 'YYYY-MM-DD', description_column: 'Description', amount_column: 'Amount' } });
  await service.createBankRule(admin, { name: 'Fees', priority: 5, match: { description_contains: 'fee' }, counter_account_id: books.rent.id });
  const lines = (await service.listBankLines({ statement_id: statement.id })).data;
  await service.matchBankLine(admin, lines[0]!.id, { journal_entry_ids: [sale.id] });
  await service.postBankLine(admin, lines[1]!.id, {});
  await service.excludeBankLine(admin, lines[2]!.id, { reason: 'Paid from the wrong account' });
  const march = await service.startReconciliation(admin, { account_id: books.cash.id, statement_date: '2026-07-08', statement_balance: '11550' });
  await service.finishReconciliation(admin, march.id);
  const april = await service.startReconciliation(admin, { account_id: books.cash.id, statement_date: '2026-08-31', statement_balance: '0' });
  const outstanding = april.outstanding[0];
  if (outstanding !== undefined) await service.clearReconciliationLines(admin, april.id, { journal_line_ids: [outstanding.journal_line_id] });
  return { statement: statement.id, march: march.id, april: april.id };
}

type Books = Awaited<ReturnType<typeof seedRichBooks>>;

/**
 * What the CLI prints under --json for every list, every account's balance, every period, every
 * report (all time and per period, in each currency), general ledgers (posting, control and
 * sub-accounts), users and settings; and the hledger export as text.
 */
async function everyView(db: string, books: Books): Promise<Record<string, unknown>> {
  const currencies = [books.usd.id, books.eur.id, books.eth.id];
  const periods = [books.q1.id, books.q2.id, books.q3.id];
  const accounts = [books.cash, books.receivables, books.acme, books.equity, books.sales, books.rent, books.bankEur,
    books.capitalEur, books.salesEur, books.wallet, books.capitalEth, books.payables, books.supplier, books.unused];
  const commands: string[][] = [
    ['currencies', 'list'], ['accounts', 'list'], ['periods', 'list'], ['journal-entries', 'list'],
    ['users', 'list'], ['settings', 'get'], ['audit-log'], ['rates', 'list'],
    ...accounts.map((account) => ['accounts', 'get', account.id]),
    ...periods.map((period) => ['periods', 'get', period]),
    ...periods.map((period) => ['journal-entries', 'list', '--period', period]),
    ...[books.ada.id, books.bob.id, books.adminId].map((id) => ['users', 'get', id]),
    ...currencies.flatMap((currency) => [
      ['reports', 'trial-balance', '--currency', currency],
      ['reports', 'balance-sheet', '--currency', currency],
      ['reports', 'income-statement', '--currency', currency],
      ...periods.map((period) => ['reports', 'trial-balance', '--period', period, '--currency', currency]),
    ]),
    ...periods.flatMap((period) => [
      ['reports', 'income-statement', '--period', period],
      ['reports', 'balance-sheet', '--period', period],
    ]),
    ['reports', 'balance-sheet', '--as-of', '2026-02-15'],
    ...[books.cash, books.receivables, books.acme, books.sales, books.payables, books.supplier, books.bankEur, books.wallet]
      .map((account) => ['reports', 'general-ledger', '--account', account.id]),
    ['reports', 'general-ledger', '--account', books.receivables.id, '--period', books.q2.id, '--sort', 'desc'],
  ];
  const outputs = await inParallel(commands.map((args) => () => ledgerJsonAsync(args, { db })));
  const views: Record<string, unknown> = Object.fromEntries(commands.map((args, index) => [args.join(' '), outputs[index]]));
  const exported = await ledgerAsync(['export', '--format', 'hledger'], { db });
  views.export = exported;
  views.banking = await withLedger(db, async (service) => ({
    statements: await service.listBankStatements({ limit: 200 }),
    lines: await service.listBankLines({ limit: 200 }),
    rules: await service.listBankRules({ limit: 200 }),
    reconciliations: await service.listReconciliations({ limit: 200 }),
    march: await service.getReconciliation(books.banking.march),
    april: await service.getReconciliation(books.banking.april),
  }));
  return views;
}

/** Every view printed on one database equals the source's, command by command (a failure names the command). */
function expectSameViews(actual: Record<string, unknown>, expected: Record<string, unknown>): void {
  expect(Object.keys(actual)).toEqual(Object.keys(expected));
  for (const [command, view] of Object.entries(expected)) {
    expect({ command, view: actual[command] }).toEqual({ command, view });
  }
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
