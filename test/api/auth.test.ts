import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiFixture, dataOf, expectError, startApi } from '../helpers/api-fixture.js';
import { CLIENT_FAILED_LOGIN_LIMIT } from '../../src/service/auth/login-throttle.js';
import {
  API, DAY_MS, type EmptyApiFixture, MINUTE_MS, SECOND_MS, guarded, jwtClaims, loggedInHuman, loginAs, newHuman,
  newServiceAccount, requestFrom, startEmptyApi, uniqueEmail,
} from '../helpers/auth-helpers.js';

const ACCESS_TOKEN_SECONDS = 15 * 60;

const login = (api: Pick<ApiFixture, 'request'>, email: string, password: string) =>
  api.request('POST', '/auth/login', { email, password }, { token: null });
const refresh = (api: Pick<ApiFixture, 'request'>, refreshToken: string) =>
  api.request('POST', '/auth/refresh', { refresh_token: refreshToken }, { token: null });
const me = (api: Pick<ApiFixture, 'request'>, token: string | null) => api.request('GET', '/auth/me', undefined, { token });

function expectTokenPair(body: any): void {
  expect(Object.keys(body).sort()).toEqual(['data']);
  expect(Object.keys(body.data).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
  expect(body.data.access_token).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
  expect(typeof body.data.refresh_token).toBe('string');
  expect(body.data.refresh_token.length).toBeGreaterThanOrEqual(32);
  expect(body.data.token_type).toBe('bearer');
  expect(body.data.expires_in).toBe(ACCESS_TOKEN_SECONDS);
}

describe('login', () => {
  // Every failed login here counts against the one client (127.0.0.1): this block stays below ten.
  let api: ApiFixture;
  beforeAll(async () => { api = guarded(await startApi()); });
  afterAll(async () => { await api.close(); });

  it('answers a bearer token pair whose access token is a JWT for the user, expiring in expires_in seconds', async () => {
    const human = await newHuman(api, { 'journals:create': true });
    const response = await login(api, human.email, human.password);
    expect(response.status).toBe(200);
    expectTokenPair(response.body);
    const claims = jwtClaims(response.body.data.access_token);
    expect(claims.sub).toBe(human.id);
    expect((claims.exp as number) - (claims.iat as number)).toBe(response.body.data.expires_in);
    expect(claims.iat).toBe(Math.floor(api.clock.now().getTime() / 1000));
    const current = await me(api, response.body.data.access_token);
    expect(current.status).toBe(200);
    expect(current.body).toEqual({ data: human.user });
  });

  it('matches the e-mail case-insensitively', async () => {
    const human = await newHuman(api, {}, { email: 'Mixed.Case@Example.test' });
    const response = await login(api, 'mixed.case@EXAMPLE.TEST', human.password);
    expect(response.status).toBe(200);
    expect(jwtClaims(response.body.data.access_token).sub).toBe(human.id);
  });

  it('gives each login its own tokens', async () => {
    const human = await newHuman(api);
    const first = await loginAs(api, human.email, human.password);
    const second = await loginAs(api, human.email, human.password);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
  });

  it('answers a wrong password and an unknown e-mail with the same 401 UNAUTHORIZED body', async () => {
    const human = await newHuman(api);
    const wrongPassword = await login(api, human.email, `${human.password}x`);
    const unknownEmail = await login(api, uniqueEmail('nobody'), human.password);
    expectError(wrongPassword, 401, 'UNAUTHORIZED');
    expectError(unknownEmail, 401, 'UNAUTHORIZED');
    expect(unknownEmail.body).toEqual(wrongPassword.body);
    expect(wrongPassword.body.message).toBe('Invalid e-mail or password');
  });

  it('does not let a service account log in', async () => {
    const agent = await newServiceAccount(api, { admin: true });
    // A service account has no e-mail and no password: neither its name nor its key gets in.
    expectError(await login(api, agent.user.name, agent.apiKey), 401, 'UNAUTHORIZED');
    expectError(await login(api, 'null', agent.apiKey), 401, 'UNAUTHORIZED');
  });

  it('refuses a login body without a password with 400 VALIDATION_ERROR', async () => {
    expectError(await api.request('POST', '/auth/login', { email: 'x@example.test' }, { token: null }), 400, 'VALIDATION_ERROR', 'password');
  });
});

describe('refresh tokens', () => {
  let api: ApiFixture;
  beforeAll(async () => { api = guarded(await startApi()); });
  afterAll(async () => { await api.close(); });

  it('exchanges a refresh token for a new pair that works, and then refuses the used token (401)', async () => {
    const human = await loggedInHuman(api);
    const response = await refresh(api, human.tokens.refresh_token);
    expect(response.status).toBe(200);
    expectTokenPair(response.body);
    const renewed = response.body.data;
    expect(renewed.refresh_token).not.toBe(human.tokens.refresh_token);
    expect(renewed.access_token).not.toBe(human.tokens.access_token);
    expect(dataOf(await me(api, renewed.access_token)).id).toBe(human.id);
    expectError(await refresh(api, human.tokens.refresh_token), 401, 'UNAUTHORIZED');
  });

  it('rotates along a chain: each new refresh token works exactly once', async () => {
    const human = await loggedInHuman(api);
    let current = human.tokens.refresh_token;
    for (let step = 0; step < 3; step += 1) {
      const next = dataOf(await refresh(api, current)).refresh_token as string;
      expect(next).not.toBe(current);
      current = next;
    }
    expect(dataOf(await refresh(api, current)).token_type).toBe('bearer');
  });

  it('revokes the whole family when a used refresh token is presented again', async () => {
    const human = await loggedInHuman(api);
    const second = dataOf(await refresh(api, human.tokens.refresh_token));
    const third = dataOf(await refresh(api, second.refresh_token));
    // Someone replays the first token: it is refused, and the newest token issued from it dies too.
    expectError(await refresh(api, human.tokens.refresh_token), 401, 'UNAUTHORIZED');
    expectError(await refresh(api, third.refresh_token), 401, 'UNAUTHORIZED');
  });

  it('revokes only the family of the reused token, not other logins of the same user', async () => {
    const human = await loggedInHuman(api);
    const otherLogin = await loginAs(api, human.email, human.password);
    const renewed = dataOf(await refresh(api, human.tokens.refresh_token));
    expectError(await refresh(api, human.tokens.refresh_token), 401, 'UNAUTHORIZED');
    expectError(await refresh(api, renewed.refresh_token), 401, 'UNAUTHORIZED');
    expect(dataOf(await refresh(api, otherLogin.refresh_token)).token_type).toBe('bearer');
  });

  it('refuses an unknown refresh token with 401 UNAUTHORIZED', async () => {
    expectError(await refresh(api, 'rt_not-a-token-that-was-ever-issued'), 401, 'UNAUTHORIZED');
  });

  it('refuses a refresh token used as a bearer with 401 UNAUTHORIZED', async () => {
    const human = await loggedInHuman(api, { admin: true });
    expectError(await me(api, human.tokens.refresh_token), 401, 'UNAUTHORIZED');
    expectError(await api.request('GET', `${API}/currencies`, undefined, { token: human.tokens.refresh_token }), 401, 'UNAUTHORIZED');
  });

  it('refuses an access token presented as a refresh token (too long for one: 400 on refresh_token)', async () => {
    const human = await loggedInHuman(api);
    expectError(await refresh(api, human.tokens.access_token), 400, 'VALIDATION_ERROR', 'refresh_token');
    expect(dataOf(await refresh(api, human.tokens.refresh_token)).token_type).toBe('bearer');
  });
});

describe('logout', () => {
  let api: ApiFixture;
  beforeAll(async () => { api = guarded(await startApi()); });
  afterAll(async () => { await api.close(); });

  it('revokes the refresh token: refreshing afterwards is 401', async () => {
    const human = await loggedInHuman(api);
    const response = await api.request('POST', '/auth/logout', { refresh_token: human.tokens.refresh_token }, { token: null });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { revoked: true } });
    expectError(await refresh(api, human.tokens.refresh_token), 401, 'UNAUTHORIZED');
  });

  it('also revokes the tokens rotated from the same login', async () => {
    const human = await loggedInHuman(api);
    const renewed = dataOf(await refresh(api, human.tokens.refresh_token));
    dataOf(await api.request('POST', '/auth/logout', { refresh_token: renewed.refresh_token }, { token: null }));
    expectError(await refresh(api, renewed.refresh_token), 401, 'UNAUTHORIZED');
  });

  it('leaves the other logins of the user working', async () => {
    const human = await loggedInHuman(api);
    const otherLogin = await loginAs(api, human.email, human.password);
    dataOf(await api.request('POST', '/auth/logout', { refresh_token: human.tokens.refresh_token }, { token: null }));
    expect(dataOf(await refresh(api, otherLogin.refresh_token)).token_type).toBe('bearer');
  });

  it('answers 401 UNAUTHORIZED for an unknown refresh token', async () => {
    expectError(await api.request('POST', '/auth/logout', { refresh_token: 'rt_unknown' }, { token: null }), 401, 'UNAUTHORIZED');
  });
});

describe('GET /auth/me', () => {
  let api: ApiFixture;
  beforeAll(async () => { api = guarded(await startApi()); });
  afterAll(async () => { await api.close(); });

  it('answers the human user of an access token', async () => {
    const human = await loggedInHuman(api, { 'periods:write': true });
    const response = await me(api, human.tokens.access_token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: human.user });
    expect(response.body.data).toMatchObject({ user_type: 'human', email: human.email, permissions: { 'periods:write': true } });
  });

  it('answers the service account of an API key', async () => {
    const agent = await newServiceAccount(api, { 'journals:create': true });
    const response = await me(api, agent.apiKey);
    expect(response.status).toBe(200);
    const { api_key: _key, ...withoutKey } = agent.user;
    expect(response.body).toEqual({ data: withoutKey });
    expect(response.body.data).toMatchObject({ user_type: 'service', email: null });
  });

  it.each([
    ['no Authorization header', undefined],
    ['a scheme other than Bearer', 'Basic dXNlcjpwYXNz'],
    ['an empty bearer', 'Bearer '],
    ['an unknown kind of token', 'Bearer abc.def'],
  ])('answers 401 UNAUTHORIZED to %s', async (_label, header) => {
    const response = await api.request('GET', '/auth/me', undefined, { token: null, headers: header === undefined ? {} : { authorization: header } });
    expectError(response, 401, 'UNAUTHORIZED');
  });
});

describe('access tokens that must be refused', () => {
  let api: ApiFixture;
  let human: Awaited<ReturnType<typeof loggedInHuman>>;
  beforeAll(async () => {
    api = guarded(await startApi());
    human = await loggedInHuman(api, { admin: true });
  });
  afterAll(async () => { await api.close(); });

  it('accepts the untouched token (the control case)', async () => {
    expect((await me(api, human.tokens.access_token)).status).toBe(200);
  });

  it('refuses a token whose signature was altered (401)', async () => {
    const [header, payload, signature] = human.tokens.access_token.split('.') as [string, string, string];
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    expectError(await me(api, `${header}.${payload}.${flipped}`), 401, 'UNAUTHORIZED');
    expectError(await api.request('GET', `${API}/users`, undefined, { token: `${header}.${payload}.${flipped}` }), 401, 'UNAUTHORIZED');
  });

  it('refuses a token whose claims were altered under the original signature (401)', async () => {
    const other = await newHuman(api);
    const [header, payload, signature] = human.tokens.access_token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: other.id })).toString('base64url');
    expectError(await me(api, `${header}.${forged}.${signature}`), 401, 'UNAUTHORIZED');
  });

  it('refuses a token signed with another key (401)', async () => {
    const now = Math.floor(api.clock.now().getTime() / 1000);
    const foreign = await new SignJWT({ token_use: 'access' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).setSubject(human.id).setIssuer('ledger')
      .setIssuedAt(now).setExpirationTime(now + 600).sign(new TextEncoder().encode('not the ledger secret'));
    expectError(await me(api, foreign), 401, 'UNAUTHORIZED');
  });

  it('refuses an unsigned token (alg none) (401)', async () => {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = jwtClaims(human.tokens.access_token);
    const unsigned = `${encode({ alg: 'none', typ: 'at+jwt' })}.${encode(claims)}.`;
    expectError(await me(api, unsigned), 401, 'UNAUTHORIZED');
  });

  it('refuses a token issued by another ledger database (401)', async () => {
    const elsewhere = guarded(await startApi());
    try {
      const stranger = await loggedInHuman(elsewhere, { admin: true });
      expectError(await me(api, stranger.tokens.access_token), 401, 'UNAUTHORIZED');
    } finally {
      await elsewhere.close();
    }
  });
});

describe('token lifetimes on the injectable clock', () => {
  let api: ApiFixture;
  beforeEach(async () => { api = guarded(await startApi()); });
  afterEach(async () => { await api.close(); });

  it('accepts an access token until expires_in seconds have passed, then answers 401; refresh still works', async () => {
    const human = await loggedInHuman(api);
    api.clock.advance((ACCESS_TOKEN_SECONDS - 1) * SECOND_MS);
    expect((await me(api, human.tokens.access_token)).status).toBe(200);
    api.clock.advance(2 * SECOND_MS);
    expectError(await me(api, human.tokens.access_token), 401, 'UNAUTHORIZED');
    expectError(await api.request('GET', `${API}/currencies`, undefined, { token: human.tokens.access_token }), 401, 'UNAUTHORIZED');

    const renewed = dataOf(await refresh(api, human.tokens.refresh_token));
    expect(dataOf(await me(api, renewed.access_token)).id).toBe(human.id);
    const claims = jwtClaims(renewed.access_token);
    expect(claims.iat).toBe(Math.floor(api.clock.now().getTime() / 1000));
  });

  it('refuses a refresh token once 30 days have passed since it was issued', async () => {
    const human = await loggedInHuman(api);
    const kept = await loginAs(api, human.email, human.password);
    api.clock.advance(30 * DAY_MS - SECOND_MS);
    expect(dataOf(await refresh(api, kept.refresh_token)).token_type).toBe('bearer');
    api.clock.advance(2 * SECOND_MS);
    expectError(await refresh(api, human.tokens.refresh_token), 401, 'UNAUTHORIZED');
  });

  it('gives a rotated refresh token a lifetime counted from its own issue', async () => {
    const human = await loggedInHuman(api);
    api.clock.advance(ACCESS_TOKEN_SECONDS * SECOND_MS + SECOND_MS);
    const renewed = dataOf(await refresh(api, human.tokens.refresh_token));
    api.clock.advance(30 * DAY_MS - 2 * SECOND_MS);
    const again = dataOf(await refresh(api, renewed.refresh_token));
    api.clock.advance(30 * DAY_MS + SECOND_MS);
    expectError(await refresh(api, again.refresh_token), 401, 'UNAUTHORIZED');
  });

  it('lets a user log in again after the refresh token expired', async () => {
    const human = await loggedInHuman(api);
    api.clock.advance(31 * DAY_MS);
    expectError(await refresh(api, human.tokens.refresh_token), 401, 'UNAUTHORIZED');
    const fresh = await loginAs(api, human.email, human.password);
    expect(dataOf(await me(api, fresh.access_token)).id).toBe(human.id);
  });
});

describe('first-user setup', () => {
  let empty: EmptyApiFixture;
  beforeAll(async () => { empty = guarded(await startEmptyApi()); });
  afterAll(async () => { await empty.close(); });

  it('reports needs_setup true on a database without users', async () => {
    const response = await empty.request('GET', '/auth/setup');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { needs_setup: true } });
  });

  it('refuses a setup with a short password with 400 on password and stays unset', async () => {
    expectError(await empty.request('POST', '/auth/setup', { name: 'Ada', email: 'ada@example.test', password: 'short' }),
      400, 'VALIDATION_ERROR', 'password');
    expect(dataOf(await empty.request('GET', '/auth/setup'))).toEqual({ needs_setup: true });
  });

  it('creates the first user as an admin and answers 201 with a token pair', async () => {
    const response = await empty.request('POST', '/auth/setup', { name: 'Ada', email: 'Ada@Example.test', password: 'first admin pass' });
    expect(response.status).toBe(201);
    expectTokenPair(response.body);
    const current = dataOf(await empty.request('GET', '/auth/me', undefined, { token: response.body.data.access_token }));
    expect(current).toMatchObject({ name: 'Ada', email: 'Ada@Example.test', user_type: 'human', permissions: { admin: true }, is_active: true });
    expect(dataOf(await refresh(empty, response.body.data.refresh_token)).token_type).toBe('bearer');
    const again = dataOf(await empty.request('POST', '/auth/login', { email: 'ada@example.test', password: 'first admin pass' }));
    // The admin can act on the API right away.
    const users = await empty.request('GET', `${API}/users`, undefined, { token: again.access_token });
    expect(users.status).toBe(200);
    expect(users.body.data.map((user: { id: string }) => user.id)).toEqual([current.id]);
  });

  it('reports needs_setup false afterwards and answers a second setup with 409 ALREADY_SET_UP', async () => {
    expect(dataOf(await empty.request('GET', '/auth/setup'))).toEqual({ needs_setup: false });
    expectError(await empty.request('POST', '/auth/setup', { name: 'Eve', email: 'eve@example.test', password: 'second admin pass' }),
      409, 'ALREADY_SET_UP');
    expectError(await empty.request('POST', '/auth/login', { email: 'eve@example.test', password: 'second admin pass' }), 401, 'UNAUTHORIZED');
  });

  it('reports needs_setup false on a ledger that only has a service account', async () => {
    const api = guarded(await startApi());
    try {
      expect(dataOf(await api.request('GET', '/auth/setup', undefined, { token: null }))).toEqual({ needs_setup: false });
      expectError(await api.request('POST', '/auth/setup', { name: 'Eve', email: 'eve@example.test', password: 'second admin pass' },
        { token: null }), 409, 'ALREADY_SET_UP');
    } finally {
      await api.close();
    }
  });

  it('lets only one of two simultaneous setups through', async () => {
    const race = guarded(await startEmptyApi());
    try {
      const attempts = await Promise.all(['one', 'two', 'three'].map((name) =>
        race.request('POST', '/auth/setup', { name, email: `${name}@example.test`, password: 'racing admin pass' })));
      expect(attempts.map((attempt) => attempt.status).sort()).toEqual([201, 409, 409]);
      const winner = attempts.find((attempt) => attempt.status === 201)!;
      const users = dataOf(await race.request('GET', `${API}/users`, undefined, { token: winner.body.data.access_token }));
      expect(users).toHaveLength(1);
    } finally {
      await race.close();
    }
  });
});

describe('failed-login throttling', () => {
  let api: ApiFixture;
  beforeEach(async () => { api = guarded(await startApi()); });
  afterEach(async () => { await api.close(); });

  async function failTimes(count: number, email: string | ((index: number) => string)) {
    for (let index = 0; index < count; index += 1) {
      const address = typeof email === 'string' ? email : email(index);
      expectError(await login(api, address, 'wrong password'), 401, 'UNAUTHORIZED');
    }
  }

  it('answers the 11th attempt after 10 failures for one e-mail with 429 RATE_LIMITED and Retry-After, even with the right password', async () => {
    const human = await newHuman(api);
    await failTimes(10, human.email);
    const blocked = await login(api, human.email, human.password);
    expectError(blocked, 429, 'RATE_LIMITED');
    expect(blocked.headers.get('retry-after')).toBe(String(15 * 60));
    // The limit is counted per e-mail case-insensitively.
    expectError(await login(api, human.email.toUpperCase(), human.password), 429, 'RATE_LIMITED');
  });

  it('limits one client that fails across many e-mails', async () => {
    const human = await newHuman(api);
    await failTimes(CLIENT_FAILED_LOGIN_LIMIT, (index) => uniqueEmail(`spray${index}`));
    const blocked = await login(api, human.email, human.password);
    expectError(blocked, 429, 'RATE_LIMITED');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client is not held back by this one's failures.
    const elsewhere = await requestFrom('127.0.0.2', api.baseUrl, 'POST', '/auth/login', { email: human.email, password: human.password });
    expect(elsewhere.status).toBe(200);
  });

  it('does not lock an e-mail that fails from many clients: each client has ten attempts of its own', async () => {
    const human = await newHuman(api);
    for (let index = 0; index < 10; index += 1) {
      const response = await requestFrom(`127.0.0.${index + 10}`, api.baseUrl, 'POST', '/auth/login',
        { email: human.email, password: 'wrong password' });
      expect(response.status).toBe(401);
    }
    const owner = await requestFrom('127.0.0.99', api.baseUrl, 'POST', '/auth/login', { email: human.email, password: human.password });
    expect(owner.status).toBe(200);
  });

  it('allows ten failures: the tenth attempt is still an ordinary 401', async () => {
    const human = await newHuman(api);
    await failTimes(9, human.email);
    expectError(await login(api, human.email, 'wrong password'), 401, 'UNAUTHORIZED');
    expectError(await login(api, human.email, human.password), 429, 'RATE_LIMITED');
  });

  it('counts down Retry-After on the clock and lets the login through once 15 minutes have passed', async () => {
    const human = await newHuman(api);
    await failTimes(10, human.email);
    api.clock.advance(14 * MINUTE_MS);
    const stillBlocked = await login(api, human.email, human.password);
    expectError(stillBlocked, 429, 'RATE_LIMITED');
    expect(stillBlocked.headers.get('retry-after')).toBe('60');
    api.clock.advance(MINUTE_MS + SECOND_MS);
    const response = await login(api, human.email, human.password);
    expect(response.status).toBe(200);
    expectTokenPair(response.body);
  });

  it('never counts successful logins: twenty in a row all succeed', async () => {
    const human = await newHuman(api);
    for (let attempt = 0; attempt < 20; attempt += 1) {
      expect((await login(api, human.email, human.password)).status).toBe(200);
    }
  });

  it('clears an e-mail\'s failures when it logs in successfully', async () => {
    const human = await newHuman(api);
    // From a client of its own each time, so that only the e-mail's count is in play.
    const attempt = (index: number, password: string) => requestFrom(`127.0.1.${index}`, api.baseUrl, 'POST', '/auth/login',
      { email: human.email, password });
    for (let index = 1; index <= 9; index += 1) expect((await attempt(index, 'wrong password')).status).toBe(401);
    expect((await attempt(10, human.password)).status).toBe(200);
    for (let index = 11; index <= 19; index += 1) expect((await attempt(index, 'wrong password')).status).toBe(401);
    expect((await attempt(20, human.password)).status).toBe(200);
  });

  it('counts logins of a deactivated user as failures', async () => {
    const human = await newHuman(api);
    dataOf(await api.request('PATCH', `${API}/users/${human.id}`, { is_active: false }));
    for (let attempt = 0; attempt < 10; attempt += 1) expectError(await login(api, human.email, human.password), 401, 'UNAUTHORIZED');
    expectError(await login(api, human.email, human.password), 429, 'RATE_LIMITED');
  });
});
