import { mkdtemp, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, startApi } from '../helpers/api-fixture.js';
import { sendRaw } from '../helpers/raw-http.js';

const ALLOWED_ORIGIN = 'https://books.example.com';

async function fakeWebRoot(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'ledger-web-'));
  await mkdir(join(folder, 'assets'));
  await writeFile(join(folder, 'index.html'), '<!doctype html><title>Ledger</title><script type="module" src="/assets/app.js"></script>');
  await writeFile(join(folder, 'assets', 'app.js'), 'console.log(1);\n//# sourceMappingURL=app.js.map\n');
  await writeFile(join(folder, 'assets', 'app.js.map'), '{"version":3,"sources":["secret.ts"]}');
  return folder;
}

function expectSecurityHeaders(what: string, headers: Headers): void {
  const seen = {
    what,
    nosniff: headers.get('x-content-type-options'),
    frameOptions: headers.get('x-frame-options'),
    referrer: headers.get('referrer-policy'),
    frameAncestors: /frame-ancestors 'none'/.test(headers.get('content-security-policy') ?? ''),
  };
  expect(seen).toEqual({ what, nosniff: 'nosniff', frameOptions: 'DENY', referrer: 'no-referrer', frameAncestors: true });
}

describe('security headers and CORS', () => {
  let api: ApiFixture;

  beforeAll(async () => { api = await startApi({ webRoot: await fakeWebRoot(), corsOrigins: [ALLOWED_ORIGIN] }); });
  afterAll(async () => { await api.close(); });

  it('are on every answer: API, auth, UI, docs, errors and 404s', async () => {
    const answers: Array<[string, Promise<{ headers: Headers }>]> = [
      ['api', api.request('GET', '/api/v1/currencies')],
      ['api error', api.request('GET', '/api/v1/currencies', undefined, { token: null })],
      ['api 404', api.request('GET', '/api/v1/nothing')],
      ['auth', api.request('GET', '/auth/setup', undefined, { token: null })],
      ['health', api.request('GET', '/health', undefined, { token: null })],
      ['ui', api.request('GET', '/', undefined, { token: null })],
      ['ui route', api.request('GET', '/accounts', undefined, { token: null, headers: { accept: 'text/html' } })],
      ['ui asset', api.request('GET', '/assets/app.js', undefined, { token: null })],
      ['docs', api.request('GET', '/docs/', undefined, { token: null })],
      ['404', api.request('GET', '/nothing', undefined, { token: null })],
      ['bad url', api.request('GET', '/docs/%ZZ', undefined, { token: null })],
    ];
    for (const [what, answer] of answers) expectSecurityHeaders(what, (await answer).headers);
  });

  it('give the UI a strict content security policy: only its own scripts and styles, nothing inline', async () => {
    const policy = (await api.request('GET', '/', undefined, { token: null })).headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/default-src 'self'/);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(policy).toMatch(/object-src 'none'/);
    expect(policy).toMatch(/base-uri 'none'/);
    const apiPolicy = (await api.request('GET', '/api/v1/currencies')).headers.get('content-security-policy');
    expect(apiPolicy).toMatch(/default-src 'none'/);
  });

  it('forbid caching of tokens and authenticated answers', async () => {
    const setup = await api.request('POST', '/auth/setup', { name: 'A', email: 'a@example.com', password: 'correct horse' }, { token: null });
    for (const answer of [setup, await api.request('GET', '/api/v1/currencies'), await api.request('GET', '/api/v1/currencies', undefined, { token: null })]) {
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('does not serve source maps', async () => {
    expect((await api.request('GET', '/assets/app.js', undefined, { token: null })).status).toBe(200);
    const map = await api.request('GET', '/assets/app.js.map', undefined, { token: null });
    expect(map.status).toBe(404);
    expect(JSON.stringify(map.body)).not.toContain('secret.ts');
  });

  it('keeps CORS closed to origins that are not listed', async () => {
    const plain = await api.request('GET', '/api/v1/currencies', undefined, { headers: { origin: 'https://evil.example' } });
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await api.request('OPTIONS', '/api/v1/currencies', undefined, {
      token: null, headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.status).toBeGreaterThanOrEqual(400);
  });

  it('opens CORS to listed origins exactly, preflight included', async () => {
    const preflight = await api.request('OPTIONS', '/api/v1/journal-entries', undefined, {
      token: null, headers: { origin: ALLOWED_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    const get = await api.request('GET', '/api/v1/currencies', undefined, { headers: { origin: ALLOWED_ORIGIN } });
    expect(get.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(get.headers.get('vary')).toMatch(/origin/i);
    const lookalike = await api.request('GET', '/api/v1/currencies', undefined, { headers: { origin: `${ALLOWED_ORIGIN}.evil.example` } });
    expect(lookalike.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('has no CORS at all by default', async () => {
    const closed = await startApi();
    try {
      const answer = await closed.request('GET', '/api/v1/currencies', undefined, { headers: { origin: ALLOWED_ORIGIN } });
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      const raw = await sendRaw(closed.baseUrl, `GET /api/v1/\xff HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(raw.headers['x-frame-options']).toBe('DENY');
    } finally {
      await closed.close();
    }
  });
});
