import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, type ApiResponse, expectError, startApi } from '../helpers/api-fixture.js';
import { type RawAnswer, sendRaw } from '../helpers/raw-http.js';

const ERROR_KEYS = ['code', 'field', 'message', 'suggestion'];

/** The contract's error body, nothing else, and nothing of the URL echoed back. */
function expectContractError(answer: ApiResponse | RawAnswer, status: number, code: string, notEchoed?: string): void {
  const contentType = 'headers' in answer && answer.headers instanceof Headers ? answer.headers.get('content-type') : (answer.headers as Record<string, string>)['content-type'];
  expect({ status: answer.status, code: answer.body?.code, contentType }).toEqual({ status, code, contentType: expect.stringMatching(/^application\/json/) });
  expect(typeof answer.body.message).toBe('string');
  for (const key of Object.keys(answer.body)) expect(ERROR_KEYS).toContain(key);
  if (notEchoed !== undefined) expect(JSON.stringify(answer.body)).not.toContain(notEchoed);
}

describe('malformed requests', () => {
  let api: ApiFixture;

  beforeAll(async () => { api = await startApi(); });
  afterAll(async () => { await api.close(); });

  it('answers a URL that is not valid percent-encoding with the contract error, 401 first without credentials', async () => {
    expectContractError(await api.request('GET', '/api/v1/accounts/%ZZ', undefined, { token: null }), 401, 'UNAUTHORIZED', '%ZZ');
    expectContractError(await api.request('GET', '/api/v1/accounts/%ZZ'), 400, 'VALIDATION_ERROR', '%ZZ');
    expectContractError(await api.request('GET', '/docs/%ZZ'), 400, 'VALIDATION_ERROR', '%ZZ');
  });

  it('answers an id longer than the router takes as an unknown resource, after authentication', async () => {
    const id = 'a'.repeat(101);
    expectContractError(await api.request('GET', `/api/v1/accounts/${id}`, undefined, { token: null }), 401, 'UNAUTHORIZED', id);
    expectContractError(await api.request('GET', `/api/v1/accounts/${id}`), 404, 'NOT_FOUND', id);
  });

  it('answers a URL over the header limit with the contract error', async () => {
    const answer = await sendRaw(api.baseUrl, `GET /api/v1/accounts?x=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expectContractError(answer, 400, 'VALIDATION_ERROR', 'aaaa');
  });

  it('answers malformed HTTP with the contract error', async () => {
    const requests: Array<[string, string | Buffer]> = [
      ['raw non-ASCII bytes in the URL', Buffer.from('GET /api/v1/\xff\xfe HTTP/1.1\r\nHost: localhost\r\n\r\n', 'latin1')],
      ['a bad chunk size', 'POST /api/v1/periods HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'],
      ['Content-Length and Transfer-Encoding', 'POST /api/v1/periods HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ];
    for (const [what, request] of requests) {
      const answer = await sendRaw(api.baseUrl, request);
      expect({ what, status: answer.status }).toEqual({ what, status: 400 });
      expectContractError(answer, 400, 'VALIDATION_ERROR');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it.each([
    ['__proto__ at the top', '{"__proto__": {"admin": true}, "code": "XAU"}', '__proto__'],
    ['constructor.prototype', '{"constructor": {"prototype": {"admin": true}}}', 'constructor'],
    ['a plain constructor key', '{"code": "XAU", "constructor": 1}', 'constructor'],
    ['__proto__ deep inside', '{"code": "XAU", "extra": [{"x": {"__proto__": 1}}]}', 'extra[0].x.__proto__'],
  ])('refuses a body with %s, saying which key, and creates nothing', async (_label, rawBody, field) => {
    const before = (await api.request('GET', '/api/v1/currencies?limit=200')).body.data.length;
    for (const path of ['/api/v1/currencies', '/auth/login']) {
      const answer = await api.request('POST', path, undefined, { rawBody, headers: { 'content-type': 'application/json' } });
      expectContractError(answer, 400, 'VALIDATION_ERROR');
      expect(answer.body).toMatchObject({ field, message: expect.stringContaining(field.split('.').pop()!.replace(/\[\d+\]$/, '')) });
      expect(answer.body.message).not.toContain('not valid JSON');
    }
    expect((await api.request('GET', '/api/v1/currencies?limit=200')).body.data).toHaveLength(before);
  });

  it('answers path traversal under /docs/static/ with a 404, never a 500', async () => {
    for (const path of ['/docs/static/../../package.json', '/docs/static/..', '/docs/static/.%2e/', '/docs/static/%00',
      '/docs/static/..%5c..%5cpackage.json', '/docs/static//etc/passwd']) {
      const answer = await sendRaw(api.baseUrl, `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expectContractError(answer, 404, 'NOT_FOUND');
    }
  });

  it('authenticates unknown /api/v1 paths before reading their body', async () => {
    const big = await api.request('POST', '/api/v1/nothing-here', undefined, {
      token: 'tsk_wrong', rawBody: `{"x":"${'a'.repeat(2 * 1024 * 1024)}"}`, headers: { 'content-type': 'application/json' },
    });
    expectError(big, 401, 'UNAUTHORIZED');
    const broken = await api.request('POST', '/api/v1/nothing-here', undefined, { token: 'tsk_wrong', rawBody: '{', headers: { 'content-type': 'application/json' } });
    expectError(broken, 401, 'UNAUTHORIZED');
    const typed = await api.request('POST', '/api/v1/nothing-here', undefined, { token: null, rawBody: 'x', headers: { 'content-type': 'text/csv' } });
    expectError(typed, 401, 'UNAUTHORIZED');
    expectError(await api.request('POST', '/api/v1/nothing-here', undefined, { rawBody: '{', headers: { 'content-type': 'application/json' } }), 400, 'VALIDATION_ERROR');
  });

  it('does not answer the web UI for an API path with a query, even asked for HTML', async () => {
    const ui = await startApi({ webRoot: await fakeWebRoot() });
    try {
      for (const path of ['/api/v1?x=1', '/api/v1/?x=1', '/api/v1/nothing?x=1']) {
        const answer = await ui.request('GET', path, undefined, { token: null, headers: { accept: 'text/html' } });
        expect({ path, status: answer.status }).toEqual({ path, status: 401 });
        expectContractError(answer, 401, 'UNAUTHORIZED');
      }
      expect((await ui.request('GET', '/some/page?x=1', undefined, { token: null, headers: { accept: 'text/html' } })).status).toBe(200);
    } finally {
      await ui.close();
    }
  });
});

async function fakeWebRoot(): Promise<string> {
  const { mkdtemp, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const folder = await mkdtemp(join(tmpdir(), 'ledger-web-'));
  await writeFile(join(folder, 'index.html'), '<!doctype html><title>Ledger</title>');
  return folder;
}
