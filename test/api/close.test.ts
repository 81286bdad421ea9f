import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiFixture, balanceOf, createCurrency, createPeriod, dataOf, expectError, newApiKey, startApi,
} from '../helpers/api-fixture.js';
import {
  type LineSpec, accountOpener, allEntries, closeRequest, post, report, reverse, reverseRequest, setRetainedEarnings,
  subAccount,
} from '../helpers/report-helpers.js';

const CLOSE = 'Close to retained earnings';
const INCOME = 'Net income for the period';
const LOSS = 'Net loss for the period';

/** A closing line as the API shows it, without its generated id. */
function closingLine(account: { id: string; account_number: string; name: string }, side: 'dr' | 'cr', amount: string, display: string,
  description = CLOSE) {
  return {
    account_id: account.id, account_number: account.account_number, account_name: account.name,
    debit_amount: side === 'dr' ? amount : '0', credit_amount: side === 'cr' ? amount : '0',
    display_debit: side === 'dr' ? display : '0.00', display_credit: side === 'cr' ? display : '0.00',
    description,
  };
}

function withoutLineIds(entry: { lines: { id: string }[] }) {
  return entry.lines.map(({ id: _id, ...line }) => line);
}

/**
 * One ledger for most tests: USD books with a revenue control account and contra revenue, a few
 * EUR accounts, and retained earnings (USD) set. Every test closes a calendar year of its own, so
 * the closes never see each other's activity.
 */
describe('closing a period', () => {
  let api: ApiFixture;
  let adminUserId: string;
  let books: Awaited<ReturnType<typeof openBooks>>;

  async function openBooks() {
    const usd = await createCurrency(api, { code: 'USD', caip19_id: 'swift:0/iso4217:USD', asset_scale: 2 });
    const eur = await createCurrency(api, { code: 'EUR', caip19_id: 'swift:0/iso4217:EUR', asset_scale: 2 });
    const open = accountOpener(api, usd.id);
    const openEuro = accountOpener(api, eur.id);
    const cash = await open('1000', 'Cash', 'asset', 'debit');
    const capital = await open('3000', 'Capital', 'equity', 'credit');
    const retained = await open('3100', 'Retained Earnings', 'equity', 'credit');
    const sales = await open('4000', 'Sales', 'revenue', 'credit');
    const services = await open('4100', 'Services', 'revenue', 'credit', { has_subledger: true });
    const acme = await subAccount(api, services.id, '4100-01', 'Services: Acme', 'acme');
    const globex = await subAccount(api, services.id, '4100-02', 'Services: Globex', 'globex');
    const returns = await open('4900', 'Sales Returns', 'revenue', 'debit');
    const rent = await open('6000', 'Rent', 'expense', 'debit');
    const wages = await open('6100', 'Wages', 'expense', 'debit');
    const euroCash = await openEuro('E1000', 'Euro Cash', 'asset', 'debit');
    const euroCapital = await openEuro('E3000', 'Euro Capital', 'equity', 'credit');
    const euroSales = await openEuro('E4000', 'Euro Sales', 'revenue', 'credit');
    await setRetainedEarnings(api, retained.id);
    return { usd, eur, cash, capital, retained, sales, services, acme, globex, returns, rent, wages, euroCash, euroCapital, euroSales };
  }

  beforeAll(async () => {
    api = await startApi();
    adminUserId = (await api.service.authenticate(api.apiKey)).user_id;
    books = await openBooks();
  });
  afterAll(async () => { await api.close(); });

  // Periods close in order, and the tests share one ledger: each test's years come before every
  // earlier test's, so no test meets an open period of another before its own.
  const year = (y: number) => createPeriod(api, `FY${y}`, `${y}-01-01`, `${y}-12-31`);
  const getPeriod = async (id: string) => dataOf(await api.request('GET', `/api/v1/periods/${id}`));

  /** Everything a close could change: the period, its entries, balances and its trial balance. */
  async function snapshot(periodId: string) {
    const accounts = Object.values(books).filter((value): value is typeof books.cash => 'account_number' in value);
    const balances: Record<string, unknown> = {};
    for (const account of accounts) {
      balances[account.account_number] = [await balanceOf(api, account.id), await balanceOf(api, account.id, periodId)];
    }
    return {
      period: await getPeriod(periodId),
      periodEntries: await allEntries(api, { period_id: periodId }),
      entryCount: (await allEntries(api)).length,
      balances,
      trialBalance: await report(api, 'trial-balance', { period_id: periodId }),
    };
  }

  describe('a period with income, sub-accounts, contra revenue and a reversed expense', () => {
    let period: { id: string };
    let closer: { key: string; userId: string };
    let preview: any;

    beforeAll(async () => {
      const { cash, sales, acme, globex, rent, wages, returns } = books;
      period = await year(2099);
      await post(api, '2099-01-10', [[cash.id, 'dr', '100000'], [sales.id, 'cr', '100000']]);
      await post(api, '2099-02-01', [[cash.id, 'dr', '15000'], [acme.id, 'cr', '15000']]);
      await post(api, '2099-02-02', [[cash.id, 'dr', '25000'], [globex.id, 'cr', '25000']]);
      await post(api, '2099-03-01', [[rent.id, 'dr', '30000'], [cash.id, 'cr', '30000']]);
      const wrongWages = await post(api, '2099-04-01', [[wages.id, 'dr', '9999'], [cash.id, 'cr', '9999']]);
      await reverse(api, wrongWages.id);
      await post(api, '2099-05-01', [[returns.id, 'dr', '2000'], [cash.id, 'cr', '2000']]);
      const key = await newApiKey(api, { 'periods:close': true });
      closer = { key, userId: (await api.service.authenticate(key)).user_id };
    });

    /*
     * Expected closing entry, lines by account number; wages (99.99 posted and reversed) nets to
     * zero and gets no line, the control account 4100 never posts:
     *   4000    sales      dr 1000.00
     *   4100-01 acme       dr  150.00
     *   4100-02 globex     dr  250.00
     *   4900    returns    cr   20.00   (contra revenue, debit balance)
     *   6000    rent       cr  300.00
     *   3100    retained   cr 1080.00   (1000.00 + 150.00 + 250.00 - 20.00 - 300.00)
     * debits 1400.00 = credits 20.00 + 300.00 + 1080.00.
     */
    const expectedLines = () => [
      closingLine(books.sales, 'dr', '100000', '1000.00'),
      closingLine(books.acme, 'dr', '15000', '150.00'),
      closingLine(books.globex, 'dr', '25000', '250.00'),
      closingLine(books.returns, 'cr', '2000', '20.00'),
      closingLine(books.rent, 'cr', '30000', '300.00'),
      closingLine(books.retained, 'cr', '108000', '1080.00', INCOME),
    ];

    it('previews the closing entry without committing anything', async () => {
      const before = await snapshot(period.id);
      const response = await closeRequest(api, period.id, { preview: true }, closer.key);
      expect(response.status).toBe(200);
      preview = response.body.data;
      expect(preview.preview).toBe(true);
      expect(preview.period).toEqual(before.period);
      expect(preview.period).toMatchObject({ status: 'open', closed_at: null, closed_by: null, closing_entry_id: null });
      expect(preview.closing_entry).toMatchObject({
        entry_date: '2099-12-31', description: 'Closing entry for FY2099', entry_type: 'closing', period_id: period.id,
        currency_id: books.usd.id, reverses_id: null, reversed_by_id: null, created_by: closer.userId,
      });
      expect(withoutLineIds(preview.closing_entry)).toEqual(expectedLines());

      expect(await snapshot(period.id)).toEqual(before);
      expectError(await api.request('GET', `/api/v1/journal-entries/${preview.closing_entry.id}`), 404, 'NOT_FOUND');
    });

    it('previews the same entry again: a preview leaves nothing behind that changes the next one', async () => {
      const again = dataOf(await closeRequest(api, period.id, { preview: true }));
      expect(withoutLineIds(again.closing_entry)).toEqual(expectedLines());
      expect(again.period.status).toBe('open');
    });

    it('closes the period, posting exactly the previewed entry and recording who closed it and when', async () => {
      api.clock.current = new Date('2096-01-05T09:30:00.000Z');
      const response = await closeRequest(api, period.id, {}, closer.key);
      expect(response.status).toBe(200);
      const closed = response.body.data;
      expect(closed.preview).toBe(false);
      expect(closed.period).toMatchObject({
        id: period.id, status: 'closed', closed_at: '2096-01-05T09:30:00.000Z', closed_by: closer.userId,
        closing_entry_id: closed.closing_entry.id,
      });

      // The hash covers the id, the time and the request (each request's own) too, so it differs like them.
      const { id: _previewId, posted_at: _previewPostedAt, hash: _previewHash, request_id: _previewRequest, lines: _previewLines,
        ...previewHeader } = preview.closing_entry;
      const { id: _id, posted_at: postedAt, hash: _hash, request_id: _request, lines: _lines, ...header } = closed.closing_entry;
      expect(header).toEqual(previewHeader);
      expect(postedAt).toBe('2096-01-05T09:30:00.000Z');
      expect(withoutLineIds(closed.closing_entry)).toEqual(withoutLineIds(preview.closing_entry));

      expect(await getPeriod(period.id)).toEqual(closed.period);
      expect(dataOf(await api.request('GET', `/api/v1/journal-entries/${closed.closing_entry.id}`))).toEqual(closed.closing_entry);
    });

    it('leaves every revenue and expense account of the period at zero and moves the income to retained earnings', async () => {
      const { sales, services, acme, globex, returns, rent, wages, retained } = books;
      for (const account of [sales, services, acme, globex, returns, rent, wages]) {
        expect((await balanceOf(api, account.id, period.id)).net_balance, account.account_number).toBe('0');
      }
      expect(await balanceOf(api, retained.id, period.id)).toMatchObject({ total_debits: '0', total_credits: '108000', net_balance: '108000' });
    });

    it('still shows the period result in its income statement after the close', async () => {
      const statement = await report(api, 'income-statement', { period_id: period.id });
      // revenue 1000.00 + 150.00 + 250.00 - 20.00 = 1380.00; expenses 300.00 + 0.00 = 300.00.
      expect(statement).toMatchObject({ total_revenue: '138000', total_expenses: '30000', net_income: '108000' });
    });

    it('refuses a second close and a preview of the closed period with 409 PERIOD_CLOSED', async () => {
      expectError(await closeRequest(api, period.id), 409, 'PERIOD_CLOSED');
      expectError(await closeRequest(api, period.id, { preview: true }), 409, 'PERIOD_CLOSED');
      expect((await getPeriod(period.id)).closed_at).toBe('2096-01-05T09:30:00.000Z');
    });
  });

  describe('after a period is closed', () => {
    let closedYear: { id: string };
    let entryInClosedYear: { id: string };
    let entryInOpenYear: { id: string };
    let closingEntryId: string;

    beforeAll(async () => {
      const { cash, sales } = books;
      closedYear = await year(2097);
      await year(2098);
      entryInClosedYear = await post(api, '2097-06-01', [[cash.id, 'dr', '5000'], [sales.id, 'cr', '5000']]);
      entryInOpenYear = await post(api, '2098-02-01', [[cash.id, 'dr', '700'], [sales.id, 'cr', '700']]);
      closingEntryId = dataOf(await closeRequest(api, closedYear.id)).closing_entry.id;
    });

    it.each([
      ['its first day', '2097-01-01'],
      ['a day inside it', '2097-07-15'],
      ['its last day, the date of its closing entry', '2097-12-31'],
    ])('refuses a new entry dated %s with 400 NO_OPEN_PERIOD', async (_case, date) => {
      const { cash, sales } = books;
      const response = await api.request('POST', '/api/v1/journal-entries', {
        entry_date: date, description: 'late', lines: [{ account_id: cash.id, debit_amount: '1' }, { account_id: sales.id, credit_amount: '1' }],
      });
      expectError(response, 400, 'NO_OPEN_PERIOD', 'entry_date');
    });

    it('accepts an entry on the first day of the next, open period', async () => {
      await post(api, '2098-01-01', [[books.cash.id, 'dr', '1'], [books.sales.id, 'cr', '1']]);
    });

    it('refuses to reverse an entry of the closed period on its own date with 400 NO_OPEN_PERIOD', async () => {
      expectError(await reverseRequest(api, entryInClosedYear.id), 400, 'NO_OPEN_PERIOD', 'entry_date');
    });

    it('refuses to reverse an open-period entry into the closed period with 400 NO_OPEN_PERIOD', async () => {
      expectError(await reverseRequest(api, entryInOpenYear.id, '2097-12-01'), 400, 'NO_OPEN_PERIOD', 'entry_date');
    });

    it('reverses an entry of the closed period into an open period', async () => {
      const reversal = await reverse(api, entryInClosedYear.id, '2098-03-01');
      expect(reversal).toMatchObject({ entry_type: 'reversal', reverses_id: entryInClosedYear.id, entry_date: '2098-03-01' });
    });

    it('refuses to reverse the closing entry with 409 REVERSAL_NOT_ALLOWED', async () => {
      expectError(await reverseRequest(api, closingEntryId, '2098-03-02'), 409, 'REVERSAL_NOT_ALLOWED');
    });

    it('stored none of the refused entries', async () => {
      const entries = await allEntries(api, { period_id: closedYear.id });
      expect(entries.map((entry: { entry_type: string }) => entry.entry_type)).toEqual(['standard', 'closing']);
    });
  });

  it('debits retained earnings with a net loss', async () => {
    const { cash, sales, rent, retained } = books;
    const period = await year(2096);
    await post(api, '2096-03-01', [[cash.id, 'dr', '10000'], [sales.id, 'cr', '10000']]);
    await post(api, '2096-04-01', [[rent.id, 'dr', '40000'], [cash.id, 'cr', '40000']]);
    const closed = dataOf(await closeRequest(api, period.id));
    // revenue 100.00 - expenses 400.00 = -300.00: a loss, debited to retained earnings.
    expect(withoutLineIds(closed.closing_entry)).toEqual([
      closingLine(sales, 'dr', '10000', '100.00'),
      closingLine(rent, 'cr', '40000', '400.00'),
      closingLine(retained, 'dr', '30000', '300.00', LOSS),
    ]);
    expect(await balanceOf(api, retained.id, period.id)).toMatchObject({ total_debits: '30000', total_credits: '0', net_balance: '-30000' });
    expect(await report(api, 'income-statement', { period_id: period.id })).toMatchObject({ net_income: '-30000' });
  });

  it('closes a revenue account that was deactivated after it moved in the period', async () => {
    const { cash, retained } = books;
    const dormant = await accountOpener(api, books.usd.id)('4950', 'Discontinued Sales', 'revenue', 'credit');
    const period = await year(2095);
    await post(api, '2095-02-01', [[cash.id, 'dr', '2500'], [dormant.id, 'cr', '2500']]);
    dataOf(await api.request('PATCH', `/api/v1/accounts/${dormant.id}`, { is_active: false }));
    const closed = dataOf(await closeRequest(api, period.id));
    expect(withoutLineIds(closed.closing_entry)).toEqual([
      closingLine(dormant, 'dr', '2500', '25.00'),
      closingLine(retained, 'cr', '2500', '25.00', INCOME),
    ]);
    expect(await balanceOf(api, dormant.id)).toMatchObject({ net_balance: '0' });
  });

  it('closes each sub-account of a revenue control account on its own line, and never the control account', async () => {
    const { cash, services, acme, globex, retained } = books;
    const period = await year(2094);
    await post(api, '2094-02-01', [[cash.id, 'dr', '12345'], [acme.id, 'cr', '12345']]);
    await post(api, '2094-02-02', [[cash.id, 'dr', '50000'], [globex.id, 'cr', '50000']]);
    await post(api, '2094-02-03', [[globex.id, 'dr', '5000'], [cash.id, 'cr', '5000']]);
    const preview = dataOf(await closeRequest(api, period.id, { preview: true }));
    // acme 123.45; globex 500.00 - 50.00 = 450.00; retained 123.45 + 450.00 = 573.45.
    const expected = [
      closingLine(acme, 'dr', '12345', '123.45'),
      closingLine(globex, 'dr', '45000', '450.00'),
      closingLine(retained, 'cr', '57345', '573.45', INCOME),
    ];
    expect(withoutLineIds(preview.closing_entry)).toEqual(expected);
    const closed = dataOf(await closeRequest(api, period.id, { preview: false }));
    expect(withoutLineIds(closed.closing_entry)).toEqual(expected);
    expect(closed.closing_entry.lines.map((line: { account_id: string }) => line.account_id)).not.toContain(services.id);
    expect(await balanceOf(api, services.id, period.id)).toMatchObject({ total_debits: '62345', total_credits: '62345', net_balance: '0' });
  });

  describe('a period with nothing to close', () => {
    it.each([
      ['no entries at all', 2093, [] as LineSpec[][]],
      ['only balance-sheet activity', 2092, [[['cash', 'dr', '90000'], ['capital', 'cr', '90000']]] as LineSpec[][]],
      ['revenue and expenses that each net to zero', 2091, [
        [['cash', 'dr', '500'], ['sales', 'cr', '500']], [['sales', 'dr', '500'], ['cash', 'cr', '500']],
        [['rent', 'dr', '70'], ['cash', 'cr', '70']], [['cash', 'dr', '70'], ['rent', 'cr', '70']],
      ] as LineSpec[][]],
    ])('with %s closes with closing_entry null', async (_case, y, entries) => {
      const period = await year(y);
      for (const lines of entries) {
        const named = books as unknown as Record<string, { id: string }>;
        await post(api, `${y}-05-01`, lines.map(([name, side, amount]) => [named[name]!.id, side, amount] as LineSpec));
      }
      const countBefore = (await allEntries(api, { period_id: period.id })).length;
      const preview = dataOf(await closeRequest(api, period.id, { preview: true }));
      expect(preview).toMatchObject({ preview: true, closing_entry: null, period: { status: 'open' } });
      const closed = dataOf(await closeRequest(api, period.id));
      expect(closed).toMatchObject({
        preview: false, closing_entry: null,
        period: { status: 'closed', closed_by: adminUserId, closing_entry_id: null },
      });
      expect(typeof closed.period.closed_at).toBe('string');
      expect(await getPeriod(period.id)).toEqual(closed.period);
      expect((await allEntries(api, { period_id: period.id })).length).toBe(countBefore);
    });
  });

  describe('revenue in another currency than retained earnings', () => {
    it('refuses the close and the preview with 400 CURRENCY_MISMATCH and leaves the period open', async () => {
      const { cash, sales, euroCash, euroSales } = books;
      const period = await year(2090);
      await post(api, '2090-02-01', [[cash.id, 'dr', '100'], [sales.id, 'cr', '100']]);
      await post(api, '2090-03-01', [[euroCash.id, 'dr', '4200'], [euroSales.id, 'cr', '4200']]);
      const before = await snapshot(period.id);
      expectError(await closeRequest(api, period.id, { preview: true }), 400, 'CURRENCY_MISMATCH');
      expectError(await closeRequest(api, period.id), 400, 'CURRENCY_MISMATCH');
      expect(await snapshot(period.id)).toEqual(before);
    });

    it('does not block the close when the other currency has only balance-sheet activity or nets to zero', async () => {
      const { cash, sales, retained, euroCash, euroCapital, euroSales } = books;
      const period = await year(2089);
      await post(api, '2089-02-01', [[cash.id, 'dr', '100'], [sales.id, 'cr', '100']]);
      await post(api, '2089-03-01', [[euroCash.id, 'dr', '4200'], [euroCapital.id, 'cr', '4200']]);
      const euroSale = await post(api, '2089-03-02', [[euroCash.id, 'dr', '300'], [euroSales.id, 'cr', '300']]);
      await reverse(api, euroSale.id);
      const closed = dataOf(await closeRequest(api, period.id));
      expect(withoutLineIds(closed.closing_entry)).toEqual([
        closingLine(sales, 'dr', '100', '1.00'),
        closingLine(retained, 'cr', '100', '1.00', INCOME),
      ]);
    });
  });

  it.each([
    ['preview=true', true, { preview: 'true' }, 2088],
    ['preview=false', false, { preview: 'false' }, 2087],
    ['no preview parameter', false, {}, 2086],
  ])('with %s answers preview: %s and closes the period only when that is false', async (_case, isPreview, query, y) => {
    const { cash, sales } = books;
    const period = await year(y);
    await post(api, `${y}-01-01`, [[cash.id, 'dr', '100'], [sales.id, 'cr', '100']]);
    const response = await closeRequest(api, period.id, query);
    expect(response.status).toBe(200);
    expect(response.body.data.preview).toBe(isPreview);
    expect(response.body.data.closing_entry.lines).toHaveLength(2);
    expect((await getPeriod(period.id)).status).toBe(isPreview ? 'open' : 'closed');
  });

  it.each([
    ['1', 'preview=1', 2085],
    ['0', 'preview=0', 2084],
    ['yes', 'preview=yes', 2083],
    ['an empty value', 'preview=', 2082],
    ['a repeated parameter', 'preview=true&preview=false', 2081],
  ])('refuses preview given as %s with 400 VALIDATION_ERROR and closes nothing', async (_case, query, y) => {
    const period = await year(y);
    const response = await api.request('POST', `/api/v1/periods/${period.id}/close?${query}`);
    expectError(response, 400, 'VALIDATION_ERROR', 'preview');
    expect((await getPeriod(period.id)).status).toBe('open');
  });

  it('refuses an unknown query parameter with 400 VALIDATION_ERROR and closes nothing', async () => {
    const period = await year(2080);
    expectError(await api.request('POST', `/api/v1/periods/${period.id}/close?dry_run=true`), 400, 'VALIDATION_ERROR', 'dry_run');
    expect((await getPeriod(period.id)).status).toBe('open');
  });

  it('closes a period once when closes and previews arrive together: the others see 409 PERIOD_CLOSED or a preview', async () => {
    const { cash, sales } = books;
    const period = await year(2079);
    await post(api, '2079-03-01', [[cash.id, 'dr', '100'], [sales.id, 'cr', '100']]);
    const responses = await Promise.all([
      closeRequest(api, period.id), closeRequest(api, period.id, { preview: true }), closeRequest(api, period.id),
      closeRequest(api, period.id), closeRequest(api, period.id, { preview: true }),
    ]);
    const closes = [responses[0]!, responses[2]!, responses[3]!];
    expect(closes.filter((r) => r.status === 200)).toHaveLength(1);
    for (const refused of closes.filter((r) => r.status !== 200)) expectError(refused, 409, 'PERIOD_CLOSED');
    for (const preview of [responses[1]!, responses[4]!]) {
      expect([200, 409]).toContain(preview.status);
      if (preview.status === 200) expect(preview.body.data.preview).toBe(true);
    }
    const entries = await allEntries(api, { period_id: period.id });
    expect(entries.map((entry: { entry_type: string }) => entry.entry_type)).toEqual(['standard', 'closing']);
    expect((await getPeriod(period.id)).closing_entry_id).toBe(entries[1].id);
  });

  it('answers 404 NOT_FOUND for an unknown period, with and without preview', async () => {
    expectError(await closeRequest(api, 'no-such-period'), 404, 'NOT_FOUND');
    expectError(await closeRequest(api, 'no-such-period', { preview: true }), 404, 'NOT_FOUND');
  });

  it('refuses a caller without periods:close with 403 FORBIDDEN, also for a preview', async () => {
    const period = await year(2078);
    const writer = await newApiKey(api, { 'periods:write': true, 'journals:create': true });
    expectError(await closeRequest(api, period.id, { preview: true }, writer), 403, 'FORBIDDEN');
    expectError(await closeRequest(api, period.id, {}, writer), 403, 'FORBIDDEN');
    expect((await getPeriod(period.id)).status).toBe('open');
  });
});

describe('closing without a usable retained earnings account', () => {
  let api: ApiFixture;
  let period: { id: string };
  let retained: { id: string };

  beforeAll(async () => {
    api = await startApi();
    const usd = await createCurrency(api, { asset_scale: 2 });
    const open = accountOpener(api, usd.id);
    const cash = await open('1000', 'Cash', 'asset', 'debit');
    retained = await open('3100', 'Retained Earnings', 'equity', 'credit');
    const sales = await open('4000', 'Sales', 'revenue', 'credit');
    period = await createPeriod(api, 'FY2026', '2026-01-01', '2026-12-31');
    await post(api, '2026-02-01', [[cash.id, 'dr', '100'], [sales.id, 'cr', '100']]);
  });
  afterAll(async () => { await api.close(); });

  it('refuses the close and the preview with 400 RETAINED_EARNINGS_NOT_SET while the setting is missing', async () => {
    expectError(await closeRequest(api, period.id, { preview: true }), 400, 'RETAINED_EARNINGS_NOT_SET');
    expectError(await closeRequest(api, period.id), 400, 'RETAINED_EARNINGS_NOT_SET');
    expect(dataOf(await api.request('GET', `/api/v1/periods/${period.id}`)).status).toBe('open');
  });

  it('refuses with 400 VALIDATION_ERROR on retained_earnings_account_id once the configured account was deactivated', async () => {
    await setRetainedEarnings(api, retained.id);
    dataOf(await api.request('PATCH', `/api/v1/accounts/${retained.id}`, { is_active: false }));
    expectError(await closeRequest(api, period.id), 400, 'VALIDATION_ERROR', 'retained_earnings_account_id');
    expect(dataOf(await api.request('GET', `/api/v1/periods/${period.id}`)).status).toBe('open');
  });

  it('closes once the configured account is active again', async () => {
    dataOf(await api.request('PATCH', `/api/v1/accounts/${retained.id}`, { is_active: true }));
    const closed = dataOf(await closeRequest(api, period.id));
    expect(closed.period.status).toBe('closed');
    expect(closed.closing_entry.lines.at(-1)).toMatchObject({ account_id: retained.id, credit_amount: '100' });
  });
});
