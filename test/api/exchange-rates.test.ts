/**
 * Exchange rates over HTTP: POST /exchange-rates sets the value of one unit of a currency in the
 * base currency from a day on (201 when new, 200 when it replaced that day's rate, audited with
 * old and new), refuses anything but an exact positive decimal, an unknown currency, the base
 * currency itself and a ledger without a base currency, and changes nothing when it refuses;
 * GET /exchange-rates lists them by date with filters and keyset paging.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiFixture, createCurrency, dataOf, expectError, newApiKey, seedBooks, startApi, walkPages,
} from '../helpers/api-fixture.js';

const RATES = '/api/v1/exchange-rates';

describe('exchange rates', () => {
  let api: ApiFixture;
  let books: Awaited<ReturnType<typeof seedBooks>>;
  let eur: { id: string };
  let gbp: { id: string };

  const allRates = async () => (await walkPages(api, RATES)).rows;
  const rateAudit = async () => dataOf(await api.request('GET', '/api/v1/audit-log?action=exchange_rate.set&sort=asc&limit=200'));

  beforeAll(async () => {
    api = await startApi();
    books = await seedBooks(api);
    eur = await createCurrency(api, { code: 'EUR', caip19_id: 'swift:0/iso4217:EUR' });
    gbp = await createCurrency(api, { code: 'GBP', caip19_id: 'swift:0/iso4217:GBP' });
  });
  afterAll(async () => { await api.close(); });

  it('refuses a rate while the ledger has no base currency, storing nothing', async () => {
    const refused = await api.request('POST', RATES, { currency_id: eur.id, rate_date: '2026-01-15', rate: '1.08' });
    expectError(refused, 400, 'VALIDATION_ERROR', 'currency_id');
    expect(refused.body.message).toMatch(/no base currency/);
    expect(refused.body.suggestion).toMatch(/base_currency_id|base-currency/);
    expect(await allRates()).toEqual([]);
    // From here on the base currency is USD, implied by the retained earnings account.
    dataOf(await api.request('PATCH', '/api/v1/settings', { retained_earnings_account_id: books.equity.id }));
    expect(dataOf(await api.request('GET', '/api/v1/settings')).base_currency_id).toBe(books.currency.id);
  });

  it('creates a rate (201) in canonical form, then replaces it for the same day (200), audited with old and new', async () => {
    const created = await api.request('POST', RATES, { currency_id: eur.id, rate_date: '2026-01-15', rate: '01.084200' });
    const rate = dataOf(created, 201);
    expect(rate).toMatchObject({ currency_id: eur.id, currency_code: 'EUR', rate_date: '2026-01-15', rate: '1.0842' });
    expect(rate.created_at).toBe(rate.updated_at);

    api.clock.advance(60_000);
    const replaced = dataOf(await api.request('POST', RATES, { currency_id: eur.id, rate_date: '2026-01-15', rate: '1.1' }), 200);
    expect(replaced).toMatchObject({ id: rate.id, rate: '1.1', created_at: rate.created_at });
    expect(replaced.updated_at > rate.updated_at).toBe(true);
    expect(await allRates()).toEqual([replaced]);

    const audit = await rateAudit();
    expect(audit.map((record: any) => [record.action, record.target_type, record.target_id])).toEqual([
      ['exchange_rate.set', 'exchange_rate', rate.id], ['exchange_rate.set', 'exchange_rate', rate.id],
    ]);
    expect(audit[0].changes).toEqual({
      currency_id: { old: null, new: eur.id }, rate_date: { old: null, new: '2026-01-15' }, rate: { old: null, new: '1.0842' },
    });
    expect(audit[1].changes).toEqual({ rate: { old: '1.0842', new: '1.1' } });
  });

  it.each([
    ['zero', { rate: '0' }, 'rate', /greater than zero/],
    ['zero with decimals', { rate: '0.000' }, 'rate', /greater than zero/],
    ['negative', { rate: '-1' }, 'rate', /positive decimal/],
    ['more than 12 decimal places', { rate: '1.1234567890123' }, 'rate', /13 decimal places; at most 12/],
    ['a JSON number (a float)', { rate: 1.1 }, 'rate', /decimal string, not a JSON number/],
    ['an exponent', { rate: '1e3' }, 'rate', /positive decimal/],
    ['empty', { rate: '' }, 'rate', /positive decimal/],
    ['a comma', { rate: '1,08' }, 'rate', /positive decimal/],
    ['an impossible date', { rate_date: '2026-02-30' }, 'rate_date', /calendar date/],
    ['an unknown currency', { currency_id: 'no-such-currency' }, 'currency_id', /does not exist/],
    ['an unknown field', { source: 'ECB' }, undefined, /./],
  ])('refuses %s with VALIDATION_ERROR and stores nothing', async (_name, change, field, message) => {
    const before = { rates: await allRates(), audit: await rateAudit() };
    const refused = await api.request('POST', RATES, { currency_id: gbp.id, rate_date: '2026-01-20', rate: '1.25', ...change });
    expectError(refused, 400, 'VALIDATION_ERROR', field);
    expect(refused.body.message).toMatch(message);
    if (field !== undefined) expect(typeof refused.body.suggestion).toBe('string');
    expect({ rates: await allRates(), audit: await rateAudit() }).toEqual(before);
  });

  it('refuses a rate for the base currency itself, saying why', async () => {
    const before = await allRates();
    const refused = await api.request('POST', RATES, { currency_id: books.currency.id, rate_date: '2026-01-20', rate: '1' });
    expectError(refused, 400, 'VALIDATION_ERROR', 'currency_id');
    expect(refused.body.message).toMatch(/USD is the base currency/);
    expect(await allRates()).toEqual(before);
  });

  it('refuses a caller without rates:write (403 FORBIDDEN) and stores nothing; rates:write alone is enough', async () => {
    const before = await allRates();
    const body = { currency_id: gbp.id, rate_date: '2026-01-20', rate: '1.25' };
    const others = await newApiKey(api, { 'currencies:write': true, 'settings:write': true, 'journals:create': true, 'bank:write': true });
    expectError(await api.request('POST', RATES, body, { token: others }), 403, 'FORBIDDEN');
    expect(await allRates()).toEqual(before);
    const setter = await newApiKey(api, { 'rates:write': true });
    expect(dataOf(await api.request('POST', RATES, body, { token: setter }), 201).rate).toBe('1.25');
    // Anyone signed in may read them.
    expect((await walkPages(api, RATES)).rows).toHaveLength(before.length + 1);
  });

  it('replays a request with the same Idempotency-Key, with the status of the first answer (201, then 200 for a replacement)', async () => {
    const body = { currency_id: gbp.id, rate_date: '2026-02-01', rate: '1.26' };
    const first = await api.request('POST', RATES, body, { headers: { 'idempotency-key': 'rate-feb-1' } });
    const again = await api.request('POST', RATES, body, { headers: { 'idempotency-key': 'rate-feb-1' } });
    expect(first.status).toBe(201);
    expect({ status: again.status, body: again.body, replayed: again.headers.get('idempotent-replayed') })
      .toEqual({ status: 201, body: first.body, replayed: 'true' });
    const changed = { ...body, rate: '1.27' };
    const replacing = await api.request('POST', RATES, changed, { headers: { 'idempotency-key': 'rate-feb-1-fix' } });
    const replayed = await api.request('POST', RATES, changed, { headers: { 'idempotency-key': 'rate-feb-1-fix' } });
    expect(replacing.status).toBe(200);
    expect({ status: replayed.status, body: replayed.body }).toEqual({ status: 200, body: replacing.body });
    expectError(await api.request('POST', RATES, { ...body, rate: '9' }, { headers: { 'idempotency-key': 'rate-feb-1' } }), 409, 'IDEMPOTENCY_CONFLICT');
    expect((await walkPages(api, `${RATES}?currency_id=${gbp.id}&start_date=2026-02-01`)).rows.map((rate: any) => rate.rate)).toEqual(['1.27']);
  });

  it('lists rates by date, then currency, filtered by currency and dates, over keyset pages', async () => {
    for (const [currency, date, rate] of [
      [eur, '2026-03-01', '1.09'], [gbp, '2026-03-01', '1.28'], [eur, '2026-02-01', '1.085'], [eur, '2026-03-31', '1.0901'],
    ] as const) {
      dataOf(await api.request('POST', RATES, { currency_id: currency.id, rate_date: date, rate }), 201);
    }
    const sameDay = [eur.id, gbp.id].sort();
    const code = (id: string) => (id === eur.id ? 'EUR' : 'GBP');
    const expected = [
      ['2026-01-15', 'EUR'], ['2026-01-20', 'GBP'], ...[eur.id, gbp.id].sort().map((id) => ['2026-02-01', code(id)]),
      ...sameDay.map((id) => ['2026-03-01', code(id)]), ['2026-03-31', 'EUR'],
    ];
    for (const limit of [1, 2, 5, 50]) {
      const walked = await walkPages(api, RATES, { limit });
      expect(walked.rows.map((rate: any) => [rate.rate_date, rate.currency_code]), `limit ${limit}`).toEqual(expected);
    }
    const euro = await walkPages(api, `${RATES}?currency_id=${eur.id}`, { limit: 2 });
    expect(euro.rows.map((rate: any) => `${rate.rate_date} ${rate.rate}`)).toEqual(['2026-01-15 1.1', '2026-02-01 1.085', '2026-03-01 1.09', '2026-03-31 1.0901']);
    const february = await walkPages(api, `${RATES}?start_date=2026-02-01&end_date=2026-03-01`, { limit: 1 });
    expect(february.rows.map((rate: any) => [rate.rate_date, rate.currency_code])).toEqual(expected.slice(2, 6));
    expect((await walkPages(api, `${RATES}?currency_id=${gbp.id}&end_date=2026-01-31`)).rows.map((rate: any) => rate.rate)).toEqual(['1.25']);
    expect(dataOf(await api.request('GET', `${RATES}?end_date=2025-12-31`))).toEqual([]);
  });

  it('refuses a bad list query: an unknown currency (404), dates out of order or malformed (400), a cursor of another filter', async () => {
    expectError(await api.request('GET', `${RATES}?currency_id=no-such-currency`), 404, 'NOT_FOUND', 'currency_id');
    expectError(await api.request('GET', `${RATES}?start_date=2026-03-01&end_date=2026-02-01`), 400, 'VALIDATION_ERROR', 'start_date');
    expectError(await api.request('GET', `${RATES}?start_date=2026-02-30`), 400, 'VALIDATION_ERROR');
    const firstPage = await api.request('GET', `${RATES}?limit=1`);
    expect(firstPage.body.has_more).toBe(true);
    expectError(await api.request('GET', `${RATES}?currency_id=${eur.id}&cursor=${encodeURIComponent(firstPage.body.next_cursor)}`), 400, 'VALIDATION_ERROR');
  });
});
