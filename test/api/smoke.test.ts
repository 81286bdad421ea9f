import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, entryBody, seedBooks, startApi } from '../helpers/api-fixture.js';

describe('API smoke', () => {
  let api: ApiFixture;
  beforeAll(async () => { api = await startApi(); });
  afterAll(async () => { await api.close(); });

  it('posts a balanced entry and reports the balance', async () => {
    const books = await seedBooks(api);
    const posted = await api.request('POST', '/api/v1/journal-entries', entryBody(books.cash.id, books.sales.id, '25000'));
    expect(posted.status).toBe(201);
    const balance = await api.request('GET', `/api/v1/accounts/${books.cash.id}/balance`);
    expect(balance.body.data).toMatchObject({ net_balance: '25000', display_balance: '250.00' });
  });
});
