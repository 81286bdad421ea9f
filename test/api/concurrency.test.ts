/**
 * Many requests at once through the real server: every write is applied exactly once, a
 * refused write leaves no trace even when it is committed in the same batch as accepted ones,
 * and rules that depend on the ledger's state (one reversal per entry, unique codes, no overlap,
 * the 128-bit bound) hold under races.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiFixture, MAX_AMOUNT, balanceOf, createAccount, createCurrency, createPeriod, dataOf, entryBody, postEntry,
  startApi, walkPages,
} from '../helpers/api-fixture.js';

const ENTRIES = '/api/v1/journal-entries';

describe('concurrency', () => {
  let api: ApiFixture;
  let serial = 0;

  beforeAll(async () => {
    api = await startApi();
    await createPeriod(api, 'FY2026', '2026-01-01', '2026-12-31');
  });
  afterAll(async () => { await api.close(); });

  async function books() {
    serial += 1;
    const currency = await createCurrency(api, { asset_scale: 0 });
    const open = (number: string, account_type: string, normal_balance: string) =>
      createAccount(api, { account_number: `P${serial}-${number}`, name: number, currency_id: currency.id, account_type, normal_balance });
    return {
      cash: await open('1000', 'asset', 'debit'), bank: await open('1100', 'asset', 'debit'),
      sales: await open('4000', 'revenue', 'credit'), rent: await open('6000', 'expense', 'debit'),
    };
  }

  const sumTo = (n: number) => (n * (n + 1)) / 2;

  it('posts 200 concurrent entries, every one exactly once', async () => {
    const { cash, sales } = await books();
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) =>
      api.request('POST', ENTRIES, entryBody(cash.id, sales.id, String(i + 1), '2026-04-01', `concurrent ${i}`))));
    expect(responses.map((response) => response.status)).toEqual(new Array(200).fill(201));
    const postedIds = responses.map((response) => response.body.data.id as string);
    expect(new Set(postedIds).size).toBe(200);
    expect(await balanceOf(api, cash.id)).toMatchObject({ total_debits: String(sumTo(200)), total_credits: '0', net_balance: String(sumTo(200)) });
    expect(await balanceOf(api, sales.id)).toMatchObject({ total_debits: '0', total_credits: String(sumTo(200)), net_balance: String(sumTo(200)) });
    const { rows } = await walkPages(api, `${ENTRIES}?account_id=${cash.id}`, { limit: 200 });
    expect(rows).toHaveLength(200);
    expect(new Set(rows.map((row) => row.id))).toEqual(new Set(postedIds));
    const transactions = await walkPages(api, `/api/v1/accounts/${sales.id}/transactions`, { limit: 200 });
    expect(transactions.rows).toHaveLength(200);
  });

  it('commits the accepted entries and none of the refused ones when both arrive together', async () => {
    const { cash, bank, sales, rent } = await books();
    dataOf(await api.request('PATCH', `/api/v1/accounts/${rent.id}`, { is_active: false }));
    const bodies = Array.from({ length: 120 }, (_, i) => {
      const amount = String(i + 1);
      switch (i % 4) {
        case 0: return { valid: true, body: entryBody(cash.id, sales.id, amount) };
        case 1: return { valid: false, body: { ...entryBody(cash.id, sales.id, amount), lines: [
          { account_id: cash.id, debit_amount: amount }, { account_id: sales.id, credit_amount: String(i + 2) }] } };
        case 2: return { valid: false, body: entryBody(rent.id, bank.id, amount) };
        default: return { valid: false, body: entryBody(bank.id, sales.id, amount, '2030-01-01') };
      }
    });
    const responses = await Promise.all(bodies.map(({ body }) => api.request('POST', ENTRIES, body)));
    const expectedStatus = bodies.map(({ valid }) => (valid ? 201 : 400));
    expect(responses.map((response) => response.status)).toEqual(expectedStatus);
    const validTotal = bodies.reduce((sum, { valid }, i) => (valid ? sum + i + 1 : sum), 0);
    expect(await balanceOf(api, cash.id)).toMatchObject({ total_debits: String(validTotal), total_credits: '0' });
    expect(await balanceOf(api, sales.id)).toMatchObject({ total_credits: String(validTotal), total_debits: '0' });
    expect(await balanceOf(api, bank.id)).toMatchObject({ total_debits: '0', total_credits: '0' });
    expect(await balanceOf(api, rent.id)).toMatchObject({ total_debits: '0', total_credits: '0' });
    expect((await walkPages(api, `${ENTRIES}?account_id=${sales.id}`, { limit: 200 })).rows).toHaveLength(30);
  });

  it('lets exactly one of many concurrent reversals of the same entry succeed', async () => {
    const { cash, sales } = await books();
    const original = await postEntry(api, cash.id, sales.id, '500');
    const responses = await Promise.all(Array.from({ length: 25 }, () => api.request('POST', `${ENTRIES}/${original.id}/reverse`)));
    const succeeded = responses.filter((response) => response.status === 201);
    expect(succeeded).toHaveLength(1);
    for (const response of responses.filter((r) => r.status !== 201)) {
      expect({ status: response.status, code: response.body.code }).toEqual({ status: 409, code: 'REVERSAL_NOT_ALLOWED' });
    }
    expect(dataOf(await api.request('GET', `${ENTRIES}/${original.id}`)).reversed_by_id).toBe(succeeded[0]!.body.data.id);
    expect(await balanceOf(api, cash.id)).toMatchObject({ total_debits: '500', total_credits: '500', net_balance: '0' });
    expect((await walkPages(api, `${ENTRIES}?account_id=${cash.id}`)).rows).toHaveLength(2);
  });

  it('reverses each of many entries exactly once when every reversal is sent twice at once', async () => {
    const { cash, sales } = await books();
    const originals = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      api.request('POST', ENTRIES, entryBody(cash.id, sales.id, String(i + 1)))));
    const attempts = originals.flatMap((response) => [response.body.data.id, response.body.data.id]);
    const responses = await Promise.all(attempts.map((id) => api.request('POST', `${ENTRIES}/${id}/reverse`)));
    expect(responses.filter((response) => response.status === 201)).toHaveLength(20);
    expect(responses.filter((response) => response.status === 409)).toHaveLength(20);
    expect(await balanceOf(api, cash.id)).toMatchObject({ net_balance: '0', total_debits: String(sumTo(20)) });
  });

  it('creates a currency code only once when the same code is sent concurrently', async () => {
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => api.request('POST', '/api/v1/currencies', {
      code: 'RACE', name: 'Race', symbol: 'R', asset_scale: 2, asset_type: 'crypto', caip19_id: `test:0/race:${i}`,
    })));
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    for (const response of responses.filter((r) => r.status !== 201)) {
      expect({ status: response.status, code: response.body.code, field: response.body.field }).toEqual({ status: 409, code: 'DUPLICATE', field: 'code' });
    }
  });

  it('creates only one of several overlapping periods sent concurrently', async () => {
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => api.request('POST', '/api/v1/periods', {
      name: `Race ${i}`, start_date: `2040-0${1 + (i % 3)}-01`, end_date: '2040-12-31',
    })));
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    expect(responses.filter((response) => response.status === 409 && response.body.code === 'PERIOD_OVERLAP')).toHaveLength(9);
  });

  it('never lets concurrent entries take a currency\'s totals past 2^127 - 1', async () => {
    const { cash, sales } = await books();
    const half = (MAX_AMOUNT / 2n + 1n).toString();
    const responses = await Promise.all(Array.from({ length: 6 }, () => api.request('POST', ENTRIES, entryBody(cash.id, sales.id, half))));
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    expect(responses.filter((response) => response.status === 400 && response.body.code === 'VALIDATION_ERROR')).toHaveLength(5);
    expect(await balanceOf(api, cash.id)).toMatchObject({ net_balance: half });
  });
});
