/**
 * A real ledger for API tests: a fresh database on the backend under test (a temp SQLite file, or
 * a new PostgreSQL database: see test-location.ts), the real service and the real Fastify app
 * listening on 127.0.0.1 (random port), and an admin API key. The clock is adjustable.
 */
import { uuidv7 } from 'uuidv7';
import { expect } from 'vitest';
import { initLedger, openLedger } from '../../src/app/open-ledger.js';
import { packageVersion } from '../../src/app/package-files.js';
import { buildApp, type AppOptions } from '../../src/http/build-app.js';
import type { LedgerService } from '../../src/service/ledger-service.js';
import { createTestLocation } from './test-location.js';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  /** The body exactly as received. */
  text?: string;
}

export class TestClock {
  constructor(public current = new Date('2026-03-15T12:00:00.000Z')) {}
  now(): Date { return new Date(this.current.getTime()); }
  advance(ms: number): void { this.current = new Date(this.current.getTime() + ms); }
}

export interface ApiFixture {
  baseUrl: string;
  /** The ledger's database: a SQLite file's path or a PostgreSQL URL (for rawQuery). */
  location: string;
  /** The SQLite file, for tests of SQLite itself; undefined on PostgreSQL. */
  dbPath: string | undefined;
  /** The temp folder of the SQLite file; undefined on PostgreSQL. */
  dir: string | undefined;
  service: LedgerService;
  clock: TestClock;
  apiKey: string;
  /** Sends a request with the admin key unless `token` is given (null: no Authorization). */
  request<T = any>(method: string, path: string, body?: unknown, options?: { token?: string | null; headers?: Record<string, string>; rawBody?: string }): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

/**
 * A new ledger on the backend under test with the app listening over it: what both API fixtures
 * are made of. When a step fails, what was already opened is closed and the database removed.
 */
export async function startLedgerApp(folderPrefix: string, options: FixtureOptions = {}) {
  const place = await createTestLocation(folderPrefix);
  const clock = new TestClock();
  let service: LedgerService | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  async function close(): Promise<void> {
    try {
      await app?.close();
      await service?.ctx.store.close();
    } finally {
      await place.remove();
    }
  }
  try {
    await initLedger(place.location);
    // A low scrypt cost keeps user creation fast in tests; the default is exercised by its own test.
    const { scryptCost = 2 ** 10, ...appOptions } = options;
    service = await openLedger(place.location, { clock, newId: uuidv7 }, { scryptCost });
    app = await buildApp({ service, logLevel: 'silent', version: packageVersion(), ...appOptions });
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    return { place, clock, service, baseUrl, close };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}

/** The app's options, and the scrypt cost of new password hashes (2^10 unless given: fast tests). */
export type FixtureOptions = Partial<Omit<AppOptions, 'service'>> & { scryptCost?: number };

export async function startApi(options: FixtureOptions = {}): Promise<ApiFixture> {
  const { place, clock, service, baseUrl, close } = await startLedgerApp('ledger-api', options);
  const admin = await service.createServiceAccount(null, { name: 'test admin' }).catch(async (error: unknown) => {
    await close().catch(() => {});
    throw error;
  });

  async function request(method: string, path: string, body?: unknown, opts: { token?: string | null; headers?: Record<string, string>; rawBody?: string } = {}) {
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? admin.api_key : opts.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined = opts.rawBody;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(baseUrl + path, { method, headers, body: payload });
    const text = await response.text();
    let parsed: unknown = text;
    try { parsed = text ? JSON.parse(text) : undefined; } catch { /* keep text */ }
    return { status: response.status, body: parsed as any, headers: response.headers, text };
  }

  return {
    baseUrl, location: place.location, dbPath: place.sqlitePath, dir: place.folder, service, clock, apiKey: admin.api_key,
    request, close,
  };
}

/** Creates a currency, a period and a few accounts: the usual starting point of a test. */
export async function seedBooks(api: ApiFixture, overrides: { asset_scale?: number } = {}) {
  const currency = (await api.request('POST', '/api/v1/currencies', {
    code: 'USD', name: 'US Dollar', symbol: '$', asset_scale: overrides.asset_scale ?? 2, asset_type: 'fiat',
    caip19_id: 'swift:0/iso4217:USD',
  })).body.data;
  const period = (await api.request('POST', '/api/v1/periods', { name: 'FY2026', start_date: '2026-01-01', end_date: '2026-12-31' })).body.data;
  const account = async (account_number: string, name: string, account_type: string, normal_balance: string, extra: object = {}) =>
    (await api.request('POST', '/api/v1/accounts', { account_number, name, currency_id: currency.id, account_type, normal_balance, ...extra })).body.data;
  const cash = await account('1000', 'Cash', 'asset', 'debit');
  const receivables = await account('1200', 'Receivables', 'asset', 'debit', { has_subledger: true });
  const sales = await account('4000', 'Sales', 'revenue', 'credit');
  const rent = await account('6000', 'Rent', 'expense', 'debit');
  const equity = await account('3000', 'Retained Earnings', 'equity', 'credit');
  return { currency, period, cash, receivables, sales, rent, equity };
}

export function entryBody(debitAccount: string, creditAccount: string, amount: string, entryDate = '2026-03-01', description = 'test entry') {
  return {
    entry_date: entryDate,
    description,
    lines: [
      { account_id: debitAccount, debit_amount: amount },
      { account_id: creditAccount, credit_amount: amount },
    ],
  };
}

/** The largest amount a line or total may carry: 2^127 - 1. */
export const MAX_AMOUNT = (1n << 127n) - 1n;

/**
 * Asserts the status of a response and returns its `data`, with the body in the failure message
 * so that a setup step that goes wrong says why.
 */
export function dataOf<T = any>(response: ApiResponse, status = 200): T {
  if (response.status !== status) {
    throw new Error(`expected HTTP ${status}, got ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return response.body.data as T;
}

/** Asserts an error answer: status, code, and (when given) the offending field. */
export function expectError(response: ApiResponse, status: number, code: string, field?: string): void {
  expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
  expect(typeof response.body.message).toBe('string');
  expect(response.body.message.length).toBeGreaterThan(0);
  if (field !== undefined) expect(response.body.field).toBe(field);
}

let currencySerial = 0;

/** Creates a currency; code and caip19_id are made unique unless given. */
export async function createCurrency(api: ApiFixture, fields: Record<string, unknown> = {}) {
  currencySerial += 1;
  const code = (fields.code as string | undefined) ?? `C${currencySerial}`;
  return dataOf(await api.request('POST', '/api/v1/currencies', {
    code, name: `Currency ${code}`, symbol: '¤', asset_scale: 2, asset_type: 'fiat',
    caip19_id: `test:0/token:${code}`, ...fields,
  }), 201);
}

export async function createAccount(api: ApiFixture, fields: Record<string, unknown>) {
  return dataOf(await api.request('POST', '/api/v1/accounts', fields), 201);
}

export async function createPeriod(api: ApiFixture, name: string, start_date: string, end_date: string) {
  return dataOf(await api.request('POST', '/api/v1/periods', { name, start_date, end_date }), 201);
}

/** Posts a balanced two-line entry and returns it. */
export async function postEntry(api: ApiFixture, debitAccount: string, creditAccount: string, amount: string,
  entryDate = '2026-03-01', description = 'test entry') {
  return dataOf(await api.request('POST', '/api/v1/journal-entries',
    entryBody(debitAccount, creditAccount, amount, entryDate, description)), 201);
}

export async function balanceOf(api: ApiFixture, accountId: string, periodId?: string) {
  const query = periodId === undefined ? '' : `?period_id=${encodeURIComponent(periodId)}`;
  return dataOf(await api.request('GET', `/api/v1/accounts/${accountId}/balance${query}`));
}

/** A new service account with the given permissions; returns its API key. */
export async function newApiKey(api: ApiFixture, permissions?: Record<string, boolean>): Promise<string> {
  const created = await api.service.createServiceAccount(null, { name: `caller ${Math.random()}`, permissions });
  return created.api_key;
}

/**
 * Follows next_cursor from the first page to the last and returns every row with the pages seen.
 * `betweenPages` runs after each page that has a successor (to write while a walk is under way); it
 * gets the page's index and rows.
 */
export async function walkPages<T = any>(api: ApiFixture, path: string,
  options: { limit?: number; betweenPages?: (pageIndex: number, pageRows: T[]) => Promise<void> } = {}) {
  const rows: T[] = [];
  const pages: T[][] = [];
  let cursor: string | null = null;
  for (;;) {
    const params = new URLSearchParams();
    if (options.limit !== undefined) params.set('limit', String(options.limit));
    if (cursor !== null) params.set('cursor', cursor);
    const separator = path.includes('?') ? '&' : '?';
    const query = params.toString();
    const response = await api.request('GET', query ? `${path}${separator}${query}` : path);
    if (response.status !== 200) throw new Error(`page ${pages.length} failed: ${JSON.stringify(response.body)}`);
    const { data, has_more, next_cursor } = response.body as { data: T[]; has_more: boolean; next_cursor: string | null };
    expect(has_more).toBe(next_cursor !== null);
    pages.push(data);
    rows.push(...data);
    if (!has_more) break;
    if (pages.length > 10_000) throw new Error('pagination does not end');
    await options.betweenPages?.(pages.length - 1, data);
    cursor = next_cursor;
  }
  return { rows, pages };
}
