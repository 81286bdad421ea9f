/**
 * Closing in order and undoing setup mistakes, on both stores: a period closes only once every
 * earlier period is closed; an empty open period can be deleted (a mistyped April 1-3), and an
 * account nothing uses (one created in the wrong currency); anything in use answers 409.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, createAccount, createCurrency, createPeriod, dataOf, expectError, newApiKey, postEntry, startApi, walkPages } from '../helpers/api-fixture.js';

describe('closing in order and undoing setup mistakes', () => {
  let api: ApiFixture;
  let usd: { id: string };
  const accounts = {} as Record<'cash' | 'sales' | 'retained', { id: string }>;
  beforeAll(async () => {
    api = await startApi();
    usd = await createCurrency(api, { code: 'USD', caip19_id: 'swift:0/iso4217:USD' });
    const open = (number: string, account_type: string, normal_balance: string) => createAccount(api, {
      account_number: number, name: `Account ${number}`, currency_id: usd.id, account_type, normal_balance });
    accounts.cash = await open('1000', 'asset', 'debit');
    accounts.sales = await open('4000', 'revenue', 'credit');
    accounts.retained = await open('3000', 'equity', 'credit');
    dataOf(await api.request('PATCH', '/api/v1/settings', { retained_earnings_account_id: accounts.retained.id }));
  });
  afterAll(async () => { await api.close(); });

  it('refuses to close a period while an earlier one is open, naming it, and closes them in order', async () => {
    const january = await createPeriod(api, 'January 2026', '2026-01-01', '2026-01-31');
    const february = await createPeriod(api, 'February 2026', '2026-02-01', '2026-02-28');
    await postEntry(api, accounts.cash.id, accounts.sales.id, '1000', '2026-02-10');
    const refused = await api.request('POST', `/api/v1/periods/${february.id}/close`);
    expectError(refused, 409, 'EARLIER_PERIOD_OPEN');
    expect(refused.body.message).toContain('January 2026');
    expectError(await api.request('POST', `/api/v1/periods/${february.id}/close?preview=true`), 409, 'EARLIER_PERIOD_OPEN');
    expect(dataOf(await api.request('GET', `/api/v1/periods/${february.id}`)).status).toBe('open');
    dataOf(await api.request('POST', `/api/v1/periods/${january.id}/close`));
    expect(dataOf(await api.request('POST', `/api/v1/periods/${february.id}/close`)).period.status).toBe('closed');
  });

  it('deletes an open period without entries, audited, and refuses one with entries or closed', async () => {
    const mistyped = await createPeriod(api, 'April 1-3', '2026-04-01', '2026-04-03');
    const used = await createPeriod(api, 'May 2026', '2026-05-01', '2026-05-31');
    await postEntry(api, accounts.cash.id, accounts.sales.id, '500', '2026-05-05');
    expect(dataOf(await api.request('DELETE', `/api/v1/periods/${mistyped.id}`))).toEqual(mistyped);
    expectError(await api.request('GET', `/api/v1/periods/${mistyped.id}`), 404, 'NOT_FOUND');
    // Its days can take a period again.
    const april = await createPeriod(api, 'April 2026', '2026-04-01', '2026-04-30');
    expectError(await api.request('DELETE', `/api/v1/periods/${used.id}`), 409, 'PERIOD_IN_USE');
    const closed = (await walkPages(api, '/api/v1/periods')).rows.find((period: any) => period.status === 'closed');
    expectError(await api.request('DELETE', `/api/v1/periods/${closed.id}`), 409, 'PERIOD_IN_USE');
    expectError(await api.request('DELETE', '/api/v1/periods/no-such-period'), 404, 'NOT_FOUND');
    const audit = dataOf(await api.request('GET', `/api/v1/audit-log?target_id=${mistyped.id}&sort=asc`));
    expect(audit.map((record: any) => record.action)).toEqual(['period.create', 'period.delete']);
    expect(audit[1].changes).toMatchObject({ name: { old: 'April 1-3', new: null } });
    expect(april.name).toBe('April 2026');
  });

  it('deletes an account nothing uses, and refuses one in use, naming what uses it', async () => {
    const eur = await createCurrency(api, { code: 'EUR', caip19_id: 'swift:0/iso4217:EUR' });
    const wrongCurrency = await createAccount(api, { account_number: '1001', name: 'Cash (meant USD)', currency_id: eur.id, account_type: 'asset',
      normal_balance: 'debit' });
    expect(dataOf(await api.request('DELETE', `/api/v1/accounts/${wrongCurrency.id}`)).id).toBe(wrongCurrency.id);
    expectError(await api.request('GET', `/api/v1/accounts/${wrongCurrency.id}`), 404, 'NOT_FOUND');
    // Its number is free again.
    await createAccount(api, { account_number: '1001', name: 'Petty cash', currency_id: usd.id, account_type: 'asset', normal_balance: 'debit' });
    const withLines = await api.request('DELETE', `/api/v1/accounts/${accounts.cash.id}`);
    expectError(withLines, 409, 'ACCOUNT_IN_USE');
    expect(withLines.body.message).toContain('journal lines');
    expect((await api.request('DELETE', `/api/v1/accounts/${accounts.retained.id}`)).body.message).toContain('the settings');
    const control = await createAccount(api, { account_number: '1200', name: 'Receivables', currency_id: usd.id, account_type: 'asset',
      normal_balance: 'debit', has_subledger: true });
    const customer = await createAccount(api, { account_number: '1200-1', name: 'Customer', parent_id: control.id, entity_id: 'c1' });
    expect((await api.request('DELETE', `/api/v1/accounts/${control.id}`)).body.message).toContain('sub-accounts');
    const fees = await createAccount(api, { account_number: '6100', name: 'Fees', currency_id: usd.id, account_type: 'expense', normal_balance: 'debit' });
    dataOf(await api.request('POST', '/api/v1/bank-rules', { name: 'Fees', match: { description_contains: 'fee' }, counter_account_id: fees.id }), 201);
    expect((await api.request('DELETE', `/api/v1/accounts/${fees.id}`)).body.message).toContain('bank rules');
    // A sub-account without lines can go, and then its parent too.
    dataOf(await api.request('DELETE', `/api/v1/accounts/${customer.id}`));
    dataOf(await api.request('DELETE', `/api/v1/accounts/${control.id}`));
  });

  it('needs periods:write to delete a period and accounts:write to delete an account', async () => {
    const reader = await newApiKey(api, { 'journals:create': true });
    const period = await createPeriod(api, 'June 1-2', '2026-06-01', '2026-06-02');
    const account = await createAccount(api, { account_number: '7777', name: 'Typo', currency_id: usd.id, account_type: 'expense', normal_balance: 'debit' });
    expectError(await api.request('DELETE', `/api/v1/periods/${period.id}`, undefined, { token: reader }), 403, 'FORBIDDEN');
    expectError(await api.request('DELETE', `/api/v1/accounts/${account.id}`, undefined, { token: reader }), 403, 'FORBIDDEN');
    expect(dataOf(await api.request('GET', `/api/v1/periods/${period.id}`)).id).toBe(period.id);
  });
});
