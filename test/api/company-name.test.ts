/**
 * The company name setting: set, trimmed, bounded, cleared with null, and carried by every report
 * (`company_name`, null when unset) so that a printed or saved report says whose books it shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, dataOf, entryBody, expectError, newApiKey, seedBooks, startApi } from '../helpers/api-fixture.js';

const SETTINGS = '/api/v1/settings';

describe('the company name setting', () => {
  let api: ApiFixture;
  let books: Awaited<ReturnType<typeof seedBooks>>;

  beforeAll(async () => {
    api = await startApi();
    books = await seedBooks(api);
    dataOf(await api.request('PATCH', SETTINGS, { retained_earnings_account_id: books.equity.id }));
    dataOf(await api.request('POST', '/api/v1/journal-entries', entryBody(books.cash.id, books.sales.id, '125000')), 201);
  });
  afterAll(async () => { await api.close(); });

  const reportPaths = () => [
    '/api/v1/reports/trial-balance',
    '/api/v1/reports/balance-sheet',
    '/api/v1/reports/income-statement',
    '/api/v1/reports/income-statement?start_date=2026-01-01&end_date=2026-03-31&columns=month',
    `/api/v1/reports/general-ledger?account_id=${books.cash.id}`,
  ];

  it('is null until set, and every report carries company_name null', async () => {
    expect(dataOf(await api.request('GET', SETTINGS))).toEqual({
      company_name: null, retained_earnings_account_id: books.equity.id, retained_earnings_account_ids: {}, base_currency_id: books.currency.id, lock_date: null,
    });
    for (const path of reportPaths()) expect(dataOf(await api.request('GET', path)).company_name).toBeNull();
  });

  it('stores the name trimmed, leaves the other settings alone, and every report carries it', async () => {
    const updated = dataOf(await api.request('PATCH', SETTINGS, { company_name: '  Acme Consulting Ltd\u00a0' }));
    expect(updated).toEqual({ company_name: 'Acme Consulting Ltd', retained_earnings_account_id: books.equity.id, retained_earnings_account_ids: {},
      base_currency_id: books.currency.id, lock_date: null });
    expect(dataOf(await api.request('GET', SETTINGS)).company_name).toBe('Acme Consulting Ltd');
    for (const path of reportPaths()) expect(dataOf(await api.request('GET', path)).company_name).toBe('Acme Consulting Ltd');
    // The figures are those of the same report without a name.
    const sheet = dataOf(await api.request('GET', '/api/v1/reports/balance-sheet'));
    expect([sheet.total_assets, sheet.is_balanced]).toEqual(['125000', true]);
  });

  it('keeps 200 characters of any script, counted as characters rather than bytes', async () => {
    for (const name of ['x'.repeat(200), 'Ä'.repeat(200), '株'.repeat(200), '😀'.repeat(200)]) {
      expect(dataOf(await api.request('PATCH', SETTINGS, { company_name: name })).company_name).toBe(name);
      expect(dataOf(await api.request('GET', '/api/v1/reports/trial-balance')).company_name).toBe(name);
    }
    dataOf(await api.request('PATCH', SETTINGS, { company_name: 'Acme Consulting Ltd' }));
  });

  it.each([
    ['an empty name', ''],
    ['only spaces', '   '],
    ['201 characters', 'x'.repeat(201)],
    ['a line break', 'Acme\nLtd'],
    ['a tab', 'Acme\tLtd'],
    ['a NUL character', 'Acme\u0000Ltd'],
    ['an escape character', 'Acme\u001b[31mLtd'],
    ['a line separator', 'Acme\u2028Ltd'],
    ['a number', 42],
    ['a list', ['Acme']],
  ])('refuses %s with VALIDATION_ERROR naming company_name and a suggestion, changing nothing', async (_case, value) => {
    const response = await api.request('PATCH', SETTINGS, { company_name: value });
    expectError(response, 400, 'VALIDATION_ERROR', 'company_name');
    if (typeof value === 'string') expect(response.body.suggestion).toEqual(expect.any(String));
    expect(dataOf(await api.request('GET', SETTINGS)).company_name).toBe('Acme Consulting Ltd');
  });

  it('changes nothing when a bad name comes with a good retained earnings account', async () => {
    const other = dataOf(await api.request('POST', '/api/v1/accounts', {
      account_number: '3900', name: 'Other equity', currency_id: books.currency.id, account_type: 'equity', normal_balance: 'credit',
    }), 201);
    expectError(await api.request('PATCH', SETTINGS, { company_name: '', retained_earnings_account_id: other.id }), 400, 'VALIDATION_ERROR', 'company_name');
    expect(dataOf(await api.request('GET', SETTINGS))).toEqual({
      company_name: 'Acme Consulting Ltd', retained_earnings_account_id: books.equity.id, retained_earnings_account_ids: {}, base_currency_id: books.currency.id, lock_date: null,
    });
  });

  it('records the change in the audit log', async () => {
    dataOf(await api.request('PATCH', SETTINGS, { company_name: 'Acme Holdings Ltd' }));
    const [record] = dataOf(await api.request('GET', '/api/v1/audit-log?action=settings.update&limit=1'));
    expect(record.changes).toEqual({ company_name: { old: 'Acme Consulting Ltd', new: 'Acme Holdings Ltd' } });
  });

  it('needs settings:write to change', async () => {
    const readOnly = await newApiKey(api, {});
    expectError(await api.request('PATCH', SETTINGS, { company_name: 'Someone Else Ltd' }, { token: readOnly }), 403, 'FORBIDDEN');
    expect(dataOf(await api.request('GET', SETTINGS, undefined, { token: readOnly })).company_name).toBe('Acme Holdings Ltd');
  });

  it('is removed with null: the settings and every report carry company_name null again', async () => {
    expect(dataOf(await api.request('PATCH', SETTINGS, { company_name: null }))).toEqual({
      company_name: null, retained_earnings_account_id: books.equity.id, retained_earnings_account_ids: {}, base_currency_id: books.currency.id, lock_date: null,
    });
    for (const path of reportPaths()) expect(dataOf(await api.request('GET', path)).company_name).toBeNull();
    // Removing what is not set is no error either.
    expect(dataOf(await api.request('PATCH', SETTINGS, { company_name: null })).company_name).toBeNull();
  });
});
