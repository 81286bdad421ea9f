import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { rawQuery } from '../helpers/raw-sql.js';
import {
  type ApiFixture, balanceOf, createAccount, createCurrency, createPeriod, dataOf, entryBody, expectError, newApiKey,
  postEntry, startApi, walkPages,
} from '../helpers/api-fixture.js';

const ENTRIES = '/api/v1/journal-entries';

describe('Idempotency-Key on POST', () => {
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
      createAccount(api, { account_number: `I${serial}-${number}`, name: number, currency_id: currency.id, account_type, normal_balance });
    return { cash: await open('1000', 'asset', 'debit'), sales: await open('4000', 'revenue', 'credit') };
  }

  const post = (body: unknown, key: string, token?: string) =>
    api.request('POST', ENTRIES, body, { headers: { 'idempotency-key': key }, ...(token ? { token } : {}) });
  const entriesOf = async (accountId: string) => (await walkPages(api, `${ENTRIES}?account_id=${accountId}`, { limit: 200 })).rows;

  it('replays the first answer for the same key and body without posting again', async () => {
    const { cash, sales } = await books();
    const body = entryBody(cash.id, sales.id, '2500');
    const first = await post(body, 'replay-key-1');
    expect(first.status).toBe(201);
    const second = await post(body, 'replay-key-1');
    const third = await post(body, 'replay-key-1');
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(third.body).toEqual(first.body);
    expect(await entriesOf(cash.id)).toHaveLength(1);
    expect(await balanceOf(api, cash.id)).toMatchObject({ net_balance: '2500' });
  });

  it('answers the same key with a different body with 409 IDEMPOTENCY_CONFLICT and posts nothing', async () => {
    const { cash, sales } = await books();
    dataOf(await post(entryBody(cash.id, sales.id, '100'), 'conflict-key'), 201);
    const response = await post(entryBody(cash.id, sales.id, '200'), 'conflict-key');
    expectError(response, 409, 'IDEMPOTENCY_CONFLICT');
    expect(await entriesOf(cash.id)).toHaveLength(1);
    expect(await balanceOf(api, cash.id)).toMatchObject({ net_balance: '100' });
  });

  it('does not consume the key with a failed request', async () => {
    const { cash, sales } = await books();
    const unbalanced = { ...entryBody(cash.id, sales.id, '100'), lines: [
      { account_id: cash.id, debit_amount: '100' }, { account_id: sales.id, credit_amount: '90' }] };
    expectError(await post(unbalanced, 'retry-key'), 400, 'UNBALANCED_ENTRY');
    // The same failing request is acted on again, not replayed.
    expectError(await post(unbalanced, 'retry-key'), 400, 'UNBALANCED_ENTRY');
    const corrected = await post(entryBody(cash.id, sales.id, '100'), 'retry-key');
    expect(corrected.status).toBe(201);
    expect((await post(entryBody(cash.id, sales.id, '100'), 'retry-key')).body).toEqual(corrected.body);
    expect(await entriesOf(cash.id)).toHaveLength(1);
  });

  it('does not consume the key with a request refused by schema validation', async () => {
    const { cash, sales } = await books();
    const body = entryBody(cash.id, sales.id, '100');
    expectError(await post({ ...body, lines: [{ account_id: cash.id, debit_amount: 100 }, body.lines[1]] }, 'schema-key'), 400, 'VALIDATION_ERROR');
    expect((await post(body, 'schema-key')).status).toBe(201);
  });

  it('treats different keys with the same body as different requests', async () => {
    const { cash, sales } = await books();
    const body = entryBody(cash.id, sales.id, '100');
    expect((await post(body, 'distinct-a')).status).toBe(201);
    expect((await post(body, 'distinct-b')).status).toBe(201);
    expect(await entriesOf(cash.id)).toHaveLength(2);
  });

  it('keeps keys apart per caller', async () => {
    const { cash, sales } = await books();
    const other = await newApiKey(api, { admin: true });
    const body = entryBody(cash.id, sales.id, '100');
    const mine = await post(body, 'shared-key');
    const theirs = await post(body, 'shared-key', other);
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
    expect(await entriesOf(cash.id)).toHaveLength(2);
  });

  it('refuses a key reused on another endpoint with 409 IDEMPOTENCY_CONFLICT', async () => {
    const { cash, sales } = await books();
    dataOf(await post(entryBody(cash.id, sales.id, '100'), 'cross-endpoint-key'), 201);
    const response = await api.request('POST', '/api/v1/periods', { name: 'FY2040', start_date: '2040-01-01', end_date: '2040-12-31' },
      { headers: { 'idempotency-key': 'cross-endpoint-key' } });
    expectError(response, 409, 'IDEMPOTENCY_CONFLICT');
  });

  it('replays a reversal instead of refusing it as reversed twice', async () => {
    const { cash, sales } = await books();
    const original = await postEntry(api, cash.id, sales.id, '100');
    const reverse = () => api.request('POST', `${ENTRIES}/${original.id}/reverse`, undefined, { headers: { 'idempotency-key': 'reverse-key' } });
    const first = await reverse();
    expect(first.status).toBe(201);
    const again = await reverse();
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await entriesOf(cash.id)).toHaveLength(2);
    expectError(await api.request('POST', `${ENTRIES}/${original.id}/reverse`), 409, 'REVERSAL_NOT_ALLOWED');
  });

  it('keeps no fast hash of a password: the fingerprint of a user creation leaves the password out', async () => {
    const body = { name: 'Idem User', email: 'idem@example.com', password: 'first password' };
    const headers = { 'idempotency-key': 'user-key' };
    const first = await api.request('POST', '/api/v1/users', body, { headers });
    const retry = await api.request('POST', '/api/v1/users', { ...body, password: 'other password' }, { headers });
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
  });

  it('replays a currency creation instead of answering DUPLICATE', async () => {
    const body = { code: 'IDEM', name: 'Idem', symbol: 'I', asset_scale: 2, asset_type: 'fiat', caip19_id: 'test:0/token:IDEM' };
    const first = await api.request('POST', '/api/v1/currencies', body, { headers: { 'idempotency-key': 'currency-key' } });
    const second = await api.request('POST', '/api/v1/currencies', body, { headers: { 'idempotency-key': 'currency-key' } });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body).toEqual(first.body);
    expectError(await api.request('POST', '/api/v1/currencies', body), 409, 'DUPLICATE');
  });

  it('posts once when the same key and body arrive concurrently', async () => {
    const { cash, sales } = await books();
    const body = entryBody(cash.id, sales.id, '100');
    const responses = await Promise.all(Array.from({ length: 10 }, () => post(body, 'concurrent-key')));
    const created = responses.filter((response) => response.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((response) => response.body.data.id)).size).toBe(1);
    for (const response of responses.filter((r) => r.status !== 201)) {
      expect({ status: response.status, code: response.body.code }).toEqual({ status: 409, code: 'IDEMPOTENCY_CONFLICT' });
    }
    expect(await entriesOf(cash.id)).toHaveLength(1);
    // Once the first request has finished, a retry is a replay.
    expect((await post(body, 'concurrent-key')).body).toEqual(created[0]!.body);
  });

  it('keeps the ids and a digest of a batch\'s answer, not the answer, and replays the same entries', async () => {
    const { cash, sales } = await books();
    const body = { entries: Array.from({ length: 300 }, (_, index) => entryBody(cash.id, sales.id, String(index + 1))) };
    const first = await api.request('POST', `${ENTRIES}/batch`, body, { headers: { 'idempotency-key': 'batch-key' } });
    expect(first.status).toBe(201);
    const rows = await rawQuery<{ response_body: string }>(api.location,
      'SELECT response_body FROM idempotency_keys WHERE key = $1', ['batch-key']);
    expect(rows).toHaveLength(1);
    const kept = JSON.parse(rows[0]!.response_body);
    expect(kept).toEqual({ kept: 'entry_ids', entry_ids: first.body.data.map((entry: { id: string }) => entry.id),
      sha256: createHash('sha256').update(first.text!).digest('hex') });
    const replay = await api.request('POST', `${ENTRIES}/batch`, body, { headers: { 'idempotency-key': 'batch-key' } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(createHash('sha256').update(replay.text!).digest('hex')).toBe(kept.sha256);
    expect(await entriesOf(cash.id)).toHaveLength(300);
  });

  it('still replays a key 23 hours later', async () => {
    const { cash, sales } = await books();
    const body = entryBody(cash.id, sales.id, '100');
    const first = await post(body, 'day-old-key');
    api.clock.advance(23 * 60 * 60 * 1000);
    const later = await post(body, 'day-old-key');
    expect(later.body).toEqual(first.body);
    expect(await entriesOf(cash.id)).toHaveLength(1);
  });
});
