/**
 * The posting routes act on an API key the server checked before without reading it again, and
 * confirm it inside the post's own transaction (service/auth/authenticate.ts). A key revoked, a
 * user deactivated or a permission withdrawn must still fail at the very next post, and a
 * permission granted must work at once, exactly as when every request reads its key.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiFixture, dataOf, entryBody, expectError, seedBooks, startApi } from '../helpers/api-fixture.js';
import { API, newServiceAccount } from '../helpers/auth-helpers.js';

let api: ApiFixture;
let books: Awaited<ReturnType<typeof seedBooks>>;
beforeEach(async () => {
  api = await startApi();
  books = await seedBooks(api);
});
afterEach(async () => { await api.close(); });

const post = (token: string, amount = '100') =>
  api.request('POST', `${API}/journal-entries`, entryBody(books.cash.id, books.sales.id, amount), { token });

async function entryCount(): Promise<number> {
  return (await api.service.ctx.store.countEntries());
}

const POSTER = { 'journals:create': true, 'journals:reverse': true };

describe('an API key the server remembers', () => {
  it('is read once for many posts while nothing changes, and read on every GET', async () => {
    const agent = await newServiceAccount(api, POSTER);
    const lookups = vi.spyOn(api.service.ctx.store, 'findUserByApiKeyHash');
    for (let i = 0; i < 5; i += 1) dataOf(await post(agent.apiKey), 201);
    expect(lookups).toHaveBeenCalledTimes(1);
    dataOf(await api.request('GET', `${API}/currencies`, undefined, { token: agent.apiKey }));
    dataOf(await api.request('GET', `${API}/currencies`, undefined, { token: agent.apiKey }));
    expect(lookups).toHaveBeenCalledTimes(3);
    // Another user's change moves the version: the next post confirms the key inside its transaction.
    await newServiceAccount(api);
    dataOf(await post(agent.apiKey), 201);
    expect(lookups).toHaveBeenCalledTimes(3 + 1);
    expect(await entryCount()).toBe(6);
  });

  it('is refused at the next post once its user is deactivated, and nothing is posted', async () => {
    const agent = await newServiceAccount(api, POSTER);
    dataOf(await post(agent.apiKey), 201);
    dataOf(await api.request('PATCH', `${API}/users/${agent.id}`, { is_active: false }));
    expectError(await post(agent.apiKey), 401, 'UNAUTHORIZED');
    expectError(await api.request('POST', `${API}/journal-entries/batch`, { entries: [entryBody(books.cash.id, books.sales.id, '100')] },
      { token: agent.apiKey }), 401, 'UNAUTHORIZED');
    expect(await entryCount()).toBe(1);
  });

  it('is refused at the next post after a rotation, while the new key posts', async () => {
    const agent = await newServiceAccount(api, POSTER);
    dataOf(await post(agent.apiKey), 201);
    const rotated = dataOf(await api.request('POST', `${API}/users/${agent.id}/api-key/rotate`));
    expectError(await post(agent.apiKey), 401, 'UNAUTHORIZED');
    dataOf(await post(rotated.api_key), 201);
    expect(await entryCount()).toBe(2);
  });

  it('is refused (403) at the next post and reversal once the permission is withdrawn, and posts as soon as it is granted', async () => {
    const agent = await newServiceAccount(api, POSTER);
    const posted = dataOf(await post(agent.apiKey), 201);
    dataOf(await api.request('PATCH', `${API}/users/${agent.id}`, { permissions: { 'journals:create': false } }));
    expectError(await post(agent.apiKey), 403, 'FORBIDDEN');
    expectError(await api.request('POST', `${API}/journal-entries/${posted.id}/reverse`, {}, { token: agent.apiKey }), 403, 'FORBIDDEN');
    expect(await entryCount()).toBe(1);
    dataOf(await api.request('PATCH', `${API}/users/${agent.id}`, { permissions: POSTER }));
    dataOf(await post(agent.apiKey), 201);
    dataOf(await api.request('POST', `${API}/journal-entries/${posted.id}/reverse`, {}, { token: agent.apiKey }), 201);
    expect(await entryCount()).toBe(3);
  });

  it('records the confirmed user in the audit log of a post made after another user changed', async () => {
    const agent = await newServiceAccount(api, POSTER);
    dataOf(await post(agent.apiKey), 201);
    await newServiceAccount(api);
    const entry = dataOf(await post(agent.apiKey), 201);
    const records = dataOf<any[]>(await api.request('GET', `${API}/audit-log?target_id=${entry.id}`));
    expect(records.map((record) => [record.action, record.actor_id, record.credential_type])).toEqual([
      ['journal_entry.create', agent.id, 'api_key'],
    ]);
  });

  it('refuses every post sent after a deactivation was answered, while many posts run at once', async () => {
    const agent = await newServiceAccount(api, POSTER);
    dataOf(await post(agent.apiKey), 201);
    let deactivatedAt = Number.POSITIVE_INFINITY;
    const outcomes: { sentAt: number; status: number }[] = [];
    const poster = async () => {
      for (let i = 0; i < 12; i += 1) {
        const sentAt = performance.now();
        const { status } = await post(agent.apiKey);
        outcomes.push({ sentAt, status });
      }
    };
    const deactivate = async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      dataOf(await api.request('PATCH', `${API}/users/${agent.id}`, { is_active: false }));
      deactivatedAt = performance.now();
    };
    await Promise.all([...Array.from({ length: 16 }, poster), deactivate()]);
    const late = outcomes.filter((outcome) => outcome.sentAt > deactivatedAt);
    expect(late.length).toBeGreaterThan(0);
    expect(late.filter((outcome) => outcome.status !== 401)).toEqual([]);
    expect(outcomes.every((outcome) => outcome.status === 201 || outcome.status === 401)).toBe(true);
    // Every 201 was posted, nothing else.
    expect(await entryCount()).toBe(1 + outcomes.filter((outcome) => outcome.status === 201).length);
  });
});
