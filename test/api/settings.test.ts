import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, createAccount, createCurrency, dataOf, expectError, newApiKey, startApi } from '../helpers/api-fixture.js';

const SETTINGS = '/api/v1/settings';

describe('settings', () => {
  let api: ApiFixture;
  let accounts: Record<string, { id: string }> = {};
  let currencyId = '';

  beforeAll(async () => {
    api = await startApi();
    const currency = await createCurrency(api);
    currencyId = currency.id;
    const open = (account_number: string, account_type: string, normal_balance: string, extra: object = {}) =>
      createAccount(api, { account_number, name: account_number, currency_id: currency.id, account_type, normal_balance, ...extra });
    accounts = {
      retained: await open('3100', 'equity', 'credit'),
      otherEquity: await open('3200', 'equity', 'credit'),
      inactiveEquity: await open('3300', 'equity', 'credit'),
      equityControl: await open('3400', 'equity', 'credit', { has_subledger: true }),
      cash: await open('1000', 'asset', 'debit'),
      payables: await open('2000', 'liability', 'credit'),
      sales: await open('4000', 'revenue', 'credit'),
      rent: await open('6000', 'expense', 'debit'),
    };
    accounts.equitySub = await createAccount(api, { account_number: '3401', name: 'Partner A', parent_id: accounts.equityControl!.id, entity_id: 'partner-a' });
    dataOf(await api.request('PATCH', `/api/v1/accounts/${accounts.inactiveEquity!.id}`, { is_active: false }));
  });
  afterAll(async () => { await api.close(); });

  it('answers retained_earnings_account_id null and no per-currency accounts before they are set', async () => {
    const fresh = await startApi();
    try {
      expect(await fresh.request('GET', SETTINGS)).toMatchObject({ status: 200, body: { data: { retained_earnings_account_id: null } } });
      expect((await fresh.request('GET', SETTINGS)).body.data).toEqual({
        company_name: null, retained_earnings_account_id: null, retained_earnings_account_ids: {}, base_currency_id: null, lock_date: null,
      });
    } finally {
      await fresh.close();
    }
  });

  it('sets the retained earnings account to an active equity account that is not a control account', async () => {
    const response = await api.request('PATCH', SETTINGS, { retained_earnings_account_id: accounts.retained!.id });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { company_name: null, retained_earnings_account_id: accounts.retained!.id, retained_earnings_account_ids: {}, base_currency_id: currencyId, lock_date: null } });
    expect((await api.request('GET', SETTINGS)).body).toEqual({ data: { company_name: null, retained_earnings_account_id: accounts.retained!.id, retained_earnings_account_ids: {}, base_currency_id: currencyId, lock_date: null } });
  });

  it('changes the retained earnings account, also to an equity sub-account', async () => {
    expect(dataOf(await api.request('PATCH', SETTINGS, { retained_earnings_account_id: accounts.otherEquity!.id })))
      .toEqual({ company_name: null, retained_earnings_account_id: accounts.otherEquity!.id, retained_earnings_account_ids: {}, base_currency_id: currencyId, lock_date: null });
    expect(dataOf(await api.request('PATCH', SETTINGS, { retained_earnings_account_id: accounts.equitySub!.id })))
      .toEqual({ company_name: null, retained_earnings_account_id: accounts.equitySub!.id, retained_earnings_account_ids: {}, base_currency_id: currencyId, lock_date: null });
    dataOf(await api.request('PATCH', SETTINGS, { retained_earnings_account_id: accounts.retained!.id }));
  });

  it.each([
    ['an asset account', 'cash'],
    ['a liability account', 'payables'],
    ['a revenue account', 'sales'],
    ['an expense account', 'rent'],
    ['an inactive equity account', 'inactiveEquity'],
    ['an equity control account', 'equityControl'],
  ])('refuses %s with VALIDATION_ERROR naming retained_earnings_account_id and keeps the setting', async (_case, key) => {
    dataOf(await api.request('PATCH', SETTINGS, { retained_earnings_account_id: accounts.retained!.id }));
    const response = await api.request('PATCH', SETTINGS, { retained_earnings_account_id: accounts[key]!.id });
    expectError(response, 400, 'VALIDATION_ERROR', 'retained_earnings_account_id');
    expect(dataOf(await api.request('GET', SETTINGS))).toEqual({ company_name: null, retained_earnings_account_id: accounts.retained!.id, retained_earnings_account_ids: {}, base_currency_id: currencyId, lock_date: null });
  });

  it('refuses an unknown account with VALIDATION_ERROR naming retained_earnings_account_id', async () => {
    const response = await api.request('PATCH', SETTINGS, { retained_earnings_account_id: 'no-such-account' });
    expectError(response, 400, 'VALIDATION_ERROR', 'retained_earnings_account_id');
  });

  it('refuses an empty change, null and settings that do not exist', async () => {
    expectError(await api.request('PATCH', SETTINGS, {}), 400, 'VALIDATION_ERROR');
    expectError(await api.request('PATCH', SETTINGS, { retained_earnings_account_id: null }), 400, 'VALIDATION_ERROR', 'retained_earnings_account_id');
    expectError(await api.request('PATCH', SETTINGS, { retained_earnings_account_id: accounts.retained!.id, base_currency: 'USD' }),
      400, 'VALIDATION_ERROR', 'base_currency');
  });

  it('lets any authenticated caller read the settings but only a permitted one change them', async () => {
    const readOnly = await newApiKey(api, {});
    expect((await api.request('GET', SETTINGS, undefined, { token: readOnly })).status).toBe(200);
    expectError(await api.request('PATCH', SETTINGS, { retained_earnings_account_id: accounts.otherEquity!.id }, { token: readOnly }), 403, 'FORBIDDEN');
    const writer = await newApiKey(api, { 'settings:write': true });
    expect((await api.request('PATCH', SETTINGS, { retained_earnings_account_id: accounts.otherEquity!.id }, { token: writer })).status).toBe(200);
    dataOf(await api.request('PATCH', SETTINGS, { retained_earnings_account_id: accounts.retained!.id }));
  });
});
