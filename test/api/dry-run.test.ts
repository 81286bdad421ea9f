/**
 * `?dry_run=true` on POST /journal-entries and POST /journal-entries/{id}/reverse: the post runs
 * with every rule, in a write transaction that is rolled back. It answers 200 with the entry as it
 * would be posted and each touched account's balance before and after, refuses exactly as the real
 * post does, and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiFixture, type ApiResponse, MAX_AMOUNT, balanceOf, createAccount, createCurrency, createPeriod, dataOf, entryBody,
  expectError, newApiKey, postEntry, startApi, walkPages,
} from '../helpers/api-fixture.js';
import { rawQuery } from '../helpers/raw-sql.js';

const ENTRIES = '/api/v1/journal-entries';
const DRY_RUN = `${ENTRIES}?dry_run=true`;
const reversePath = (id: string, dryRun = false) => `${ENTRIES}/${id}/reverse${dryRun ? '?dry_run=true' : ''}`;

describe('dry run of a post', () => {
  let api: ApiFixture;
  let fy2026: { id: string };
  let adminUserId: string;
  let serial = 0;

  beforeAll(async () => {
    api = await startApi();
    fy2026 = await createPeriod(api, 'FY2026', '2026-01-01', '2026-12-31');
    // FY2025 is closed (it has no activity, so no closing entry) to test posting into a closed period.
    const fy2025 = await createPeriod(api, 'FY2025', '2025-01-01', '2025-12-31');
    const closingCurrency = await createCurrency(api);
    const retained = await createAccount(api, {
      account_number: 'RE-3000', name: 'Retained earnings', currency_id: closingCurrency.id, account_type: 'equity', normal_balance: 'credit',
    });
    dataOf(await api.request('PATCH', '/api/v1/settings', { retained_earnings_account_id: retained.id }));
    dataOf(await api.request('POST', `/api/v1/periods/${fy2025.id}/close`));
    adminUserId = (await api.service.authenticate(api.apiKey)).user_id;
  });
  afterAll(async () => { await api.close(); });

  /** Accounts of their own, in a currency of their own, so that no test sees another's balances. */
  async function books() {
    serial += 1;
    const prefix = `D${serial}`;
    const currency = await createCurrency(api);
    const open = (number: string, name: string, account_type: string, normal_balance: string, extra: object = {}) =>
      createAccount(api, { account_number: `${prefix}-${number}`, name, currency_id: currency.id, account_type, normal_balance, ...extra });
    const cash = await open('1000', 'Cash', 'asset', 'debit');
    const receivables = await open('1200', 'Receivables', 'asset', 'debit', { has_subledger: true });
    const acme = await createAccount(api, { account_number: `${prefix}-1200-01`, name: 'Acme', parent_id: receivables.id, entity_id: 'acme' });
    const sales = await open('4000', 'Sales', 'revenue', 'credit');
    const rent = await open('6000', 'Rent', 'expense', 'debit');
    return { currency, cash, receivables, acme, sales, rent, accounts: [cash, receivables, acme, sales, rent] };
  }
  type Books = Awaited<ReturnType<typeof books>>;

  /** Everything a post could change in the books' currency, read from outside. */
  async function state(b: Books) {
    return {
      balances: await Promise.all(b.accounts.map((account) => balanceOf(api, account.id))),
      periodBalances: await Promise.all(b.accounts.map((account) => balanceOf(api, account.id, fy2026.id))),
      entries: (await walkPages(api, ENTRIES, { limit: 200 })).rows,
      trialBalance: dataOf(await api.request('GET', `/api/v1/reports/trial-balance?currency_id=${b.currency.id}`)),
      currencyTotal: await rawQuery(api.location, 'SELECT debit_total FROM currency_totals WHERE currency_id = $1', [b.currency.id]),
    };
  }

  /** Sends the same request as a dry run and for real; both must be refused alike. */
  async function expectSameRefusal(send: (dryRun: boolean) => Promise<ApiResponse>, b: Books, status: number, code: string, field?: string) {
    const before = await state(b);
    const dry = await send(true);
    expectError(dry, status, code, field);
    expect(await state(b)).toEqual(before);
    const real = await send(false);
    expect({ status: real.status, body: real.body }).toEqual({ status: dry.status, body: dry.body });
    expect(await state(b)).toEqual(before);
  }

  it('answers 200 with the entry as it would be posted and the balances before and after, and changes nothing', async () => {
    const b = await books();
    await postEntry(api, b.cash.id, b.sales.id, '1000');
    const before = await state(b);
    const body = {
      entry_date: '2026-03-02', description: 'Invoice and cash sale', reference: 'INV-7', metadata: { channel: 'shop' },
      lines: [
        { account_id: b.cash.id, debit_amount: '2000', description: 'till' },
        { account_id: b.acme.id, debit_amount: '500' },
        { account_id: b.sales.id, credit_amount: '2500' },
        { account_id: b.cash.id, debit_amount: '100' },
        { account_id: b.rent.id, credit_amount: '100' },
      ],
    };
    const response = await api.request('POST', DRY_RUN, body);
    expect(response.status).toBe(200);
    const { dry_run, entry, balances } = response.body.data;
    expect(dry_run).toBe(true);
    expect(entry).toMatchObject({
      entry_date: '2026-03-02', description: 'Invoice and cash sale', reference: 'INV-7', metadata: { channel: 'shop' },
      period_id: fy2026.id, entry_type: 'standard', reverses_id: null, reversed_by_id: null, created_by: adminUserId,
      currency_id: b.currency.id, posted_at: '2026-03-15T12:00:00.000Z',
    });
    expect(entry.lines.map((line: any) => [line.account_number, line.account_name, line.debit_amount, line.credit_amount, line.display_debit]))
      .toEqual([
        [b.cash.account_number, 'Cash', '2000', '0', '20.00'],
        [b.acme.account_number, 'Acme', '500', '0', '5.00'],
        [b.sales.account_number, 'Sales', '0', '2500', '0.00'],
        [b.cash.account_number, 'Cash', '100', '0', '1.00'],
        [b.rent.account_number, 'Rent', '0', '100', '0.00'],
      ]);
    // Each touched account once, in the order of the lines; a sub-account shows its own balance.
    expect(balances.map((row: any) => row.account_id)).toEqual([b.cash.id, b.acme.id, b.sales.id, b.rent.id]);
    expect(balances.map((row: any) => row.account_number)).toEqual([b.cash, b.acme, b.sales, b.rent].map((account) => account.account_number));
    // "before" is exactly what GET /accounts/{id}/balance showed before the dry run.
    expect(balances.map((row: any) => row.before)).toEqual(
      [0, 2, 3, 4].map((index) => before.balances[index]));
    expect(balances.map((row: any) => [row.after.total_debits, row.after.total_credits, row.after.net_balance, row.after.display_balance]))
      .toEqual([
        ['3100', '0', '3100', '31.00'],
        ['500', '0', '500', '5.00'],
        ['0', '3500', '3500', '35.00'],
        ['0', '100', '-100', '-1.00'],
      ]);
    expect(await state(b)).toEqual(before);

    // The real post of the same body is accepted, answers the same entry (with ids of its own) and
    // leaves every balance where the dry run said it would.
    const posted = dataOf(await api.request('POST', ENTRIES, body), 201);
    // The hash covers the ids and the request that posted the entry, so it is provisional like
    // them (each request has an id of its own); the link to the chain is the same.
    const withoutIds = (view: any) => ({ ...view, id: undefined, hash: undefined, request_id: undefined,
      lines: view.lines.map((line: any) => ({ ...line, id: undefined })) });
    expect(withoutIds(posted)).toEqual(withoutIds(entry));
    expect(Object.keys(posted).sort()).toEqual(Object.keys(entry).sort());
    expect(posted.id).not.toBe(entry.id);
    expect([posted.request_id, entry.request_id]).toEqual([expect.any(String), expect.any(String)]);
    for (const row of balances) expect(await balanceOf(api, row.account_id)).toEqual(row.after);
  });

  it('leaves the ledger exactly as it was when run again and again', async () => {
    const b = await books();
    const before = await state(b);
    for (let run = 0; run < 3; run += 1) {
      const { balances } = dataOf(await api.request('POST', DRY_RUN, entryBody(b.cash.id, b.sales.id, '700')));
      expect(balances.map((row: any) => [row.before.net_balance, row.after.net_balance])).toEqual([['0', '700'], ['0', '700']]);
    }
    expect(await state(b)).toEqual(before);
  });

  it('posts for real with dry_run=false', async () => {
    const b = await books();
    const posted = dataOf(await api.request('POST', `${ENTRIES}?dry_run=false`, entryBody(b.cash.id, b.sales.id, '300')), 201);
    expect(posted.entry_type).toBe('standard');
    expect(await balanceOf(api, b.cash.id)).toMatchObject({ net_balance: '300' });
  });

  it('refuses a dry_run that is not a boolean', async () => {
    const b = await books();
    expectError(await api.request('POST', `${ENTRIES}?dry_run=perhaps`, entryBody(b.cash.id, b.sales.id, '300')),
      400, 'VALIDATION_ERROR', 'dry_run');
  });

  describe('refuses exactly as the real post, and changes nothing', () => {
    const post = (body: unknown, token?: string) => (dryRun: boolean) =>
      api.request('POST', dryRun ? DRY_RUN : ENTRIES, body, token === undefined ? {} : { token });

    it('an unbalanced entry', async () => {
      const b = await books();
      await expectSameRefusal(post({ ...entryBody(b.cash.id, b.sales.id, '100'), lines: [
        { account_id: b.cash.id, debit_amount: '100' }, { account_id: b.sales.id, credit_amount: '90' }] }), b, 400, 'UNBALANCED_ENTRY', 'lines');
    });

    it('an entry dated in a closed period', async () => {
      const b = await books();
      await expectSameRefusal(post(entryBody(b.cash.id, b.sales.id, '100', '2025-06-01')), b, 400, 'NO_OPEN_PERIOD', 'entry_date');
    });

    it('an entry dated outside every period', async () => {
      const b = await books();
      await expectSameRefusal(post(entryBody(b.cash.id, b.sales.id, '100', '2030-06-01')), b, 400, 'NO_OPEN_PERIOD', 'entry_date');
    });

    it('a line on an inactive account', async () => {
      const b = await books();
      dataOf(await api.request('PATCH', `/api/v1/accounts/${b.rent.id}`, { is_active: false }));
      await expectSameRefusal(post(entryBody(b.cash.id, b.rent.id, '100')), b, 400, 'INACTIVE_ACCOUNT', 'lines[1].account_id');
    });

    it('a line on a control account', async () => {
      const b = await books();
      await expectSameRefusal(post(entryBody(b.receivables.id, b.sales.id, '100')), b, 400, 'CONTROL_ACCOUNT', 'lines[0].account_id');
    });

    it('an unknown account', async () => {
      const b = await books();
      await expectSameRefusal(post(entryBody(b.cash.id, 'no-such-account', '100')), b, 400, 'VALIDATION_ERROR', 'lines[1].account_id');
    });

    it('an amount sent as a JSON number', async () => {
      const b = await books();
      await expectSameRefusal(post({ ...entryBody(b.cash.id, b.sales.id, '100'), lines: [
        { account_id: b.cash.id, debit_amount: 100 }, { account_id: b.sales.id, credit_amount: '100' }] }),
      b, 400, 'VALIDATION_ERROR', 'lines[0].debit_amount');
    });

    it('a caller without journals:create (403)', async () => {
      const b = await books();
      const token = await newApiKey(api, { 'journals:reverse': true, 'accounts:write': true });
      await expectSameRefusal(post(entryBody(b.cash.id, b.sales.id, '100'), token), b, 403, 'FORBIDDEN');
    });

    it('an entry past the currency\'s 128-bit total, which the store checks as it writes', async () => {
      const b = await books();
      await postEntry(api, b.cash.id, b.sales.id, MAX_AMOUNT.toString());
      await expectSameRefusal(post(entryBody(b.cash.id, b.sales.id, '1')), b, 400, 'VALIDATION_ERROR', 'lines');
    });
  });

  describe('of a reversal', () => {
    it('answers the reversal and the balances it would restore, and reverses nothing', async () => {
      const b = await books();
      const original = await postEntry(api, b.acme.id, b.sales.id, '4200', '2026-04-01', 'Invoice 9');
      const before = await state(b);
      const response = await api.request('POST', reversePath(original.id, true), { entry_date: '2026-04-30' });
      expect(response.status).toBe(200);
      const { dry_run, entry, balances } = response.body.data;
      expect(dry_run).toBe(true);
      expect(entry).toMatchObject({
        entry_date: '2026-04-30', description: 'Reversal of: Invoice 9', entry_type: 'reversal', reverses_id: original.id,
        reversed_by_id: null, created_by: adminUserId, period_id: fy2026.id,
      });
      expect(entry.lines.map((line: any) => [line.account_id, line.debit_amount, line.credit_amount]))
        .toEqual([[b.acme.id, '0', '4200'], [b.sales.id, '4200', '0']]);
      expect(balances.map((row: any) => [row.account_id, row.before.net_balance, row.after.net_balance]))
        .toEqual([[b.acme.id, '4200', '0'], [b.sales.id, '4200', '0']]);
      expect(balances.map((row: any) => row.after.total_debits)).toEqual(['4200', '4200']);
      expect(await state(b)).toEqual(before);
      expect(dataOf(await api.request('GET', `${ENTRIES}/${original.id}`)).reversed_by_id).toBeNull();

      // The real reversal still goes through afterwards.
      const reversal = dataOf(await api.request('POST', reversePath(original.id), { entry_date: '2026-04-30' }), 201);
      expect(reversal.reverses_id).toBe(original.id);
      expect(await balanceOf(api, b.acme.id)).toEqual(balances[0].after);
    });

    it('takes no body, like the real reversal (the original date)', async () => {
      const b = await books();
      const original = await postEntry(api, b.cash.id, b.sales.id, '50', '2026-05-05');
      const { entry } = dataOf(await api.request('POST', reversePath(original.id, true)));
      expect(entry.entry_date).toBe('2026-05-05');
    });

    const reverse = (id: string, body: unknown = {}, token?: string) => (dryRun: boolean) =>
      api.request('POST', reversePath(id, dryRun), body, token === undefined ? {} : { token });

    it('refuses an entry that was already reversed as the real reversal does', async () => {
      const b = await books();
      const original = await postEntry(api, b.cash.id, b.sales.id, '80');
      dataOf(await api.request('POST', reversePath(original.id), {}), 201);
      await expectSameRefusal(reverse(original.id), b, 409, 'REVERSAL_NOT_ALLOWED');
    });

    it('refuses a reversal of a reversal', async () => {
      const b = await books();
      const original = await postEntry(api, b.cash.id, b.sales.id, '81');
      const reversal = dataOf(await api.request('POST', reversePath(original.id), {}), 201);
      await expectSameRefusal(reverse(reversal.id), b, 409, 'REVERSAL_NOT_ALLOWED');
    });

    it('refuses a reversal dated in a closed period', async () => {
      const b = await books();
      const original = await postEntry(api, b.cash.id, b.sales.id, '82');
      await expectSameRefusal(reverse(original.id, { entry_date: '2025-12-31' }), b, 400, 'NO_OPEN_PERIOD', 'entry_date');
    });

    it('refuses a reversal that would post to an account deactivated since', async () => {
      const b = await books();
      const original = await postEntry(api, b.rent.id, b.cash.id, '83');
      dataOf(await api.request('PATCH', `/api/v1/accounts/${b.rent.id}`, { is_active: false }));
      await expectSameRefusal(reverse(original.id), b, 400, 'INACTIVE_ACCOUNT', 'lines[0].account_id');
    });

    it('answers 404 for an unknown entry', async () => {
      const b = await books();
      await expectSameRefusal(reverse('no-such-entry'), b, 404, 'NOT_FOUND');
    });

    it('refuses a caller without journals:reverse (403)', async () => {
      const b = await books();
      const original = await postEntry(api, b.cash.id, b.sales.id, '84');
      const token = await newApiKey(api, { 'journals:create': true });
      await expectSameRefusal(reverse(original.id, {}, token), b, 403, 'FORBIDDEN');
    });
  });

  describe('and the Idempotency-Key', () => {
    const keyRows = () => rawQuery(api.location, 'SELECT key FROM idempotency_keys ORDER BY key');

    it('neither reserves nor replays a key: a dry run is answered afresh and the key stays free for the real post', async () => {
      const b = await books();
      const headers = { 'idempotency-key': 'dry-run-key-1' };
      const keysBefore = await keyRows();
      const first = await api.request('POST', DRY_RUN, entryBody(b.cash.id, b.sales.id, '100'), { headers });
      expect(first.status).toBe(200);
      // Another body under the same key is no conflict: nothing was kept.
      const second = await api.request('POST', DRY_RUN, entryBody(b.cash.id, b.sales.id, '200'), { headers });
      expect(second.status).toBe(200);
      expect(second.headers.get('idempotent-replayed')).toBeNull();
      expect(second.body.data.balances[0].after.net_balance).toBe('200');
      expect(await keyRows()).toEqual(keysBefore);

      const posted = await api.request('POST', ENTRIES, entryBody(b.cash.id, b.sales.id, '200'), { headers });
      expect(posted.status).toBe(201);
      const replay = await api.request('POST', ENTRIES, entryBody(b.cash.id, b.sales.id, '200'), { headers });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(posted.body);

      // A dry run after the key was used is still a dry run, on the books as they now stand.
      const third = await api.request('POST', DRY_RUN, entryBody(b.cash.id, b.sales.id, '200'), { headers });
      expect(third.status).toBe(200);
      expect(third.body.data.dry_run).toBe(true);
      expect(third.body.data.balances[0].before.net_balance).toBe('200');
      expect(await balanceOf(api, b.cash.id)).toMatchObject({ net_balance: '200' });
    });

    it('does the same on a dry-run reversal', async () => {
      const b = await books();
      const original = await postEntry(api, b.cash.id, b.sales.id, '90');
      const headers = { 'idempotency-key': 'dry-run-reverse-key' };
      dataOf(await api.request('POST', reversePath(original.id, true), {}, { headers }));
      dataOf(await api.request('POST', reversePath(original.id, true), { entry_date: '2026-06-01' }, { headers }));
      const reversal = dataOf(await api.request('POST', reversePath(original.id), {}, { headers }), 201);
      expect(reversal.reverses_id).toBe(original.id);
    });
  });

  it('is described in the OpenAPI document', async () => {
    const openapi = (await api.request('GET', '/api/v1/openapi.json', undefined, { token: null })).body;
    for (const path of ['/api/v1/journal-entries', '/api/v1/journal-entries/{id}/reverse']) {
      const operation = openapi.paths[path].post;
      expect(operation.parameters.map((parameter: any) => [parameter.in, parameter.name])).toContainEqual(['query', 'dry_run']);
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '201']));
      const data = operation.responses['200'].content['application/json'].schema.properties.data;
      expect(Object.keys(data.properties).sort()).toEqual(['balances', 'dry_run', 'entry']);
      const change = data.properties.balances.items;
      expect(Object.keys(change.properties).sort()).toEqual(['account_id', 'account_number', 'after', 'before']);
      expect(Object.keys(change.properties.before.properties)).toEqual(expect.arrayContaining([
        'total_debits', 'total_credits', 'net_balance', 'display_debits', 'display_credits', 'display_balance',
      ]));
    }
  });
});
