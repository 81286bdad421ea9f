/**
 * The audit trail through the real server: each kind of change writes exactly one record naming
 * who acted, with which credential, in which request, on what, and (for updates) the old and new
 * values; a refused change writes nothing; failed logins are recorded though refused; only admins
 * read the log, filtered and paged; no secret ever reaches it; the database refuses to change it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiFixture, type ApiResponse, createAccount, dataOf, entryBody, expectError, postEntry, seedBooks, startApi, walkPages,
} from '../helpers/api-fixture.js';
import {
  API, DAY_MS, assertNoSecrets, guarded, jwtClaims, loggedInHuman, newHuman, newServiceAccount, uniqueEmail,
} from '../helpers/auth-helpers.js';
import { failureOf, rawQuery } from '../helpers/raw-sql.js';
import { testBackend } from '../helpers/test-location.js';

interface AuditRecord {
  id: string;
  occurred_at: string;
  actor_id: string | null;
  credential_type: 'api_key' | 'session' | null;
  credential_id: string | null;
  request_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  changes: Record<string, { old: unknown; new: unknown }> | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let api: ApiFixture;
let books: Awaited<ReturnType<typeof seedBooks>>;

/**
 * Every record of the log (as the fixture's admin), newest first, or filtered by the query. A
 * record's hash is its seal's, set right after its commit (the storage contract suite checks the
 * chain): here it is checked for its form and left out of the comparisons.
 */
async function auditLog(query = ''): Promise<AuditRecord[]> {
  const rows = (await walkPages<AuditRecord & { hash: string | null }>(api, `${API}/audit-log${query}`, { limit: 200 })).rows;
  return rows.map(({ hash, ...record }) => {
    expect(hash === null || /^[0-9a-f]{64}$/.test(hash)).toBe(true);
    return record;
  });
}

/** Records without their hash, which their seal sets right after commit (so it may change between two reads). */
function withoutSeal(records: readonly AuditRecord[]): AuditRecord[] {
  return records.map((record) => {
    const { hash: _hash, ...rest } = record as AuditRecord & { hash?: unknown };
    return rest;
  });
}

/** The records `action` adds to the log, with what it answered. */
async function recordsOf(action: () => Promise<ApiResponse>): Promise<{ response: ApiResponse; records: AuditRecord[] }> {
  const before = new Set((await auditLog()).map((record) => record.id));
  const response = await action();
  const records = (await auditLog()).filter((record) => !before.has(record.id));
  return { response, records };
}

/** The one record `action` adds; fails unless it adds exactly one. */
async function recordOf(action: () => Promise<ApiResponse>): Promise<{ response: ApiResponse; record: AuditRecord }> {
  const { response, records } = await recordsOf(action);
  expect(records, JSON.stringify(response.body)).toHaveLength(1);
  return { response, record: records[0]! };
}

/** The id of a user's only API key, read from the database (the API never shows it). */
async function apiKeyIdOf(userId: string): Promise<string> {
  const rows = await rawQuery<{ id: string }>(api.location, 'SELECT id FROM api_keys WHERE user_id = $1', [userId]);
  expect(rows).toHaveLength(1);
  return rows[0]!.id;
}

/** A caller with an API key and one with a session, both holding `permissions`. */
async function callers(permissions: Record<string, boolean>) {
  const agent = await newServiceAccount(api, permissions);
  const human = await loggedInHuman(api, permissions);
  return {
    key: { token: agent.apiKey, actor_id: agent.id, credential_type: 'api_key' as const, credential_id: await apiKeyIdOf(agent.id) },
    session: {
      token: human.tokens.access_token, actor_id: human.id, credential_type: 'session' as const,
      credential_id: jwtClaims(human.tokens.access_token).sid as string,
    },
  };
}
type Caller = Awaited<ReturnType<typeof callers>>['key' | 'session'];

/** Who acted, as a record must name them, and in which request (the response's X-Request-Id). */
function madeBy(caller: Caller, response: ApiResponse) {
  return {
    actor_id: caller.actor_id, credential_type: caller.credential_type, credential_id: caller.credential_id,
    request_id: response.headers.get('x-request-id'),
  };
}

beforeAll(async () => {
  api = guarded(await startApi());
  books = await seedBooks(api);
});
afterAll(async () => {
  await api?.close();
});

describe('request ids', () => {
  it('answers every request with its own X-Request-Id, a UUIDv7, errors and unauthenticated requests included', async () => {
    const answers = [
      await api.request('GET', `${API}/currencies`),
      await api.request('GET', `${API}/currencies`),
      await api.request('GET', `${API}/currencies`, undefined, { token: null }),
      await api.request('POST', `${API}/journal-entries`, { entry_date: 'never' }),
      await api.request('GET', '/health', undefined, { token: null }),
    ];
    const ids = answers.map((answer) => answer.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('does not take a request id from the client', async () => {
    const response = await api.request('GET', `${API}/currencies`, undefined, { headers: { 'x-request-id': 'chosen-by-client', 'request-id': 'also' } });
    expect(response.headers.get('x-request-id')).toMatch(UUID);
  });
});

describe('one record per change, naming actor, credential, request and target', () => {
  it.each(['key', 'session'] as const)('currencies: create and update by a caller with a %s', async (kind) => {
    const caller = (await callers({ 'currencies:write': true }))[kind];
    const code = kind === 'key' ? 'AUD' : 'AUE';
    const created = await recordOf(() => api.request('POST', `${API}/currencies`, {
      code, name: 'Audit dollar', symbol: 'A$', asset_scale: 2, asset_type: 'fiat', caip19_id: `test:0/audit:${code}`,
    }, { token: caller.token }));
    const currency = dataOf(created.response, 201);
    expect(created.record).toEqual({
      id: expect.stringMatching(UUID), occurred_at: currency.created_at, ...madeBy(caller, created.response),
      action: 'currency.create', target_type: 'currency', target_id: currency.id,
      changes: {
        code: { old: null, new: code }, name: { old: null, new: 'Audit dollar' }, symbol: { old: null, new: 'A$' },
        asset_scale: { old: null, new: 2 }, asset_type: { old: null, new: 'fiat' }, caip19_id: { old: null, new: `test:0/audit:${code}` },
      },
    });
    const updated = await recordOf(() => api.request('PATCH', `${API}/currencies/${currency.id}`, { name: 'Audit dollar II', symbol: 'A$' },
      { token: caller.token }));
    dataOf(updated.response);
    expect(updated.record).toMatchObject({
      ...madeBy(caller, updated.response), action: 'currency.update', target_type: 'currency', target_id: currency.id,
      // Only what changed: the symbol was sent unchanged.
      changes: { name: { old: 'Audit dollar', new: 'Audit dollar II' } },
    });
  });

  it.each(['key', 'session'] as const)('accounts: create and update by a caller with a %s', async (kind) => {
    const caller = (await callers({ 'accounts:write': true }))[kind];
    const number = kind === 'key' ? '5100' : '5200';
    const created = await recordOf(() => api.request('POST', `${API}/accounts`, {
      account_number: number, name: 'Audited', currency_id: books.currency.id, account_type: 'expense', normal_balance: 'debit',
    }, { token: caller.token }));
    const account = dataOf(created.response, 201);
    expect(created.record).toMatchObject({
      occurred_at: account.created_at, ...madeBy(caller, created.response), action: 'account.create', target_type: 'account',
      target_id: account.id,
      changes: {
        account_number: { old: null, new: number }, name: { old: null, new: 'Audited' }, currency_id: { old: null, new: books.currency.id },
        account_type: { old: null, new: 'expense' }, normal_balance: { old: null, new: 'debit' }, has_subledger: { old: null, new: false },
        parent_id: { old: null, new: null }, entity_id: { old: null, new: null }, xbrl_tag: { old: null, new: null },
        is_active: { old: null, new: true },
      },
    });
    const updated = await recordOf(() => api.request('PATCH', `${API}/accounts/${account.id}`,
      { name: 'Audited, renamed', is_active: false, xbrl_tag: 'ifrs:Other' }, { token: caller.token }));
    dataOf(updated.response);
    expect(updated.record).toMatchObject({
      ...madeBy(caller, updated.response), action: 'account.update', target_type: 'account', target_id: account.id,
      changes: {
        name: { old: 'Audited', new: 'Audited, renamed' }, is_active: { old: true, new: false }, xbrl_tag: { old: null, new: 'ifrs:Other' },
      },
    });
  });

  it.each(['key', 'session'] as const)('periods: create, and a close, by a caller with a %s; a preview records nothing', async (kind) => {
    const caller = (await callers({ 'periods:write': true, 'periods:close': true, 'journals:create': true }))[kind];
    dataOf(await api.request('PATCH', `${API}/settings`, { retained_earnings_account_id: books.equity.id }));
    // Before the open FY2026 (periods close in order), the later one first, so either runs alone.
    const year = kind === 'key' ? 2002 : 2001;
    const created = await recordOf(() => api.request('POST', `${API}/periods`,
      { name: `FY${year}`, start_date: `${year}-01-01`, end_date: `${year}-12-31` }, { token: caller.token }));
    const period = dataOf(created.response, 201);
    expect(created.record).toMatchObject({
      occurred_at: period.created_at, ...madeBy(caller, created.response), action: 'period.create', target_type: 'period',
      target_id: period.id,
      changes: {
        name: { old: null, new: `FY${year}` }, start_date: { old: null, new: `${year}-01-01` }, end_date: { old: null, new: `${year}-12-31` },
        status: { old: null, new: 'open' },
      },
    });
    await postEntry(api, books.cash.id, books.sales.id, '1200', `${year}-05-01`);
    const preview = await recordsOf(() => api.request('POST', `${API}/periods/${period.id}/close?preview=true`, undefined, { token: caller.token }));
    expect(dataOf(preview.response).preview).toBe(true);
    expect(preview.records).toEqual([]);
    const closed = await recordOf(() => api.request('POST', `${API}/periods/${period.id}/close`, undefined, { token: caller.token }));
    const result = dataOf(closed.response);
    expect(closed.record).toEqual({
      id: expect.stringMatching(UUID), occurred_at: result.period.closed_at, ...madeBy(caller, closed.response),
      action: 'period.close', target_type: 'period', target_id: period.id,
      changes: {
        status: { old: 'open', new: 'closed' }, closed_at: { old: null, new: result.period.closed_at },
        closed_by: { old: null, new: caller.actor_id }, closing_entry_id: { old: null, new: result.closing_entry.id },
        closing_entry_ids: { old: null, new: [result.closing_entry.id] },
      },
    });
  });

  it.each(['key', 'session'] as const)('journal entries: a post and a reversal by a caller with a %s', async (kind) => {
    const caller = (await callers({ 'journals:create': true, 'journals:reverse': true }))[kind];
    const posted = await recordOf(() => api.request('POST', `${API}/journal-entries`, entryBody(books.cash.id, books.sales.id, '777'),
      { token: caller.token }));
    const entry = dataOf(posted.response, 201);
    // A post is its own record: its id is the entry's, and the entry names who posted it.
    expect(posted.record).toEqual({
      id: entry.id, occurred_at: entry.posted_at, ...madeBy(caller, posted.response),
      action: 'journal_entry.create', target_type: 'journal_entry', target_id: entry.id, changes: null,
    });
    const { actor_id: actorId, ...how } = madeBy(caller, posted.response);
    expect(entry).toMatchObject({ hash_version: 2, created_by: actorId, ...how });
    const reversed = await recordOf(() => api.request('POST', `${API}/journal-entries/${entry.id}/reverse`, {}, { token: caller.token }));
    const reversal = dataOf(reversed.response, 201);
    expect(reversed.record).toEqual({
      id: reversal.id, occurred_at: reversal.posted_at, ...madeBy(caller, reversed.response),
      action: 'journal_entry.reverse', target_type: 'journal_entry', target_id: entry.id,
      changes: { reversed_by_id: { old: null, new: reversal.id } },
    });
    // Its hash is the entry's in its currency's chain.
    const [record] = (await walkPages<{ id: string; hash: string }>(api, `${API}/audit-log?target_id=${entry.id}&action=journal_entry.reverse`,
      { limit: 10 })).rows;
    expect(record).toMatchObject({ id: reversal.id, hash: reversal.hash });
  });

  it('writes no row of the log for a post, a batch or a reversal, and lists one record for each post', async () => {
    const rows = async () => {
      const count = async (table: string) => Number((await rawQuery<{ n: number | string }>(api.location, `SELECT count(*) AS n FROM ${table}`))[0]!.n);
      return { log: await count('audit_log'), seals: await count('audit_seals'), ...(testBackend() === 'sqlite' ? { unsealed: await count('audit_unsealed') } : {}) };
    };
    // Whatever an earlier test left to seal is sealed first: verify seals the log before it reads.
    dataOf(await api.request('GET', `${API}/verify`));
    const before = await rows();
    const { records } = await recordsOf(async () => {
      const one = dataOf(await api.request('POST', `${API}/journal-entries`, entryBody(books.cash.id, books.sales.id, '5', '2026-03-02')), 201);
      const batch = await api.request('POST', `${API}/journal-entries/batch`, {
        entries: [entryBody(books.cash.id, books.sales.id, '6', '2026-03-03'), entryBody(books.cash.id, books.sales.id, '7', '2026-03-04')],
      });
      dataOf(batch, 201);
      return api.request('POST', `${API}/journal-entries/${one.id}/reverse`, {});
    });
    expect(records.map((record) => record.action).sort()).toEqual(['journal_entry.create', 'journal_entry.create', 'journal_entry.create',
      'journal_entry.reverse']);
    dataOf(await api.request('GET', `${API}/verify`));
    expect(await rows()).toEqual(before);
  });

  it.each(['key', 'session'] as const)('settings: an update by a caller with a %s', async (kind) => {
    const caller = (await callers({ 'settings:write': true }))[kind];
    const other = await createAccount(api, {
      account_number: kind === 'key' ? '3100' : '3200', name: 'Other equity', currency_id: books.currency.id, account_type: 'equity',
      normal_balance: 'credit',
    });
    const before = dataOf(await api.request('GET', `${API}/settings`)).retained_earnings_account_id;
    const updated = await recordOf(() => api.request('PATCH', `${API}/settings`, { retained_earnings_account_id: other.id }, { token: caller.token }));
    dataOf(updated.response);
    expect(updated.record).toMatchObject({
      ...madeBy(caller, updated.response), action: 'settings.update', target_type: 'settings', target_id: null,
      changes: { retained_earnings_account_id: { old: before, new: other.id } },
    });
  });

  it.each(['key', 'session'] as const)('users: a human, a service account and an update by a caller with a %s', async (kind) => {
    const caller = (await callers({ admin: true }))[kind];
    const email = uniqueEmail('audited');
    const created = await recordOf(() => api.request('POST', `${API}/users`, {
      name: 'Audited human', email, password: `secret-${kind}-password`, permissions: { 'journals:create': true },
    }, { token: caller.token }));
    const human = dataOf(created.response, 201);
    expect(created.record).toEqual({
      id: expect.stringMatching(UUID), occurred_at: human.created_at, ...madeBy(caller, created.response),
      action: 'user.create', target_type: 'user', target_id: human.id,
      changes: {
        name: { old: null, new: 'Audited human' }, email: { old: null, new: email }, user_type: { old: null, new: 'human' },
        permissions: { old: null, new: { 'journals:create': true } }, is_active: { old: null, new: true },
      },
    });
    const agent = await recordOf(() => api.request('POST', `${API}/users/service-accounts`, {
      name: 'Audited agent', permissions: { 'accounts:write': true },
    }, { token: caller.token }));
    const service = dataOf(agent.response, 201);
    expect(agent.record).toMatchObject({
      ...madeBy(caller, agent.response), action: 'service_account.create', target_type: 'user', target_id: service.id,
      changes: { name: { old: null, new: 'Audited agent' }, user_type: { old: null, new: 'service' }, email: { old: null, new: null } },
    });
    const updated = await recordOf(() => api.request('PATCH', `${API}/users/${human.id}`,
      { name: 'Audited human', permissions: { 'journals:create': false, 'journals:reverse': true }, is_active: false }, { token: caller.token }));
    dataOf(updated.response);
    expect(updated.record).toMatchObject({
      ...madeBy(caller, updated.response), action: 'user.update', target_type: 'user', target_id: human.id,
      changes: {
        permissions: { old: { 'journals:create': true }, new: { 'journals:create': false, 'journals:reverse': true } },
        is_active: { old: true, new: false },
      },
    });
    expect(Object.keys(updated.record.changes!).sort()).toEqual(['is_active', 'permissions']);
  });

  it('records the command line operator\'s changes (the fixture\'s own admin key) as made by nobody, outside any request', async () => {
    const created = (await auditLog('?action=service_account.create&sort=asc'))[0]!;
    expect(created).toMatchObject({ actor_id: null, credential_type: null, credential_id: null, request_id: null, target_type: 'user' });
  });
});

describe('sessions', () => {
  it('records a login, a refresh and a logout under the session they belong to', async () => {
    const human = await newHuman(api);
    const login = await recordOf(() => api.request('POST', '/auth/login', { email: human.email, password: human.password }, { token: null }));
    const tokens = dataOf(login.response);
    const session = jwtClaims(tokens.access_token).sid as string;
    expect(session).toMatch(UUID);
    const family = await rawQuery<{ family_id: string }>(api.location, 'SELECT DISTINCT family_id FROM refresh_tokens WHERE user_id = $1', [human.id]);
    expect(family).toEqual([{ family_id: session }]);
    const asSession = (response: ApiResponse) => ({
      actor_id: human.id, credential_type: 'session', credential_id: session, request_id: response.headers.get('x-request-id'),
      target_type: 'user', target_id: human.id, changes: null,
    });
    expect(login.record).toMatchObject({ action: 'auth.login', ...asSession(login.response) });

    const refreshed = await recordOf(() => api.request('POST', '/auth/refresh', { refresh_token: tokens.refresh_token }, { token: null }));
    const renewed = dataOf(refreshed.response);
    expect(jwtClaims(renewed.access_token).sid).toBe(session);
    expect(refreshed.record).toMatchObject({ action: 'auth.refresh', ...asSession(refreshed.response) });

    const loggedOut = await recordOf(() => api.request('POST', '/auth/logout', { refresh_token: renewed.refresh_token }, { token: null }));
    dataOf(loggedOut.response);
    expect(loggedOut.record).toMatchObject({ action: 'auth.logout', ...asSession(loggedOut.response) });
  });

  it('records a used refresh token presented again, which revokes its session, though the answer is a 401', async () => {
    const human = await loggedInHuman(api);
    const session = jwtClaims(human.tokens.access_token).sid as string;
    dataOf(await api.request('POST', '/auth/refresh', { refresh_token: human.tokens.refresh_token }, { token: null }));
    const reused = await recordOf(() => api.request('POST', '/auth/refresh', { refresh_token: human.tokens.refresh_token }, { token: null }));
    expectError(reused.response, 401, 'UNAUTHORIZED');
    expect(reused.record).toMatchObject({
      action: 'auth.refresh_reused', actor_id: human.id, credential_type: 'session', credential_id: session,
      request_id: reused.response.headers.get('x-request-id'), target_type: 'user', target_id: human.id,
    });
    // An unknown token changes nothing and records nothing.
    const unknown = await recordsOf(() => api.request('POST', '/auth/refresh', { refresh_token: 'rt_unknown' }, { token: null }));
    expectError(unknown.response, 401, 'UNAUTHORIZED');
    expect(unknown.records).toEqual([]);
  });

  it('records a failed login though it is refused: by nobody, naming the user whose e-mail was tried, never what was typed', async () => {
    const human = await newHuman(api);
    const wrongPassword = await recordOf(() => api.request('POST', '/auth/login', { email: human.email, password: 'not the password' }, { token: null }));
    expectError(wrongPassword.response, 401, 'UNAUTHORIZED');
    expect(wrongPassword.record).toEqual({
      id: expect.stringMatching(UUID), occurred_at: expect.any(String), actor_id: null, credential_type: null, credential_id: null,
      request_id: wrongPassword.response.headers.get('x-request-id'), action: 'auth.login_failed', target_type: 'user',
      target_id: human.id, changes: null,
    });
    // An e-mail no user has (perhaps a password typed into the wrong field) is not kept at all.
    const typed = 'my-Secret-Pa55word@oops.example';
    const unknown = await recordOf(() => api.request('POST', '/auth/login', { email: typed, password: 'whatever it was' }, { token: null }));
    expectError(unknown.response, 401, 'UNAUTHORIZED');
    expect(unknown.record).toMatchObject({ action: 'auth.login_failed', actor_id: null, target_type: null, target_id: null });
    expect(JSON.stringify(await auditLog())).not.toContain('my-Secret-Pa55word');
    // An inactive user's correct password is a failed login too.
    dataOf(await api.request('PATCH', `${API}/users/${human.id}`, { is_active: false }));
    const inactive = await recordOf(() => api.request('POST', '/auth/login', { email: human.email, password: human.password }, { token: null }));
    expectError(inactive.response, 401, 'UNAUTHORIZED');
    expect(inactive.record).toMatchObject({ action: 'auth.login_failed', target_id: human.id });
  });

  it('records the first-user setup as a user created by nobody and that user\'s first login', async () => {
    const { startEmptyApi } = await import('../helpers/auth-helpers.js');
    const empty = await startEmptyApi();
    try {
      const response = await empty.request('POST', '/auth/setup', { name: 'First', email: uniqueEmail('first'), password: 'first admin password' });
      const tokens = dataOf(response, 201);
      const log = dataOf(await empty.request('GET', `${API}/audit-log?sort=asc`, undefined, { token: tokens.access_token }));
      const userId = jwtClaims(tokens.access_token).sub;
      const requestId = response.headers.get('x-request-id');
      expect(log.map((record: AuditRecord) => [record.action, record.actor_id, record.credential_type, record.request_id, record.target_id]))
        .toEqual([
          ['user.create', null, null, requestId, userId],
          ['auth.login', userId, 'session', requestId, userId],
        ]);
    } finally {
      await empty.close();
    }
  });
});

describe('what is not recorded', () => {
  it('records nothing for a refused change: a rejected post, a duplicate, a forbidden write, a bad PATCH', async () => {
    const reader = await newServiceAccount(api, {});
    const refused = [
      () => api.request('POST', `${API}/journal-entries`, {
        entry_date: '2026-03-01', description: 'unbalanced',
        lines: [{ account_id: books.cash.id, debit_amount: '100' }, { account_id: books.sales.id, credit_amount: '99' }],
      }),
      () => api.request('POST', `${API}/journal-entries`, entryBody(books.cash.id, books.sales.id, '100', '2019-01-01')),
      () => api.request('POST', `${API}/currencies`, {
        code: 'USD', name: 'Again', symbol: '$', asset_scale: 2, asset_type: 'fiat', caip19_id: 'test:0/again',
      }),
      () => api.request('POST', `${API}/accounts`, { account_number: '5300', name: 'x', currency_id: books.currency.id, account_type: 'asset', normal_balance: 'debit' },
        { token: reader.apiKey }),
      () => api.request('PATCH', `${API}/accounts/${books.cash.id}`, { currency_id: books.currency.id }),
      () => api.request('POST', `${API}/periods`, { name: 'Overlap', start_date: '2026-06-01', end_date: '2026-06-30' }),
    ];
    for (const request of refused) {
      const { response, records } = await recordsOf(request);
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(records, JSON.stringify(response.body)).toEqual([]);
    }
  });

  it('records nothing for reads, and nothing again for a replayed idempotent request', async () => {
    const reads = await recordsOf(async () => {
      await api.request('GET', `${API}/accounts`);
      await api.request('GET', `${API}/reports/trial-balance`);
      return api.request('GET', '/auth/me');
    });
    expect(reads.records).toEqual([]);
    const body = entryBody(books.cash.id, books.sales.id, '4321');
    const first = await recordOf(() => api.request('POST', `${API}/journal-entries`, body, { headers: { 'idempotency-key': 'audit-once' } }));
    const replay = await recordsOf(() => api.request('POST', `${API}/journal-entries`, body, { headers: { 'idempotency-key': 'audit-once' } }));
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.response.body).toEqual(first.response.body);
    expect(replay.records).toEqual([]);
  });

  it('never holds a password, a hash, an API key or a token, in the answer or in the database', async () => {
    const agent = await newServiceAccount(api, { admin: true });
    const human = await loggedInHuman(api, { admin: true });
    dataOf(await api.request('POST', '/auth/refresh', { refresh_token: human.tokens.refresh_token }, { token: null }));
    const log = await auditLog();
    // The guarded fixture already checked every answer for passwords and hashes; this checks the text whole.
    assertNoSecrets(log);
    const stored = JSON.stringify(await rawQuery(api.location, 'SELECT * FROM audit_log'));
    for (const text of [JSON.stringify(log), stored]) {
      expect(text).not.toMatch(/tsk_|"rt_|eyJ|scrypt\$|password/i);
      for (const secret of [api.apiKey, agent.apiKey, human.password, human.tokens.refresh_token, human.tokens.access_token]) {
        expect(text).not.toContain(secret);
      }
    }
    const hashes = await rawQuery<{ hash: string }>(api.location,
      `SELECT key_hash AS hash FROM api_keys UNION ALL SELECT password_hash FROM users WHERE password_hash IS NOT NULL
       UNION ALL SELECT token_hash FROM refresh_tokens`);
    expect(hashes.length).toBeGreaterThan(3);
    for (const { hash } of hashes) expect(stored).not.toContain(hash);
  });
});

describe('reading the log', () => {
  it('is for admins only: 403 FORBIDDEN for everyone else, users:manage included, with either credential', async () => {
    const managers = await callers({ 'users:manage': true, 'accounts:write': true });
    const readers = await callers({});
    for (const caller of [managers.key, managers.session, readers.key, readers.session]) {
      expectError(await api.request('GET', `${API}/audit-log`, undefined, { token: caller.token }), 403, 'FORBIDDEN');
    }
    const admins = await callers({ admin: true });
    for (const caller of [admins.key, admins.session]) {
      expect((await api.request('GET', `${API}/audit-log?limit=1`, undefined, { token: caller.token })).status).toBe(200);
    }
    expectError(await api.request('GET', `${API}/audit-log`, undefined, { token: null }), 401, 'UNAUTHORIZED');
  });

  it('filters by actor, action, target and day, and walks every filtered page to the end in both orders', async () => {
    const caller = (await callers({ admin: true })).key;
    const start = api.clock.now();
    const days: string[] = [];
    const made: string[] = [];
    // Three days, two currencies and an account update a day, by one caller.
    for (let day = 0; day < 3; day += 1) {
      api.clock.current = new Date(Date.parse('2030-06-01T10:00:00.000Z') + day * DAY_MS);
      days.push(api.clock.now().toISOString().slice(0, 10));
      for (const letter of ['X', 'Y']) {
        const code = `${letter}${day}F`;
        made.push(dataOf(await api.request('POST', `${API}/currencies`, {
          code, name: code, symbol: '¤', asset_scale: 0, asset_type: 'crypto', caip19_id: `test:0/filter:${code}`,
        }, { token: caller.token }), 201).id);
      }
      dataOf(await api.request('PATCH', `${API}/accounts/${books.rent.id}`, { name: `Rent ${day}` }, { token: caller.token }));
    }
    api.clock.current = start;
    const everything = await auditLog();
    const expectFilter = async (query: string, keep: (record: AuditRecord) => boolean) => {
      const expected = everything.filter(keep);
      expect(expected.length).toBeGreaterThan(0);
      for (const limit of [1, 2, 5]) {
        const { rows, pages } = await walkPages<AuditRecord>(api, `${API}/audit-log?${query}`, { limit });
        expect(withoutSeal(rows), `${query} limit ${limit}`).toEqual(expected);
        expect(pages.length).toBe(Math.max(1, Math.ceil(expected.length / limit)));
        const ascending = await walkPages<AuditRecord>(api, `${API}/audit-log?${query}&sort=asc`, { limit });
        expect(withoutSeal(ascending.rows)).toEqual([...expected].reverse());
      }
      return expected;
    };
    const byCaller = await expectFilter(`actor_id=${caller.actor_id}`, (record) => record.actor_id === caller.actor_id);
    expect(byCaller).toHaveLength(9);
    expect((await expectFilter('action=currency.create', (record) => record.action === 'currency.create')).length).toBeGreaterThan(6);
    expect(await expectFilter(`target_id=${books.rent.id}`, (record) => record.target_id === books.rent.id))
      .toEqual(expect.arrayContaining(byCaller.filter((record) => record.action === 'account.update')));
    const onDay = (record: AuditRecord, from: string, to: string) => record.occurred_at.slice(0, 10) >= from && record.occurred_at.slice(0, 10) <= to;
    expect(await expectFilter(`start_date=${days[1]}&end_date=${days[1]}`, (record) => onDay(record, days[1]!, days[1]!))).toHaveLength(3);
    expect(await expectFilter(`start_date=${days[1]}`, (record) => onDay(record, days[1]!, '9999-12-31'))).toHaveLength(6);
    expect(await expectFilter(`end_date=${days[0]}&actor_id=${caller.actor_id}`,
      (record) => onDay(record, '0000-01-01', days[0]!) && record.actor_id === caller.actor_id)).toHaveLength(3);
    expect(await expectFilter(`action=currency.create&start_date=${days[0]}&end_date=${days[2]}`,
      (record) => record.action === 'currency.create' && onDay(record, days[0]!, days[2]!))).toHaveLength(6);
    expect(made).toHaveLength(6);
  });

  it('binds a cursor to its filters and order, and refuses bad filters', async () => {
    const first = dataOf<AuditRecord[]>(await api.request('GET', `${API}/audit-log?limit=1`));
    expect(first).toHaveLength(1);
    const page = (await api.request('GET', `${API}/audit-log?limit=1&action=account.create`)).body;
    expect(page.has_more).toBe(true);
    const cursor = encodeURIComponent(page.next_cursor);
    expect((await api.request('GET', `${API}/audit-log?limit=1&action=account.create&cursor=${cursor}`)).status).toBe(200);
    expectError(await api.request('GET', `${API}/audit-log?limit=1&action=account.update&cursor=${cursor}`), 400, 'VALIDATION_ERROR', 'cursor');
    expectError(await api.request('GET', `${API}/audit-log?limit=1&cursor=${cursor}`), 400, 'VALIDATION_ERROR', 'cursor');
    expectError(await api.request('GET', `${API}/audit-log?limit=1&action=account.create&sort=asc&cursor=${cursor}`), 400, 'VALIDATION_ERROR', 'cursor');
    expectError(await api.request('GET', `${API}/audit-log?action=account.destroy`), 400, 'VALIDATION_ERROR', 'action');
    expectError(await api.request('GET', `${API}/audit-log?start_date=2026-02-30`), 400, 'VALIDATION_ERROR', 'start_date');
    expectError(await api.request('GET', `${API}/audit-log?end_date=yesterday`), 400, 'VALIDATION_ERROR', 'end_date');
    expectError(await api.request('GET', `${API}/audit-log?colour=blue`), 400, 'VALIDATION_ERROR');
    expectError(await api.request('GET', `${API}/audit-log?actor_id=no-such-user`), 404, 'NOT_FOUND', 'actor_id');
    expect(dataOf(await api.request('GET', `${API}/audit-log?target_id=no-such-thing`))).toEqual([]);
  });

  it('is described in the OpenAPI document', async () => {
    const openapi = (await api.request('GET', `${API}/openapi.json`, undefined, { token: null })).body;
    const operation = openapi.paths[`${API}/audit-log`].get;
    expect(operation.parameters.map((parameter: { name: string }) => parameter.name).sort())
      .toEqual(['action', 'actor_id', 'cursor', 'end_date', 'limit', 'sort', 'start_date', 'target_id']);
  });
});

describe('immutability in the database', () => {
  const sql = (text: string, params: unknown[] = []) => rawQuery(api.location, text, params);

  it('refuses to UPDATE or DELETE an audit record, and the log stays as it was', async () => {
    const before = await sql('SELECT * FROM audit_log ORDER BY occurred_at, id');
    expect(before.length).toBeGreaterThan(10);
    const { id } = (before as { id: string }[])[0]!;
    expect((await failureOf(sql("UPDATE audit_log SET actor_id = 'someone-else' WHERE id = $1", [id]))).message).toMatch(/audit records are immutable/);
    expect((await failureOf(sql('UPDATE audit_log SET changes = NULL'))).message).toMatch(/audit records are immutable/);
    expect((await failureOf(sql('DELETE FROM audit_log WHERE id = $1', [id]))).message).toMatch(/audit records are immutable/);
    expect((await failureOf(sql('DELETE FROM audit_log'))).message).toMatch(/audit records are immutable/);
    expect(await sql('SELECT * FROM audit_log ORDER BY occurred_at, id')).toEqual(before);
  });

  // SQLite has no TRUNCATE: its unqualified DELETE, refused above, is the same operation.
  it.runIf(testBackend() === 'postgres')('refuses to TRUNCATE the audit log', async () => {
    const before = await sql('SELECT count(*) AS count FROM audit_log');
    expect((await failureOf(sql('TRUNCATE audit_log'))).message).toMatch(/audit records are immutable/);
    expect(await sql('SELECT count(*) AS count FROM audit_log')).toEqual(before);
  });
});
