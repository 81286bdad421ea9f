/**
 * The login throttle against the attacks it exists for: bursts of concurrent guesses (counted
 * before the password is hashed, capped in flight, hashing capped overall) and lock-outs (the
 * limit is per e-mail and client, so the owner from another address still gets in, also behind a
 * proxy that names the client in X-Forwarded-For).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiFixture, type ApiResponse, expectError, startApi } from '../helpers/api-fixture.js';
import { newHuman, requestFrom } from '../helpers/auth-helpers.js';

let api: ApiFixture | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const login = (fixture: ApiFixture, email: string, password: string, headers: Record<string, string> = {}) =>
  fixture.request('POST', '/auth/login', { email, password }, { token: null, headers });

function statusCounts(answers: readonly ApiResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
  return counts;
}

describe('concurrent guesses', () => {
  it('checks at most ten of fifty concurrent guesses from one client, the right password among them as guess 40', async () => {
    api = await startApi();
    const victim = await newHuman(api);
    const guesses = Array.from({ length: 50 }, (_, index) => (index === 39 ? victim.password : `wrong guess ${index}`));
    const answers = await Promise.all(guesses.map((password) => login(api!, victim.email, password)));
    const counts = statusCounts(answers);
    expect(Object.keys(counts).map(Number).every((status) => [200, 401, 429].includes(status))).toBe(true);
    // Only answers that checked a password are 200 or 401; the rest were refused before hashing.
    expect((counts[200] ?? 0) + (counts[401] ?? 0)).toBeLessThanOrEqual(10);
    expect(counts[429]).toBeGreaterThanOrEqual(40);
    for (const answer of answers.filter((each) => each.status === 429)) {
      expectError(answer, 429, 'RATE_LIMITED');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('caps the attempts in flight for one e-mail over many clients', async () => {
    // Hashes that take a while (2^15) keep the first attempts in flight while the rest arrive.
    api = await startApi({ scryptCost: 2 ** 15 });
    const victim = await newHuman(api);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, index) =>
      requestFrom(`127.0.2.${index + 1}`, api!.baseUrl, 'POST', '/auth/login', { email: victim.email, password: `wrong ${index}` })));
    const counts = statusCounts(answers);
    expect(counts[401] ?? 0).toBeLessThan(40);
    expect(counts[429]).toBeGreaterThan(0);
  });

  it('refuses most of a flood of 200 bad logins, and a genuine login during the flood stays fast', async () => {
    api = await startApi({ scryptCost: 2 ** 15 });
    const victim = await newHuman(api);
    const owner = { email: victim.email, password: victim.password };
    const timed = async (address: string) => {
      const started = performance.now();
      const answer = await requestFrom(address, api!.baseUrl, 'POST', '/auth/login', owner);
      return { answer, elapsedMs: performance.now() - started };
    };
    const alone = await timed('127.0.3.1');
    expect(alone.answer.status).toBe(200);

    const flood = Promise.all(Array.from({ length: 200 }, (_, index) => login(api!, victim.email, `flood guess ${index}`)));
    const during = await timed('127.0.3.2');
    const counts = statusCounts(await flood);
    expect(during.answer.status).toBe(200);
    expect(counts[429]).toBeGreaterThanOrEqual(190);
    expect((counts[401] ?? 0)).toBeLessThanOrEqual(10);
    // Without the caps the genuine login waits for the flood's 200 hashes (seconds).
    expect(during.elapsedMs).toBeLessThan(Math.max(2000, 10 * alone.elapsedMs));
  }, 60_000);
});

describe('no lock-out of the owner', () => {
  it('lets the owner in from another address after ten failures from one address, which stays locked', async () => {
    api = await startApi();
    const victim = await newHuman(api);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await requestFrom('127.0.4.1', api.baseUrl, 'POST', '/auth/login', { email: victim.email, password: 'wrong' })).status).toBe(401);
    }
    const attacker = await requestFrom('127.0.4.1', api.baseUrl, 'POST', '/auth/login', { email: victim.email, password: victim.password });
    expectError(attacker, 429, 'RATE_LIMITED');
    expect(attacker.headers.get('retry-after')).toBe(String(15 * 60));
    const owner = await requestFrom('127.0.4.2', api.baseUrl, 'POST', '/auth/login', { email: victim.email, password: victim.password });
    expect(owner.status).toBe(200);
  });

  it('behind a trusted proxy, tells clients apart by X-Forwarded-For', async () => {
    api = await startApi({ trustProxy: '127.0.0.1' });
    const victim = await newHuman(api);
    const attacker = { 'x-forwarded-for': '203.0.113.7' };
    for (let attempt = 0; attempt < 10; attempt += 1) expectError(await login(api, victim.email, 'wrong', attacker), 401, 'UNAUTHORIZED');
    expectError(await login(api, victim.email, victim.password, attacker), 429, 'RATE_LIMITED');
    expect((await login(api, victim.email, victim.password, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(200);
  });

  it('without LEDGER_TRUST_PROXY, ignores X-Forwarded-For: a client cannot pose as another to escape its limit', async () => {
    api = await startApi();
    const victim = await newHuman(api);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expectError(await login(api, victim.email, 'wrong', { 'x-forwarded-for': `203.0.113.${attempt + 1}` }), 401, 'UNAUTHORIZED');
    }
    expectError(await login(api, victim.email, victim.password, { 'x-forwarded-for': '198.51.100.2' }), 429, 'RATE_LIMITED');
    // The owner at another socket address is another client all the same.
    const owner = await requestFrom('127.0.4.3', api.baseUrl, 'POST', '/auth/login', { email: victim.email, password: victim.password });
    expect(owner.status).toBe(200);
  });
});
