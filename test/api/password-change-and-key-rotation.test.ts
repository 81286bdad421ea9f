/**
 * Ending what a stolen secret can do: a password change (the current password required, every
 * session ended), "sign out everywhere", and API-key rotation for service accounts (the new key
 * shown once, the old key refused at once). Each is in the audit log.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApiFixture, dataOf, expectError, startApi } from '../helpers/api-fixture.js';
import { API, guarded, loginAs, newHuman, newServiceAccount } from '../helpers/auth-helpers.js';

let api: ApiFixture;
beforeEach(async () => { api = guarded(await startApi()); });
afterEach(async () => { await api.close(); });

const me = (token: string) => api.request('GET', '/auth/me', undefined, { token });

async function auditActions(targetId: string): Promise<string[]> {
  const page = dataOf<any[]>(await api.request('GET', `${API}/audit-log?target_id=${targetId}&limit=200`));
  return page.map((record) => record.action);
}

describe('POST /auth/password', () => {
  it('changes the password given the current one, ends every session and answers a new pair', async () => {
    const human = await newHuman(api);
    const here = await loginAs(api, human.email, human.password);
    const elsewhere = await loginAs(api, human.email, human.password);
    const newPassword = `changed-${human.password}`;
    const pair = dataOf(await api.request('POST', '/auth/password', { current_password: human.password, new_password: newPassword },
      { token: here.access_token }));
    expect(pair.token_type).toBe('bearer');
    // Both earlier sessions are over, access and refresh tokens alike; the new pair works.
    for (const old of [here, elsewhere]) {
      expectError(await me(old.access_token), 401, 'UNAUTHORIZED');
      expectError(await api.request('POST', '/auth/refresh', { refresh_token: old.refresh_token }, { token: null }), 401, 'UNAUTHORIZED');
    }
    expect(dataOf(await me(pair.access_token)).id).toBe(human.id);
    expectError(await api.request('POST', '/auth/login', { email: human.email, password: human.password }, { token: null }), 401, 'UNAUTHORIZED');
    await loginAs(api, human.email, newPassword);
    expect(await auditActions(human.id)).toContain('auth.password_change');
  });

  it('refuses a wrong current password, a weak new one, and callers without a password', async () => {
    const human = await newHuman(api);
    const tokens = await loginAs(api, human.email, human.password);
    expectError(await api.request('POST', '/auth/password', { current_password: 'not my password', new_password: 'a fine new passphrase' },
      { token: tokens.access_token }), 400, 'VALIDATION_ERROR', 'current_password');
    expectError(await api.request('POST', '/auth/password', { current_password: human.password, new_password: 'password' },
      { token: tokens.access_token }), 400, 'VALIDATION_ERROR', 'new_password');
    expectError(await api.request('POST', '/auth/password', { current_password: human.password, new_password: 'a fine new passphrase' },
      { token: null }), 401, 'UNAUTHORIZED');
    const robot = await newServiceAccount(api);
    expectError(await api.request('POST', '/auth/password', { current_password: 'whatever it is', new_password: 'a fine new passphrase' },
      { token: robot.apiKey }), 403, 'FORBIDDEN');
    // The session that asked is still open after the refusals.
    expect((await me(tokens.access_token)).status).toBe(200);
  });
});

describe('POST /auth/logout-all', () => {
  it('ends every session of the user at once, and only that user\'s', async () => {
    const human = await newHuman(api);
    const other = await newHuman(api);
    const sessions = [await loginAs(api, human.email, human.password), await loginAs(api, human.email, human.password)];
    const othersSession = await loginAs(api, other.email, other.password);
    expect(dataOf(await api.request('POST', '/auth/logout-all', undefined, { token: sessions[0]!.access_token }))).toEqual({ revoked: true });
    for (const session of sessions) {
      expectError(await me(session.access_token), 401, 'UNAUTHORIZED');
      expectError(await api.request('POST', '/auth/refresh', { refresh_token: session.refresh_token }, { token: null }), 401, 'UNAUTHORIZED');
    }
    expect((await me(othersSession.access_token)).status).toBe(200);
    expect(await auditActions(human.id)).toContain('auth.logout_all');
    expectError(await api.request('POST', '/auth/logout-all', undefined, { token: null }), 401, 'UNAUTHORIZED');
  });
});

describe('POST /api/v1/users/{id}/api-key/rotate', () => {
  it('answers a new key once and refuses the old one at once', async () => {
    const robot = await newServiceAccount(api, { 'journals:create': true });
    const rotated = dataOf(await api.request('POST', `${API}/users/${robot.id}/api-key/rotate`));
    expect(rotated.id).toBe(robot.id);
    expect(rotated.api_key).toMatch(/^tsk_[A-Za-z0-9_-]{43,}$/);
    expect(rotated.api_key).not.toBe(robot.apiKey);
    expectError(await api.request('GET', `${API}/users/${robot.id}`, undefined, { token: robot.apiKey }), 401, 'UNAUTHORIZED');
    expect((await api.request('GET', `${API}/users/${robot.id}`, undefined, { token: rotated.api_key })).status).toBe(200);
    expect(dataOf(await api.request('GET', `${API}/users/${robot.id}`)).api_key).toBeUndefined();
    expect(await auditActions(robot.id)).toContain('service_account.key_rotate');
  });

  it('needs users:manage, keeps admins\' keys to admins, and rotates only service accounts', async () => {
    const robot = await newServiceAccount(api);
    const reader = await newServiceAccount(api);
    expectError(await api.request('POST', `${API}/users/${robot.id}/api-key/rotate`, undefined, { token: reader.apiKey }), 403, 'FORBIDDEN');
    const manager = await newServiceAccount(api, { 'users:manage': true });
    const admin = await newServiceAccount(api, { admin: true });
    expectError(await api.request('POST', `${API}/users/${admin.id}/api-key/rotate`, undefined, { token: manager.apiKey }), 403, 'FORBIDDEN');
    expect((await api.request('POST', `${API}/users/${robot.id}/api-key/rotate`, undefined, { token: manager.apiKey })).status).toBe(200);
    const human = await newHuman(api);
    expectError(await api.request('POST', `${API}/users/${human.id}/api-key/rotate`), 400, 'VALIDATION_ERROR');
    expectError(await api.request('POST', `${API}/users/no-such-user/api-key/rotate`), 404, 'NOT_FOUND');
  });

  it('is in the OpenAPI document with /auth/password and /auth/logout-all', async () => {
    const document = await api.request('GET', `${API}/openapi.json`, undefined, { token: null });
    const paths = Object.keys(document.body.paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/v1/users/{id}/api-key/rotate', '/auth/password', '/auth/logout-all']));
  });
});
