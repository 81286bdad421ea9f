/**
 * `ledger journal-entries create --dry-run` and `reverse --dry-run`: the real program runs every
 * rule of the post, prints what would be posted and the balances before and after, and changes
 * nothing; a refused dry run fails as the real command does. `--json` prints what the HTTP API's
 * `?dry_run=true` answers.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiOnFile, entry, ledger, ledgerJson, seedBooks, serveFile, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('dry-run');
afterAll(() => folder.remove());

type Books = Awaited<ReturnType<typeof seedBooks>>;

function writeJson(name: string, value: unknown): string {
  const file = join(folder.dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

/** What a post could change, read through the service (faster than a process per read). */
function state(db: string, books: Books) {
  return withLedger(db, async (service) => ({
    entries: await service.listJournalEntries({ limit: 200 }),
    balances: await Promise.all([books.cash, books.acme, books.sales, books.rent].map((account) => service.getAccountBalance(account.id))),
    trialBalance: await service.trialBalance({}),
  }));
}

/** Ids and posting times are provisional in a dry run: leave them out to compare two answers. */
function withoutIds(result: any) {
  const entryWithoutIds = (view: any) => ({ ...view, id: undefined, posted_at: undefined, hash: undefined,
    lines: view.lines.map((line: any) => ({ ...line, id: undefined })) });
  return { ...result, data: { ...result.data, entry: entryWithoutIds(result.data.entry) } };
}

describe('ledger journal-entries create --dry-run', () => {
  const db = join(folder.dir, 'create.db');
  let books: Books;
  let api: ApiOnFile;
  beforeAll(async () => {
    books = await seedBooks(db);
    await withLedger(db, async (service) => {
      const admin = await service.authenticate(books.adminKey);
      await service.postJournalEntry(admin, entry(books.cash.id, books.sales.id, '100000', '2026-01-10', 'Opening sale'));
    });
    api = await serveFile(db);
  });
  afterAll(async () => { await api?.close(); });

  const invoice = () => ({
    entry_date: '2026-03-01', description: 'Invoice 1001', reference: 'INV-1001',
    lines: [
      { account_id: books.acme.id, debit_amount: '25000' },
      { account_id: books.cash.id, debit_amount: '5000' },
      { account_id: books.sales.id, credit_amount: '30000', description: 'March sale' },
    ],
  });

  it('prints the entry as it would be posted and every touched account\'s balance before and after, and posts nothing', async () => {
    const before = await state(db, books);
    const file = writeJson('invoice.json', invoice());
    const run = ledger(['journal-entries', 'create', '--file', file, '--dry-run'], { db, apiKey: books.adminKey });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const id = /\n {2}id (\S+) {2}standard\n/.exec(run.stdout)?.[1];
    const hash = /\n {2}hash ([0-9a-f]{64})\n/.exec(run.stdout)?.[1] ?? 'no hash printed';
    expect(run.stdout).toBe([
      'Dry run (nothing was posted):',
      '#2  2026-03-01  Invoice 1001  [INV-1001]',
      `  id ${id}  standard`,
      `  hash ${hash}`,
      'ACCOUNT   NAME           DEBIT      CREDIT  MEMO',
      '1200-001  Acme Ltd  250.00 USD',
      '1000      Cash       50.00 USD',
      '4000      Sales                 300.00 USD  March sale',
      '',
      'ACCOUNT   NAME      BALANCE BEFORE  BALANCE AFTER',
      '1200-001  Acme Ltd        0.00 USD     250.00 USD',
      '1000      Cash         1000.00 USD    1050.00 USD',
      '4000      Sales        1000.00 USD    1300.00 USD',
      '',
    ].join('\n'));
    expect(await state(db, books)).toEqual(before);
    expect(ledger(['journal-entries', 'get', id!], { db }).status).toBe(4);
  });

  it('--json prints what POST /journal-entries?dry_run=true answers, and the real create then posts it', async () => {
    const before = await state(db, books);
    const file = writeJson('invoice-json.json', invoice());
    const printed = ledgerJson(['journal-entries', 'create', '--file', file, '--dry-run'], { db, apiKey: books.adminKey });
    expect(printed.data.dry_run).toBe(true);
    expect(printed.data.entry).toMatchObject({ description: 'Invoice 1001', entry_type: 'standard', created_by: books.adminId });
    expect(printed.data.balances.map((row: any) => [row.account_number, row.before.net_balance, row.after.net_balance]))
      .toEqual([['1200-001', '0', '25000'], ['1000', '100000', '105000'], ['4000', '100000', '130000']]);
    const answered = await api.request('POST', '/journal-entries?dry_run=true', invoice());
    expect(answered.status).toBe(200);
    // The API's caller is another user with another key, so who posted it differs, and the command
    // line posts in no request; everything else is the same.
    const printedBy = { created_by: books.adminId, credential_id: printed.data.entry.credential_id, request_id: null };
    expect(answered.body.data.entry.request_id).toEqual(expect.any(String));
    const sameAuthor = { ...answered.body, data: { ...answered.body.data, entry: { ...answered.body.data.entry, ...printedBy } } };
    expect(withoutIds(printed)).toEqual(withoutIds(sameAuthor));
    expect(await state(db, books)).toEqual(before);

    const posted = ledgerJson(['journal-entries', 'create', '--file', file], { db, apiKey: books.adminKey }).data;
    expect(posted.lines.map((line: any) => [line.account_id, line.debit_amount, line.credit_amount]))
      .toEqual(printed.data.entry.lines.map((line: any) => [line.account_id, line.debit_amount, line.credit_amount]));
    for (const row of printed.data.balances) {
      expect(ledgerJson(['accounts', 'get', row.account_id], { db }).data.balance).toEqual(row.after);
    }
  });

  it.each([
    ['an unbalanced entry', (b: Books) => ({ entry_date: '2026-03-03', description: 'x', lines: [
      { account_id: b.cash.id, debit_amount: '100' }, { account_id: b.sales.id, credit_amount: '99' }] }), 1, 'UNBALANCED_ENTRY', 'lines'],
    ['a date in no open period', (b: Books) => entry(b.cash.id, b.sales.id, '100', '2030-01-01'), 1, 'NO_OPEN_PERIOD', 'entry_date'],
    ['a line on a control account', (b: Books) => entry(b.receivables.id, b.sales.id, '100'), 1, 'CONTROL_ACCOUNT', 'lines[0].account_id'],
  ])('refuses %s exactly as the real create, and posts nothing', async (label, body, status, code, field) => {
    const before = await state(db, books);
    const file = writeJson(`bad-${label.replace(/\W+/g, '-')}.json`, body(books));
    const dry = ledger(['--json', 'journal-entries', 'create', '--file', file, '--dry-run'], { db, apiKey: books.adminKey });
    expect({ status: dry.status, stdout: dry.stdout }).toEqual({ status, stdout: '' });
    expect(JSON.parse(dry.stderr)).toMatchObject({ code, field });
    const real = ledger(['--json', 'journal-entries', 'create', '--file', file], { db, apiKey: books.adminKey });
    expect(real).toEqual(dry);
    expect(await state(db, books)).toEqual(before);
  });

  it('needs an API key with journals:create, like the real create', async () => {
    const file = writeJson('no-key.json', entry(books.cash.id, books.sales.id, '100'));
    const withoutKey = ledger(['journal-entries', 'create', '--file', file, '--dry-run'], { db });
    expect(withoutKey.status).toBe(3);
    expect(withoutKey.stderr).toMatch(/^error \[UNAUTHORIZED\]: journal-entries create needs an API key/);
    const reverserKey = await withLedger(db, async (service) =>
      (await service.createServiceAccount(null, { name: 'reverser', permissions: { 'journals:reverse': true } })).api_key);
    const forbidden = ledger(['--json', 'journal-entries', 'create', '--file', file, '--dry-run'], { db, apiKey: reverserKey });
    expect(forbidden.status).toBe(3);
    expect(JSON.parse(forbidden.stderr).code).toBe('FORBIDDEN');
  });
});

describe('ledger journal-entries reverse --dry-run', () => {
  const db = join(folder.dir, 'reverse.db');
  let books: Books;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    books = await seedBooks(db);
    await withLedger(db, async (service) => {
      const admin = await service.authenticate(books.adminKey);
      ids.rent = (await service.postJournalEntry(admin, entry(books.rent.id, books.cash.id, '80000', '2026-02-28', 'February rent'))).id;
      ids.sale = (await service.postJournalEntry(admin, entry(books.cash.id, books.sales.id, '120000', '2026-02-10', 'Invoice 7'))).id;
      ids.reversed = (await service.postJournalEntry(admin, entry(books.cash.id, books.sales.id, '500', '2026-02-11', 'Mistake'))).id;
      await service.reverseJournalEntry(admin, ids.reversed, {});
    });
  });

  it('prints the reversal and the balances it would restore, and reverses nothing', async () => {
    const before = await state(db, books);
    const run = ledger(['journal-entries', 'reverse', ids.rent!, '--date', '2026-03-31', '--dry-run'], { db, apiKey: books.adminKey });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const id = /\n {2}id (\S+) {2}reversal/.exec(run.stdout)?.[1];
    const hash = /\n {2}hash ([0-9a-f]{64})\n/.exec(run.stdout)?.[1] ?? 'no hash printed';
    expect(run.stdout).toBe([
      'Dry run (nothing was posted):',
      '#5  2026-03-31  Reversal of: February rent',
      `  id ${id}  reversal  (reverses ${ids.rent})`,
      `  hash ${hash}`,
      'ACCOUNT  NAME       DEBIT      CREDIT  MEMO',
      '6000     Rent              800.00 USD',
      '1000     Cash  800.00 USD',
      '',
      'ACCOUNT  NAME  BALANCE BEFORE  BALANCE AFTER',
      '6000     Rent      800.00 USD       0.00 USD',
      '1000     Cash      400.00 USD    1200.00 USD',
      '',
    ].join('\n'));
    expect(await state(db, books)).toEqual(before);
    expect(ledgerJson(['journal-entries', 'get', ids.rent!], { db }).data.reversed_by_id).toBeNull();
  });

  it('--json prints the dry-run answer; the real reversal then posts the same lines', () => {
    const printed = ledgerJson(['journal-entries', 'reverse', ids.sale!, '--dry-run'], { db, apiKey: books.adminKey });
    expect(printed.data).toMatchObject({ dry_run: true, entry: { entry_type: 'reversal', reverses_id: ids.sale, entry_date: '2026-02-10' } });
    expect(printed.data.balances.map((row: any) => [row.account_id, row.before.net_balance, row.after.net_balance]))
      .toEqual([[books.cash.id, '40000', '-80000'], [books.sales.id, '120000', '0']]);
    const reversal = ledgerJson(['journal-entries', 'reverse', ids.sale!], { db, apiKey: books.adminKey }).data;
    expect(withoutIds({ data: { entry: reversal } })).toEqual(withoutIds({ data: { entry: printed.data.entry } }));
  });

  it.each([
    ['an entry that was reversed already', () => ids.reversed!, [], 1, 'REVERSAL_NOT_ALLOWED'],
    ['an unknown entry', () => 'no-such-entry', [], 4, 'NOT_FOUND'],
    ['a date in no open period', () => ids.rent!, ['--date', '2030-01-01'], 1, 'NO_OPEN_PERIOD'],
  ])('refuses %s exactly as the real reverse', async (_label, id, extra, status, code) => {
    const before = await state(db, books);
    const dry = ledger(['--json', 'journal-entries', 'reverse', id(), ...extra, '--dry-run'], { db, apiKey: books.adminKey });
    expect(dry.status).toBe(status);
    expect(JSON.parse(dry.stderr).code).toBe(code);
    expect(ledger(['--json', 'journal-entries', 'reverse', id(), ...extra], { db, apiKey: books.adminKey })).toEqual(dry);
    expect(await state(db, books)).toEqual(before);
  });
});
