/**
 * DNS rebinding: a page on another site that makes its own name resolve to 127.0.0.1 sends that
 * name as Host. A loopback-bound server answers only loopback names and LEDGER_ALLOWED_HOSTS, so
 * such a page cannot reach /auth/setup of a fresh server (or anything else).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostPolicyFor, isLoopbackName, parseAllowedHosts } from '../../src/http/plugins/host-check.js';
import { type ApiFixture, startApi } from '../helpers/api-fixture.js';
import { sendRaw } from '../helpers/raw-http.js';
import { tempFolder } from '../helpers/cli.js';
import { type ServeProcess, startServe } from '../helpers/serve-process.js';

const get = (path: string, host: string) => `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;

describe('the Host header', () => {
  let api: ApiFixture;
  beforeAll(async () => { api = await startApi({ hostPolicy: { allowed: parseAllowedHosts('Books.Example.com, ledger.internal:8443') } }); });
  afterAll(async () => { await api.close(); });

  it.each(['127.0.0.1', '127.0.0.1:3000', 'localhost', 'LOCALHOST:1', '[::1]:3000', '127.8.9.10', 'books.example.com', 'books.example.com:443',
    'ledger.internal'])('answers Host %s', async (host) => {
    const answer = await sendRaw(api.baseUrl, get('/health', host));
    expect(answer.status).toBe(200);
  });

  it.each(['evil.example', 'localhost.evil.example', '127.0.0.1.nip.io', 'books.example.com.evil.example', '10.0.0.1', '0.0.0.0'])(
    'refuses Host %s with 403 FORBIDDEN, the security headers and a suggestion', async (host) => {
      const answer = await sendRaw(api.baseUrl, get('/auth/setup', host));
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ code: 'FORBIDDEN', suggestion: expect.stringContaining('LEDGER_ALLOWED_HOSTS') });
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['cache-control']).toBe('no-store');
    });

  it('checks the Host before authentication and before the body', async () => {
    const body = '{"name":"Mallory","email":"m@evil.example","password":"long enough pass"}';
    const answer = await sendRaw(api.baseUrl, `POST /api/v1/users HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer ${api.apiKey}\r\n`
      + `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    expect(answer.status).toBe(403);
    expect((await api.request('GET', '/api/v1/users?limit=200')).body.data.map((user: { email: string | null }) => user.email))
      .not.toContain('m@evil.example');
  });
});

describe('which servers check the Host', () => {
  it('a loopback-bound server checks it; one bound elsewhere only when names are listed', () => {
    expect(hostPolicyFor('127.0.0.1', [])).toEqual({ allowed: [] });
    expect(hostPolicyFor('localhost', [])).toEqual({ allowed: [] });
    expect(hostPolicyFor('::1', [])).toEqual({ allowed: [] });
    expect(hostPolicyFor('0.0.0.0', [])).toBeUndefined();
    expect(hostPolicyFor('0.0.0.0', ['books.example.com'])).toEqual({ allowed: ['books.example.com'] });
    expect(isLoopbackName('[::1]')).toBe(true);
    expect(isLoopbackName('128.0.0.1')).toBe(false);
  });
});

describe('ledger serve on a fresh database, bound to 127.0.0.1', () => {
  const folder = tempFolder('host-check');
  let server: ServeProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    folder.remove();
  });

  it('refuses a rebinding page\'s first-user setup, answers localhost, and answers a name in LEDGER_ALLOWED_HOSTS', async () => {
    server = await startServe(`${folder.dir}/fresh.db`, { LEDGER_ALLOWED_HOSTS: 'books.example.com' });
    const body = '{"name":"Mallory","email":"m@evil.example","password":"long enough pass"}';
    const setup = (host: string) => sendRaw(server!.baseUrl, `POST /auth/setup HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n`
      + `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    expect((await setup('rebind.evil.example')).status).toBe(403);
    expect((await sendRaw(server.baseUrl, get('/auth/setup', 'localhost:3000'))).body).toEqual({ data: { needs_setup: true } });
    expect((await sendRaw(server.baseUrl, get('/auth/setup', 'books.example.com'))).status).toBe(200);
  });
});
