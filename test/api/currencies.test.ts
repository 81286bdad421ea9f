import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, createCurrency, dataOf, expectError, startApi } from '../helpers/api-fixture.js';

const usd = {
  code: 'USD', name: 'US Dollar', symbol: '$', asset_scale: 2, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:USD',
};
const eth = {
  code: 'ETH', name: 'Ether', symbol: 'Ξ', asset_scale: 18, asset_type: 'crypto', caip19_id: 'eip155:1/slip44:60',
};

describe('currencies', () => {
  // One ledger for the file: each test creates currencies under codes of its own.
  let api: ApiFixture;
  beforeAll(async () => { api = await startApi(); });
  afterAll(async () => { await api.close(); });

  it('creates a currency and answers 201 with every field and a string id', async () => {
    const response = await api.request('POST', '/api/v1/currencies', { ...usd, code: 'USA', caip19_id: 'swift:0/iso4217:USA' });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ ...usd, code: 'USA', caip19_id: 'swift:0/iso4217:USA' });
    expect(typeof response.body.data.id).toBe('string');
    expect(response.body.data.id.length).toBeGreaterThan(0);
  });

  it('gets a currency by id and answers 404 NOT_FOUND for an unknown id', async () => {
    const created = dataOf(await api.request('POST', '/api/v1/currencies', eth), 201);
    const fetched = await api.request('GET', `/api/v1/currencies/${created.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual({ data: created });
    expectError(await api.request('GET', '/api/v1/currencies/no-such-currency'), 404, 'NOT_FOUND');
  });

  it('lists currencies ordered by code', async () => {
    const fresh = await startApi();
    try {
      for (const code of ['USD', 'BTC', 'EUR', 'ADA']) await createCurrency(fresh, { code });
      const response = await fresh.request('GET', '/api/v1/currencies');
      expect(response.status).toBe(200);
      expect(response.body.data.map((currency: { code: string }) => currency.code)).toEqual(['ADA', 'BTC', 'EUR', 'USD']);
      expect(response.body.has_more).toBe(false);
      expect(response.body.next_cursor).toBeNull();
    } finally {
      await fresh.close();
    }
  });

  it('updates name and symbol and leaves every other field as it was', async () => {
    const created = await createCurrency(api);
    const patched = await api.request('PATCH', `/api/v1/currencies/${created.id}`, { name: 'United States dollar', symbol: 'US$' });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toEqual({ ...created, name: 'United States dollar', symbol: 'US$' });
    const onlySymbol = await api.request('PATCH', `/api/v1/currencies/${created.id}`, { symbol: '$' });
    expect(onlySymbol.body.data).toEqual({ ...created, name: 'United States dollar', symbol: '$' });
    expect(dataOf(await api.request('GET', `/api/v1/currencies/${created.id}`))).toEqual(onlySymbol.body.data);
  });

  it.each([
    ['code', 'EUR'],
    ['asset_scale', 4],
    ['asset_type', 'crypto'],
    ['caip19_id', 'swift:0/iso4217:EUR'],
    ['id', 'another-id'],
    ['colour', 'green'],
  ])('refuses a PATCH of %s with VALIDATION_ERROR naming the field and changes nothing', async (field, value) => {
    const created = await createCurrency(api);
    const response = await api.request('PATCH', `/api/v1/currencies/${created.id}`, { name: 'Changed', [field]: value });
    expectError(response, 400, 'VALIDATION_ERROR', field);
    expect(dataOf(await api.request('GET', `/api/v1/currencies/${created.id}`))).toEqual(created);
  });

  it('refuses an empty PATCH and answers 404 for a PATCH of an unknown currency', async () => {
    const created = await createCurrency(api);
    expectError(await api.request('PATCH', `/api/v1/currencies/${created.id}`, {}), 400, 'VALIDATION_ERROR');
    expectError(await api.request('PATCH', '/api/v1/currencies/no-such-currency', { name: 'x' }), 404, 'NOT_FOUND');
  });

  it('refuses a duplicate code with 409 DUPLICATE naming code', async () => {
    const first = await createCurrency(api);
    const response = await api.request('POST', '/api/v1/currencies', { ...usd, code: first.code, caip19_id: 'test:0/token:other-code' });
    expectError(response, 409, 'DUPLICATE', 'code');
  });

  it('refuses a code that differs from an existing one only in letter case', async () => {
    const first = await createCurrency(api, { code: 'Ab1' });
    const response = await api.request('POST', '/api/v1/currencies', { ...usd, code: first.code.toLowerCase(), caip19_id: 'test:0/token:case-clash' });
    expectError(response, 409, 'DUPLICATE', 'code');
  });

  it('refuses a duplicate caip19_id with 409 DUPLICATE naming caip19_id and stores nothing', async () => {
    const first = await createCurrency(api);
    const response = await api.request('POST', '/api/v1/currencies', { ...usd, code: 'DUPCAIP', caip19_id: first.caip19_id });
    expectError(response, 409, 'DUPLICATE', 'caip19_id');
    const list: { code: string }[] = dataOf(await api.request('GET', '/api/v1/currencies?limit=200'));
    expect(list.map((currency) => currency.code)).not.toContain('DUPCAIP');
  });

  it.each([0, 38])('accepts asset_scale %i', async (scale) => {
    const created = await createCurrency(api, { asset_scale: scale });
    expect(created.asset_scale).toBe(scale);
  });

  it.each([-1, 39, 2.5, '2'])('refuses asset_scale %s with VALIDATION_ERROR naming asset_scale', async (scale) => {
    const response = await api.request('POST', '/api/v1/currencies', { ...usd, asset_scale: scale });
    expectError(response, 400, 'VALIDATION_ERROR', 'asset_scale');
  });

  it.each(['code', 'name', 'symbol', 'asset_scale', 'asset_type', 'caip19_id'])(
    'refuses a currency without %s with VALIDATION_ERROR naming it', async (field) => {
      const body: Record<string, unknown> = { ...usd };
      delete body[field];
      expectError(await api.request('POST', '/api/v1/currencies', body), 400, 'VALIDATION_ERROR', field);
    });

  it('refuses an asset_type other than fiat or crypto', async () => {
    expectError(await api.request('POST', '/api/v1/currencies', { ...usd, asset_type: 'commodity' }), 400, 'VALIDATION_ERROR', 'asset_type');
  });
});
