import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiFixture, balanceOf, createAccount, createCurrency, createPeriod, dataOf, expectError, postEntry, startApi, walkPages,
} from '../helpers/api-fixture.js';

/**
 * One ledger for the file. Every test works in a currency of its own and numbers its accounts
 * with a prefix of its own, so filters by currency_id see only that test's accounts.
 */
describe('accounts', () => {
  let api: ApiFixture;
  let fy2026: { id: string };
  let fy2027: { id: string };
  let serial = 0;

  beforeAll(async () => {
    api = await startApi();
    fy2026 = await createPeriod(api, 'FY2026', '2026-01-01', '2026-12-31');
    fy2027 = await createPeriod(api, 'FY2027', '2027-01-01', '2027-12-31');
  });
  afterAll(async () => { await api.close(); });

  /** A currency and a small chart of accounts numbered `<prefix>-<number>`. */
  async function books(scale = 2) {
    serial += 1;
    const prefix = `T${serial}`;
    const currency = await createCurrency(api, { asset_scale: scale });
    const open = (number: string, name: string, account_type: string, normal_balance: string, extra: object = {}) =>
      createAccount(api, { account_number: `${prefix}-${number}`, name, currency_id: currency.id, account_type, normal_balance, ...extra });
    const cash = await open('1000', 'Cash', 'asset', 'debit');
    const receivables = await open('1200', 'Receivables', 'asset', 'debit', { has_subledger: true });
    const payables = await open('2000', 'Payables', 'liability', 'credit');
    const equity = await open('3000', 'Capital', 'equity', 'credit');
    const sales = await open('4000', 'Sales', 'revenue', 'credit');
    const rent = await open('6000', 'Rent', 'expense', 'debit');
    return { prefix, currency, cash, receivables, payables, equity, sales, rent, open };
  }

  async function booksWithBank() {
    const chart = await books();
    return { ...chart, bank: await chart.open('1100', 'Bank', 'asset', 'debit') };
  }

  const numbers = (rows: { account_number: string }[]) => rows.map((row) => row.account_number);

  it('creates an account with defaults for the optional fields', async () => {
    const currency = await createCurrency(api);
    const response = await api.request('POST', '/api/v1/accounts', {
      account_number: 'A-1', name: 'Bank', currency_id: currency.id, account_type: 'asset', normal_balance: 'debit',
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      account_number: 'A-1', name: 'Bank', currency_id: currency.id, account_type: 'asset', normal_balance: 'debit',
      has_subledger: false, parent_id: null, entity_id: null, xbrl_tag: null, is_active: true,
    });
    expect(typeof response.body.data.id).toBe('string');
  });

  it('gets an account by id and answers 404 NOT_FOUND for an unknown id', async () => {
    const { cash } = await books();
    expect(await api.request('GET', `/api/v1/accounts/${cash.id}`)).toMatchObject({ status: 200, body: { data: cash } });
    expectError(await api.request('GET', '/api/v1/accounts/no-such-account'), 404, 'NOT_FOUND');
  });

  it('lists accounts ordered by account_number and filters by currency_id', async () => {
    const { prefix, currency } = await books();
    await books();
    const rows = dataOf(await api.request('GET', `/api/v1/accounts?currency_id=${currency.id}`));
    expect(numbers(rows)).toEqual(['1000', '1200', '2000', '3000', '4000', '6000'].map((n) => `${prefix}-${n}`));
    expect(rows.every((row: { currency_id: string }) => row.currency_id === currency.id)).toBe(true);
  });

  it('filters the list by account_type', async () => {
    const { prefix, open } = await books();
    await open('1100', 'Bank', 'asset', 'debit');
    const { rows } = await walkPages(api, '/api/v1/accounts?account_type=asset', { limit: 200 });
    expect(numbers(rows).filter((n) => n.startsWith(`${prefix}-`))).toEqual([`${prefix}-1000`, `${prefix}-1100`, `${prefix}-1200`]);
    expect(rows.every((row: { account_type: string }) => row.account_type === 'asset')).toBe(true);
  });

  it('filters the list by is_active', async () => {
    const { prefix, currency, rent, sales } = await books();
    dataOf(await api.request('PATCH', `/api/v1/accounts/${rent.id}`, { is_active: false }));
    dataOf(await api.request('PATCH', `/api/v1/accounts/${sales.id}`, { is_active: false }));
    const inactive = dataOf(await api.request('GET', `/api/v1/accounts?currency_id=${currency.id}&is_active=false`));
    expect(numbers(inactive)).toEqual([`${prefix}-4000`, `${prefix}-6000`]);
    const active = dataOf(await api.request('GET', `/api/v1/accounts?currency_id=${currency.id}&is_active=true`));
    expect(numbers(active)).toEqual(['1000', '1200', '2000', '3000'].map((n) => `${prefix}-${n}`));
  });

  it('filters the list by parent_id', async () => {
    const { prefix, receivables } = await books();
    await createAccount(api, { account_number: `${prefix}-1202`, name: 'Bob', parent_id: receivables.id, entity_id: 'bob' });
    await createAccount(api, { account_number: `${prefix}-1201`, name: 'Alice', parent_id: receivables.id, entity_id: 'alice' });
    const rows = dataOf(await api.request('GET', `/api/v1/accounts?parent_id=${receivables.id}`));
    expect(numbers(rows)).toEqual([`${prefix}-1201`, `${prefix}-1202`]);
    expect(rows.map((row: { entity_id: string }) => row.entity_id)).toEqual(['alice', 'bob']);
  });

  it('combines filters', async () => {
    const { prefix, currency, cash } = await books();
    dataOf(await api.request('PATCH', `/api/v1/accounts/${cash.id}`, { is_active: false }));
    const rows = dataOf(await api.request('GET', `/api/v1/accounts?currency_id=${currency.id}&account_type=asset&is_active=true`));
    expect(numbers(rows)).toEqual([`${prefix}-1200`]);
  });

  it('answers 404 for an unknown currency_id or parent_id in the query and 400 for a bad filter value', async () => {
    expectError(await api.request('GET', '/api/v1/accounts?currency_id=no-such-currency'), 404, 'NOT_FOUND');
    expectError(await api.request('GET', '/api/v1/accounts?parent_id=no-such-account'), 404, 'NOT_FOUND');
    expectError(await api.request('GET', '/api/v1/accounts?account_type=cash'), 400, 'VALIDATION_ERROR', 'account_type');
    expectError(await api.request('GET', '/api/v1/accounts?is_active=maybe'), 400, 'VALIDATION_ERROR', 'is_active');
  });

  it('refuses an unknown currency_id in the body with VALIDATION_ERROR naming currency_id', async () => {
    const response = await api.request('POST', '/api/v1/accounts', {
      account_number: 'NOCUR-1', name: 'x', currency_id: 'no-such-currency', account_type: 'asset', normal_balance: 'debit',
    });
    expectError(response, 400, 'VALIDATION_ERROR', 'currency_id');
    const { rows } = await walkPages(api, '/api/v1/accounts', { limit: 200 });
    expect(numbers(rows)).not.toContain('NOCUR-1');
  });

  it('refuses a duplicate account_number with 409 DUPLICATE naming account_number', async () => {
    const { cash, currency } = await books();
    const response = await api.request('POST', '/api/v1/accounts', {
      account_number: cash.account_number, name: 'Other', currency_id: currency.id, account_type: 'asset', normal_balance: 'debit',
    });
    expectError(response, 409, 'DUPLICATE', 'account_number');
    expect(response.body.message).toBe('An account with this account number already exists');
  });

  it.each(['account_number', 'name', 'currency_id', 'account_type', 'normal_balance'])(
    'refuses a top-level account without %s with VALIDATION_ERROR naming it', async (field) => {
      const currency = await createCurrency(api);
      const body: Record<string, unknown> = {
        account_number: `MISSING-${field}`, name: 'x', currency_id: currency.id, account_type: 'asset', normal_balance: 'debit',
      };
      delete body[field];
      expectError(await api.request('POST', '/api/v1/accounts', body), 400, 'VALIDATION_ERROR', field);
    });

  it('refuses an account_type or normal_balance outside the allowed values', async () => {
    const currency = await createCurrency(api);
    const base = { account_number: 'BADTYPE', name: 'x', currency_id: currency.id, account_type: 'asset', normal_balance: 'debit' };
    expectError(await api.request('POST', '/api/v1/accounts', { ...base, account_type: 'cash' }), 400, 'VALIDATION_ERROR', 'account_type');
    expectError(await api.request('POST', '/api/v1/accounts', { ...base, normal_balance: 'both' }), 400, 'VALIDATION_ERROR', 'normal_balance');
  });

  it('updates name, is_active and xbrl_tag and nothing else', async () => {
    const { cash } = await books();
    const patched = await api.request('PATCH', `/api/v1/accounts/${cash.id}`, { name: 'Cash at bank', is_active: false, xbrl_tag: 'ifrs-full:Cash' });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toEqual({ ...cash, name: 'Cash at bank', is_active: false, xbrl_tag: 'ifrs-full:Cash' });
    const cleared = dataOf(await api.request('PATCH', `/api/v1/accounts/${cash.id}`, { xbrl_tag: null, is_active: true }));
    expect(cleared).toEqual({ ...cash, name: 'Cash at bank', is_active: true, xbrl_tag: null });
    expect(dataOf(await api.request('GET', `/api/v1/accounts/${cash.id}`))).toEqual(cleared);
  });

  it.each([
    ['account_number', '9999'],
    ['currency_id', 'another'],
    ['account_type', 'liability'],
    ['normal_balance', 'credit'],
    ['has_subledger', true],
    ['parent_id', 'another'],
    ['entity_id', 'someone'],
    ['id', 'another'],
  ])('refuses a PATCH of %s with VALIDATION_ERROR naming the field and changes nothing', async (field, value) => {
    const { cash } = await books();
    const response = await api.request('PATCH', `/api/v1/accounts/${cash.id}`, { name: 'Changed', [field]: value });
    expectError(response, 400, 'VALIDATION_ERROR', field);
    expect(dataOf(await api.request('GET', `/api/v1/accounts/${cash.id}`))).toEqual(cash);
  });

  it('answers 404 for a PATCH of an unknown account', async () => {
    expectError(await api.request('PATCH', '/api/v1/accounts/no-such-account', { name: 'x' }), 404, 'NOT_FOUND');
  });

  describe('control accounts and sub-accounts', () => {
    it('creates sub-accounts that inherit currency, type and normal balance, listed by /sub-accounts', async () => {
      const { prefix, currency, receivables } = await books();
      const alice = await createAccount(api, { account_number: `${prefix}-1201`, name: 'Alice', parent_id: receivables.id, entity_id: 'cust-alice' });
      expect(alice).toMatchObject({
        parent_id: receivables.id, entity_id: 'cust-alice', currency_id: currency.id, account_type: 'asset',
        normal_balance: 'debit', has_subledger: false, is_active: true,
      });
      const bob = await createAccount(api, {
        account_number: `${prefix}-1202`, name: 'Bob', parent_id: receivables.id, entity_id: 'cust-bob',
        currency_id: currency.id, account_type: 'asset', normal_balance: 'debit',
      });
      const subs = await api.request('GET', `/api/v1/accounts/${receivables.id}/sub-accounts`);
      expect(subs.status).toBe(200);
      expect(subs.body).toEqual({ data: [alice, bob] });
    });

    it('answers an empty list of sub-accounts for an account without any, and 404 for an unknown account', async () => {
      const { cash } = await books();
      expect((await api.request('GET', `/api/v1/accounts/${cash.id}/sub-accounts`)).body).toEqual({ data: [] });
      expectError(await api.request('GET', '/api/v1/accounts/no-such-account/sub-accounts'), 404, 'NOT_FOUND');
    });

    it('refuses a sub-account without entity_id with VALIDATION_ERROR naming entity_id', async () => {
      const { prefix, receivables } = await books();
      const response = await api.request('POST', '/api/v1/accounts', { account_number: `${prefix}-1209`, name: 'Nobody', parent_id: receivables.id });
      expectError(response, 400, 'VALIDATION_ERROR', 'entity_id');
    });

    it('refuses a sub-account under an account that is not a control account', async () => {
      const { prefix, cash } = await books();
      const response = await api.request('POST', '/api/v1/accounts', { account_number: `${prefix}-1001`, name: 'Till', parent_id: cash.id, entity_id: 'till' });
      expectError(response, 400, 'VALIDATION_ERROR', 'parent_id');
    });

    it('refuses a sub-account under an unknown parent with VALIDATION_ERROR naming parent_id', async () => {
      const response = await api.request('POST', '/api/v1/accounts', { account_number: 'ORPHAN-1', name: 'Orphan', parent_id: 'no-such-account', entity_id: 'x' });
      expectError(response, 400, 'VALIDATION_ERROR', 'parent_id');
    });

    it.each([
      ['account_type', 'liability'],
      ['normal_balance', 'credit'],
    ])('refuses a sub-account whose %s differs from its parent\'s', async (field, value) => {
      const { prefix, receivables } = await books();
      const response = await api.request('POST', '/api/v1/accounts', {
        account_number: `${prefix}-1208`, name: 'Mismatch', parent_id: receivables.id, entity_id: 'e', [field]: value,
      });
      expectError(response, 400, 'VALIDATION_ERROR', field);
    });

    it('refuses a sub-account whose currency differs from its parent\'s', async () => {
      const { prefix, receivables } = await books();
      const other = await createCurrency(api);
      const response = await api.request('POST', '/api/v1/accounts', {
        account_number: `${prefix}-1207`, name: 'Mismatch', parent_id: receivables.id, entity_id: 'e', currency_id: other.id,
      });
      expectError(response, 400, 'VALIDATION_ERROR', 'currency_id');
    });

    it('refuses a sub-account that would itself be a control account (one level deep)', async () => {
      const { prefix, receivables } = await books();
      const response = await api.request('POST', '/api/v1/accounts', {
        account_number: `${prefix}-1206`, name: 'Nested', parent_id: receivables.id, entity_id: 'e', has_subledger: true,
      });
      expectError(response, 400, 'VALIDATION_ERROR', 'has_subledger');
    });

    it('gives a control account the sum of its sub-accounts as its balance', async () => {
      const { prefix, receivables, sales } = await books();
      const alice = await createAccount(api, { account_number: `${prefix}-1201`, name: 'Alice', parent_id: receivables.id, entity_id: 'alice' });
      const bob = await createAccount(api, { account_number: `${prefix}-1202`, name: 'Bob', parent_id: receivables.id, entity_id: 'bob' });
      await postEntry(api, alice.id, sales.id, '12500');
      await postEntry(api, bob.id, sales.id, '7500');
      await postEntry(api, sales.id, bob.id, '2500');
      expect(await balanceOf(api, alice.id)).toMatchObject({ net_balance: '12500' });
      expect(await balanceOf(api, bob.id)).toMatchObject({ net_balance: '5000' });
      expect(await balanceOf(api, receivables.id)).toEqual({
        account_id: receivables.id, period_id: null, total_debits: '20000', total_credits: '2500', net_balance: '17500',
        display_debits: '200.00', display_credits: '25.00', display_balance: '175.00',
      });
      expect(await balanceOf(api, receivables.id, fy2026.id)).toMatchObject({ period_id: fy2026.id, net_balance: '17500' });
    });
  });

  describe('balance', () => {
    it('is zero for an account without activity', async () => {
      const { cash } = await books();
      expect(await balanceOf(api, cash.id)).toEqual({
        account_id: cash.id, period_id: null, total_debits: '0', total_credits: '0', net_balance: '0',
        display_debits: '0.00', display_credits: '0.00', display_balance: '0.00',
      });
    });

    it('is cumulative across periods without period_id and limited to the period with it', async () => {
      const { cash, sales, rent } = await books();
      await postEntry(api, cash.id, sales.id, '10000', '2026-06-30');
      await postEntry(api, rent.id, cash.id, '2500', '2026-12-31');
      await postEntry(api, cash.id, sales.id, '40000', '2027-01-01');
      expect(await balanceOf(api, cash.id)).toEqual({
        account_id: cash.id, period_id: null, total_debits: '50000', total_credits: '2500', net_balance: '47500',
        display_debits: '500.00', display_credits: '25.00', display_balance: '475.00',
      });
      expect(await balanceOf(api, cash.id, fy2026.id)).toEqual({
        account_id: cash.id, period_id: fy2026.id, total_debits: '10000', total_credits: '2500', net_balance: '7500',
        display_debits: '100.00', display_credits: '25.00', display_balance: '75.00',
      });
      expect(await balanceOf(api, cash.id, fy2027.id)).toMatchObject({ period_id: fy2027.id, net_balance: '40000' });
    });

    it('signs the net balance by the normal side of the account', async () => {
      const { cash, sales, payables } = await books();
      await postEntry(api, cash.id, sales.id, '30000');
      await postEntry(api, payables.id, cash.id, '5');
      expect(await balanceOf(api, sales.id)).toMatchObject({ total_debits: '0', total_credits: '30000', net_balance: '30000', display_balance: '300.00' });
      // A credit-normal account holding a debit balance is negative.
      expect(await balanceOf(api, payables.id)).toMatchObject({ total_debits: '5', total_credits: '0', net_balance: '-5', display_balance: '-0.05' });
      expect(await balanceOf(api, cash.id)).toMatchObject({ net_balance: '29995', display_balance: '299.95' });
    });

    it('answers 404 for an unknown period_id or an unknown account', async () => {
      const { cash } = await books();
      expectError(await api.request('GET', `/api/v1/accounts/${cash.id}/balance?period_id=no-such-period`), 404, 'NOT_FOUND');
      expectError(await api.request('GET', '/api/v1/accounts/no-such-account/balance'), 404, 'NOT_FOUND');
    });
  });

  describe('transactions', () => {
    it('lists the lines of an account oldest first with entry date, description and amounts, page by page', async () => {
      const { cash, sales, rent } = await books();
      await postEntry(api, cash.id, sales.id, '300', '2026-05-01', 'third by date');
      await postEntry(api, cash.id, sales.id, '100', '2026-02-01', 'first by date');
      await postEntry(api, rent.id, cash.id, '200', '2026-03-01', 'second by date');
      await postEntry(api, rent.id, sales.id, '999', '2026-03-01', 'not touching cash');
      const { rows, pages } = await walkPages(api, `/api/v1/accounts/${cash.id}/transactions`, { limit: 2 });
      expect(pages.map((page) => page.length)).toEqual([2, 1]);
      expect(rows.map((row) => [row.entry_date, row.description, row.debit_amount, row.credit_amount, row.display_debit, row.display_credit]))
        .toEqual([
          ['2026-02-01', 'first by date', '100', '0', '1.00', '0.00'],
          ['2026-03-01', 'second by date', '0', '200', '0.00', '2.00'],
          ['2026-05-01', 'third by date', '300', '0', '3.00', '0.00'],
        ]);
      expect(rows.every((row) => row.account_id === cash.id && typeof row.journal_entry_id === 'string')).toBe(true);
    });

    it('lists the lines of all sub-accounts for a control account', async () => {
      const { prefix, receivables, sales } = await books();
      const alice = await createAccount(api, { account_number: `${prefix}-1201`, name: 'Alice', parent_id: receivables.id, entity_id: 'alice' });
      const bob = await createAccount(api, { account_number: `${prefix}-1202`, name: 'Bob', parent_id: receivables.id, entity_id: 'bob' });
      await postEntry(api, bob.id, sales.id, '1', '2026-04-01', 'bob');
      await postEntry(api, alice.id, sales.id, '2', '2026-04-02', 'alice');
      const rows = dataOf(await api.request('GET', `/api/v1/accounts/${receivables.id}/transactions`));
      expect(rows.map((row: { account_name: string; description: string }) => [row.account_name, row.description]))
        .toEqual([['Bob', 'bob'], ['Alice', 'alice']]);
    });

    it("refuses one account's transactions cursor for another account", async () => {
      const { cash, bank, sales } = await booksWithBank();
      await postEntry(api, cash.id, sales.id, '1');
      await postEntry(api, cash.id, sales.id, '2');
      const first = await api.request('GET', `/api/v1/accounts/${cash.id}/transactions?limit=1`);
      expect(first.body.has_more).toBe(true);
      const cursor = encodeURIComponent(first.body.next_cursor);
      expectError(await api.request('GET', `/api/v1/accounts/${bank.id}/transactions?cursor=${cursor}`), 400, 'VALIDATION_ERROR', 'cursor');
      expect(dataOf(await api.request('GET', `/api/v1/accounts/${cash.id}/transactions?cursor=${cursor}`))).toHaveLength(1);
    });

    it('answers 404 for an unknown account', async () => {
      expectError(await api.request('GET', '/api/v1/accounts/no-such-account/transactions'), 404, 'NOT_FOUND');
    });
  });
});
