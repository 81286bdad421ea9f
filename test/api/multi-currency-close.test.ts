/**
 * Closing a period with revenue and expenses in several currencies: a retained earnings account
 * per currency in the settings, one closing entry per currency posted atomically, and the refusal
 * of a currency that has none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiFixture, MAX_AMOUNT, createCurrency, createPeriod, dataOf, expectError, startApi,
} from '../helpers/api-fixture.js';
import { accountOpener, allEntries, closeRequest, post, setRetainedEarnings } from '../helpers/report-helpers.js';

const SETTINGS = '/api/v1/settings';

/** A closing entry's lines as [account number, debit, credit, description]. */
function linesOf(entry: { lines: { account_number: string; debit_amount: string; credit_amount: string; description: string | null }[] }) {
  return entry.lines.map((line) => [line.account_number, line.debit_amount, line.credit_amount, line.description]);
}

describe('retained earnings accounts per currency', () => {
  let api: ApiFixture;
  let books: Awaited<ReturnType<typeof openBooks>>;

  async function openBooks() {
    const usd = await createCurrency(api, { code: 'USD', caip19_id: 'swift:0/iso4217:USD', asset_scale: 2 });
    const eur = await createCurrency(api, { code: 'EUR', caip19_id: 'swift:0/iso4217:EUR', asset_scale: 2 });
    const open = accountOpener(api, usd.id);
    const openEuro = accountOpener(api, eur.id);
    const accounts = {
      retained: await open('3100', 'Retained Earnings', 'equity', 'credit'),
      cash: await open('1000', 'Cash', 'asset', 'debit'),
      euroRetained: await openEuro('3150', 'Retained Earnings EUR', 'equity', 'credit'),
      euroOtherEquity: await openEuro('3160', 'Reserves EUR', 'equity', 'credit'),
      euroInactive: await openEuro('3170', 'Old Reserves EUR', 'equity', 'credit'),
      euroControl: await openEuro('3180', 'Partners EUR', 'equity', 'credit', { has_subledger: true }),
      euroCash: await openEuro('1050', 'Cash EUR', 'asset', 'debit'),
    };
    dataOf(await api.request('PATCH', `/api/v1/accounts/${accounts.euroInactive.id}`, { is_active: false }));
    await setRetainedEarnings(api, accounts.retained.id);
    return { usd, eur, ...accounts };
  }

  beforeAll(async () => {
    api = await startApi();
    books = await openBooks();
  });
  afterAll(async () => { await api.close(); });

  const patch = (body: object) => api.request('PATCH', SETTINGS, body);

  it('sets a currency\'s retained earnings account, shows it by currency id, and removes it with null', async () => {
    const set = dataOf(await patch({ retained_earnings_account_ids: { [books.eur.id]: books.euroRetained.id } }));
    expect(set).toEqual({
      company_name: null, retained_earnings_account_id: books.retained.id, retained_earnings_account_ids: { [books.eur.id]: books.euroRetained.id },
      base_currency_id: books.usd.id, lock_date: null,
    });
    expect(dataOf(await api.request('GET', SETTINGS))).toEqual(set);
    // Naming only the default leaves the per-currency accounts as they are.
    expect(dataOf(await patch({ retained_earnings_account_id: books.retained.id }))).toEqual(set);
    expect(dataOf(await patch({ retained_earnings_account_ids: { [books.eur.id]: null } })))
      .toEqual({ company_name: null, retained_earnings_account_id: books.retained.id, retained_earnings_account_ids: {}, base_currency_id: books.usd.id, lock_date: null });
  });

  it.each([
    ['an asset account', 'euroCash'],
    ['an inactive equity account', 'euroInactive'],
    ['an equity control account', 'euroControl'],
    ['an account in another currency', 'retained'],
  ] as const)('refuses %s for a currency with VALIDATION_ERROR naming that currency and changes nothing', async (_case, key) => {
    dataOf(await patch({ retained_earnings_account_ids: { [books.eur.id]: books.euroRetained.id } }));
    const before = dataOf(await api.request('GET', SETTINGS));
    const response = await patch({ retained_earnings_account_ids: { [books.eur.id]: books[key].id } });
    expectError(response, 400, 'VALIDATION_ERROR', `retained_earnings_account_ids.${books.eur.id}`);
    expect(dataOf(await api.request('GET', SETTINGS))).toEqual(before);
  });

  it('refuses an unknown account and a second account for the default\'s currency', async () => {
    expectError(await patch({ retained_earnings_account_ids: { [books.eur.id]: 'no-such-account' } }),
      400, 'VALIDATION_ERROR', `retained_earnings_account_ids.${books.eur.id}`);
    const usdTwice = await patch({ retained_earnings_account_ids: { [books.usd.id]: books.retained.id } });
    expectError(usdTwice, 400, 'VALIDATION_ERROR', `retained_earnings_account_ids.${books.usd.id}`);
    expect(usdTwice.body.message).toContain('USD');
  });

  it('moves the default to another currency in one change, removing that currency from the map', async () => {
    dataOf(await patch({ retained_earnings_account_ids: { [books.eur.id]: books.euroRetained.id } }));
    expectError(await patch({ retained_earnings_account_id: books.euroOtherEquity.id }), 400, 'VALIDATION_ERROR', 'retained_earnings_account_id');
    expect(dataOf(await patch({ retained_earnings_account_id: books.euroOtherEquity.id, retained_earnings_account_ids: { [books.eur.id]: null } })))
      .toEqual({
        company_name: null, retained_earnings_account_id: books.euroOtherEquity.id, retained_earnings_account_ids: {}, base_currency_id: books.eur.id, lock_date: null,
      });
    dataOf(await patch({ retained_earnings_account_id: books.retained.id }));
  });

  it('records the change of the per-currency accounts in the audit log', async () => {
    dataOf(await patch({ retained_earnings_account_ids: { [books.eur.id]: null } }));
    dataOf(await patch({ retained_earnings_account_ids: { [books.eur.id]: books.euroRetained.id } }));
    const records = dataOf(await api.request('GET', '/api/v1/audit-log?action=settings.update&limit=1'));
    expect(records[0].changes).toEqual({ retained_earnings_account_ids: { old: {}, new: { [books.eur.id]: books.euroRetained.id } } });
  });
});

/**
 * One ledger with USD and EUR activity; every test closes a calendar year of its own, so the
 * closes never see each other's activity.
 */
describe('closing a period with activity in several currencies', () => {
  let api: ApiFixture;
  let books: Awaited<ReturnType<typeof openBooks>>;

  async function openBooks() {
    const usd = await createCurrency(api, { code: 'USD', caip19_id: 'swift:0/iso4217:USD', asset_scale: 2 });
    const eur = await createCurrency(api, { code: 'EUR', caip19_id: 'swift:0/iso4217:EUR', asset_scale: 2 });
    const open = accountOpener(api, usd.id);
    const openEuro = accountOpener(api, eur.id);
    const accounts = {
      cash: await open('1000', 'Cash', 'asset', 'debit'),
      retained: await open('3100', 'Retained Earnings', 'equity', 'credit'),
      sales: await open('4000', 'Consulting', 'revenue', 'credit'),
      rent: await open('6000', 'Rent', 'expense', 'debit'),
      euroCash: await openEuro('1050', 'Bank EUR', 'asset', 'debit'),
      euroRetained: await openEuro('3150', 'Retained Earnings EUR', 'equity', 'credit'),
      euroSales: await openEuro('4030', 'Consulting EUR', 'revenue', 'credit'),
      euroFees: await openEuro('6030', 'Bank fees EUR', 'expense', 'debit'),
    };
    await setRetainedEarnings(api, accounts.retained.id);
    return { usd, eur, ...accounts };
  }

  beforeAll(async () => {
    api = await startApi();
    books = await openBooks();
  });
  afterAll(async () => { await api.close(); });

  // Periods close in order and the tests share one ledger: each test's year comes before every earlier test's.
  const year = (y: number) => createPeriod(api, `FY${y}`, `${y}-01-01`, `${y}-12-31`);
  const closingEntriesOf = async (periodId: string) =>
    (await allEntries(api, { period_id: periodId })).filter((entry: { entry_type: string }) => entry.entry_type === 'closing');
  const setEuroRetained = async (accountId: string | null) =>
    dataOf(await api.request('PATCH', SETTINGS, { retained_earnings_account_ids: { [books.eur.id]: accountId } }));

  /** USD: consulting 1,000.00, rent 300.00. EUR: consulting 420.00, bank fees 12.50. */
  async function postYear(y: number) {
    const { cash, sales, rent, euroCash, euroSales, euroFees } = books;
    await post(api, `${y}-02-01`, [[cash.id, 'dr', '100000'], [sales.id, 'cr', '100000']]);
    await post(api, `${y}-02-02`, [[rent.id, 'dr', '30000'], [cash.id, 'cr', '30000']]);
    await post(api, `${y}-03-01`, [[euroCash.id, 'dr', '42000'], [euroSales.id, 'cr', '42000']]);
    await post(api, `${y}-03-02`, [[euroFees.id, 'dr', '1250'], [euroCash.id, 'cr', '1250']]);
  }

  const USD_LINES = [
    ['4000', '100000', '0', 'Close to retained earnings'],
    ['6000', '0', '30000', 'Close to retained earnings'],
    ['3100', '0', '70000', 'Net income for the period'],
  ];
  // EUR: consulting 420.00 - fees 12.50 = 407.50 income.
  const EUR_LINES = [
    ['4030', '42000', '0', 'Close to retained earnings'],
    ['6030', '0', '1250', 'Close to retained earnings'],
    ['3150', '0', '40750', 'Net income for the period'],
  ];

  it('refuses the close and its preview with CURRENCY_MISMATCH naming the currency and the fix, leaving the period open', async () => {
    await setEuroRetained(null);
    const period = await year(2095);
    await postYear(2095);
    for (const query of [{ preview: true }, {}]) {
      const response = await closeRequest(api, period.id, query);
      expectError(response, 400, 'CURRENCY_MISMATCH', 'retained_earnings_account_ids');
      expect(response.body.message).toContain('EUR');
      expect(response.body.message).toContain('4030');
      expect(response.body.suggestion).toContain('retained_earnings_account_ids');
      expect(response.body.suggestion).toContain(books.eur.id);
    }
    expect(dataOf(await api.request('GET', `/api/v1/periods/${period.id}`)).status).toBe('open');
    expect(await closingEntriesOf(period.id)).toEqual([]);
  });

  it('previews one closing entry per currency, the default currency\'s first, and commits nothing', async () => {
    await setEuroRetained(books.euroRetained.id);
    const period = await year(2094);
    await postYear(2094);
    const before = await allEntries(api);
    const preview = dataOf(await closeRequest(api, period.id, { preview: true }));
    expect(preview.preview).toBe(true);
    expect(preview.period.status).toBe('open');
    expect(preview.closing_entries.map((entry: any) => [entry.currency_id, entry.entry_type, entry.entry_date, linesOf(entry)])).toEqual([
      [books.usd.id, 'closing', '2094-12-31', USD_LINES],
      [books.eur.id, 'closing', '2094-12-31', EUR_LINES],
    ]);
    expect(preview.closing_entry).toEqual(preview.closing_entries[0]);
    expect(await allEntries(api)).toEqual(before);
  });

  it('closes atomically into each currency\'s retained earnings account, exactly as previewed', async () => {
    await setEuroRetained(books.euroRetained.id);
    const period = await year(2093);
    await postYear(2093);
    const preview = dataOf(await closeRequest(api, period.id, { preview: true }));
    const closed = dataOf(await closeRequest(api, period.id));
    expect(closed.preview).toBe(false);
    expect(closed.closing_entries.map(linesOf)).toEqual(preview.closing_entries.map(linesOf));
    expect(closed.closing_entry.id).toBe(closed.closing_entries[0].id);
    expect(closed.closing_entry.currency_id).toBe(books.usd.id);
    expect(closed.period).toMatchObject({ status: 'closed', closing_entry_id: closed.closing_entry.id });
    const stored = await closingEntriesOf(period.id);
    expect(stored.map((entry: any) => entry.id).sort()).toEqual(closed.closing_entries.map((entry: any) => entry.id).sort());
    // Every revenue and expense account of both currencies is back to zero for the period.
    for (const account of [books.sales, books.rent, books.euroSales, books.euroFees]) {
      const balance = dataOf(await api.request('GET', `/api/v1/accounts/${account.id}/balance?period_id=${period.id}`));
      expect(balance.net_balance, account.account_number).toBe('0');
    }
    const audit = dataOf(await api.request('GET', `/api/v1/audit-log?action=period.close&limit=1`));
    expect(audit[0].changes.closing_entry_ids).toEqual({ old: null, new: closed.closing_entries.map((entry: any) => entry.id) });
    const verify = dataOf(await api.request('GET', '/api/v1/verify'));
    expect(verify.problems).toEqual([]);
  });

  it('answers closing_entry null when only the other currency moved', async () => {
    await setEuroRetained(books.euroRetained.id);
    const period = await year(2092);
    await post(api, '2092-05-01', [[books.euroCash.id, 'dr', '5000'], [books.euroSales.id, 'cr', '5000']]);
    const closed = dataOf(await closeRequest(api, period.id));
    expect(closed.closing_entry).toBeNull();
    expect(closed.period.closing_entry_id).toBeNull();
    expect(closed.closing_entries.map(linesOf)).toEqual([
      [['4030', '5000', '0', 'Close to retained earnings'], ['3150', '0', '5000', 'Net income for the period']],
    ]);
    expect(dataOf(await api.request('GET', '/api/v1/verify')).problems).toEqual([]);
  });

  it('refuses with the per-currency field when that currency\'s account was deactivated after it was set', async () => {
    const spare = await accountOpener(api, books.eur.id)('3190', 'Spare Reserves EUR', 'equity', 'credit');
    await setEuroRetained(spare.id);
    dataOf(await api.request('PATCH', `/api/v1/accounts/${spare.id}`, { is_active: false }));
    const period = await year(2091);
    await postYear(2091);
    expectError(await closeRequest(api, period.id), 400, 'VALIDATION_ERROR', `retained_earnings_account_ids.${books.eur.id}`);
    expect(await closingEntriesOf(period.id)).toEqual([]);
    await setEuroRetained(books.euroRetained.id);
  });

  it('posts nothing at all when one currency\'s closing entry is refused after the other\'s was posted', async () => {
    // A third currency whose debits already reach the 128-bit bound: its closing entry (which
    // debits revenue) is refused by the posting path, after the USD closing entry was posted in
    // the same transaction.
    const full = await createCurrency(api, { code: 'XFU', asset_scale: 0 });
    const openFull = accountOpener(api, full.id);
    const fullCash = await openFull('1090', 'Cash XFU', 'asset', 'debit');
    const fullRetained = await openFull('3199', 'Retained Earnings XFU', 'equity', 'credit');
    const fullSales = await openFull('4090', 'Sales XFU', 'revenue', 'credit');
    dataOf(await api.request('PATCH', SETTINGS, { retained_earnings_account_ids: { [full.id]: fullRetained.id, [books.eur.id]: null } }));
    const period = await year(2090);
    await post(api, '2090-01-10', [[books.cash.id, 'dr', '100'], [books.sales.id, 'cr', '100']]);
    await post(api, '2090-01-11', [[fullCash.id, 'dr', MAX_AMOUNT.toString()], [fullSales.id, 'cr', MAX_AMOUNT.toString()]]);
    const before = await allEntries(api);
    const response = await closeRequest(api, period.id);
    expectError(response, 400, 'VALIDATION_ERROR', 'lines');
    expect(response.body.message).toContain('2^127');
    expect(await allEntries(api)).toEqual(before);
    expect(dataOf(await api.request('GET', `/api/v1/periods/${period.id}`)).status).toBe('open');
    dataOf(await api.request('PATCH', SETTINGS, { retained_earnings_account_ids: { [full.id]: null, [books.eur.id]: books.euroRetained.id } }));
  });
});
