import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, dataOf, entryBody, expectError, seedBooks, startApi } from '../helpers/api-fixture.js';

/** `{"k":{"k":...{"k":1}}}` with `levels` objects. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { k: 1 };
  for (let level = 1; level < levels; level += 1) value = { k: value };
  return value;
}

describe('input bounds', () => {
  let api: ApiFixture;
  let books: Awaited<ReturnType<typeof seedBooks>>;

  beforeAll(async () => {
    api = await startApi();
    books = await seedBooks(api);
  });
  afterAll(async () => { await api.close(); });

  const post = (fields: Record<string, unknown>) =>
    api.request('POST', '/api/v1/journal-entries', { ...entryBody(books.cash.id, books.sales.id, '100'), ...fields });

  describe('entry metadata', () => {
    it('accepts metadata 8 levels deep and 16 KiB as JSON', async () => {
      const entry = dataOf(await post({ metadata: nested(8) }), 201);
      expect(dataOf(await api.request('GET', `/api/v1/journal-entries/${entry.id}`)).metadata).toEqual(nested(8));
      const big = { note: 'x'.repeat(16 * 1024 - '{"note":""}'.length) };
      dataOf(await post({ metadata: big }), 201);
    });

    it('refuses metadata nested deeper than 8 levels, up to thousands, with a 400', async () => {
      // Up to the body's own cap (64 levels) the schema names metadata; past it, the body is refused whole.
      for (const [levels, field] of [[9, 'metadata'], [60, 'metadata'], [4000, 'body'], [4200, 'body']] as const) {
        // Built as text: serialising thousands of levels overflows the stack of this process too.
        const metadata = `${'{"k":'.repeat(levels - 1)}{"k":1}${'}'.repeat(levels - 1)}`;
        const rawBody = JSON.stringify(entryBody(books.cash.id, books.sales.id, '100')).replace(/}$/, `,"metadata":${metadata}}`);
        const response = await api.request('POST', '/api/v1/journal-entries', undefined, { rawBody, headers: { 'content-type': 'application/json' } });
        expectError(response, 400, 'VALIDATION_ERROR', field);
        expect(response.body.suggestion).toEqual(expect.any(String));
      }
      const arrays = await api.request('POST', '/api/v1/journal-entries', undefined, {
        rawBody: JSON.stringify(entryBody(books.cash.id, books.sales.id, '100')).replace(/}$/, `,"metadata":{"list":${'['.repeat(5000)}${']'.repeat(5000)}}}`),
        headers: { 'content-type': 'application/json' },
      });
      expectError(arrays, 400, 'VALIDATION_ERROR', 'body');
    });

    it('refuses metadata larger than 16 KiB as JSON', async () => {
      for (const size of [16 * 1024 + 1, 900 * 1024]) {
        const response = await post({ metadata: { note: 'x'.repeat(size) } });
        expectError(response, 400, 'VALIDATION_ERROR', 'metadata');
        expect(response.body.message).toMatch(/16384 bytes/);
      }
      // Multi-byte characters count as the bytes they take.
      expectError(await post({ metadata: { note: 'é'.repeat(9000) } }), 400, 'VALIDATION_ERROR', 'metadata');
    });

    it('bounds the metadata of every entry of a batch', async () => {
      const entry = { ...entryBody(books.cash.id, books.sales.id, '100'), metadata: nested(20) };
      const response = await api.request('POST', '/api/v1/journal-entries/batch', { entries: [entryBody(books.cash.id, books.sales.id, '100'), entry] });
      expectError(response, 400, 'VALIDATION_ERROR', 'entries[1].metadata');
    });
  });

  describe('text that is not well-formed Unicode', () => {
    it('refuses a lone surrogate in a name instead of storing something else than it echoes', async () => {
      const response = await api.request('POST', '/api/v1/accounts', undefined, {
        rawBody: `{"account_number":"9100","name":"a\\ud800b","currency_id":"${books.currency.id}","account_type":"asset","normal_balance":"debit"}`,
        headers: { 'content-type': 'application/json' },
      });
      expectError(response, 400, 'VALIDATION_ERROR', 'name');
      const listed = dataOf(await api.request('GET', '/api/v1/accounts?limit=200'));
      expect(listed.map((account: { account_number: string }) => account.account_number)).not.toContain('9100');
    });

    it('refuses lone surrogates anywhere in a body, keys included, naming the field', async () => {
      const send = (rawBody: string) => api.request('POST', '/api/v1/periods', undefined, { rawBody, headers: { 'content-type': 'application/json' } });
      expectError(await send('{"name":"\\udc00","start_date":"2030-01-01","end_date":"2030-12-31"}'), 400, 'VALIDATION_ERROR', 'name');
      const entry = JSON.stringify({ ...entryBody(books.cash.id, books.sales.id, '100'), metadata: { tags: ['ok', 'x'] } })
        .replace('"x"', '"x\\ud83d"');
      expectError(await api.request('POST', '/api/v1/journal-entries', undefined, { rawBody: entry, headers: { 'content-type': 'application/json' } }),
        400, 'VALIDATION_ERROR', 'metadata.tags[1]');
      const key = JSON.stringify({ ...entryBody(books.cash.id, books.sales.id, '100'), metadata: { KEY: 1 } }).replace('KEY', '\\ud800');
      expectError(await api.request('POST', '/api/v1/journal-entries', undefined, { rawBody: key, headers: { 'content-type': 'application/json' } }),
        400, 'VALIDATION_ERROR', 'metadata');
    });

    it('refuses a body whose bytes are not UTF-8, instead of storing replacement characters', async () => {
      const json = Buffer.from(`{"account_number":"9200","name":"aXb","currency_id":"${books.currency.id}","account_type":"asset","normal_balance":"debit"}`);
      const bytes = Buffer.concat([json.subarray(0, json.indexOf('X')), Buffer.from([0xff, 0xfe]), json.subarray(json.indexOf('X') + 1)]);
      const response = await fetch(`${api.baseUrl}/api/v1/accounts`, {
        method: 'POST', headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'application/json' }, body: bytes,
      });
      expectError({ status: response.status, body: await response.json(), headers: response.headers }, 400, 'VALIDATION_ERROR', 'body');
      const listed = dataOf(await api.request('GET', '/api/v1/accounts?limit=200'));
      expect(listed.map((account: { account_number: string }) => account.account_number)).not.toContain('9200');
    });

    it('refuses a body nested deeper than any API body needs, on every route, before anything walks it', async () => {
      const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
      const headers = { 'content-type': 'application/json', 'idempotency-key': 'deep-body' };
      for (const path of ['/api/v1/journal-entries', '/api/v1/users/any-user/api-key/rotate']) {
        expectError(await api.request('POST', path, undefined, { rawBody: deep, headers }), 400, 'VALIDATION_ERROR', 'body');
      }
    });

    it('stores exactly what it echoes for well-formed text beyond the basic plane', async () => {
      const created = dataOf(await api.request('POST', '/api/v1/periods', { name: 'FY 💶 \ud83d\udcb6', start_date: '2031-01-01', end_date: '2031-12-31' }), 201);
      expect(created.name).toBe('FY 💶 💶');
      expect(dataOf(await api.request('GET', `/api/v1/periods/${created.id}`)).name).toBe('FY 💶 💶');
    });
  });
});
