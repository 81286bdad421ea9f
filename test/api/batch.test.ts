/**
 * POST /journal-entries/batch: 1 to 10,000 entries in one transaction, all or none; the first
 * rejected entry is named by its index. Also its dry run, its Idempotency-Key and its body limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiFixture, MAX_AMOUNT, balanceOf, createAccount, createCurrency, createPeriod, dataOf, entryBody, expectError,
  newApiKey, startApi, walkPages,
} from '../helpers/api-fixture.js';
import { rawQuery } from '../helpers/raw-sql.js';

const ENTRIES = '/api/v1/journal-entries';
const BATCH = `${ENTRIES}/batch`;

describe('batch posting', () => {
  let api: ApiFixture;
  let fy2026: { id: string };
  let serial = 0;

  beforeAll(async () => {
    api = await startApi();
    fy2026 = await createPeriod(api, 'FY2026', '2026-01-01', '2026-12-31');
  });
  afterAll(async () => { await api.close(); });

  /** Accounts of their own, in a currency of their own, so that no test sees another's balances. */
  async function books(scale = 2) {
    serial += 1;
    const prefix = `B${serial}`;
    const currency = await createCurrency(api, { asset_scale: scale });
    const open = (number: string, name: string, account_type: string, normal_balance: string) =>
      createAccount(api, { account_number: `${prefix}-${number}`, name, currency_id: currency.id, account_type, normal_balance });
    const cash = await open('1000', 'Cash', 'asset', 'debit');
    const bank = await open('1100', 'Bank', 'asset', 'debit');
    const sales = await open('4000', 'Sales', 'revenue', 'credit');
    const rent = await open('6000', 'Rent', 'expense', 'debit');
    return { currency, cash, bank, sales, rent, accounts: [cash, bank, sales, rent] };
  }
  type Books = Awaited<ReturnType<typeof books>>;

  async function state(b: Books) {
    return {
      balances: await Promise.all(b.accounts.map((account) => balanceOf(api, account.id))),
      // Per account: the whole list would walk the 10,000 entries of another test.
      entries: await Promise.all(b.accounts.map(async (account) =>
        (await walkPages(api, `${ENTRIES}?account_id=${account.id}`, { limit: 200 })).rows.map((entry) => entry.id))),
      trialBalance: dataOf(await api.request('GET', `/api/v1/reports/trial-balance?currency_id=${b.currency.id}`)),
      currencyTotal: await rawQuery(api.location, 'SELECT debit_total FROM currency_totals WHERE currency_id = $1', [b.currency.id]),
    };
  }

  const entryCount = async (currencyId: string) => Number((await rawQuery<{ count: unknown }>(api.location,
    'SELECT count(*) AS count FROM journal_entries WHERE currency_id = $1', [currencyId]))[0]!.count);

  it('posts every entry in order and answers 201 with them', async () => {
    const b = await books();
    const entries = [
      entryBody(b.cash.id, b.sales.id, '1000', '2026-02-01', 'first'),
      entryBody(b.rent.id, b.cash.id, '300', '2026-01-15', 'second'),
      { ...entryBody(b.bank.id, b.cash.id, '200', '2026-02-01', 'third'), reference: 'T-3', metadata: { n: 3 } },
    ];
    const response = await api.request('POST', BATCH, { entries });
    expect(response.status).toBe(201);
    const posted = response.body.data;
    expect(posted.map((entry: any) => [entry.description, entry.entry_type, entry.period_id, entry.currency_id]))
      .toEqual([['first', 'standard', fy2026.id, b.currency.id], ['second', 'standard', fy2026.id, b.currency.id],
        ['third', 'standard', fy2026.id, b.currency.id]]);
    expect(posted[2]).toMatchObject({ reference: 'T-3', metadata: { n: 3 } });
    // Each answer is the entry as stored, the same view GET shows.
    for (const entry of posted) expect(dataOf(await api.request('GET', `${ENTRIES}/${entry.id}`))).toEqual(entry);
    // Posting order is the order of the batch: same-day entries list in it.
    const listed = (await walkPages(api, `${ENTRIES}?account_id=${b.cash.id}`)).rows.map((entry) => entry.description);
    expect(listed).toEqual(['second', 'first', 'third']);
    expect((await balanceOf(api, b.cash.id)).net_balance).toBe('500');
    expect((await balanceOf(api, b.bank.id)).net_balance).toBe('200');
  });

  describe('refuses the whole batch for its first bad entry, naming it, and changes nothing', () => {
    it.each([
      ['an unbalanced 4th entry', (b: Books) => ({ ...entryBody(b.cash.id, b.sales.id, '5'), lines: [
        { account_id: b.cash.id, debit_amount: '5' }, { account_id: b.sales.id, credit_amount: '4' }] }),
      400, 'UNBALANCED_ENTRY', 'entries[3].lines'],
      ['a 4th entry whose amount is not an integer string', (b: Books) => ({ ...entryBody(b.cash.id, b.sales.id, '5'), lines: [
        { account_id: b.cash.id, debit_amount: '5' }, { account_id: b.sales.id, credit_amount: '5.00' }] }),
      400, 'VALIDATION_ERROR', 'entries[3].lines[1].credit_amount'],
      ['a 4th entry dated outside every open period', (b: Books) => entryBody(b.cash.id, b.sales.id, '5', '2031-01-01'),
        400, 'NO_OPEN_PERIOD', 'entries[3].entry_date'],
      ['a 4th entry on an unknown account', (b: Books) => entryBody(b.cash.id, 'nope', '5'),
        400, 'VALIDATION_ERROR', 'entries[3].lines[1].account_id'],
      ['a 4th entry with an unknown field', (b: Books) => ({ ...entryBody(b.cash.id, b.sales.id, '5'), memo: 'x' }),
        400, 'VALIDATION_ERROR', 'entries[3].memo'],
    ])('%s', async (_label, bad, status, code, field) => {
      const b = await books();
      const entries = [1, 2, 3].map((n) => entryBody(b.cash.id, b.sales.id, String(n * 100)));
      entries.push(bad(b) as any, entryBody(b.cash.id, b.sales.id, '600'));
      const before = await state(b);
      const response = await api.request('POST', BATCH, { entries });
      expectError(response, status, code, field);
      expect(await state(b)).toEqual(before);
      expect(await entryCount(b.currency.id)).toBe(0);
    });

    it('an entry that breaks a rule only because of the entries before it in the batch', async () => {
      const b = await books();
      const entries = [
        entryBody(b.cash.id, b.sales.id, (MAX_AMOUNT - 1n).toString()),
        entryBody(b.bank.id, b.sales.id, '1'),
        // The currency's debit total is now at 2^127 - 1: one more is refused by the store.
        entryBody(b.rent.id, b.cash.id, '1'),
      ];
      const before = await state(b);
      const response = await api.request('POST', BATCH, { entries });
      expectError(response, 400, 'VALIDATION_ERROR', 'entries[2].lines');
      expect(response.body.message).toMatch(/^Entry 3: /);
      expect(await state(b)).toEqual(before);
    });

    it('an entry on an inactive account, with the 1-based entry number in the message', async () => {
      const b = await books();
      dataOf(await api.request('PATCH', `/api/v1/accounts/${b.rent.id}`, { is_active: false }));
      const response = await api.request('POST', BATCH, { entries: [
        entryBody(b.cash.id, b.sales.id, '1'), entryBody(b.rent.id, b.cash.id, '1'),
      ] });
      expectError(response, 400, 'INACTIVE_ACCOUNT', 'entries[1].lines[0].account_id');
      expect(response.body.message).toMatch(/^Entry 2: /);
      expect(await entryCount(b.currency.id)).toBe(0);
    });
  });

  it.each([
    ['an empty list', { entries: [] }],
    ['no entries field', {}],
    ['entries that are not a list', { entries: { a: 1 } }],
  ])('refuses %s with 400 VALIDATION_ERROR naming entries', async (_label, body) => {
    expectError(await api.request('POST', BATCH, body), 400, 'VALIDATION_ERROR', 'entries');
  });

  it('refuses 10,001 entries with 400 VALIDATION_ERROR naming entries, and posts none', async () => {
    const b = await books();
    const entries = Array.from({ length: 10_001 }, () => entryBody(b.cash.id, b.sales.id, '1'));
    const response = await api.request('POST', BATCH, { entries });
    expectError(response, 400, 'VALIDATION_ERROR', 'entries');
    expect(response.body.message).toContain('10000');
    expect(await entryCount(b.currency.id)).toBe(0);
  });

  it('posts 10,000 entries (a body well over the 1 MiB limit of other routes) in one request', async () => {
    const b = await books();
    const entries = Array.from({ length: 10_000 }, (_, index) =>
      entryBody(index % 2 === 0 ? b.cash.id : b.bank.id, b.sales.id, String(index + 1), '2026-03-01', `sale ${index + 1}`));
    const body = JSON.stringify({ entries });
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const response = await api.request('POST', BATCH, undefined, { rawBody: body, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(201);
    expect(response.body.data).toHaveLength(10_000);
    expect(response.body.data[9_999].description).toBe('sale 10000');
    expect(await entryCount(b.currency.id)).toBe(10_000);
    // 1 + 2 + ... + 10,000, half of it on each asset account.
    expect((await balanceOf(api, b.sales.id)).net_balance).toBe('50005000');
    expect((await balanceOf(api, b.cash.id)).net_balance).toBe(String(5000 * 5000));
    expect((await balanceOf(api, b.bank.id)).net_balance).toBe(String(5000 * 5001));
  }, 120_000);

  it('needs journals:create (403 before the body is looked at)', async () => {
    const b = await books();
    const token = await newApiKey(api, { 'journals:reverse': true });
    expectError(await api.request('POST', BATCH, { entries: [] }, { token }), 403, 'FORBIDDEN');
    expectError(await api.request('POST', BATCH, { entries: [entryBody(b.cash.id, b.sales.id, '1')] }, { token }), 403, 'FORBIDDEN');
    const holder = await newApiKey(api, { 'journals:create': true });
    dataOf(await api.request('POST', BATCH, { entries: [entryBody(b.cash.id, b.sales.id, '1')] }, { token: holder }), 201);
  });

  describe('Idempotency-Key', () => {
    it('replays the first answer for the same key and body without posting again', async () => {
      const b = await books();
      const body = { entries: [entryBody(b.cash.id, b.sales.id, '10'), entryBody(b.bank.id, b.sales.id, '20')] };
      const headers = { 'idempotency-key': 'batch-key-1' };
      const first = await api.request('POST', BATCH, body, { headers });
      expect(first.status).toBe(201);
      const second = await api.request('POST', BATCH, body, { headers });
      expect(second.status).toBe(201);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(second.body).toEqual(first.body);
      expect(await entryCount(b.currency.id)).toBe(2);
      expect((await balanceOf(api, b.sales.id)).net_balance).toBe('30');
      // Another body under the same key is a conflict, and posts nothing.
      expectError(await api.request('POST', BATCH, { entries: [entryBody(b.cash.id, b.sales.id, '11')] }, { headers }),
        409, 'IDEMPOTENCY_CONFLICT');
      expect(await entryCount(b.currency.id)).toBe(2);
    });

    it('does not consume the key with a refused batch', async () => {
      const b = await books();
      const headers = { 'idempotency-key': 'batch-key-2' };
      const bad = { entries: [entryBody(b.cash.id, b.sales.id, '10'), entryBody(b.cash.id, b.sales.id, '10', '2031-01-01')] };
      expectError(await api.request('POST', BATCH, bad, { headers }), 400, 'NO_OPEN_PERIOD', 'entries[1].entry_date');
      expectError(await api.request('POST', BATCH, bad, { headers }), 400, 'NO_OPEN_PERIOD', 'entries[1].entry_date');
      expect(await entryCount(b.currency.id)).toBe(0);
    });
  });

  describe('dry run', () => {
    it('answers every entry and the balances over all touched accounts before and after, and changes nothing', async () => {
      const b = await books();
      const other = await books(0);
      dataOf(await api.request('POST', ENTRIES, entryBody(b.cash.id, b.sales.id, '1000')), 201);
      const before = await state(b);
      const otherBefore = await state(other);
      const entries = [
        entryBody(b.rent.id, b.cash.id, '300', '2026-02-01', 'rent'),
        entryBody(other.cash.id, other.sales.id, '7', '2026-02-01', 'other currency'),
        entryBody(b.bank.id, b.cash.id, '200', '2026-02-02', 'to bank'),
        entryBody(b.cash.id, b.sales.id, '50', '2026-02-03', 'sale'),
      ];
      const response = await api.request('POST', `${BATCH}?dry_run=true`, { entries });
      expect(response.status).toBe(200);
      const { dry_run, entries: shown, balances } = response.body.data;
      expect(dry_run).toBe(true);
      expect(shown.map((entry: any) => entry.description)).toEqual(['rent', 'other currency', 'to bank', 'sale']);
      // Each touched account once, in the order the lines of the batch first touch it; before is
      // the balance before the whole batch, after the balance after it.
      expect(balances.map((row: any) => [row.account_number, row.before.display_balance, row.after.display_balance])).toEqual([
        [b.rent.account_number, '0.00', '3.00'],
        [b.cash.account_number, '10.00', '5.50'],
        [other.cash.account_number, '0', '7'],
        [other.sales.account_number, '0', '7'],
        [b.bank.account_number, '0.00', '2.00'],
        [b.sales.account_number, '10.00', '10.50'],
      ]);
      expect(await state(b)).toEqual(before);
      expect(await state(other)).toEqual(otherBefore);

      const posted = dataOf(await api.request('POST', BATCH, { entries }), 201);
      expect(posted.map((entry: any) => entry.description)).toEqual(['rent', 'other currency', 'to bank', 'sale']);
      for (const row of balances) expect(await balanceOf(api, row.account_id)).toEqual(row.after);
    });

    it('refuses exactly as the real batch, and changes nothing', async () => {
      const b = await books();
      const entries = [entryBody(b.cash.id, b.sales.id, '10'), entryBody(b.cash.id, b.sales.id, '10', '2031-01-01')];
      const before = await state(b);
      const dry = await api.request('POST', `${BATCH}?dry_run=true`, { entries });
      expectError(dry, 400, 'NO_OPEN_PERIOD', 'entries[1].entry_date');
      const real = await api.request('POST', BATCH, { entries });
      expect({ status: real.status, body: real.body }).toEqual({ status: dry.status, body: dry.body });
      expect(await state(b)).toEqual(before);
    });
  });

  describe('body limit', () => {
    it('has a limit of its own, above that of the other routes, and answers 413 beyond it', async () => {
      const small = await startApi({ bodyLimitBytes: 2048, batchBodyLimitBytes: 8192 });
      try {
        const currency = await createCurrency(small);
        await createPeriod(small, 'FY2026', '2026-01-01', '2026-12-31');
        const open = (account_number: string, account_type: string, normal_balance: string) =>
          createAccount(small, { account_number, name: account_number, currency_id: currency.id, account_type, normal_balance });
        const cash = await open('1000', 'asset', 'debit');
        const sales = await open('4000', 'revenue', 'credit');
        const padded = (n: number) => ({ ...entryBody(cash.id, sales.id, '1'), metadata: { padding: 'x'.repeat(n) } });
        expectError(await small.request('POST', ENTRIES, padded(3000)), 413, 'PAYLOAD_TOO_LARGE');
        const fits = await small.request('POST', BATCH, { entries: [padded(3000), padded(3000)] });
        expect(fits.status).toBe(201);
        expectError(await small.request('POST', BATCH, { entries: [padded(3000), padded(3000), padded(3000)] }), 413, 'PAYLOAD_TOO_LARGE');
      } finally {
        await small.close();
      }
    });
  });
});
