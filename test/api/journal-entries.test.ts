import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiFixture, balanceOf, createAccount, createCurrency, createPeriod, dataOf, expectError, postEntry,
  startApi, walkPages,
} from '../helpers/api-fixture.js';

const ENTRIES = '/api/v1/journal-entries';

/**
 * One ledger for the file with open periods for 2026 and 2027, and a closed period for 2025.
 * Every test opens accounts of its own (in a currency of its own), so balances never mix.
 */
describe('journal entries', () => {
  let api: ApiFixture;
  let fy2026: { id: string };
  let fy2027: { id: string };
  let adminUserId: string;
  let serial = 0;

  beforeAll(async () => {
    api = await startApi();
    fy2026 = await createPeriod(api, 'FY2026', '2026-01-01', '2026-12-31');
    fy2027 = await createPeriod(api, 'FY2027', '2027-01-01', '2027-12-31');
    // FY2025 is closed (without activity, so without a closing entry) to test posting into it.
    const fy2025 = await createPeriod(api, 'FY2025', '2025-01-01', '2025-12-31');
    const closingCurrency = await createCurrency(api);
    const retained = await createAccount(api, {
      account_number: 'RE-3000', name: 'Retained earnings', currency_id: closingCurrency.id, account_type: 'equity', normal_balance: 'credit',
    });
    dataOf(await api.request('PATCH', '/api/v1/settings', { retained_earnings_account_id: retained.id }));
    const closed = dataOf(await api.request('POST', `/api/v1/periods/${fy2025.id}/close`));
    expect(closed.period.status).toBe('closed');
    const me = await api.service.authenticate(api.apiKey);
    adminUserId = me.user_id;
  });
  afterAll(async () => { await api.close(); });

  async function books(scale = 2) {
    serial += 1;
    const prefix = `J${serial}`;
    const currency = await createCurrency(api, { asset_scale: scale });
    const open = (number: string, name: string, account_type: string, normal_balance: string, extra: object = {}) =>
      createAccount(api, { account_number: `${prefix}-${number}`, name, currency_id: currency.id, account_type, normal_balance, ...extra });
    const cash = await open('1000', 'Cash', 'asset', 'debit');
    const bank = await open('1100', 'Bank', 'asset', 'debit');
    const receivables = await open('1200', 'Receivables', 'asset', 'debit', { has_subledger: true });
    const sales = await open('4000', 'Sales', 'revenue', 'credit');
    const rent = await open('6000', 'Rent', 'expense', 'debit');
    return { prefix, currency, cash, bank, receivables, sales, rent, open };
  }

  describe('posting', () => {
    it('posts a balanced entry and answers 201 with the entry and its lines', async () => {
      const { currency, cash, sales } = await books();
      const response = await api.request('POST', ENTRIES, {
        entry_date: '2026-03-01', description: 'Cash sale', reference: 'INV-1', metadata: { customer: 'walk-in', items: [1, 2] },
        lines: [
          { account_id: cash.id, debit_amount: '25000', description: 'till' },
          { account_id: sales.id, credit_amount: '25000' },
        ],
      });
      expect(response.status).toBe(201);
      const entry = response.body.data;
      expect(entry).toMatchObject({
        entry_date: '2026-03-01', description: 'Cash sale', reference: 'INV-1', metadata: { customer: 'walk-in', items: [1, 2] },
        period_id: fy2026.id, entry_type: 'standard', reverses_id: null, reversed_by_id: null, created_by: adminUserId,
        currency_id: currency.id,
      });
      expect(entry.posted_at).toBe('2026-03-15T12:00:00.000Z');
      expect(entry.lines).toEqual([
        {
          id: expect.any(String), account_id: cash.id, account_number: cash.account_number, account_name: 'Cash',
          debit_amount: '25000', credit_amount: '0', display_debit: '250.00', display_credit: '0.00', description: 'till',
        },
        {
          id: expect.any(String), account_id: sales.id, account_number: sales.account_number, account_name: 'Sales',
          debit_amount: '0', credit_amount: '25000', display_debit: '0.00', display_credit: '250.00', description: null,
        },
      ]);
    });

    it('gets an entry by id with all its lines as posted, and answers 404 for an unknown id', async () => {
      const { cash, bank, sales } = await books();
      const posted = dataOf(await api.request('POST', ENTRIES, {
        entry_date: '2026-04-30', description: 'Split receipt',
        lines: [
          { account_id: cash.id, debit_amount: '1', credit_amount: null },
          { account_id: bank.id, debit_amount: '999', credit_amount: '0' },
          { account_id: sales.id, credit_amount: '1000', debit_amount: '0' },
        ],
      }), 201);
      const fetched = await api.request('GET', `${ENTRIES}/${posted.id}`);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual({ data: posted });
      expect(fetched.body.data.lines.map((line: Record<string, string>) =>
        [line.account_number, line.account_name, line.debit_amount, line.credit_amount, line.display_debit, line.display_credit]))
        .toEqual([
          [cash.account_number, 'Cash', '1', '0', '0.01', '0.00'],
          [bank.account_number, 'Bank', '999', '0', '9.99', '0.00'],
          [sales.account_number, 'Sales', '0', '1000', '0.00', '10.00'],
        ]);
      expectError(await api.request('GET', `${ENTRIES}/no-such-entry`), 404, 'NOT_FOUND');
    });

    it('accepts entries dated on the first and the last day of an open period', async () => {
      const { cash, sales } = await books();
      expect((await postEntry(api, cash.id, sales.id, '1', '2026-01-01')).period_id).toBe(fy2026.id);
      expect((await postEntry(api, cash.id, sales.id, '1', '2026-12-31')).period_id).toBe(fy2026.id);
      expect((await postEntry(api, cash.id, sales.id, '1', '2027-01-01')).period_id).toBe(fy2027.id);
    });

    it('formats display amounts with exactly asset_scale fraction digits', async () => {
      const whole = await books(0);
      const zeroScale = await postEntry(api, whole.cash.id, whole.sales.id, '42');
      expect(zeroScale.lines[0]).toMatchObject({ display_debit: '42', display_credit: '0' });
      const wei = await books(18);
      const eighteen = await postEntry(api, wei.cash.id, wei.sales.id, '1500000000000000000');
      expect(eighteen.lines[0]).toMatchObject({ display_debit: '1.500000000000000000', display_credit: '0.000000000000000000' });
    });
  });

  describe('rejections', () => {
    let b: Awaited<ReturnType<typeof books>>;
    let usdCash: { id: string };
    let inactive: { id: string };
    let alice: { id: string };

    beforeAll(async () => {
      b = await books();
      const other = await books();
      usdCash = other.cash;
      inactive = await b.open('1900', 'Closed till', 'asset', 'debit');
      dataOf(await api.request('PATCH', `/api/v1/accounts/${inactive.id}`, { is_active: false }));
      alice = await createAccount(api, { account_number: `${b.prefix}-1201`, name: 'Alice', parent_id: b.receivables.id, entity_id: 'alice' });
    });

    const lines = (...items: object[]) => ({ entry_date: '2026-03-01', description: 'bad entry', lines: items });
    const debit = (account: { id: string }, amount: unknown) => ({ account_id: account.id, debit_amount: amount });
    const credit = (account: { id: string }, amount: unknown) => ({ account_id: account.id, credit_amount: amount });

    /** Each case: a body, then the status, code and field the API must answer. */
    const cases: [string, () => object, number, string, string | undefined][] = [
      ['no lines', () => lines(), 400, 'VALIDATION_ERROR', 'lines'],
      ['a single line', () => lines(debit(b.cash, '100')), 400, 'VALIDATION_ERROR', 'lines'],
      ['no lines field', () => ({ entry_date: '2026-03-01', description: 'x' }), 400, 'VALIDATION_ERROR', 'lines'],
      ['debits that differ from credits', () => lines(debit(b.cash, '100'), credit(b.sales, '99')), 400, 'UNBALANCED_ENTRY', undefined],
      ['a line with both amounts', () => lines({ account_id: b.cash.id, debit_amount: '100', credit_amount: '100' }, debit(b.bank, '100'), credit(b.sales, '200')),
        400, 'VALIDATION_ERROR', 'lines[0]'],
      ['a line with neither amount', () => lines(debit(b.cash, '100'), { account_id: b.sales.id }), 400, 'VALIDATION_ERROR', 'lines[1]'],
      ['a line with both amounts "0"', () => lines(debit(b.cash, '100'), credit(b.sales, '100'), { account_id: b.bank.id, debit_amount: '0', credit_amount: '0' }),
        400, 'VALIDATION_ERROR', 'lines[2]'],
      ['a line with both amounts null', () => lines(debit(b.cash, '100'), { account_id: b.sales.id, debit_amount: null, credit_amount: null }),
        400, 'VALIDATION_ERROR', 'lines[1]'],
      ['an inactive account', () => lines(debit(b.cash, '100'), credit(inactive, '100')), 400, 'INACTIVE_ACCOUNT', 'lines[1].account_id'],
      ['accounts in different currencies', () => lines(debit(b.cash, '100'), credit(usdCash, '100')), 400, 'CURRENCY_MISMATCH', undefined],
      ['a date in no period', () => ({ ...lines(debit(b.cash, '100'), credit(b.sales, '100')), entry_date: '2024-06-01' }), 400, 'NO_OPEN_PERIOD', 'entry_date'],
      ['a date in a closed period', () => ({ ...lines(debit(b.cash, '100'), credit(b.sales, '100')), entry_date: '2025-06-01' }), 400, 'NO_OPEN_PERIOD', 'entry_date'],
      ['a line on a control account', () => lines(debit(b.receivables, '100'), credit(b.sales, '100')), 400, 'CONTROL_ACCOUNT', 'lines[0].account_id'],
      ['an unknown account', () => lines(debit(b.cash, '100'), credit({ id: 'no-such-account' }, '100')), 400, 'VALIDATION_ERROR', 'lines[1].account_id'],
      ['a line without account_id', () => lines(debit(b.cash, '100'), { credit_amount: '100' }), 400, 'VALIDATION_ERROR', 'lines[1].account_id'],
      ['an amount as a JSON number', () => lines(debit(b.cash, '100'), credit(b.sales, 100)), 400, 'VALIDATION_ERROR', 'lines[1].credit_amount'],
      ['a negative amount', () => lines(debit(b.cash, '100'), credit(b.sales, '-100')), 400, 'VALIDATION_ERROR', 'lines[1].credit_amount'],
      ['an amount with a plus sign', () => lines(debit(b.cash, '+100'), credit(b.sales, '100')), 400, 'VALIDATION_ERROR', 'lines[0].debit_amount'],
      ['an amount with a decimal point', () => lines(debit(b.cash, '100.00'), credit(b.sales, '100.00')), 400, 'VALIDATION_ERROR', 'lines[0].debit_amount'],
      ['an amount with an exponent', () => lines(debit(b.cash, '1e2'), credit(b.sales, '100')), 400, 'VALIDATION_ERROR', 'lines[0].debit_amount'],
      ['an amount with leading zeros', () => lines(debit(b.cash, '100'), credit(b.sales, '0100')), 400, 'VALIDATION_ERROR', 'lines[1].credit_amount'],
      ['an amount with spaces', () => lines(debit(b.cash, ' 100'), credit(b.sales, '100')), 400, 'VALIDATION_ERROR', 'lines[0].debit_amount'],
      ['an empty amount', () => lines(debit(b.cash, ''), credit(b.sales, '100')), 400, 'VALIDATION_ERROR', 'lines[0].debit_amount'],
      ['an amount in hexadecimal', () => lines(debit(b.cash, '0x64'), credit(b.sales, '100')), 400, 'VALIDATION_ERROR', 'lines[0].debit_amount'],
      ['an amount of 2^127', () => lines(debit(b.cash, (1n << 127n).toString()), credit(b.sales, (1n << 127n).toString())),
        400, 'VALIDATION_ERROR', 'lines[0].debit_amount'],
      ['an amount of a million digits', () => lines(debit(b.cash, '9'.repeat(1_000_000)), credit(b.sales, '100')),
        400, 'VALIDATION_ERROR', 'lines[0].debit_amount'],
      ['an entry_date that is no calendar date', () => ({ ...lines(debit(b.cash, '100'), credit(b.sales, '100')), entry_date: '2026-02-30' }),
        400, 'VALIDATION_ERROR', 'entry_date'],
      ['an entry_date with a time', () => ({ ...lines(debit(b.cash, '100'), credit(b.sales, '100')), entry_date: '2026-03-01T10:00:00Z' }),
        400, 'VALIDATION_ERROR', 'entry_date'],
      ['no description', () => ({ entry_date: '2026-03-01', lines: [debit(b.cash, '100'), credit(b.sales, '100')] }), 400, 'VALIDATION_ERROR', 'description'],
      ['an unknown field', () => ({ ...lines(debit(b.cash, '100'), credit(b.sales, '100')), posted_by: 'me' }), 400, 'VALIDATION_ERROR', 'posted_by'],
      ['metadata that is not an object', () => ({ ...lines(debit(b.cash, '100'), credit(b.sales, '100')), metadata: 'notes' }), 400, 'VALIDATION_ERROR', 'metadata'],
    ];

    it.each(cases)('refuses an entry with %s', async (_name, body, status, code, field) => {
      const response = await api.request('POST', ENTRIES, body());
      expectError(response, status, code, field);
    });

    it('posts to a sub-account of a control account', async () => {
      const entry = await postEntry(api, alice.id, b.sales.id, '100');
      expect(entry.lines[0]).toMatchObject({ account_id: alice.id, account_name: 'Alice', debit_amount: '100' });
    });

    it('leaves every balance and the entry list untouched after each refused entry', async () => {
      const accounts = [b.cash, b.bank, b.receivables, b.sales, b.rent, inactive, alice, usdCash];
      const snapshot = async () => ({
        balances: await Promise.all(accounts.map((account) => balanceOf(api, account.id))),
        periodBalances: await Promise.all(accounts.map((account) => balanceOf(api, account.id, fy2026.id))),
        entries: (await walkPages(api, ENTRIES, { limit: 200 })).rows,
      });
      await postEntry(api, b.cash.id, b.sales.id, '700');
      const before = await snapshot();
      for (const [, body] of cases) {
        const response = await api.request('POST', ENTRIES, body());
        expect(response.status).toBeGreaterThanOrEqual(400);
      }
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('reversal', () => {
    it('reverses with an empty JSON body as with no body at all', async () => {
      const { cash, sales } = await books();
      const original = await postEntry(api, cash.id, sales.id, '500', '2026-06-01');
      const response = await api.request('POST', `${ENTRIES}/${original.id}/reverse`, undefined,
        { headers: { 'content-type': 'application/json' }, rawBody: '' });
      expect(response.status).toBe(201);
      expect(response.body.data).toMatchObject({ entry_date: '2026-06-01', reverses_id: original.id });
    });

    it('creates a new entry with debits and credits swapped, linked both ways', async () => {
      const { cash, bank, sales } = await books();
      const original = dataOf(await api.request('POST', ENTRIES, {
        entry_date: '2026-05-10', description: 'Sale #7', reference: 'INV-7', metadata: { channel: 'web' },
        lines: [
          { account_id: cash.id, debit_amount: '300', description: 'cash part' },
          { account_id: bank.id, debit_amount: '700' },
          { account_id: sales.id, credit_amount: '1000' },
        ],
      }), 201);
      const response = await api.request('POST', `${ENTRIES}/${original.id}/reverse`);
      expect(response.status).toBe(201);
      const reversal = response.body.data;
      expect(reversal).toMatchObject({
        entry_date: '2026-05-10', description: 'Reversal of: Sale #7', reference: 'INV-7', metadata: { channel: 'web' },
        entry_type: 'reversal', reverses_id: original.id, reversed_by_id: null, period_id: fy2026.id, created_by: adminUserId,
      });
      expect(reversal.id).not.toBe(original.id);
      expect(reversal.lines.map((line: Record<string, unknown>) => [line.account_id, line.debit_amount, line.credit_amount, line.description]))
        .toEqual([
          [cash.id, '0', '300', 'cash part'],
          [bank.id, '0', '700', null],
          [sales.id, '1000', '0', null],
        ]);
      expect(dataOf(await api.request('GET', `${ENTRIES}/${original.id}`))).toEqual({ ...original, reversed_by_id: reversal.id });
      expect(dataOf(await api.request('GET', `${ENTRIES}/${reversal.id}`))).toEqual(reversal);
    });

    it('brings the net effect on every account to zero', async () => {
      const { cash, sales, rent } = await books();
      await postEntry(api, cash.id, sales.id, '5000');
      const original = await postEntry(api, rent.id, cash.id, '1234');
      dataOf(await api.request('POST', `${ENTRIES}/${original.id}/reverse`, {}), 201);
      expect(await balanceOf(api, rent.id)).toMatchObject({ total_debits: '1234', total_credits: '1234', net_balance: '0' });
      expect(await balanceOf(api, cash.id)).toMatchObject({ total_debits: '6234', total_credits: '1234', net_balance: '5000' });
      expect(await balanceOf(api, rent.id, fy2026.id)).toMatchObject({ net_balance: '0' });
    });

    it('dates the reversal on the given entry_date, in the period that contains it', async () => {
      const { cash, sales } = await books();
      const original = await postEntry(api, cash.id, sales.id, '80', '2026-12-20');
      const reversal = dataOf(await api.request('POST', `${ENTRIES}/${original.id}/reverse`, { entry_date: '2027-01-02' }), 201);
      expect(reversal).toMatchObject({ entry_date: '2027-01-02', period_id: fy2027.id });
      expect(await balanceOf(api, cash.id)).toMatchObject({ net_balance: '0' });
      expect(await balanceOf(api, cash.id, fy2026.id)).toMatchObject({ net_balance: '80' });
      expect(await balanceOf(api, cash.id, fy2027.id)).toMatchObject({ net_balance: '-80' });
    });

    it('refuses to reverse a reversal with 409 REVERSAL_NOT_ALLOWED', async () => {
      const { cash, sales } = await books();
      const original = await postEntry(api, cash.id, sales.id, '10');
      const reversal = dataOf(await api.request('POST', `${ENTRIES}/${original.id}/reverse`), 201);
      expectError(await api.request('POST', `${ENTRIES}/${reversal.id}/reverse`), 409, 'REVERSAL_NOT_ALLOWED');
      expect(dataOf(await api.request('GET', `${ENTRIES}/${reversal.id}`)).reversed_by_id).toBeNull();
    });

    it('refuses to reverse an entry a second time with 409 REVERSAL_NOT_ALLOWED and posts nothing', async () => {
      const { cash, sales } = await books();
      const original = await postEntry(api, cash.id, sales.id, '10');
      const first = dataOf(await api.request('POST', `${ENTRIES}/${original.id}/reverse`), 201);
      expectError(await api.request('POST', `${ENTRIES}/${original.id}/reverse`), 409, 'REVERSAL_NOT_ALLOWED');
      expectError(await api.request('POST', `${ENTRIES}/${original.id}/reverse`, { entry_date: '2027-02-01' }), 409, 'REVERSAL_NOT_ALLOWED');
      const entries = dataOf(await api.request('GET', `${ENTRIES}?account_id=${cash.id}`));
      expect(entries.map((entry: { id: string }) => entry.id)).toEqual([original.id, first.id]);
      expect(await balanceOf(api, cash.id)).toMatchObject({ total_debits: '10', total_credits: '10' });
    });

    it.each([
      ['in no period', '2024-01-15'],
      ['in a closed period', '2025-12-31'],
    ])('refuses a reversal dated %s with 400 NO_OPEN_PERIOD and leaves the entry reversible', async (_case, date) => {
      const { cash, sales } = await books();
      const original = await postEntry(api, cash.id, sales.id, '10');
      expectError(await api.request('POST', `${ENTRIES}/${original.id}/reverse`, { entry_date: date }), 400, 'NO_OPEN_PERIOD', 'entry_date');
      expect(dataOf(await api.request('GET', `${ENTRIES}/${original.id}`)).reversed_by_id).toBeNull();
      expect(await balanceOf(api, cash.id)).toMatchObject({ net_balance: '10' });
      dataOf(await api.request('POST', `${ENTRIES}/${original.id}/reverse`), 201);
    });

    it('refuses a reversal entry_date that is no calendar date, and unknown fields', async () => {
      const { cash, sales } = await books();
      const original = await postEntry(api, cash.id, sales.id, '10');
      expectError(await api.request('POST', `${ENTRIES}/${original.id}/reverse`, { entry_date: '2026-02-30' }), 400, 'VALIDATION_ERROR', 'entry_date');
      expectError(await api.request('POST', `${ENTRIES}/${original.id}/reverse`, { description: 'mine' }), 400, 'VALIDATION_ERROR', 'description');
    });

    it('answers 404 NOT_FOUND for the reversal of an unknown entry', async () => {
      expectError(await api.request('POST', `${ENTRIES}/no-such-entry/reverse`), 404, 'NOT_FOUND');
    });
  });

  describe('list by a control account', () => {
    it('lists the entries that post to any of its sub-accounts', async () => {
      const { prefix, receivables, sales, cash } = await books();
      const acme = await createAccount(api, { account_number: `${prefix}-1200-A`, name: 'Acme', parent_id: receivables.id, entity_id: 'acme' });
      const globex = await createAccount(api, { account_number: `${prefix}-1200-G`, name: 'Globex', parent_id: receivables.id, entity_id: 'globex' });
      const first = await postEntry(api, acme.id, sales.id, '100', '2026-02-01');
      const second = await postEntry(api, globex.id, sales.id, '200', '2026-02-02');
      await postEntry(api, cash.id, sales.id, '300', '2026-02-03');
      const { rows } = await walkPages(api, `${ENTRIES}?account_id=${receivables.id}`);
      expect(rows.map((entry: { id: string }) => entry.id)).toEqual([first.id, second.id]);
    });
  });

  describe('list', () => {
    // A ledger of its own, so that the filters can be checked against every entry there is.
    let ledger: ApiFixture;
    let q1: { id: string };
    let q2: { id: string };
    const posted: Record<string, { id: string }> = {};
    let accounts: Record<string, { id: string }>;

    beforeAll(async () => {
      ledger = await startApi();
      q1 = await createPeriod(ledger, 'Q1', '2026-01-01', '2026-03-31');
      q2 = await createPeriod(ledger, 'Q2', '2026-04-01', '2026-06-30');
      const currency = await createCurrency(ledger);
      const open = (account_number: string, account_type: string, normal_balance: string) =>
        createAccount(ledger, { account_number, name: account_number, currency_id: currency.id, account_type, normal_balance });
      accounts = { cash: await open('1000', 'asset', 'debit'), bank: await open('1100', 'asset', 'debit'), sales: await open('4000', 'revenue', 'credit') };
      // Posted out of date order, so that the list order (entry_date, then posting order) shows.
      for (const [name, debitAccount, date] of [
        ['may', 'bank', '2026-05-05'], ['jan', 'cash', '2026-01-10'], ['mar-a', 'cash', '2026-03-31'],
        ['apr', 'cash', '2026-04-01'], ['mar-b', 'bank', '2026-03-31'], ['jun', 'cash', '2026-06-30'],
      ] as const) {
        posted[name] = await postEntry(ledger, accounts[debitAccount]!.id, accounts.sales!.id, '100', date, name);
      }
    });
    afterAll(async () => { await ledger.close(); });

    const descriptions = async (query: string) =>
      (await walkPages(ledger, `${ENTRIES}${query}`, { limit: 200 })).rows.map((entry: { description: string }) => entry.description);

    it('lists every entry by entry_date, then posting order, with its lines', async () => {
      expect(await descriptions('')).toEqual(['jan', 'mar-a', 'mar-b', 'apr', 'may', 'jun']);
      const [first] = dataOf(await ledger.request('GET', `${ENTRIES}?limit=1`));
      expect(first).toEqual(dataOf(await ledger.request('GET', `${ENTRIES}/${posted.jan!.id}`)));
    });

    it('lists newest first with sort=desc, walking every page, and keeps cursors of the two orders apart', async () => {
      const newestFirst = (await walkPages(ledger, `${ENTRIES}?sort=desc`, { limit: 2 })).rows
        .map((entry: { description: string }) => entry.description);
      expect(newestFirst).toEqual(['jun', 'may', 'apr', 'mar-b', 'mar-a', 'jan']);
      expect(await descriptions(`?sort=desc&period_id=${q1.id}`)).toEqual(['mar-b', 'mar-a', 'jan']);
      const ascending = await ledger.request('GET', `${ENTRIES}?limit=1`);
      const mixed = await ledger.request('GET', `${ENTRIES}?sort=desc&limit=1&cursor=${ascending.body.next_cursor}`);
      expectError(mixed, 400, 'VALIDATION_ERROR', 'cursor');
    });

    it('filters by period_id', async () => {
      expect(await descriptions(`?period_id=${q1.id}`)).toEqual(['jan', 'mar-a', 'mar-b']);
      expect(await descriptions(`?period_id=${q2.id}`)).toEqual(['apr', 'may', 'jun']);
    });

    it('filters by start_date and end_date, both inclusive', async () => {
      expect(await descriptions('?start_date=2026-03-31')).toEqual(['mar-a', 'mar-b', 'apr', 'may', 'jun']);
      expect(await descriptions('?end_date=2026-04-01')).toEqual(['jan', 'mar-a', 'mar-b', 'apr']);
      expect(await descriptions('?start_date=2026-04-01&end_date=2026-05-05')).toEqual(['apr', 'may']);
      expect(await descriptions('?start_date=2026-07-01')).toEqual([]);
    });

    it('filters by account_id', async () => {
      expect(await descriptions(`?account_id=${accounts.bank!.id}`)).toEqual(['mar-b', 'may']);
      expect(await descriptions(`?account_id=${accounts.cash!.id}&period_id=${q2.id}`)).toEqual(['apr', 'jun']);
    });

    it('answers 404 for an unknown period_id or account_id and 400 for a bad date', async () => {
      expectError(await ledger.request('GET', `${ENTRIES}?period_id=no-such-period`), 404, 'NOT_FOUND');
      expectError(await ledger.request('GET', `${ENTRIES}?account_id=no-such-account`), 404, 'NOT_FOUND');
      expectError(await ledger.request('GET', `${ENTRIES}?start_date=2026-02-30`), 400, 'VALIDATION_ERROR', 'start_date');
      expectError(await ledger.request('GET', `${ENTRIES}?end_date=yesterday`), 400, 'VALIDATION_ERROR', 'end_date');
    });
  });
});
