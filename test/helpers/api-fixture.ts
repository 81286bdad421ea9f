/**
 * A real ledger for API tests: a temp SQLite file, the real service and the real Fastify app
 * listening on 127.0.0.1 (random port), and an admin API key. The clock is adjustable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uuidv7 } from 'uuidv7';
import { initLedger, openLedger } from '../../src/app/open-ledger.js';
import { buildApp, type AppOptions } from '../../src/http/build-app.js';
import type { LedgerService } from '../../src/service/ledger-service.js';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class TestClock {
  constructor(public current = new Date('2026-03-15T12:00:00.000Z')) {}
  now(): Date { return new Date(this.current.getTime()); }
  advance(ms: number): void { this.current = new Date(this.current.getTime() + ms); }
}

export interface ApiFixture {
  baseUrl: string;
  dbPath: string;
  dir: string;
  service: LedgerService;
  clock: TestClock;
  apiKey: string;
  /** Sends a request with the admin key unless `token` is given (null: no Authorization). */
  request<T = any>(method: string, path: string, body?: unknown, options?: { token?: string | null; headers?: Record<string, string>; rawBody?: string }): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export async function startApi(options: Partial<Omit<AppOptions, 'service'>> = {}): Promise<ApiFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-api-'));
  const dbPath = join(dir, 'ledger.db');
  await initLedger(dbPath);
  const clock = new TestClock();
  const service = await openLedger(dbPath, { clock, newId: uuidv7 });
  const app = await buildApp({ service, logLevel: 'silent', ...options });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const admin = await service.createServiceAccount(null, { name: 'test admin' });

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
    return { status: response.status, body: parsed as any, headers: response.headers };
  }

  return {
    baseUrl, dbPath, dir, service, clock, apiKey: admin.api_key, request,
    async close() {
      await app.close();
      await service.ctx.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
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
