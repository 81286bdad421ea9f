/**
 * The change feed (docs/events.md) over the real HTTP server, on the backend under test: every
 * committed change is one event numbered without gaps in commit order; a dry run, a refused write
 * and an idempotent replay add none; no secret appears; the SSE stream resumes after a dropped
 * connection with Last-Event-ID, without loss or repeat.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiFixture, createAccount, createCurrency, createPeriod, dataOf, entryBody, expectError, newApiKey, startApi,
} from '../helpers/api-fixture.js';

interface LedgerEvent { seq: string; id: string; type: string; occurred_at: string; actor_id: string | null; request_id: string | null; data: any }

describe('events', () => {
  let api: ApiFixture;
  let serial = 0;

  beforeAll(async () => {
    api = await startApi();
    await createPeriod(api, 'FY2026', '2026-01-01', '2026-12-31');
  });
  afterAll(async () => { await api.close(); });

  async function books() {
    serial += 1;
    const currency = await createCurrency(api);
    const open = (number: string, account_type: string, normal_balance: string) =>
      createAccount(api, { account_number: `E${serial}-${number}`, name: number, currency_id: currency.id, account_type, normal_balance });
    return { currency, cash: await open('1000', 'asset', 'debit'), sales: await open('4000', 'revenue', 'credit') };
  }

  /** Every event after `after`, page by page. */
  async function eventsAfter(after: string, types?: string): Promise<LedgerEvent[]> {
    const events: LedgerEvent[] = [];
    let cursor: string | null = null;
    for (;;) {
      const query = new URLSearchParams({ after, limit: '37', ...(types ? { types } : {}), ...(cursor ? { cursor } : {}) });
      const page = (await api.request('GET', `/api/v1/events?${query}`)).body as { data: LedgerEvent[]; has_more: boolean; next_cursor: string | null };
      events.push(...page.data);
      if (!page.has_more) return events;
      cursor = page.next_cursor;
    }
  }

  const head = async () => {
    const all = await eventsAfter('0');
    return all.length === 0 ? '0' : all[all.length - 1]!.seq;
  };

  function expectNoGaps(events: readonly LedgerEvent[], after: string): void {
    events.forEach((event, index) => expect(event.seq).toBe(String(Number(after) + index + 1)));
  }

  it('numbers every committed change without gaps, with the resource as the API answers it', async () => {
    const start = await head();
    const { currency, cash, sales } = await books();
    const posted = dataOf(await api.request('POST', '/api/v1/journal-entries', entryBody(cash.id, sales.id, '2500')), 201);
    // None of these change anything: a dry run, a refused post, an idempotent replay.
    dataOf(await api.request('POST', '/api/v1/journal-entries?dry_run=true', entryBody(cash.id, sales.id, '7')), 200);
    expectError(await api.request('POST', '/api/v1/journal-entries', { ...entryBody(cash.id, sales.id, '5'),
      lines: [{ account_id: cash.id, debit_amount: '5' }, { account_id: sales.id, credit_amount: '4' }] }), 400, 'UNBALANCED_ENTRY');
    const keyed = { headers: { 'idempotency-key': `events-${serial}` } };
    dataOf(await api.request('POST', '/api/v1/journal-entries', entryBody(cash.id, sales.id, '300'), keyed), 201);
    dataOf(await api.request('POST', '/api/v1/journal-entries', entryBody(cash.id, sales.id, '300'), keyed), 201);
    dataOf(await api.request('PATCH', `/api/v1/accounts/${cash.id}`, { name: 'Cash at bank' }));

    const events = await eventsAfter(start);
    expectNoGaps(events, start);
    expect(events.map((event) => event.type)).toEqual([
      'currency.created', 'account.created', 'account.created', 'entry.posted', 'entry.posted', 'account.updated',
    ]);
    expect(events[0]!.data).toMatchObject({ id: currency.id, code: currency.code });
    const post = events[3]!;
    expect(post.id).toBe(posted.id);
    expect(post.data).toEqual(dataOf(await api.request('GET', `/api/v1/journal-entries/${posted.id}`)));
    expect(post.data.lines).toHaveLength(2);
    expect(events[4]!.data.lines[0].debit_amount).toBe('300');
    expect(events[5]!.data).toMatchObject({ id: cash.id, name: 'Cash at bank' });
    for (const event of events) {
      expect(event.actor_id).toEqual(expect.any(String));
      expect(event.request_id).toEqual(expect.any(String));
    }
    // The type filter: only the posts, still in order.
    expect((await eventsAfter(start, 'entry.posted')).map((event) => event.seq)).toEqual([post.seq, events[4]!.seq]);
    // Other types, and both sides together (placeholders in order on both stores).
    expect((await eventsAfter(start, 'account.updated,currency.created')).map((event) => event.seq)).toEqual([events[0]!.seq, events[5]!.seq]);
    expect((await eventsAfter(start, 'account.updated,entry.posted')).map((event) => event.type))
      .toEqual(['entry.posted', 'entry.posted', 'account.updated']);
  });

  it('shows no secret: a service account created and its key rotated carry no key', async () => {
    const start = await head();
    const created = dataOf(await api.request('POST', '/api/v1/users/service-accounts', { name: 'feed robot', permissions: { 'journals:create': true } }), 201);
    expect(created.api_key).toEqual(expect.any(String));
    const rotated = dataOf(await api.request('POST', `/api/v1/users/${created.id}/api-key/rotate`), 200);
    const events = await eventsAfter(start);
    expect(events.map((event) => event.type)).toEqual(['user.created', 'user.api_key_rotated']);
    const text = JSON.stringify(events);
    expect(text).not.toContain(created.api_key);
    expect(text).not.toContain(rotated.api_key);
    expect(text).not.toMatch(/api_key"|password|secret/);
  });

  it('gives 200 concurrent posts exactly one entry.posted each, numbered without gaps', async () => {
    const { cash, sales } = await books();
    const start = await head();
    const responses = await Promise.all(Array.from({ length: 200 }, (_, index) =>
      api.request('POST', '/api/v1/journal-entries', entryBody(cash.id, sales.id, String(index + 1)))));
    const ids = responses.map((response) => dataOf(response, 201).id as string);
    const events = await eventsAfter(start);
    expectNoGaps(events, start);
    expect(events.every((event) => event.type === 'entry.posted')).toBe(true);
    expect(events.map((event) => event.id).sort()).toEqual([...ids].sort());
  });

  it('refuses a caller without events:read, and a malformed seq', async () => {
    const key = await newApiKey(api, { 'journals:create': true });
    expectError(await api.request('GET', '/api/v1/events', undefined, { token: key }), 403, 'FORBIDDEN');
    expectError(await api.request('GET', '/api/v1/events/stream', undefined, { token: key }), 403, 'FORBIDDEN');
    expectError(await api.request('GET', '/api/v1/events?after=-1'), 400, 'VALIDATION_ERROR', 'after');
    const reader = await newApiKey(api, { 'events:read': true });
    dataOf(await api.request('GET', '/api/v1/events?limit=1', undefined, { token: reader }));
  });

  /** Reads an SSE stream until `count` events arrived, then drops the connection. */
  async function readStream(headers: Record<string, string>, query: string, count: number): Promise<{ id: string; type: string; event: LedgerEvent }[]> {
    const controller = new AbortController();
    const response = await fetch(`${api.baseUrl}/api/v1/events/stream${query}`, {
      headers: { authorization: `Bearer ${api.apiKey}`, ...headers }, signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const received: { id: string; type: string; event: LedgerEvent }[] = [];
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = response.body!.getReader();
    while (received.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = Object.fromEntries(block.split('\n').filter((line) => !line.startsWith(':')).map((line) => {
          const colon = line.indexOf(': ');
          return [line.slice(0, colon), line.slice(colon + 2)];
        }));
        if (fields.data !== undefined) received.push({ id: fields.id!, type: fields.event!, event: JSON.parse(fields.data) as LedgerEvent });
      }
    }
    controller.abort();
    // What arrived past `count` in the same read is dropped with the connection, unseen.
    return received.slice(0, count);
  }

  it('streams events as SSE and resumes after a dropped connection with Last-Event-ID, without loss or repeat', async () => {
    const { cash, sales } = await books();
    const start = await head();
    const post = (amount: number) => api.request('POST', '/api/v1/journal-entries', entryBody(cash.id, sales.id, String(amount)));
    for (let n = 1; n <= 5; n++) dataOf(await post(n), 201);
    const first = await readStream({}, `?after=${start}`, 3);
    expect(first.map((item) => item.id)).toEqual([1, 2, 3].map((n) => String(Number(start) + n)));
    expect(first.every((item) => item.type === 'entry.posted' && item.event.seq === item.id)).toBe(true);
    // Posted while no stream is open, and while the resumed one is.
    for (let n = 6; n <= 8; n++) dataOf(await post(n), 201);
    const resumed = readStream({ 'last-event-id': first[2]!.id }, '?after=0', 7);
    for (let n = 9; n <= 10; n++) dataOf(await post(n), 201);
    const rest = await resumed;
    expect(rest.map((item) => item.id)).toEqual([4, 5, 6, 7, 8, 9, 10].map((n) => String(Number(start) + n)));
    expect(rest.map((item) => item.event.data.lines[0].debit_amount)).toEqual(['4', '5', '6', '7', '8', '9', '10']);
  });
});
