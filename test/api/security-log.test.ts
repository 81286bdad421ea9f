/**
 * The security log: the server's structured log lines (captured from its logger) name failed
 * logins, throttling, refusals, permission changes and key creation and rotation, each with the
 * request id the client saw as X-Request-Id.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApiFixture, type ApiResponse, dataOf, startApi } from '../helpers/api-fixture.js';
import { API, newHuman, newServiceAccount } from '../helpers/auth-helpers.js';

let api: ApiFixture;
let lines: Record<string, any>[];
beforeEach(async () => {
  lines = [];
  api = await startApi({ logLevel: 'info', logStream: { write: (line: string) => { lines.push(JSON.parse(line)); } } });
});
afterEach(async () => { await api.close(); });

/** The security event logged for a request, found by the request id the client was answered. */
function eventFor(response: ApiResponse): Record<string, any> | undefined {
  const requestId = response.headers.get('x-request-id');
  return lines.find((line) => line.reqId === requestId && line.security_event !== undefined);
}

describe('security log', () => {
  it('logs failed logins, throttling and refusals with the request id', async () => {
    const human = await newHuman(api);
    const failed = await api.request('POST', '/auth/login', { email: human.email, password: 'wrong' }, { token: null });
    expect(eventFor(failed)).toMatchObject({ security_event: 'auth.login_failed', status: 401, level: 40, client: '127.0.0.1' });
    for (let attempt = 0; attempt < 9; attempt += 1) await api.request('POST', '/auth/login', { email: human.email, password: 'wrong' }, { token: null });
    const throttled = await api.request('POST', '/auth/login', { email: human.email, password: human.password }, { token: null });
    expect(throttled.status).toBe(429);
    expect(eventFor(throttled)).toMatchObject({ security_event: 'auth.throttled', status: 429 });
    const reader = await newServiceAccount(api);
    const forbidden = await api.request('POST', `${API}/periods`, { name: 'x', start_date: '2026-01-01', end_date: '2026-01-31' }, { token: reader.apiKey });
    expect(forbidden.status).toBe(403);
    expect(eventFor(forbidden)).toMatchObject({ security_event: 'access.forbidden', actor_id: reader.id, route: '/api/v1/periods' });
    // Passwords never reach the log.
    expect(JSON.stringify(lines)).not.toContain(human.password);
  });

  it('logs permission changes, key creation and rotation, naming actor and target', async () => {
    const created = await api.request('POST', `${API}/users/service-accounts`, { name: 'Agent', permissions: {} });
    const robot = dataOf(created, 201);
    expect(eventFor(created)).toMatchObject({ security_event: 'api_key.create', status: 201 });
    const changed = await api.request('PATCH', `${API}/users/${robot.id}`, { permissions: { 'journals:create': true } });
    expect(eventFor(changed)).toMatchObject({ security_event: 'user.permissions_change', target_id: robot.id });
    const rotated = await api.request('POST', `${API}/users/${robot.id}/api-key/rotate`);
    expect(eventFor(rotated)).toMatchObject({ security_event: 'api_key.rotate', target_id: robot.id, status: 200 });
    expect(JSON.stringify(lines)).not.toContain(rotated.body.data.api_key);
    expect(JSON.stringify(lines)).not.toContain(robot.api_key);
  });
});
