/**
 * `--json` prints exactly what the HTTP API answers for the same operation on the same database:
 * the CLI runs on a file while the real HTTP app serves the same file, and the parsed bodies are
 * compared whole. Lists print every row (more than one 200-row page here) unless --limit is given.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiOnFile, entry, ledgerAsync, ledgerJson, ledgerJsonAsync, operator, seedBooks, serveFile, tempFolder, withLedger } from '../helpers/cli.js';

const folder = tempFolder('parity');
const db = join(folder.dir, 'books.db');
let books: Awaited<ReturnType<typeof seedBooks>>;
let api: ApiOnFile;
let q1: string;
let late2025: string;
let q2: string;
let eth: string;
let reversedId: string;
let reversalId: string;
const EXTRA_ACCOUNTS = 205;
const SALES_ENTRIES = 210;

beforeAll(async () => {
  books = await seedBooks(db, { withPeriod: false });
  await withLedger(db, async (service) => {
    const admin = await service.authenticate(books.adminKey);
    q1 = (await service.createPeriod(admin, { name: 'Q1', start_date: '2026-01-01', end_date: '2026-03-31' })).id;
    q2 = (await service.createPeriod(admin, { name: 'Q2', start_date: '2026-04-01', end_date: '2026-06-30' })).id;
    await service.createPeriod(admin, { name: 'Q3', start_date: '2026-07-01', end_date: '2026-09-30' });
    eth = (await service.createCurrency(admin, { code: 'ETH', name: 'Ether', symbol: 'Ξ', asset_scale: 18, asset_type: 'crypto',
      caip19_id: 'eip155:1/slip44:60' })).id;
    const wallet = await service.createAccount(admin, { account_number: '1020', name: 'Wallet', currency_id: eth, account_type: 'asset', normal_balance: 'debit' });
    const staking = await service.createAccount(admin, { account_number: '4100', name: 'Staking', currency_id: eth, account_type: 'revenue', normal_balance: 'credit' });
    for (let index = 0; index < EXTRA_ACCOUNTS; index += 1) {
      await service.createAccount(operator, { account_number: `7${String(index).padStart(3, '0')}`, name: `Expense ${index}`, currency_id: books.usd.id,
        account_type: 'expense', normal_balance: 'debit' });
    }
    await service.postJournalEntries(admin, Array.from({ length: SALES_ENTRIES }, (_, index) =>
      entry(books.cash.id, books.sales.id, String(1000 + index), `2026-0${1 + (index % 6)}-${String(1 + (index % 28)).padStart(2, '0')}`, `Sale ${index}`)));
    await service.postJournalEntry(admin, { ...entry(books.acme.id, books.sales.id, '50000', '2026-02-14', 'Invoice'), reference: 'INV-1', metadata: { po: 7 } });
    await service.postJournalEntry(admin, entry(books.rent.id, books.cash.id, '30000', '2026-03-01', 'Rent'));
    await service.postJournalEntry(admin, entry(wallet.id, staking.id, '1250000000000000000', '2026-05-01', 'Staking reward'));
    reversedId = (await service.postJournalEntry(admin, entry(books.rent.id, books.cash.id, '999', '2026-05-02', 'Wrong rent'))).id;
    reversalId = (await service.reverseJournalEntry(admin, reversedId, { entry_date: '2026-05-03' })).id;
    await service.closePeriod(admin, q1, false);
    // Made after Q1 closed, so nothing open comes before it: the period a preview may close.
    late2025 = (await service.createPeriod(admin, { name: 'Q4 2025', start_date: '2025-10-01', end_date: '2025-12-31' })).id;
    await service.postJournalEntry(admin, entry(books.cash.id, books.sales.id, '700', '2025-12-15', 'December sale'));
    await service.postJournalEntry(admin, entry(books.acme.id, books.sales.id, '4200', '2026-07-01', 'Q3 invoice'));
    await service.createUser(null, { name: 'Ann', email: 'ann@example.test', password: 'long enough', permissions: { 'journals:create': true } });
  });
  api = await serveFile(db);
}, 60_000);

afterAll(async () => {
  await api?.close();
  folder.remove();
});

/** Every row of an HTTP list, following next_cursor with the API's default page size. */
async function walk(path: string): Promise<unknown[]> {
  const rows: unknown[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page: { data: unknown[]; has_more: boolean; next_cursor: string | null } =
      await api.get(cursor === null ? path : `${path}${separator}cursor=${encodeURIComponent(cursor)}`);
    rows.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return rows;
}

const cli = (...args: string[]) => ledgerJsonAsync(args, { db });

describe.concurrent('--json lists equal the HTTP API\'s rows, all of them', () => {
  it.each([
    ['currencies list', ['currencies', 'list'], '/currencies'],
    ['accounts list', ['accounts', 'list'], '/accounts'],
    ['accounts list --type expense', ['accounts', 'list', '--type', 'expense'], '/accounts?account_type=expense'],
    ['journal-entries list', ['journal-entries', 'list'], '/journal-entries'],
    ['periods list', ['periods', 'list'], '/periods'],
    ['users list', ['users', 'list'], '/users'],
  ])('%s', async (_label, args, path) => {
    const [printed, rows] = await Promise.all([cli(...args), walk(path)]);
    expect(printed).toEqual({ data: rows, has_more: false, next_cursor: null });
  });

  it('accounts list returns more than 200 accounts in one list', async () => {
    const printed = await cli('accounts', 'list');
    expect(printed.data).toHaveLength(EXTRA_ACCOUNTS + 6 + 2);
    expect(printed.has_more).toBe(false);
  });

  it('journal-entries list returns more than 200 entries in one list, and the filters match the API\'s', async () => {
    const printed = await cli('journal-entries', 'list');
    expect(printed.data).toHaveLength(SALES_ENTRIES + 8);
    const filters: [string[], string][] = [
      [['--period', q2], `/journal-entries?period_id=${q2}`],
      [['--account', books.rent.id], `/journal-entries?account_id=${books.rent.id}`],
      [['--start', '2026-02-01', '--end', '2026-02-28'], '/journal-entries?start_date=2026-02-01&end_date=2026-02-28'],
    ];
    for (const [args, path] of filters) {
      const [filtered, rows] = await Promise.all([cli('journal-entries', 'list', ...args), walk(path)]);
      expect(filtered).toEqual({ data: rows, has_more: false, next_cursor: null });
      expect(rows.length).toBeGreaterThan(0);
    }
  });
});

describe.concurrent('--limit prints one page and --cursor continues it, exactly as the API pages', () => {
  it.each([
    ['accounts list', ['accounts', 'list'], '/accounts', 7],
    ['journal-entries list', ['journal-entries', 'list'], '/journal-entries', 5],
    ['currencies list', ['currencies', 'list'], '/currencies', 1],
    ['periods list', ['periods', 'list'], '/periods', 1],
  ])('%s', async (_label, args, path, limit) => {
    const first = await cli(...args, '--limit', String(limit));
    expect(first.data).toHaveLength(limit);
    expect(first.has_more).toBe(true);
    expect(typeof first.next_cursor).toBe('string');
    expect(first).toEqual(await api.get(`${path}?limit=${limit}`));
    const second = await cli(...args, '--limit', String(limit), '--cursor', first.next_cursor);
    expect(second).toEqual(await api.get(`${path}?limit=${limit}&cursor=${encodeURIComponent(first.next_cursor)}`));
    expect(second.data[0]).not.toEqual(first.data[0]);
  });

  it('accounts list --limit 500 is clamped to a page of 200', async () => {
    const page = await cli('accounts', 'list', '--limit', '500');
    expect(page.data).toHaveLength(200);
    expect(page).toEqual(await api.get('/accounts?limit=500'));
  });

  it('a cursor that was never issued exits 1', async () => {
    const run = await ledgerAsync(['--json', 'accounts', 'list', '--cursor', 'not-a-cursor'], { db });
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', field: 'cursor' });
  });
});

describe.concurrent('--json of single resources equals the HTTP API\'s', () => {
  it('accounts get is the account plus its balance', async () => {
    for (const id of [books.receivables.id, books.acme.id, books.cash.id]) {
      const [printed, account, balance] = await Promise.all([cli('accounts', 'get', id), api.get(`/accounts/${id}`), api.get(`/accounts/${id}/balance`)]);
      const { balance: printedBalance, ...printedAccount } = printed.data;
      expect({ data: printedAccount }).toEqual(account);
      expect({ data: printedBalance }).toEqual(balance);
    }
  });

  it('journal-entries get, for a standard entry, a reversed one, a reversal and a closing entry', async () => {
    const closingId = (await api.get(`/periods/${q1}`)).data.closing_entry_id;
    const invoice = (await walk(`/journal-entries?account_id=${books.acme.id}`))[0] as { id: string };
    for (const id of [invoice.id, reversedId, reversalId, closingId]) {
      expect(await cli('journal-entries', 'get', id)).toEqual(await api.get(`/journal-entries/${id}`));
    }
  });

  it('periods get, open and closed', async () => {
    for (const id of [q1, q2]) expect(await cli('periods', 'get', id)).toEqual(await api.get(`/periods/${id}`));
  });

  it('settings get', async () => {
    expect(await cli('settings', 'get')).toEqual(await api.get('/settings'));
  });

  it('users get', async () => {
    expect(await cli('users', 'get', books.adminId)).toEqual(await api.get(`/users/${books.adminId}`));
  });
});

describe.concurrent('--json of every report equals the HTTP API\'s', () => {
  it.each([
    ['trial-balance', ['reports', 'trial-balance'], () => '/reports/trial-balance'],
    ['trial-balance --period', ['reports', 'trial-balance', '--period', 'Q2'], () => `/reports/trial-balance?period_id=${q2}`],
    ['trial-balance --currency', ['reports', 'trial-balance', '--currency', 'ETH'], () => `/reports/trial-balance?currency_id=${eth}`],
    ['balance-sheet', ['reports', 'balance-sheet'], () => '/reports/balance-sheet'],
    ['balance-sheet --as-of', ['reports', 'balance-sheet', '--as-of', '2026-02-14'], () => '/reports/balance-sheet?as_of_date=2026-02-14'],
    ['balance-sheet --period', ['reports', 'balance-sheet', '--period', 'Q1'], () => `/reports/balance-sheet?period_id=${q1}`],
    ['balance-sheet --currency', ['reports', 'balance-sheet', '--currency', 'ETH'], () => `/reports/balance-sheet?currency_id=${eth}`],
    ['income-statement', ['reports', 'income-statement'], () => '/reports/income-statement'],
    ['income-statement --period', ['reports', 'income-statement', '--period', 'Q1'], () => `/reports/income-statement?period_id=${q1}`],
    ['general-ledger --start --end', ['reports', 'general-ledger', '--account', 'RENT', '--start', '2026-03-01', '--end', '2026-05-02'],
      () => `/reports/general-ledger?account_id=${books.rent.id}&start_date=2026-03-01&end_date=2026-05-02`],
    ['general-ledger --period --sort desc', ['reports', 'general-ledger', '--account', 'RECEIVABLES', '--period', 'Q1', '--sort', 'desc'],
      () => `/reports/general-ledger?account_id=${books.receivables.id}&period_id=${q1}&sort=desc`],
    ['aged-balances --as-of', ['reports', 'aged-balances', '--account', 'RECEIVABLES', '--as-of', '2026-06-30'],
      () => `/reports/aged-balances?account_id=${books.receivables.id}&as_of_date=2026-06-30`],
  ])('%s', async (_label, args, path) => {
    const resolved = args.map((arg) => ({ Q1: q1, Q2: q2, ETH: eth, RENT: books.rent.id, RECEIVABLES: books.receivables.id })[arg] ?? arg);
    expect(await cli(...resolved)).toEqual(await api.get(path()));
  });

  it('general-ledger returns every line of an account with more than 200, and --limit/--cursor page like the API', async () => {
    const pages: any[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await api.get(`/reports/general-ledger?account_id=${books.cash.id}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      pages.push(page.data);
      cursor = page.data.next_cursor;
    } while (cursor !== null);
    const last = pages[pages.length - 1];
    const printed = await cli('reports', 'general-ledger', '--account', books.cash.id);
    expect(printed.data.lines).toHaveLength(SALES_ENTRIES + 4);
    expect(printed).toEqual({ data: { ...last, lines: pages.flatMap((page) => page.lines), has_more: false, next_cursor: null } });

    const first = await cli('reports', 'general-ledger', '--account', books.cash.id, '--limit', '10');
    expect(first).toEqual(await api.get(`/reports/general-ledger?account_id=${books.cash.id}&limit=10`));
    const second = await cli('reports', 'general-ledger', '--account', books.cash.id, '--limit', '10', '--cursor', first.data.next_cursor);
    expect(second).toEqual(await api.get(`/reports/general-ledger?account_id=${books.cash.id}&limit=10&cursor=${encodeURIComponent(first.data.next_cursor)}`));
  });
});

describe('--json of writes equals what the HTTP API then shows', () => {
  const run = (...args: string[]) => ledgerJson(args, { db, apiKey: books.adminKey });

  it('currencies create-fiat, accounts create, periods create and settings set', async () => {
    const eur = run('currencies', 'create-fiat', 'EUR');
    expect(eur).toEqual(await api.get(`/currencies/${eur.data.id}`));
    const account = run('accounts', 'create', '--number', '1200-009', '--name', 'Initech', '--parent', books.receivables.id, '--entity', 'initech');
    expect(account).toEqual(await api.get(`/accounts/${account.data.id}`));
    const period = run('periods', 'create', '--name', 'Q4', '--start', '2026-10-01', '--end', '2026-12-31');
    expect(period).toEqual(await api.get(`/periods/${period.data.id}`));
    expect(run('settings', 'set', 'retained-earnings-account', books.equity.id)).toEqual(await api.get('/settings'));
  });

  it('journal-entries create and reverse', async () => {
    const created = ledgerJson(['journal-entries', 'create', '--file', '-'], {
      db, apiKey: books.adminKey, input: JSON.stringify({ ...entry(books.cash.id, books.sales.id, '1', '2026-07-02'), metadata: { n: [1, 'x'] } }),
    });
    expect(created).toEqual(await api.get(`/journal-entries/${created.data.id}`));
    const reversal = run('journal-entries', 'reverse', created.data.id, '--date', '2026-07-03');
    expect(reversal).toEqual(await api.get(`/journal-entries/${reversal.data.id}`));
  });

  it('periods close --preview, apart from the new ids, times, request and hash of the previewed entry', async () => {
    // The same caller on both faces, so that created_by and its credential agree; the command line
    // posts in no request.
    const printed = ledgerJson(['periods', 'close', late2025, '--preview'], { db, apiKey: api.apiKey });
    const answered = await api.request('POST', `/periods/${late2025}/close?preview=true`);
    expect(answered.status).toBe(200);
    expect([printed.data.closing_entry.request_id, answered.body.data.closing_entry.request_id]).toEqual([null, expect.any(String)]);
    const freshEntry = (entry: any) => ({ ...entry, id: 'new', posted_at: 'now', hash: 'new', request_id: 'its own',
      lines: entry.lines.map((line: any) => ({ ...line, id: 'new' })) });
    const fresh = (body: any) => ({
      ...body.data, closing_entry: freshEntry(body.data.closing_entry), closing_entries: body.data.closing_entries.map(freshEntry),
    });
    expect(fresh(printed)).toEqual(fresh(answered.body));
    expect(printed.data.closing_entry.lines).toHaveLength(2);
  });

  it('a refused close prints the same error body as the API answers', async () => {
    const printed = await ledgerAsync(['--json', 'periods', 'close', q2, '--preview'], { db, apiKey: books.adminKey });
    const answered = await api.request('POST', `/periods/${q2}/close?preview=true`);
    expect(printed.status).toBe(1);
    // Q4 2025 is open and comes first: periods close in order.
    expect(answered.status).toBe(409);
    expect(JSON.parse(printed.stderr)).toEqual(answered.body);
    expect(answered.body.code).toBe('EARLIER_PERIOD_OPEN');
  });
});
