/**
 * A running `ledger serve` and another process writing the same database: the command line (or
 * any program through the service) posts, closes a period, adds or deactivates an account while
 * the server runs. Whatever the server keeps between requests (accounts, periods, totals) must
 * see those writes at its very next request, on SQLite and on PostgreSQL. Each test first makes
 * the server use what the other process then changes, so that a cache of it would be warm.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/app/open-ledger.js';
import { entry, ledgerJsonAsync, operator, tempFolder, withLedger } from '../helpers/cli.js';
import { type ServeProcess, startServe } from '../helpers/serve-process.js';
import { createTestLocation, type TestLocation } from '../helpers/test-location.js';

let place: TestLocation;
let server: ServeProcess;
let files: ReturnType<typeof tempFolder>;
let books: Awaited<ReturnType<typeof seed>>;

function seed(location: string) {
  return withLedger(location, async (service) => {
    const usd = await service.createFiatCurrency(operator, 'USD');
    const january = await service.createPeriod(operator, { name: 'January 2026', start_date: '2026-01-01', end_date: '2026-01-31' });
    await service.createPeriod(operator, { name: 'February 2026', start_date: '2026-02-01', end_date: '2026-02-28' });
    const account = (account_number: string, name: string, account_type: 'asset' | 'equity' | 'revenue' | 'expense') =>
      service.createAccount(operator, {
        account_number, name, currency_id: usd.id, account_type,
        normal_balance: account_type === 'asset' || account_type === 'expense' ? 'debit' : 'credit',
      });
    const cash = await account('1000', 'Cash', 'asset');
    const equity = await account('3000', 'Retained Earnings', 'equity');
    const sales = await account('4000', 'Sales', 'revenue');
    const rent = await account('6000', 'Rent', 'expense');
    await service.updateSettings(operator, { retained_earnings_account_id: equity.id });
    const admin = await service.createServiceAccount(null, { name: 'admin agent' });
    return { usd, january, cash, sales, rent, apiKey: admin.api_key };
  });
}

async function call(method: string, path: string, body?: unknown, apiKey = books.apiKey): Promise<{ status: number; body: any }> {
  const response = await fetch(server.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function post(body: unknown): Promise<{ status: number; body: any }> {
  return call('POST', '/api/v1/journal-entries', body);
}

async function cashDebits(): Promise<string> {
  const answer = await call('GET', `/api/v1/accounts/${books.cash.id}/balance`);
  expect(answer.status).toBe(200);
  return answer.body.data.total_debits;
}

/** The command line on the same database, as a user runs it; returns its JSON answer. */
function cli(args: readonly string[]): Promise<any> {
  return ledgerJsonAsync(['--json', ...args], { db: place.location, apiKey: books.apiKey });
}

beforeAll(async () => {
  place = await createTestLocation('ledger-another-process');
  files = tempFolder('ledger-another-process-files');
  books = await seed(place.location);
  server = await startServe(place.location);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  files?.remove();
  await place?.remove();
});

describe('a server and another process on one database', { timeout: 60_000 }, () => {
  it('counts an entry the command line posts while the server runs, in its balances and its next post', async () => {
    const before = BigInt(await cashDebits());
    expect((await post(entry(books.cash.id, books.sales.id, '100', '2026-02-03'))).status).toBe(201);
    const file = join(files.dir, 'cli-entry.json');
    writeFileSync(file, JSON.stringify(entry(books.cash.id, books.sales.id, '250', '2026-02-04', 'posted by the CLI')));
    const posted = await cli(['journal-entries', 'create', '--file', file]);
    expect(posted.data.lines).toHaveLength(2);
    expect(BigInt(await cashDebits())).toBe(before + 350n);
    expect((await post(entry(books.cash.id, books.sales.id, '1000', '2026-02-05'))).status).toBe(201);
    expect(BigInt(await cashDebits())).toBe(before + 1350n);
    const verify = await call('GET', '/api/v1/verify');
    expect(verify.status).toBe(200);
    expect(verify.body.data.ok).toBe(true);
  });

  it('posts at once to an account the command line created while it ran', async () => {
    const created = await cli(['accounts', 'create', '--number', '1100', '--name', 'Bank', '--type', 'asset', '--normal-balance', 'debit', '--currency', 'USD']);
    const answer = await post(entry(created.data.id, books.sales.id, '75', '2026-02-06'));
    expect(answer.status).toBe(201);
  });

  it('refuses at once an account another process deactivated, and takes it again once reactivated', async () => {
    expect((await post(entry(books.rent.id, books.cash.id, '40', '2026-02-07'))).status).toBe(201);
    const other = await openLedger(place.location);
    try {
      await other.updateAccount(operator, books.rent.id, { is_active: false });
      const refused = await post(entry(books.rent.id, books.cash.id, '40', '2026-02-08'));
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('INACTIVE_ACCOUNT');
      await other.updateAccount(operator, books.rent.id, { is_active: true });
    } finally {
      await other.ctx.store.close();
    }
    expect((await post(entry(books.rent.id, books.cash.id, '40', '2026-02-09'))).status).toBe(201);
  });

  it('refuses at its next post an API key the command line rotated, or whose user another process deactivated', async () => {
    const other = await openLedger(place.location);
    try {
      const agent = await other.createServiceAccount(operator, { name: 'posting agent', permissions: { 'journals:create': true } });
      const sale = (day: string) => entry(books.cash.id, books.sales.id, '5', `2026-02-${day}`);
      // The server checks the key at its first post and remembers it for the posts that follow.
      expect((await call('POST', '/api/v1/journal-entries', sale('10'), agent.api_key)).status).toBe(201);
      expect((await call('POST', '/api/v1/journal-entries', sale('10'), agent.api_key)).status).toBe(201);
      const rotated = await cli(['users', 'rotate-key', agent.id]);
      const refused = await call('POST', '/api/v1/journal-entries', sale('11'), agent.api_key);
      expect([refused.status, refused.body.code]).toEqual([401, 'UNAUTHORIZED']);
      expect((await call('POST', '/api/v1/journal-entries', sale('11'), rotated.data.api_key)).status).toBe(201);
      await other.updateUser(operator, agent.id, { is_active: false });
      const inactive = await call('POST', '/api/v1/journal-entries', sale('12'), rotated.data.api_key);
      expect([inactive.status, inactive.body.code]).toEqual([401, 'UNAUTHORIZED']);
    } finally {
      await other.ctx.store.close();
    }
  });

  it('refuses at once an entry dated in a period the command line closed while it ran', async () => {
    expect((await post(entry(books.cash.id, books.sales.id, '10', '2026-01-20'))).status).toBe(201);
    const closed = await cli(['periods', 'close', 'January 2026']);
    expect(closed.data.period.status).toBe('closed');
    const refused = await post(entry(books.cash.id, books.sales.id, '10', '2026-01-21'));
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('NO_OPEN_PERIOD');
    const trialBalance = await call('GET', `/api/v1/reports/trial-balance?period_id=${books.january.id}`);
    expect(trialBalance.status).toBe(200);
  });
});
