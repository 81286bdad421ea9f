/**
 * Fuzz test of the HTTP face: many thousands of random and malformed requests, over every
 * operation of the server's own OpenAPI document (the /api/v1 routes and /auth), against a real
 * `ledger serve` process. Whatever is sent, the server answers below 500, every 4xx is the
 * contract's JSON error with the status its code maps to, nothing in the ledger changes except
 * through answers that said 2xx, the server stays up and its memory stays bounded.
 *
 * Two phases: first with credentials that may write nothing (a key without permissions, no
 * token, garbage and forged tokens), after which the ledger must be exactly as before; then with
 * an admin key and a key that may only post entries, after which every difference must be named
 * by a 2xx answer.
 *
 * FUZZ_RUNS sets the number of requests per phase (CI's default keeps the file near a minute);
 * FUZZ_SEED replays a run. The seed is printed at the start and by fast-check on failure.
 * It runs on SQLite only: it tests the HTTP layer and the service, which both stores share.
 */
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_STATUS } from '../../src/http/error-table.js';
import { type ServeProcess, startServe } from '../helpers/serve-process.js';
import { createTestLocation, type TestLocation } from '../helpers/test-location.js';
import { type Credential, type FuzzAnswer, type FuzzRequest, type Operation, describeRequest, fuzzRequest, operationsOf, send } from './fuzz-requests.js';
import { type Acknowledged, acknowledge, takeSnapshot, unexplainedChanges } from './ledger-snapshot.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const SEED = process.env.FUZZ_SEED === undefined ? Date.now() ^ (Math.random() * 0x1_0000_0000) : Number(process.env.FUZZ_SEED);
/** The server's resident memory after the run; it idles near 100 MiB and one password hash takes 128 MiB. */
const RSS_LIMIT_BYTES = 512 * 1024 * 1024;
/** Long runs (FUZZ_RUNS=200000) need more than vitest's usual limit: about 10 ms a request, doubled. */
const PHASE_TIMEOUT_MS = Math.max(600_000, RUNS * 20);
const JWT_SECRET = randomBytes(48).toString('base64url');
const ERROR_KEYS = new Set(['code', 'message', 'field', 'suggestion']);

interface Fixture {
  server: ServeProcess;
  place: TestLocation;
  operations: Operation[];
  adminKey: string;
  readOnlyKey: string;
  postingKey: string;
  /** Ids of rows that exist, for paths and bodies; the fuzzing keys' own users are left out. */
  knownIds: string[];
  badCredentials: Credential[];
}

async function call(baseUrl: string, method: string, path: string, body: unknown, token?: string): Promise<any> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const response = await fetch(baseUrl + path, { method, headers, body: JSON.stringify(body) });
  const answer: any = await response.json();
  if (response.status >= 300) throw new Error(`setup: ${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer.data;
}

const base64url = (value: object | string) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** Tokens that must all be refused: garbage, forged signatures, `alg: none`, expired, unknown session. */
async function badCredentials(accessToken: string): Promise<Credential[]> {
  const claims = decodeJwt(accessToken);
  const [header, payload] = accessToken.split('.');
  const sign = (secret: string, extra: object = {}, options: { alg?: string } = {}) =>
    new SignJWT({ ...claims, ...extra }).setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
  const now = Math.floor(Date.now() / 1000);
  const bearer = (label: string, token: string): Credential => ({ label, authorization: `Bearer ${token}` });
  return [
    { label: 'no token', authorization: undefined },
    bearer('a JWT signed with another secret', await sign(randomBytes(48).toString('base64url'))),
    bearer('an unsigned JWT (alg none)', `${base64url({ alg: 'none', typ: 'JWT' })}.${payload}.`),
    bearer('an unsigned JWT (alg None, no dot)', `${base64url({ alg: 'None' })}.${payload}`),
    bearer('a JWT whose claims were changed', `${header}.${base64url({ ...claims, sub: 'someone-else', permissions: { admin: true } })}.${accessToken.split('.')[2]}`),
    bearer('an expired JWT', await sign(JWT_SECRET, { iat: now - 7200, exp: now - 3600 })),
    bearer('a JWT of an unknown session', await sign(JWT_SECRET, { sid: 'no-such-session' })),
    bearer('a JWT without a session', await sign(JWT_SECRET, { sid: undefined })),
    bearer('a JWT of an unknown user', await sign(JWT_SECRET, { sub: '0190a000-0000-7000-8000-000000000000' })),
    bearer('a JWT with an RS256 header', `${base64url({ alg: 'RS256', typ: 'JWT' })}.${payload}.${accessToken.split('.')[2]}`),
    bearer('a truncated JWT', accessToken.slice(0, -5)),
    bearer('an unknown API key', `tsk_${randomBytes(32).toString('base64url')}`),
    bearer('a bare prefix', 'tsk_'),
    bearer('punctuation', '%%%.;,'),
    { label: 'an empty Bearer', authorization: 'Bearer' },
    { label: 'Basic credentials', authorization: `Basic ${base64url('admin:admin')}` },
    { label: 'two tokens', authorization: `Bearer ${accessToken} ${accessToken}` },
    { label: 'a lower-case scheme with spaces', authorization: `bearer    ${accessToken}x` },
    { label: 'a 12 KiB token', authorization: `Bearer ${'a'.repeat(12 * 1024)}` },
  ];
}

function credentialArbitrary(good: Credential[], bad: Credential[]): fc.Arbitrary<Credential> {
  const garbage = fc.string({ maxLength: 60, unit: 'grapheme-ascii' }).map((token): Credential => ({ label: `garbage token ${JSON.stringify(token)}`, authorization: `Bearer ${token}` }));
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...good) },
    { weight: 2, arbitrary: fc.constantFrom(...bad) },
    { weight: 1, arbitrary: garbage },
  );
}

/** Why an answer breaks the contract, or undefined when it does not. */
function contractBreach(request: FuzzRequest, answer: FuzzAnswer): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.text.slice(0, 500)}`;
  if (answer.status >= 300 && answer.status < 400) return `answered a redirect ${answer.status}`;
  if (request.method === 'HEAD' || answer.status === 204) return undefined;
  // The change feed's stream, opened: Server-Sent Events, not JSON (errors before it opens are JSON).
  if (answer.status === 200 && answer.contentType?.startsWith('text/event-stream')) {
    return request.path.split('?')[0] === '/api/v1/events/stream' ? undefined : `answered an event stream at ${request.path}`;
  }
  if (!answer.contentType?.startsWith('application/json')) return `answered ${answer.status} as ${answer.contentType}: ${answer.text.slice(0, 300)}`;
  const body = answer.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `answered ${answer.status} with a body that is not a JSON object: ${answer.text.slice(0, 300)}`;
  if (answer.status < 300) return 'data' in body ? undefined : `answered ${answer.status} without data: ${answer.text.slice(0, 300)}`;
  const extra = Object.keys(body).filter((key) => !ERROR_KEYS.has(key));
  if (extra.length > 0) return `error body has keys ${extra.join(', ')}: ${answer.text.slice(0, 300)}`;
  if (!(body.code in HTTP_STATUS)) return `error code ${JSON.stringify(body.code)} is not one of the contract's`;
  if (HTTP_STATUS[body.code as keyof typeof HTTP_STATUS] !== answer.status) return `${body.code} answered with ${answer.status}`;
  if (typeof body.message !== 'string' || body.message === '') return 'error without a message';
  for (const key of ['field', 'suggestion']) {
    if (key in body && typeof body[key] !== 'string') return `error ${key} is not a string`;
  }
  return undefined;
}

function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kib) * 1024;
}

async function expectHealthy(fixture: Fixture): Promise<void> {
  const health = await fetch(`${fixture.server.baseUrl}/health`);
  expect({ status: health.status, body: await health.json() }).toEqual({ status: 200, body: { status: 'ok' } });
  expect(fixture.server.child.exitCode).toBeNull();
  const rssBytes = residentBytes(fixture.server.child.pid!);
  console.log(`http fuzz: the server's resident memory is ${Math.round(rssBytes / 2 ** 20)} MiB`);
  expect(rssBytes).toBeLessThan(RSS_LIMIT_BYTES);
  // A bug behind a 500 is logged as "unhandled error" even if the answer hid it.
  expect(fixture.server.output()).not.toContain('unhandled error');
}

/** Runs `runs` random requests; collects what the 2xx answers to writes said. */
async function fuzz(fixture: Fixture, credentials: fc.Arbitrary<Credential>, runs: number, seed: number): Promise<{ acknowledged: Acknowledged; statuses: Map<number, number> }> {
  const acknowledged: Acknowledged = { strings: new Set(), settingsChanged: false, deleted: new Set() };
  const statuses = new Map<number, number>();
  const requests = fuzzRequest(fixture.operations, credentials, { knownIds: fixture.knownIds });
  await fc.assert(fc.asyncProperty(requests, async (request) => {
    const answer = await send(fixture.server.baseUrl, request);
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    const breach = contractBreach(request, answer);
    if (breach !== undefined) throw new Error(`${breach}\n  for ${describeRequest(request)}`);
    if (answer.status < 300 && request.method !== 'GET' && request.method !== 'HEAD') acknowledge(acknowledged, request.method, request.path, answer.body);
  }), { seed, numRuns: runs });
  return { acknowledged, statuses };
}

describe('the HTTP API under random and malformed requests', () => {
  let fixture: Fixture;

  beforeAll(async () => {
    console.log(`http fuzz: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`);
    const place = await createTestLocation('ledger-fuzz');
    const server = await startServe(place.location, { LEDGER_JWT_SECRET: JWT_SECRET });
    const url = server.baseUrl;
    const tokens = await call(url, 'POST', '/auth/setup', { name: 'Fuzz Admin', email: 'fuzz.admin@example.test', password: 'a long fuzzing passphrase' });
    const make = (name: string, permissions: object) => call(url, 'POST', '/api/v1/users/service-accounts', { name, permissions }, tokens.access_token);
    const admin = await make('fuzz admin', { admin: true });
    const readOnly = await make('fuzz reader', {});
    const posting = await make('fuzz poster', { 'journals:create': true });
    const write = (path: string, body: object) => call(url, 'POST', `/api/v1${path}`, body, admin.api_key);
    const currency = await write('/currencies', { code: 'USD', name: 'US Dollar', symbol: '$', asset_scale: 2, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:USD' });
    const period = await write('/periods', { name: 'FY2026', start_date: '2026-01-01', end_date: '2026-12-31' });
    const account = (account_number: string, account_type: string, normal_balance: string, extra: object = {}) =>
      write('/accounts', { account_number, name: `Account ${account_number}`, currency_id: currency.id, account_type, normal_balance, ...extra });
    const cash = await account('1000', 'asset', 'debit');
    const receivables = await account('1200', 'asset', 'debit', { has_subledger: true });
    const customer = await account('1200-01', 'asset', 'debit', { parent_id: receivables.id, entity_id: 'customer-1' });
    const sales = await account('4000', 'revenue', 'credit');
    const equity = await account('3000', 'equity', 'credit');
    const entry = await write('/journal-entries', { entry_date: '2026-03-01', description: 'seed sale', lines: [
      { account_id: cash.id, debit_amount: '25000' }, { account_id: sales.id, credit_amount: '25000' }] });
    // A webhook endpoint that random input happened to make valid would be delivered to: no test
    // sends traffic beyond 127.0.0.1, so the endpoints' writes are left to test/api/webhooks.test.ts.
    const operations = operationsOf(await (await fetch(`${url}/api/v1/openapi.json`)).json())
      .filter((operation) => !(operation.path.startsWith('/api/v1/webhook-endpoints') && operation.method !== 'GET'));
    fixture = {
      server, place, operations, adminKey: admin.api_key, readOnlyKey: readOnly.api_key, postingKey: posting.api_key,
      knownIds: [currency.id, period.id, cash.id, receivables.id, customer.id, sales.id, equity.id, entry.id, decodeJwt(tokens.access_token).sub!],
      badCredentials: await badCredentials(tokens.access_token),
    };
  }, 60_000);

  afterAll(async () => {
    await fixture?.server.stop();
    await fixture?.place.remove();
  });

  it('derives the operations from the OpenAPI document, /auth included', () => {
    const names = fixture.operations.map((operation) => `${operation.method} ${operation.path}`);
    expect(names).toContain('POST /auth/login');
    expect(names).toContain('POST /api/v1/journal-entries');
    expect(names.length).toBeGreaterThan(30);
  });

  it('changes nothing for credentials that may not write, and answers every request by the contract', async () => {
    const before = await takeSnapshot(fixture.server.baseUrl, fixture.adminKey);
    const credentials = credentialArbitrary([{ label: 'a key without permissions', authorization: `Bearer ${fixture.readOnlyKey}` }], fixture.badCredentials);
    const { statuses } = await fuzz(fixture, credentials, RUNS, SEED);
    console.log(`http fuzz, phase without write permission: statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    const after = await takeSnapshot(fixture.server.baseUrl, fixture.adminKey);
    expect(after.rows).toEqual(before.rows);
    expect(after.settings).toBe(before.settings);
    expect([...after.writeAudit.keys()]).toEqual([...before.writeAudit.keys()]);
    expect(after.verify).toBe(before.verify);
    await expectHealthy(fixture);
  }, PHASE_TIMEOUT_MS);

  it('changes the ledger only through answers that said 2xx, with an admin key and a posting key', async () => {
    const before = await takeSnapshot(fixture.server.baseUrl, fixture.adminKey);
    const credentials = credentialArbitrary([
      { label: 'the admin key', authorization: `Bearer ${fixture.adminKey}` },
      { label: 'the admin key', authorization: `Bearer ${fixture.adminKey}` },
      { label: 'a key that may only post entries', authorization: `Bearer ${fixture.postingKey}` },
    ], fixture.badCredentials);
    const { acknowledged, statuses } = await fuzz(fixture, credentials, RUNS, SEED + 1);
    console.log(`http fuzz, phase with write permission: statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    const after = await takeSnapshot(fixture.server.baseUrl, fixture.adminKey);
    expect(unexplainedChanges(before, after, acknowledged)).toEqual([]);
    expect(JSON.parse(after.verify)).toMatchObject({ ok: true, problems: [] });
    await expectHealthy(fixture);
  }, PHASE_TIMEOUT_MS);
});
