/**
 * Sessions end when they should: logout ends that login's access tokens at once (not after their
 * 15 minutes), and deactivating a user ends every session, which reactivation does not revive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, dataOf, expectError, startApi } from '../helpers/api-fixture.js';
import { API, guarded, loggedInHuman, loginAs } from '../helpers/auth-helpers.js';

let api: ApiFixture;
beforeAll(async () => { api = guarded(await startApi()); });
afterAll(async () => { await api.close(); });

const me = (token: string) => api.request('GET', '/auth/me', undefined, { token });
const refresh = (refreshToken: string) => api.request('POST', '/auth/refresh', { refresh_token: refreshToken }, { token: null });

describe('logout', () => {
  it('ends the access tokens of that login at once, and leaves the user\'s other logins working', async () => {
    const human = await loggedInHuman(api, { 'journals:create': true });
    const other = await loginAs(api, human.email, human.password);
    dataOf(await me(human.tokens.access_token));
    dataOf(await api.request('POST', '/auth/logout', { refresh_token: human.tokens.refresh_token }, { token: null }));
    expectError(await me(human.tokens.access_token), 401, 'UNAUTHORIZED');
    expectError(await api.request('GET', `${API}/accounts`, undefined, { token: human.tokens.access_token }), 401, 'UNAUTHORIZED');
    dataOf(await me(other.access_token));
  });

  it('also ends the access tokens issued by refreshes of that login', async () => {
    const human = await loggedInHuman(api);
    const refreshed = dataOf(await refresh(human.tokens.refresh_token));
    dataOf(await api.request('POST', '/auth/logout', { refresh_token: refreshed.refresh_token }, { token: null }));
    expectError(await me(refreshed.access_token), 401, 'UNAUTHORIZED');
    expectError(await me(human.tokens.access_token), 401, 'UNAUTHORIZED');
  });

  it('ends the access tokens of a login whose used refresh token was replayed', async () => {
    const human = await loggedInHuman(api);
    const refreshed = dataOf(await refresh(human.tokens.refresh_token));
    expectError(await refresh(human.tokens.refresh_token), 401, 'UNAUTHORIZED');
    expectError(await me(refreshed.access_token), 401, 'UNAUTHORIZED');
  });
});

describe('deactivation', () => {
  it('ends every session: after reactivation neither the old access tokens nor the old refresh tokens work', async () => {
    const human = await loggedInHuman(api);
    const second = await loginAs(api, human.email, human.password);
    dataOf(await api.request('PATCH', `${API}/users/${human.id}`, { is_active: false }));
    dataOf(await api.request('PATCH', `${API}/users/${human.id}`, { is_active: true }));
    for (const pair of [human.tokens, second]) {
      expectError(await me(pair.access_token), 401, 'UNAUTHORIZED');
      expectError(await refresh(pair.refresh_token), 401, 'UNAUTHORIZED');
    }
    // The user logs in afresh.
    dataOf(await me((await loginAs(api, human.email, human.password)).access_token));
  });

  it('leaves the sessions of a user whose name or permissions change', async () => {
    const human = await loggedInHuman(api);
    dataOf(await api.request('PATCH', `${API}/users/${human.id}`, { name: 'Renamed', permissions: { 'journals:create': true } }));
    expect(dataOf(await me(human.tokens.access_token)).permissions).toEqual({ 'journals:create': true });
    dataOf(await refresh(human.tokens.refresh_token));
  });
});
