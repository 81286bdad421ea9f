import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, createPeriod, dataOf, expectError, startApi, walkPages } from '../helpers/api-fixture.js';

/** One ledger for the file; every test works in calendar years of its own so periods never clash. */
describe('periods', () => {
  let api: ApiFixture;
  beforeAll(async () => { api = await startApi(); });
  afterAll(async () => { await api.close(); });

  it('creates an open period with every closing field null', async () => {
    const response = await api.request('POST', '/api/v1/periods', { name: 'FY2030', start_date: '2030-01-01', end_date: '2030-12-31' });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      name: 'FY2030', start_date: '2030-01-01', end_date: '2030-12-31', status: 'open',
      closed_at: null, closed_by: null, closing_entry_id: null,
    });
    expect(typeof response.body.data.id).toBe('string');
  });

  it('refuses an empty name and an over-long one, saying which limit was broken', async () => {
    const empty = await api.request('POST', '/api/v1/periods', { name: '', start_date: '2031-01-01', end_date: '2031-01-31' });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'name', message: 'name must not be empty' });
    const long = await api.request('POST', '/api/v1/periods', { name: 'x'.repeat(201), start_date: '2031-01-01', end_date: '2031-01-31' });
    expect(long.body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'name', message: 'name must have at most 200 characters' });
  });

  it('gets a period by id and answers 404 NOT_FOUND for an unknown id', async () => {
    const period = await createPeriod(api, 'FY2031', '2031-01-01', '2031-12-31');
    expect(await api.request('GET', `/api/v1/periods/${period.id}`)).toMatchObject({ status: 200, body: { data: period } });
    expectError(await api.request('GET', '/api/v1/periods/no-such-period'), 404, 'NOT_FOUND');
  });

  it('lists periods ordered by start_date', async () => {
    const fresh = await startApi();
    try {
      await createPeriod(fresh, 'Q3', '2026-07-01', '2026-09-30');
      await createPeriod(fresh, 'Q1', '2026-01-01', '2026-03-31');
      await createPeriod(fresh, 'Q4', '2026-10-01', '2026-12-31');
      await createPeriod(fresh, 'Q2', '2026-04-01', '2026-06-30');
      const response = await fresh.request('GET', '/api/v1/periods');
      expect(response.status).toBe(200);
      expect(response.body.data.map((period: { name: string }) => period.name)).toEqual(['Q1', 'Q2', 'Q3', 'Q4']);
      expect(response.body).toMatchObject({ has_more: false, next_cursor: null });
    } finally {
      await fresh.close();
    }
  });

  it('accepts a single-day period and a period that starts the day after another ends', async () => {
    await createPeriod(api, 'Jan 2032', '2032-01-01', '2032-01-31');
    const next = await createPeriod(api, 'Feb 1st 2032', '2032-02-01', '2032-02-01');
    expect(next).toMatchObject({ start_date: '2032-02-01', end_date: '2032-02-01', status: 'open' });
    await createPeriod(api, 'Rest of Feb 2032', '2032-02-02', '2032-02-29');
  });

  describe('overlap with an existing period from 2033-03-01 to 2033-06-30 (bounds inclusive)', () => {
    beforeAll(async () => { await createPeriod(api, 'Spring 2033', '2033-03-01', '2033-06-30'); });

    it.each([
      ['shares its first day with the last day of the existing period', '2033-06-30', '2033-07-31'],
      ['shares its last day with the first day of the existing period', '2033-01-01', '2033-03-01'],
      ['lies inside the existing period', '2033-04-01', '2033-04-30'],
      ['contains the existing period', '2033-02-01', '2033-12-31'],
      ['starts inside the existing period', '2033-05-15', '2033-08-31'],
      ['covers exactly the same days', '2033-03-01', '2033-06-30'],
    ])('refuses a period that %s with 409 PERIOD_OVERLAP', async (_case, start, end) => {
      expectError(await api.request('POST', '/api/v1/periods', { name: 'Clash', start_date: start, end_date: end }), 409, 'PERIOD_OVERLAP');
    });

    it('accepts the periods just before and just after it', async () => {
      await createPeriod(api, 'Before spring 2033', '2033-01-01', '2033-02-28');
      await createPeriod(api, 'After spring 2033', '2033-07-01', '2033-12-31');
    });
  });

  it('stores nothing when a period is refused for overlapping', async () => {
    await createPeriod(api, 'FY2034', '2034-01-01', '2034-12-31');
    expectError(await api.request('POST', '/api/v1/periods', { name: 'Overlapping 2034', start_date: '2034-12-31', end_date: '2035-01-31' }), 409, 'PERIOD_OVERLAP');
    const { rows } = await walkPages(api, '/api/v1/periods', { limit: 200 });
    expect(rows.map((period: { name: string }) => period.name)).not.toContain('Overlapping 2034');
  });

  it('refuses a period whose start is after its end with VALIDATION_ERROR', async () => {
    expectError(await api.request('POST', '/api/v1/periods', { name: 'Backwards', start_date: '2036-12-31', end_date: '2036-01-01' }), 400, 'VALIDATION_ERROR');
  });

  it.each([
    ['start_date', '2026-02-30'],
    ['end_date', '2026-02-30'],
    ['end_date', '2027-02-29'],
    ['start_date', '2037-13-01'],
    ['start_date', '2037-00-10'],
    ['end_date', '2037-04-31'],
    ['start_date', '2037-1-1'],
    ['start_date', '01/01/2037'],
    ['end_date', '2037-12-31T00:00:00Z'],
  ])('refuses %s %s as not a calendar date with VALIDATION_ERROR naming it', async (field, value) => {
    const body = { name: 'Bad date', start_date: '2037-01-01', end_date: '2037-12-31', [field]: value };
    expectError(await api.request('POST', '/api/v1/periods', body), 400, 'VALIDATION_ERROR', field);
  });

  it('accepts 29 February in a leap year', async () => {
    const period = await createPeriod(api, 'Leap day 2040', '2040-02-29', '2040-02-29');
    expect(period.start_date).toBe('2040-02-29');
  });

  it.each(['name', 'start_date', 'end_date'])('refuses a period without %s with VALIDATION_ERROR naming it', async (field) => {
    const body: Record<string, unknown> = { name: 'Missing', start_date: '2041-01-01', end_date: '2041-12-31' };
    delete body[field];
    expectError(await api.request('POST', '/api/v1/periods', body), 400, 'VALIDATION_ERROR', field);
  });

  it('refuses unknown fields such as status on creation', async () => {
    const response = await api.request('POST', '/api/v1/periods', { name: 'Closed', start_date: '2042-01-01', end_date: '2042-12-31', status: 'closed' });
    expectError(response, 400, 'VALIDATION_ERROR', 'status');
    const created = dataOf(await api.request('POST', '/api/v1/periods', { name: 'FY2042', start_date: '2042-01-01', end_date: '2042-12-31' }), 201);
    expect(created.status).toBe('open');
  });
});
