/**
 * Helpers for the authentication and permission tests: a ledger without any user (for first-user
 * setup), a request wrapper that fails the test when a response leaks a secret, humans who log
 * in, and requests sent from another loopback address so the server sees another client.
 */
import { request as httpRequest } from 'node:http';
import { uuidv7 } from 'uuidv7';
import type { LedgerService } from '../../src/service/ledger-service.js';
import { type ApiFixture, type ApiResponse, type TestClock, dataOf, startLedgerApp } from './api-fixture.js';

export const API = '/api/v1';

interface RequestOptions {
  token?: string | null;
  headers?: Record<string, string>;
  rawBody?: string;
}

async function sendJson(baseUrl: string, method: string, path: string, body: unknown, token: string | null,
  headers: Record<string, string> = {}): Promise<ApiResponse> {
  const sent: Record<string, string> = { ...headers };
  if (token !== null) sent.authorization = `Bearer ${token}`;
  let payload: string | undefined;
  if (body !== undefined) {
    payload = JSON.stringify(body);
    sent['content-type'] ??= 'application/json';
  }
  const response = await fetch(baseUrl + path, { method, headers: sent, body: payload });
  const text = await response.text();
  let parsed: unknown = text;
  try { parsed = text ? JSON.parse(text) : undefined; } catch { /* keep the text */ }
  return { status: response.status, body: parsed as any, headers: response.headers };
}

/**
 * A ledger whose database has no user at all, as right after `ledger init`: the state in which
 * `/auth/setup` creates the first admin. Requests carry no credentials unless `token` is given.
 */
export interface EmptyApiFixture {
  baseUrl: string;
  /** The ledger's database: a SQLite file's path or a PostgreSQL URL. */
  location: string;
  service: LedgerService;
  clock: TestClock;
  request<T = any>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export async function startEmptyApi(): Promise<EmptyApiFixture> {
  const { place, clock, service, baseUrl, close } = await startLedgerApp('ledger-auth');
  return {
    baseUrl, location: place.location, service, clock,
    request: (method, path, body, options = {}) => sendJson(baseUrl, method, path, body, options.token ?? null, options.headers),
    close,
  };
}

/** Every password handed out by `newHuman`, so that no response may ever echo one. */
const knownPasswords = new Set<string>();
const FORBIDDEN_KEYS = new Set(['password', 'password_hash', 'key_hash', 'token_hash', 'secret']);

/**
 * Fails when `body` carries a password, a hash or an API key. `api_key` is allowed only where the
 * contract shows it: the answer to creating a service account.
 */
export function assertNoSecrets(body: unknown, options: { allowApiKey?: boolean; allowWebhookSecret?: boolean } = {}, where = 'body'): void {
  if (typeof body === 'string') {
    if (body.includes('scrypt$')) throw new Error(`${where} contains a scrypt hash: ${body}`);
    for (const password of knownPasswords) {
      if (body.includes(password)) throw new Error(`${where} contains a user's password`);
    }
    return;
  }
  if (Array.isArray(body)) {
    body.forEach((item, index) => assertNoSecrets(item, options, `${where}[${index}]`));
    return;
  }
  if (typeof body === 'object' && body !== null) {
    for (const [key, value] of Object.entries(body)) {
      // A webhook endpoint's secret, only in the answers that make one (creation, rotation).
      if (key === 'secret' && options.allowWebhookSecret && typeof value === 'string' && value.startsWith('whsec_')) continue;
      if (FORBIDDEN_KEYS.has(key)) throw new Error(`${where} has a key named ${key}`);
      if (key === 'api_key' && !options.allowApiKey) throw new Error(`${where} shows an api_key outside the creation answer`);
      assertNoSecrets(value, options, `${where}.${key}`);
    }
  }
}

/**
 * The fixture with every response checked by `assertNoSecrets`, so each user, token and error
 * answer of a suite is inspected, not only the ones a test looks at.
 */
export function guarded<F extends Pick<ApiFixture, 'request'>>(fixture: F): F {
  const original = fixture.request.bind(fixture);
  const request = async (method: string, path: string, body?: unknown, options?: RequestOptions) => {
    const response = await original(method, path, body, options);
    // The OpenAPI document describes the password field of the request bodies: not a leak.
    if (path === `${API}/openapi.json`) return response;
    const bare = path.split('?')[0]!;
    const createsServiceAccount = method === 'POST' && bare === `${API}/users/service-accounts` && response.status === 201;
    const rotatesKey = method === 'POST' && /^\/api\/v1\/users\/[^/]+\/api-key\/rotate$/.test(bare) && response.status === 200;
    const makesWebhookSecret = method === 'POST' && response.status < 300
      && (bare === `${API}/webhook-endpoints` || /^\/api\/v1\/webhook-endpoints\/[^/]+\/rotate-secret$/.test(bare));
    assertNoSecrets(response.body, { allowApiKey: createsServiceAccount || rotatesKey, allowWebhookSecret: makesWebhookSecret }, `${method} ${path}`);
    return response;
  };
  return { ...fixture, request } as F;
}

let serial = 0;

/** A fresh, unique e-mail address for one test. */
export function uniqueEmail(prefix = 'user'): string {
  serial += 1;
  return `${prefix}.${serial}.${process.pid}@example.test`;
}

export function uniqueName(prefix: string): string {
  serial += 1;
  return `${prefix} ${serial}`;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
}

export interface Human {
  id: string;
  email: string;
  password: string;
  user: any;
}

/** Creates a human user through the API (as the fixture's admin unless `token` is given). */
export async function newHuman(api: Pick<ApiFixture, 'request'>, permissions: Record<string, boolean> = {},
  options: { token?: string; email?: string; name?: string } = {}): Promise<Human> {
  const email = options.email ?? uniqueEmail();
  const password = `pw-${uuidv7()}`;
  knownPasswords.add(password);
  const user = dataOf(await api.request('POST', `${API}/users`, {
    name: options.name ?? uniqueName('Human'), email, password, permissions,
  }, options.token === undefined ? {} : { token: options.token }), 201);
  return { id: user.id, email, password, user };
}

export async function loginAs(api: Pick<ApiFixture, 'request'>, email: string, password: string): Promise<TokenPair> {
  return dataOf(await api.request('POST', '/auth/login', { email, password }, { token: null }));
}

/** A human with the given permissions, logged in. */
export async function loggedInHuman(api: Pick<ApiFixture, 'request'>, permissions: Record<string, boolean> = {}) {
  const human = await newHuman(api, permissions);
  const tokens = await loginAs(api, human.email, human.password);
  return { ...human, tokens };
}

/** A service account created through the API with the given permissions: its id and API key. */
export async function newServiceAccount(api: Pick<ApiFixture, 'request'>, permissions: Record<string, boolean> = {}) {
  const created = dataOf(await api.request('POST', `${API}/users/service-accounts`, {
    name: uniqueName('Agent'), permissions,
  }), 201);
  return { id: created.id as string, apiKey: created.api_key as string, user: created };
}

/** The claims of a JWT, decoded without verifying it. */
export function jwtClaims(token: string): Record<string, unknown> {
  const payload = token.split('.')[1];
  if (payload === undefined) throw new Error(`not a JWT: ${token}`);
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/**
 * Sends a JSON request from another loopback source address (127.0.0.2, 127.0.0.3, ...), so the
 * server sees a different client; `fetch` cannot choose its source address.
 */
export function requestFrom(sourceAddress: string, baseUrl: string, method: string, path: string,
  body?: unknown): Promise<ApiResponse> {
  const url = new URL(path, baseUrl);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = httpRequest({
      host: url.hostname, port: url.port, path: url.pathname + url.search, method, localAddress: sourceAddress,
      headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try { parsed = text ? JSON.parse(text) : undefined; } catch { /* keep the text */ }
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (typeof value === 'string') headers.set(name, value);
        }
        resolve({ status: response.statusCode ?? 0, body: parsed as any, headers });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    if (payload !== undefined) request.write(payload);
    request.end();
  });
}

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;
export const DAY_MS = 24 * 60 * MINUTE_MS;

