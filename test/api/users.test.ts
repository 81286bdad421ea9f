import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, dataOf, expectError, startApi, walkPages } from '../helpers/api-fixture.js';
import {
  API, assertNoSecrets, guarded, loggedInHuman, loginAs, newHuman, newServiceAccount, uniqueEmail,
} from '../helpers/auth-helpers.js';
import { listTables, rawQuery } from '../helpers/raw-sql.js';

const USER_KEYS = ['created_at', 'email', 'id', 'is_active', 'name', 'permissions', 'user_type'];

describe('users API', () => {
  // One ledger for the describe block; every test makes users under e-mails of its own.
  let api: ApiFixture;
  beforeAll(async () => { api = guarded(await startApi()); });
  afterAll(async () => { await api.close(); });

  it('creates a human user and answers 201 with the user and no password or hash', async () => {
    const email = uniqueEmail('create');
    const response = await api.request('POST', `${API}/users`, {
      name: 'Grace Hopper', email, password: 'correct horse battery', permissions: { 'journals:create': true },
    });
    expect(response.status).toBe(201);
    const user = response.body.data;
    expect(Object.keys(user).sort()).toEqual(USER_KEYS);
    expect(user).toMatchObject({
      name: 'Grace Hopper', email, user_type: 'human', permissions: { 'journals:create': true }, is_active: true,
    });
    expect(typeof user.id).toBe('string');
    expect(JSON.stringify(response.body)).not.toContain('correct horse battery');
    expect(dataOf(await api.request('GET', `${API}/users/${user.id}`))).toEqual(user);
  });

  it('creates a human user without permissions as read-only ({})', async () => {
    const created = dataOf(await api.request('POST', `${API}/users`, {
      name: 'Reader', email: uniqueEmail('reader'), password: 'long enough',
    }), 201);
    expect(created.permissions).toEqual({});
  });

  it('stores only a scrypt hash of the password and a hash of the API key', async () => {
    const human = await newHuman(api);
    const agent = await newServiceAccount(api);
    const users = await rawQuery<{ password_hash: string }>(api.location, 'SELECT password_hash FROM users WHERE id = $1', [human.id]);
    expect(users).toHaveLength(1);
    expect(users[0]!.password_hash.startsWith('scrypt$')).toBe(true);
    expect(users[0]!.password_hash).not.toContain(human.password);
    const keys = await rawQuery<{ key_hash: string }>(api.location, 'SELECT key_hash FROM api_keys WHERE user_id = $1', [agent.id]);
    expect(keys).toHaveLength(1);
    expect(keys[0]!.key_hash).not.toContain(agent.apiKey);
    expect(keys[0]!.key_hash).not.toContain(agent.apiKey.slice(4));
  });

  it('creates a service account whose api_key (tsk_) is shown once and works as a bearer', async () => {
    const response = await api.request('POST', `${API}/users/service-accounts`, {
      name: 'Billing agent', permissions: { 'journals:create': true },
    });
    expect(response.status).toBe(201);
    const created = response.body.data;
    expect(Object.keys(created).sort()).toEqual([...USER_KEYS, 'api_key'].sort());
    expect(created).toMatchObject({
      name: 'Billing agent', email: null, user_type: 'service', permissions: { 'journals:create': true }, is_active: true,
    });
    expect(created.api_key).toMatch(/^tsk_[A-Za-z0-9_-]{43,}$/);

    const me = await api.request('GET', '/auth/me', undefined, { token: created.api_key });
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(created.id);
    expect(me.body.data).not.toHaveProperty('api_key');

    const { api_key: _shownOnce, ...withoutKey } = created;
    const fetched = dataOf(await api.request('GET', `${API}/users/${created.id}`));
    expect(fetched).toEqual(withoutKey);
    const { rows } = await walkPages(api, `${API}/users`);
    const listed = rows.find((user: { id: string }) => user.id === created.id);
    expect(listed).toEqual(withoutKey);
    expect(JSON.stringify(rows)).not.toContain(created.api_key);
  });

  it('keeps no copy of an API key for Idempotency-Key replays: a replay answers the account without it', async () => {
    const headers = { 'idempotency-key': 'create-billing-bot' };
    const first = await api.request('POST', `${API}/users/service-accounts`, { name: 'Billing bot' }, { headers });
    expect(first.status).toBe(201);
    const apiKey = first.body.data.api_key as string;
    expect(apiKey.startsWith('tsk_')).toBe(true);
    const replay = await api.request('POST', `${API}/users/service-accounts`, { name: 'Billing bot' }, { headers });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const { api_key: _shownOnce, ...account } = first.body.data;
    expect(replay.body).toEqual({ data: account });
    // Nowhere in the database: not in the users, not in the kept answers.
    const tables = await listTables(api.location);
    expect(tables.length).toBeGreaterThan(0);
    for (const table of tables) {
      expect(JSON.stringify(await rawQuery(api.location, `SELECT * FROM ${table}`)), `table ${table}`).not.toContain(apiKey.slice(4));
    }
  });

  it('gives every service account its own key', async () => {
    const first = await newServiceAccount(api);
    const second = await newServiceAccount(api);
    expect(first.apiKey).not.toBe(second.apiKey);
    expect(dataOf(await api.request('GET', '/auth/me', undefined, { token: second.apiKey })).id).toBe(second.id);
  });

  it('refuses an unknown API key with 401 UNAUTHORIZED', async () => {
    expectError(await api.request('GET', `${API}/users`, undefined, { token: `tsk_${'A'.repeat(43)}` }), 401, 'UNAUTHORIZED');
  });

  it('gets a user by id and answers 404 NOT_FOUND for an unknown id', async () => {
    const human = await newHuman(api, { 'accounts:write': true });
    const fetched = await api.request('GET', `${API}/users/${human.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual({ data: human.user });
    expectError(await api.request('GET', `${API}/users/no-such-user`), 404, 'NOT_FOUND');
  });

  it('answers 404 NOT_FOUND when patching an unknown user', async () => {
    expectError(await api.request('PATCH', `${API}/users/no-such-user`, { name: 'x' }), 404, 'NOT_FOUND');
  });

  it('refuses an e-mail that differs from an existing one only in case with 409 DUPLICATE on email', async () => {
    await newHuman(api, {}, { email: 'Ann@x.io' });
    const before = (await walkPages(api, `${API}/users`)).rows.length;
    const response = await api.request('POST', `${API}/users`, { name: 'Other Ann', email: 'ann@X.IO', password: 'long enough' });
    expectError(response, 409, 'DUPLICATE', 'email');
    expect((await walkPages(api, `${API}/users`)).rows.length).toBe(before);
  });

  it.each([
    ['seven characters', 'abcdefg', 'password'],
    ['an empty password', '', 'password'],
  ])('refuses a password of %s with 400 VALIDATION_ERROR on password', async (_label, password, field) => {
    const email = uniqueEmail('short');
    expectError(await api.request('POST', `${API}/users`, { name: 'Short', email, password }), 400, 'VALIDATION_ERROR', field);
    expectError(await api.request('POST', '/auth/login', { email, password: 'whatever long' }, { token: null }), 401, 'UNAUTHORIZED');
  });

  it('accepts a password of exactly eight characters', async () => {
    const email = uniqueEmail('eight');
    dataOf(await api.request('POST', `${API}/users`, { name: 'Eight', email, password: 'kq7wz3mf' }), 201);
    expect((await loginAs(api, email, 'kq7wz3mf')).token_type).toBe('bearer');
  });

  it.each([
    ['POST', `${API}/users`, () => ({ name: 'X', email: uniqueEmail('perm'), password: 'long enough', permissions: { 'journals:delete': true } })],
    ['POST', `${API}/users/service-accounts`, () => ({ name: 'X', permissions: { 'journals:delete': true } })],
  ])('refuses an unknown permission key on %s %s with 400 VALIDATION_ERROR', async (method, path, body) => {
    expectError(await api.request(method, path, body()), 400, 'VALIDATION_ERROR', 'permissions.journals:delete');
  });

  it('refuses an unknown permission key on PATCH and leaves the user unchanged', async () => {
    const human = await newHuman(api, { 'accounts:write': true });
    expectError(await api.request('PATCH', `${API}/users/${human.id}`, { permissions: { superuser: true } }),
      400, 'VALIDATION_ERROR', 'permissions.superuser');
    expect(dataOf(await api.request('GET', `${API}/users/${human.id}`))).toEqual(human.user);
  });

  it('refuses a permission value that is not a boolean with 400 VALIDATION_ERROR', async () => {
    const response = await api.request('POST', `${API}/users`, {
      name: 'X', email: uniqueEmail('bool'), password: 'long enough', permissions: { 'journals:create': 'yes' },
    });
    expectError(response, 400, 'VALIDATION_ERROR');
  });

  it.each([
    ['a missing e-mail', { name: 'X', password: 'long enough' }, 'email'],
    ['a malformed e-mail', { name: 'X', email: 'not-an-email', password: 'long enough' }, 'email'],
    ['an empty name', { name: '', email: 'empty.name@example.test', password: 'long enough' }, 'name'],
    ['an unknown field', { name: 'X', email: 'extra@example.test', password: 'long enough', role: 'admin' }, 'role'],
  ])('refuses a user with %s with 400 VALIDATION_ERROR naming the field', async (_label, body, field) => {
    expectError(await api.request('POST', `${API}/users`, body), 400, 'VALIDATION_ERROR', field);
  });

  it('lists users in pages of two from the first to the last, each exactly once, in creation order', async () => {
    const fresh = guarded(await startApi());
    try {
      const created = [];
      for (let index = 0; index < 4; index += 1) created.push((await newHuman(fresh)).id);
      created.push((await newServiceAccount(fresh)).id);
      const { rows, pages } = await walkPages(fresh, `${API}/users`, { limit: 2 });
      // The fixture's admin service account was created first.
      expect(rows).toHaveLength(6);
      expect(pages.map((page) => page.length)).toEqual([2, 2, 2]);
      expect(rows.slice(1).map((user: { id: string }) => user.id)).toEqual(created);
      expect(new Set(rows.map((user: { id: string }) => user.id)).size).toBe(6);
      for (const user of rows) expect(Object.keys(user).sort()).toEqual(USER_KEYS);
    } finally {
      await fresh.close();
    }
  });

  it('refuses limit=0 and a cursor that was never issued with 400 VALIDATION_ERROR', async () => {
    expectError(await api.request('GET', `${API}/users?limit=0`), 400, 'VALIDATION_ERROR');
    expectError(await api.request('GET', `${API}/users?cursor=not-a-cursor`), 400, 'VALIDATION_ERROR');
  });

  it('updates name, permissions and is_active with PATCH', async () => {
    const human = await newHuman(api, { 'accounts:write': true });
    const renamed = dataOf(await api.request('PATCH', `${API}/users/${human.id}`, { name: 'Renamed' }));
    expect(renamed).toEqual({ ...human.user, name: 'Renamed' });
    const granted = dataOf(await api.request('PATCH', `${API}/users/${human.id}`, {
      permissions: { 'journals:create': true, 'journals:reverse': true },
    }));
    expect(granted.permissions).toEqual({ 'journals:create': true, 'journals:reverse': true });
    const deactivated = dataOf(await api.request('PATCH', `${API}/users/${human.id}`, { is_active: false }));
    expect(deactivated.is_active).toBe(false);
    const reactivated = dataOf(await api.request('PATCH', `${API}/users/${human.id}`, { is_active: true, name: 'Back' }));
    expect(reactivated).toEqual({
      ...human.user, name: 'Back', permissions: { 'journals:create': true, 'journals:reverse': true }, is_active: true,
    });
    expect(dataOf(await api.request('GET', `${API}/users/${human.id}`))).toEqual(reactivated);
  });

  it.each([
    ['email', { email: 'new@example.test' }],
    ['password', { password: 'a new password' }],
    ['user_type', { user_type: 'service' }],
    ['id', { id: 'other-id' }],
  ])('refuses a PATCH of %s with 400 VALIDATION_ERROR and changes nothing', async (field, body) => {
    const human = await newHuman(api);
    expectError(await api.request('PATCH', `${API}/users/${human.id}`, { name: 'Changed', ...body }), 400, 'VALIDATION_ERROR', field);
    expect(dataOf(await api.request('GET', `${API}/users/${human.id}`))).toEqual(human.user);
  });

  it('refuses an empty PATCH with 400 VALIDATION_ERROR', async () => {
    const human = await newHuman(api);
    expectError(await api.request('PATCH', `${API}/users/${human.id}`, {}), 400, 'VALIDATION_ERROR');
  });

  it('requires credentials for every users route', async () => {
    for (const [method, path] of [['GET', `${API}/users`], ['POST', `${API}/users`], ['GET', `${API}/users/x`]] as const) {
      expectError(await api.request(method, path, method === 'POST' ? { name: 'x' } : undefined, { token: null }), 401, 'UNAUTHORIZED');
    }
  });
});

describe('deactivating a user', () => {
  let api: ApiFixture;
  beforeAll(async () => { api = guarded(await startApi()); });
  afterAll(async () => { await api.close(); });

  it('cuts off its access token, its refresh token and its login on the next request', async () => {
    const human = await loggedInHuman(api, { 'currencies:write': true });
    expect((await api.request('GET', '/auth/me', undefined, { token: human.tokens.access_token })).status).toBe(200);

    dataOf(await api.request('PATCH', `${API}/users/${human.id}`, { is_active: false }));

    expectError(await api.request('GET', '/auth/me', undefined, { token: human.tokens.access_token }), 401, 'UNAUTHORIZED');
    expectError(await api.request('GET', `${API}/currencies`, undefined, { token: human.tokens.access_token }), 401, 'UNAUTHORIZED');
    expectError(await api.request('POST', '/auth/refresh', { refresh_token: human.tokens.refresh_token }, { token: null }),
      401, 'UNAUTHORIZED');
    expectError(await api.request('POST', '/auth/login', { email: human.email, password: human.password }, { token: null }),
      401, 'UNAUTHORIZED');
  });

  it('cuts off its API key on the next request', async () => {
    const agent = await newServiceAccount(api, { 'currencies:write': true });
    expect((await api.request('GET', `${API}/currencies`, undefined, { token: agent.apiKey })).status).toBe(200);
    const updated = dataOf(await api.request('PATCH', `${API}/users/${agent.id}`, { is_active: false }));
    expect(updated.is_active).toBe(false);
    expectError(await api.request('GET', `${API}/currencies`, undefined, { token: agent.apiKey }), 401, 'UNAUTHORIZED');
    expectError(await api.request('GET', '/auth/me', undefined, { token: agent.apiKey }), 401, 'UNAUTHORIZED');
  });

  it('applies a permission change on the next request of an access token issued before it', async () => {
    const human = await loggedInHuman(api, { 'currencies:write': true });
    const body = { code: 'PCH', name: 'Perm change', symbol: 'p', asset_scale: 2, asset_type: 'fiat', caip19_id: 'test:0/token:PCH' };
    dataOf(await api.request('PATCH', `${API}/users/${human.id}`, { permissions: {} }));
    expectError(await api.request('POST', `${API}/currencies`, body, { token: human.tokens.access_token }), 403, 'FORBIDDEN');
  });

  it('does not let a user deactivate itself (400 on is_active)', async () => {
    const admin = await loggedInHuman(api, { admin: true });
    expectError(await api.request('PATCH', `${API}/users/${admin.id}`, { is_active: false }, { token: admin.tokens.access_token }),
      400, 'VALIDATION_ERROR', 'is_active');
    const adminAgent = await newServiceAccount(api, { admin: true });
    expectError(await api.request('PATCH', `${API}/users/${adminAgent.id}`, { is_active: false }, { token: adminAgent.apiKey }),
      400, 'VALIDATION_ERROR', 'is_active');
    expect(dataOf(await api.request('GET', `${API}/users/${admin.id}`)).is_active).toBe(true);
    expect(dataOf(await api.request('GET', `${API}/users/${adminAgent.id}`)).is_active).toBe(true);
  });

  it('answers 403 to a users:manage non-admin deactivating itself, as for any change to a user manager', async () => {
    const manager = await loggedInHuman(api, { 'users:manage': true });
    expectError(await api.request('PATCH', `${API}/users/${manager.id}`, { is_active: false }, { token: manager.tokens.access_token }),
      403, 'FORBIDDEN');
    expect(dataOf(await api.request('GET', `${API}/users/${manager.id}`)).is_active).toBe(true);
  });
});

describe('the last active admin', () => {
  let api: ApiFixture;
  let adminId: string;
  beforeAll(async () => {
    api = guarded(await startApi());
    adminId = dataOf(await api.request('GET', '/auth/me')).id;
  });
  afterAll(async () => { await api.close(); });

  it('starts as the only admin: the fixture service account', async () => {
    const { rows } = await walkPages(api, `${API}/users`);
    expect(rows.filter((user: any) => user.permissions.admin === true && user.is_active).map((user: any) => user.id))
      .toEqual([adminId]);
  });

  it('cannot lose admin (400 on permissions.admin)', async () => {
    expectError(await api.request('PATCH', `${API}/users/${adminId}`, { permissions: { 'users:manage': true } }),
      400, 'VALIDATION_ERROR', 'permissions.admin');
    expectError(await api.request('PATCH', `${API}/users/${adminId}`, { permissions: { admin: false } }),
      400, 'VALIDATION_ERROR', 'permissions.admin');
    expect(dataOf(await api.request('GET', `${API}/users/${adminId}`)).permissions).toEqual({ admin: true });
  });

  it('cannot be deactivated, not even by the local operator (400 on is_active)', async () => {
    await expect(api.service.updateUser(null, adminId, { is_active: false })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR', field: 'is_active',
    });
    expect(dataOf(await api.request('GET', `${API}/users/${adminId}`)).is_active).toBe(true);
  });

  it('does not count an inactive admin as a remaining admin', async () => {
    const second = await newHuman(api, { admin: true });
    dataOf(await api.request('PATCH', `${API}/users/${second.id}`, { is_active: false }));
    expectError(await api.request('PATCH', `${API}/users/${adminId}`, { permissions: {} }), 400, 'VALIDATION_ERROR', 'permissions.admin');
  });

  it('may step down once another active admin exists', async () => {
    const successor = await loggedInHuman(api, { admin: true });
    const demoted = dataOf(await api.request('PATCH', `${API}/users/${adminId}`, { permissions: { 'users:manage': true } },
      { token: successor.tokens.access_token }));
    expect(demoted.permissions).toEqual({ 'users:manage': true });
    // The successor is now the last active admin and cannot be removed by itself either.
    expectError(await api.request('PATCH', `${API}/users/${successor.id}`, { permissions: {} }, { token: successor.tokens.access_token }),
      400, 'VALIDATION_ERROR', 'permissions.admin');
    dataOf(await api.request('PATCH', `${API}/users/${adminId}`, { permissions: { admin: true } }, { token: successor.tokens.access_token }));
  });
});

describe('two admins deactivating each other at the same moment', () => {
  it('lets exactly one succeed, so one active admin always remains', async () => {
    const api = guarded(await startApi());
    try {
      const first = dataOf(await api.request('GET', '/auth/me')).id as string;
      const second = await loggedInHuman(api, { admin: true });
      const [byFirst, bySecond] = await Promise.all([
        api.request('PATCH', `${API}/users/${second.id}`, { is_active: false }),
        api.request('PATCH', `${API}/users/${first}`, { is_active: false }, { token: second.tokens.access_token }),
      ]);
      const [winner, loser] = byFirst.status === 200 ? [byFirst, bySecond] : [bySecond, byFirst];
      expect(winner.status).toBe(200);
      // The loser is refused as the last admin, or, when its request is authenticated after the
      // winner's commit, as a deactivated user.
      const refusal = { status: loser.status, code: loser.body.code, field: loser.body.field };
      expect([{ status: 400, code: 'VALIDATION_ERROR', field: 'is_active' }, { status: 401, code: 'UNAUTHORIZED', field: undefined }])
        .toContainEqual(refusal);
      const { rows } = await walkPages(api, `${API}/users`, { limit: 200 }).catch(async () =>
        // The fixture key may be the one deactivated: read as the other admin then.
        walkPages({ ...api, request: (method, path, body, options) => api.request(method, path, body, { ...options, token: second.tokens.access_token }) },
          `${API}/users`, { limit: 200 }));
      expect(rows.filter((user: any) => user.is_active && user.permissions.admin === true)).toHaveLength(1);
    } finally {
      await api.close();
    }
  });
});

describe('who may grant and change permissions', () => {
  let api: ApiFixture;
  let manager: Awaited<ReturnType<typeof loggedInHuman>>;
  let managerAgent: { id: string; apiKey: string };
  beforeAll(async () => {
    api = guarded(await startApi());
    manager = await loggedInHuman(api, { 'users:manage': true, 'journals:create': true });
    managerAgent = await newServiceAccount(api, { 'users:manage': true });
  });
  afterAll(async () => { await api.close(); });

  const asManager = () => ({ token: manager.tokens.access_token });
  const userCount = async () => (await walkPages(api, `${API}/users`)).rows.length;

  it('lets a users:manage non-admin create users and service accounts with permissions it holds itself', async () => {
    const created = dataOf(await api.request('POST', `${API}/users`, {
      name: 'Clerk', email: uniqueEmail('clerk'), password: 'long enough', permissions: { 'journals:create': true, 'settings:write': false },
    }, asManager()), 201);
    expect(created.permissions).toEqual({ 'journals:create': true, 'settings:write': false });
    const agent = dataOf(await api.request('POST', `${API}/users/service-accounts`, {
      name: 'Bot', permissions: {},
    }, { token: managerAgent.apiKey }), 201);
    expect(agent.api_key.startsWith('tsk_')).toBe(true);
  });

  it('answers 403 FORBIDDEN when a users:manage non-admin grants a permission it does not hold, and nothing is created or changed', async () => {
    const before = await userCount();
    const beyond = { 'journals:create': true, 'periods:close': true, 'settings:write': true };
    const refusedAgent = await api.request('POST', `${API}/users/service-accounts`, { name: 'Escalate', permissions: beyond }, asManager());
    expectError(refusedAgent, 403, 'FORBIDDEN');
    expect(refusedAgent.body.message).toContain('periods:close');
    expectError(await api.request('POST', `${API}/users`, {
      name: 'Escalate', email: uniqueEmail('escalate'), password: 'long enough', permissions: { 'settings:write': true },
    }, asManager()), 403, 'FORBIDDEN', 'permissions.settings:write');
    expectError(await api.request('POST', `${API}/users/service-accounts`, { name: 'Escalate', permissions: { 'journals:create': true } },
      { token: managerAgent.apiKey }), 403, 'FORBIDDEN');
    const plain = await newHuman(api, { 'accounts:write': true });
    expectError(await api.request('PATCH', `${API}/users/${plain.id}`, { permissions: { 'accounts:write': true, 'periods:close': true } },
      asManager()), 403, 'FORBIDDEN');
    expect(dataOf(await api.request('GET', `${API}/users/${plain.id}`))).toEqual(plain.user);
    expect(await userCount()).toBe(before + 1);
  });

  it.each([
    ['admin', { admin: true }],
    ['users:manage', { 'users:manage': true }],
    ['admin alongside other keys', { 'journals:create': true, admin: true }],
  ])('answers 403 FORBIDDEN when a users:manage non-admin grants %s, and creates nothing', async (_label, permissions) => {
    const before = await userCount();
    const email = uniqueEmail('escalate');
    expectError(await api.request('POST', `${API}/users`, { name: 'Escalate', email, password: 'long enough', permissions }, asManager()),
      403, 'FORBIDDEN');
    expectError(await api.request('POST', `${API}/users/service-accounts`, { name: 'Escalate', permissions }, { token: managerAgent.apiKey }),
      403, 'FORBIDDEN');
    const plain = await newHuman(api, { 'accounts:write': true });
    expectError(await api.request('PATCH', `${API}/users/${plain.id}`, { permissions }, asManager()), 403, 'FORBIDDEN');
    expect(dataOf(await api.request('GET', `${API}/users/${plain.id}`))).toEqual(plain.user);
    expect(await userCount()).toBe(before + 1);
    expectError(await api.request('POST', '/auth/login', { email, password: 'long enough' }, { token: null }), 401, 'UNAUTHORIZED');
  });

  it('lets an admin grant admin and users:manage', async () => {
    const created = dataOf(await api.request('POST', `${API}/users`, {
      name: 'Deputy', email: uniqueEmail('deputy'), password: 'long enough', permissions: { 'users:manage': true },
    }), 201);
    const promoted = dataOf(await api.request('PATCH', `${API}/users/${created.id}`, { permissions: { admin: true } }));
    expect(promoted.permissions).toEqual({ admin: true });
  });

  it('does not let a users:manage non-admin change an admin in any way (403)', async () => {
    const admin = await newHuman(api, { admin: true });
    for (const body of [{ name: 'Renamed' }, { is_active: false }, { permissions: {} }]) {
      expectError(await api.request('PATCH', `${API}/users/${admin.id}`, body, asManager()), 403, 'FORBIDDEN');
    }
    expect(dataOf(await api.request('GET', `${API}/users/${admin.id}`))).toEqual(admin.user);
  });

  it('does not let a users:manage non-admin change another user manager (403)', async () => {
    const otherManager = await newHuman(api, { 'users:manage': true });
    expectError(await api.request('PATCH', `${API}/users/${otherManager.id}`, { is_active: false }, asManager()), 403, 'FORBIDDEN');
    expect(dataOf(await api.request('GET', `${API}/users/${otherManager.id}`)).is_active).toBe(true);
  });

  it('lets a users:manage non-admin rename, re-permission, deactivate, reactivate and re-key users whose permissions it holds', async () => {
    const clerk = await newHuman(api, { 'journals:create': true });
    const updated = dataOf(await api.request('PATCH', `${API}/users/${clerk.id}`, {
      name: 'Clerk two', permissions: { 'journals:create': false }, is_active: false,
    }, asManager()));
    expect(updated).toEqual({ ...clerk.user, name: 'Clerk two', permissions: { 'journals:create': false }, is_active: false });
    expect(dataOf(await api.request('PATCH', `${API}/users/${clerk.id}`, { is_active: true }, asManager())).is_active).toBe(true);
    const bot = await newServiceAccount(api, { 'journals:create': true });
    const rotated = dataOf(await api.request('POST', `${API}/users/${bot.id}/api-key/rotate`, undefined, asManager()));
    expect(rotated.api_key).not.toBe(bot.apiKey);
  });

  describe('a user holding permissions the manager lacks is out of its reach', () => {
    const powerful = { 'settings:write': true, 'accounts:write': true, 'journals:create': true, 'periods:close': true };

    it.each([
      ['reactivate', { is_active: true }, false],
      ['deactivate', { is_active: false }, true],
      ['rename', { name: 'Renamed' }, true],
      ['strip the permissions of', { permissions: {} }, true],
    ])('refuses to %s it with 403 FORBIDDEN and changes nothing', async (_label, body, startActive) => {
      const target = await newServiceAccount(api, powerful);
      if (!startActive) dataOf(await api.request('PATCH', `${API}/users/${target.id}`, { is_active: false }));
      const before = dataOf(await api.request('GET', `${API}/users/${target.id}`));
      for (const as of [asManager(), { token: managerAgent.apiKey }]) {
        const refused = await api.request('PATCH', `${API}/users/${target.id}`, body, as);
        expectError(refused, 403, 'FORBIDDEN');
        expect(refused.body.message).toContain('settings:write');
      }
      expect(dataOf(await api.request('GET', `${API}/users/${target.id}`))).toEqual(before);
    });

    it('refuses to rotate its key, active or not, and its old key keeps working', async () => {
      const target = await newServiceAccount(api, powerful);
      for (const as of [asManager(), { token: managerAgent.apiKey }]) {
        expectError(await api.request('POST', `${API}/users/${target.id}/api-key/rotate`, undefined, as), 403, 'FORBIDDEN');
      }
      dataOf(await api.request('PATCH', `${API}/users/${target.id}`, { is_active: false }));
      expectError(await api.request('POST', `${API}/users/${target.id}/api-key/rotate`, undefined, asManager()), 403, 'FORBIDDEN');
      dataOf(await api.request('PATCH', `${API}/users/${target.id}`, { is_active: true }));
      expect((await api.request('GET', `${API}/settings`, undefined, { token: target.apiKey })).status).toBe(200);
    });

    it('lets an admin do all of it', async () => {
      const target = await newServiceAccount(api, powerful);
      dataOf(await api.request('PATCH', `${API}/users/${target.id}`, { is_active: false }));
      dataOf(await api.request('PATCH', `${API}/users/${target.id}`, { is_active: true }));
      expect(dataOf(await api.request('POST', `${API}/users/${target.id}/api-key/rotate`)).api_key).toMatch(/^tsk_/);
    });
  });

  it('answers 403 FORBIDDEN to a user without users:manage on every users write', async () => {
    const clerk = await loggedInHuman(api, { 'journals:create': true, 'settings:write': true });
    const token = { token: clerk.tokens.access_token };
    const target = await newHuman(api);
    expectError(await api.request('POST', `${API}/users`, { name: 'X', email: uniqueEmail(), password: 'long enough' }, token), 403, 'FORBIDDEN');
    expectError(await api.request('POST', `${API}/users/service-accounts`, { name: 'X' }, token), 403, 'FORBIDDEN');
    expectError(await api.request('PATCH', `${API}/users/${target.id}`, { name: 'X' }, token), 403, 'FORBIDDEN');
    expectError(await api.request('PATCH', `${API}/users/${clerk.id}`, { permissions: { admin: true } }, token), 403, 'FORBIDDEN');
    expect(dataOf(await api.request('GET', `${API}/users/${clerk.id}`)).permissions).toEqual({ 'journals:create': true, 'settings:write': true });
  });

  it('never shows a secret in any user answer of this suite', async () => {
    const { rows } = await walkPages(api, `${API}/users`);
    assertNoSecrets(rows);
    expect(rows.every((user: any) => !('api_key' in user))).toBe(true);
    expect(rows.length).toBeGreaterThan(5);
  });
});
