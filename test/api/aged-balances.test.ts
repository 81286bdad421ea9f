import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, createCurrency, createPeriod, dataOf, expectError, newApiKey, startApi } from '../helpers/api-fixture.js';
import { accountOpener, getReport, post, report, reverse, subAccount } from '../helpers/report-helpers.js';

/**
 * Aged receivables and payables, every bucket computed by hand. USD (cents), one period for 2026,
 * aged as of 2026-06-30 with terms of 0 days (due on the entry's date, so days past due are days
 * old, in brackets); the terms and stated due dates have tests of their own below. Receivables (control 1200, debit normal):
 *
 *   Acme     invoices 03-01 1000.00 [121], 04-15 500.00 [76], 05-20 300.00 [41], 06-10 200.00 [20],
 *            06-30 50.00 [0]; paid 05-25 1200.00. After the date: invoice 07-05 999.00, paid 07-02 100.00.
 *            FIFO: the payment settles 03-01 and 200.00 of 04-15. Balance 850.00 =
 *            current 50.00, 1-30 200.00, 31-60 300.00, 61-90 300.00.
 *   Globex   invoices 01-15 400.00 [166], 04-01 250.00 [90], 05-31 80.00 [30]; paid 02-10 150.00;
 *            invoice 06-01 700.00 reversed on 06-02 (the pair is no open item). Balance 580.00 =
 *            1-30 80.00, 61-90 250.00, over 90 250.00.
 *   Initech  invoice 03-31 100.00; paid 05-16 400.00 [45]: a credit of 300.00, aged like an
 *            invoice from the newest payment, shown negative: 31-60 -300.00.
 *   Umbrella invoices 03-31 120.00 [91], 04-30 30.00 [61], 05-01 45.00 [60]. Balance 195.00 =
 *            31-60 45.00, 61-90 30.00, over 90 120.00.
 *   Soylent  invoice 02-01 75.00, paid 03-01 75.00: no balance, no row.  Hooli: no activity, no row.
 *
 *   Totals: current 50.00, 1-30 280.00, 31-60 45.00, 61-90 580.00, over 90 370.00; 1325.00.
 *
 * Payables (control 2100, credit normal): Paper Co bills 02-01 80.00 [149] and 06-20 120.00 [10],
 * paid 03-10 50.00: 1-30 120.00, over 90 30.00; 150.00.
 */
describe('aged balances', () => {
  let api: ApiFixture;
  let usd: { id: string };
  let a: Record<'cash' | 'receivables' | 'sales' | 'payables' | 'supplies', { id: string }>;
  let c: Record<'acme' | 'globex' | 'initech' | 'umbrella' | 'soylent' | 'hooli' | 'paper', { id: string }>;

  beforeAll(async () => {
    api = await startApi();
    usd = await createCurrency(api, { code: 'USD', caip19_id: 'swift:0/iso4217:USD', asset_scale: 2 });
    await createPeriod(api, 'FY2026', '2026-01-01', '2026-12-31');
    const open = accountOpener(api, usd.id);
    a = {
      cash: await open('1000', 'Cash', 'asset', 'debit'),
      receivables: await open('1200', 'Receivables', 'asset', 'debit', { has_subledger: true }),
      payables: await open('2100', 'Payables', 'liability', 'credit', { has_subledger: true }),
      sales: await open('4000', 'Sales', 'revenue', 'credit'),
      supplies: await open('6100', 'Supplies', 'expense', 'debit'),
    };
    const customer = (number: string, name: string) => subAccount(api, a.receivables.id, number, name, name.toLowerCase());
    c = {
      acme: await customer('1200-01', 'Acme'),
      globex: await customer('1200-02', 'Globex'),
      initech: await customer('1200-03', 'Initech'),
      umbrella: await customer('1200-04', 'Umbrella'),
      soylent: await customer('1200-05', 'Soylent'),
      hooli: await customer('1200-06', 'Hooli'),
      paper: await subAccount(api, a.payables.id, '2100-01', 'Paper Co', 'paper'),
    };
    const invoice = (customerId: string, date: string, amount: string) =>
      post(api, date, [[customerId, 'dr', amount], [a.sales.id, 'cr', amount]], 'Invoice');
    const payment = (customerId: string, date: string, amount: string) =>
      post(api, date, [[a.cash.id, 'dr', amount], [customerId, 'cr', amount]], 'Payment');
    const { acme, globex, initech, umbrella, soylent, paper } = c;
    await invoice(acme.id, '2026-03-01', '100000');
    await invoice(acme.id, '2026-04-15', '50000');
    await invoice(acme.id, '2026-05-20', '30000');
    await invoice(acme.id, '2026-06-10', '20000');
    await invoice(acme.id, '2026-06-30', '5000');
    await payment(acme.id, '2026-05-25', '120000');
    await invoice(acme.id, '2026-07-05', '99900');
    await payment(acme.id, '2026-07-02', '10000');
    await invoice(globex.id, '2026-01-15', '40000');
    await payment(globex.id, '2026-02-10', '15000');
    await invoice(globex.id, '2026-04-01', '25000');
    await invoice(globex.id, '2026-05-31', '8000');
    const wrong = await invoice(globex.id, '2026-06-01', '70000');
    await reverse(api, wrong.id, '2026-06-02');
    await invoice(initech.id, '2026-03-31', '10000');
    await payment(initech.id, '2026-05-16', '40000');
    await invoice(umbrella.id, '2026-03-31', '12000');
    await invoice(umbrella.id, '2026-04-30', '3000');
    await invoice(umbrella.id, '2026-05-01', '4500');
    await invoice(soylent.id, '2026-02-01', '7500');
    await payment(soylent.id, '2026-03-01', '7500');
    await post(api, '2026-02-01', [[a.supplies.id, 'dr', '8000'], [paper.id, 'cr', '8000']], 'Bill');
    await post(api, '2026-06-20', [[a.supplies.id, 'dr', '12000'], [paper.id, 'cr', '12000']], 'Bill');
    await post(api, '2026-03-10', [[paper.id, 'dr', '5000'], [a.cash.id, 'cr', '5000']], 'Bill paid');
  });
  afterAll(async () => { await api.close(); });

  /** A row's (or the totals') buckets as display amounts: current, 1-30, 31-60, 61-90, over 90, total. */
  const buckets = (row: any) => [row.display_current, row.display_days_1_30, row.display_days_31_60, row.display_days_61_90,
    row.display_days_over_90, row.display_total];

  it('ages each customer\'s open balance first in, first out into the five buckets as of the date', async () => {
    const aged = await report(api, 'aged-balances', { terms_days: 0, account_id: a.receivables.id, as_of_date: '2026-06-30' });
    expect(aged).toMatchObject({
      account_id: a.receivables.id, account_number: '1200', account_name: 'Receivables', normal_balance: 'debit',
      currency_id: usd.id, as_of_date: '2026-06-30',
    });
    expect(aged.rows.map((row: any) => [row.account_number, row.account_name, row.entity_id, ...buckets(row)])).toEqual([
      ['1200-01', 'Acme', 'acme', '50.00', '200.00', '300.00', '300.00', '0.00', '850.00'],
      ['1200-02', 'Globex', 'globex', '0.00', '80.00', '0.00', '250.00', '250.00', '580.00'],
      ['1200-03', 'Initech', 'initech', '0.00', '0.00', '-300.00', '0.00', '0.00', '-300.00'],
      ['1200-04', 'Umbrella', 'umbrella', '0.00', '0.00', '45.00', '30.00', '120.00', '195.00'],
    ]);
    expect(buckets(aged.totals)).toEqual(['50.00', '280.00', '45.00', '580.00', '370.00', '1325.00']);
    // Raw amounts are integer strings of cents, like every report's.
    expect(aged.rows[0]).toMatchObject({
      account_id: c.acme.id, current: '5000', days_1_30: '20000', days_31_60: '30000', days_61_90: '30000', days_over_90: '0', total: '85000',
    });
    expect(aged.totals).toMatchObject({ current: '5000', days_1_30: '28000', days_31_60: '4500', days_61_90: '58000', days_over_90: '37000',
      total: '132500' });
  });

  it('totals the control account\'s balance as of the date, and each row its sub-account\'s', async () => {
    for (const asOf of ['2026-06-30', '2026-05-31', '2026-03-01', '2026-07-31']) {
      const aged = await report(api, 'aged-balances', { terms_days: 0, account_id: a.receivables.id, as_of_date: asOf });
      const ledger = await report(api, 'general-ledger', { account_id: a.receivables.id, end_date: asOf, limit: 1 });
      expect(aged.totals.total, `as of ${asOf}`).toBe(ledger.ending_balance);
      const sum = aged.rows.reduce((total: bigint, row: any) => total + BigInt(row.total), 0n);
      expect(sum.toString(), `as of ${asOf}`).toBe(aged.totals.total);
      for (const row of aged.rows) {
        const own = await report(api, 'general-ledger', { account_id: row.account_id, end_date: asOf, limit: 1 });
        expect(row.total, `${row.account_number} as of ${asOf}`).toBe(own.ending_balance);
        const parts = [row.current, row.days_1_30, row.days_31_60, row.days_61_90, row.days_over_90].reduce((s: bigint, v: string) => s + BigInt(v), 0n);
        expect(parts.toString()).toBe(row.total);
      }
    }
  });

  it('leaves out entries dated after the as-of date and ages from that date', async () => {
    // On 2026-07-31 Acme's July invoice and payment count too.
    const july = await report(api, 'aged-balances', { terms_days: 0, account_id: a.receivables.id, as_of_date: '2026-07-31' });
    const acme = july.rows.find((row: any) => row.account_id === c.acme.id);
    // Balance 850.00 + 999.00 - 100.00 = 1749.00; newest first: 999.00 (07-05, 26 days), 50.00
    // (06-30, 31), 200.00 (06-10, 51), 300.00 (05-20, 72), then 200.00 of 04-15 (107).
    expect(buckets(acme)).toEqual(['0.00', '999.00', '250.00', '300.00', '200.00', '1749.00']);
    // On 2026-03-01 only Acme's first invoice and Globex's January invoice less its payment exist.
    const march = await report(api, 'aged-balances', { terms_days: 0, account_id: a.receivables.id, as_of_date: '2026-03-01' });
    expect(march.rows.map((row: any) => [row.account_name, ...buckets(row)])).toEqual([
      ['Acme', '1000.00', '0.00', '0.00', '0.00', '0.00', '1000.00'],
      ['Globex', '0.00', '0.00', '250.00', '0.00', '0.00', '250.00'],
    ]);
  });

  it('ages a reversed invoice as nothing only once its reversal is dated by the as-of date', async () => {
    // On 06-01 the wrong invoice is not reversed yet, so it is open like any other: Globex owes
    // 1280.00 = 700.00 (06-01, current) + 80.00 (05-31, 1 day) + 250.00 (04-01, 61 days) + 250.00
    // of 01-15 (137 days).
    const before = await report(api, 'aged-balances', { terms_days: 0, account_id: a.receivables.id, as_of_date: '2026-06-01' });
    expect(buckets(before.rows.find((row: any) => row.account_id === c.globex.id)))
      .toEqual(['700.00', '80.00', '0.00', '250.00', '250.00', '1280.00']);
    // From 06-02 on the pair cancels out and is no open item (else the 700.00 would cover the whole balance).
    const after = await report(api, 'aged-balances', { terms_days: 0, account_id: a.receivables.id, as_of_date: '2026-06-02' });
    expect(buckets(after.rows.find((row: any) => row.account_id === c.globex.id)))
      .toEqual(['0.00', '80.00', '0.00', '250.00', '250.00', '580.00']);
  });

  it('ages payables on the credit side: a supplier\'s bills less payments', async () => {
    const aged = await report(api, 'aged-balances', { terms_days: 0, account_id: a.payables.id, as_of_date: '2026-06-30' });
    expect(aged).toMatchObject({ account_number: '2100', normal_balance: 'credit', currency_id: usd.id });
    expect(aged.rows.map((row: any) => [row.account_name, ...buckets(row)])).toEqual([
      ['Paper Co', '0.00', '120.00', '0.00', '0.00', '30.00', '150.00'],
    ]);
    expect(buckets(aged.totals)).toEqual(['0.00', '120.00', '0.00', '0.00', '30.00', '150.00']);
  });

  it('ages as of today (the server\'s date) when no date is given', async () => {
    // The test clock stands at 2026-03-15: Acme's 03-01 invoice is 14 days old.
    const aged = await report(api, 'aged-balances', { terms_days: 0, account_id: a.receivables.id });
    expect(aged.as_of_date).toBe('2026-03-15');
    expect(buckets(aged.rows.find((row: any) => row.account_id === c.acme.id))).toEqual(['0.00', '1000.00', '0.00', '0.00', '0.00', '1000.00']);
  });

  it('answers no rows and zero totals for a control account without balances', async () => {
    const aged = await report(api, 'aged-balances', { terms_days: 0, account_id: a.receivables.id, as_of_date: '2026-01-01' });
    expect(aged.rows).toEqual([]);
    expect(buckets(aged.totals)).toEqual(['0.00', '0.00', '0.00', '0.00', '0.00', '0.00']);
  });

  it('is open to any signed-in user, like every report', async () => {
    const reader = await newApiKey(api, {});
    const response = await api.request('GET', `/api/v1/reports/aged-balances?account_id=${a.receivables.id}&as_of_date=2026-06-30`,
      undefined, { token: reader });
    expect(dataOf(response).totals.total).toBe('132500');
    expectError(await api.request('GET', `/api/v1/reports/aged-balances?account_id=${a.receivables.id}`, undefined, { token: null }),
      401, 'UNAUTHORIZED');
  });

  describe('refusals', () => {
    it('refuses an account that is not a control account, naming account_id and what to pass instead', async () => {
      for (const account of [a.cash, c.acme, a.sales]) {
        const response = await getReport(api, 'aged-balances', { account_id: account.id, as_of_date: '2026-06-30' });
        expectError(response, 400, 'VALIDATION_ERROR', 'account_id');
        expect(response.body.message).toMatch(/not a control account/);
        expect(response.body.suggestion).toMatch(/control account \(has_subledger: true\)/);
      }
    });

    it('refuses a missing account_id, and answers 404 for an unknown one', async () => {
      const missing = await getReport(api, 'aged-balances', { as_of_date: '2026-06-30' });
      expectError(missing, 400, 'VALIDATION_ERROR', 'account_id');
      expect(missing.body.suggestion).toMatch(/account_id=/);
      expectError(await getReport(api, 'aged-balances', { account_id: 'no-such-account' }), 404, 'NOT_FOUND', 'account_id');
    });

    it('refuses a date that is not a calendar date, and an unknown parameter', async () => {
      const impossible = await getReport(api, 'aged-balances', { account_id: a.receivables.id, as_of_date: '2026-02-30' });
      expectError(impossible, 400, 'VALIDATION_ERROR', 'as_of_date');
      expect(impossible.body.suggestion).toBeTruthy();
      expectError(await getReport(api, 'aged-balances', { account_id: a.receivables.id, as_of_date: '30/06/2026' }), 400, 'VALIDATION_ERROR',
        'as_of_date');
      expectError(await getReport(api, 'aged-balances', { account_id: a.receivables.id, currency_id: usd.id }), 400, 'VALIDATION_ERROR');
    });
  });

  it('is described in the OpenAPI document', async () => {
    const spec = (await api.request('GET', '/docs/json', undefined, { token: null })).body;
    const operation = spec.paths['/api/v1/reports/aged-balances'].get;
    expect(operation.parameters.map((parameter: any) => parameter.name).sort()).toEqual(['account_id', 'as_of_date', 'terms_days']);
    expect(Object.keys(operation.responses)).toContain('200');
  });

  describe('by days past due', () => {
    /**
     * A customer of its own, as of 2026-06-30: invoice 06-25 100.00 (due 07-25 on net 30: not yet
     * due), invoice 05-20 200.00 (due 06-19: 11 days past due), invoice 03-01 300.00 stating
     * `metadata.due_date` 2026-06-29 (1 day past due), invoice 02-01 400.00 with a due date that is
     * no date ("soon": due 03-03 by the terms, 119 days past due).
     */
    let customer: { id: string };
    beforeAll(async () => {
      customer = await subAccount(api, a.receivables.id, '1200-20', 'Terms Ltd', 'terms');
      const invoice = async (date: string, amount: string, metadata?: Record<string, unknown>) => dataOf(await api.request('POST',
        '/api/v1/journal-entries', { entry_date: date, description: 'Invoice', ...(metadata ? { metadata } : {}),
          lines: [{ account_id: customer.id, debit_amount: amount }, { account_id: a.sales.id, credit_amount: amount }] }), 201);
      await invoice('2026-06-25', '10000');
      await invoice('2026-05-20', '20000');
      await invoice('2026-03-01', '30000', { due_date: '2026-06-29' });
      await invoice('2026-02-01', '40000', { due_date: 'soon' });
    });

    const row = async (params: Record<string, string | number>) => {
      const aged = await report(api, 'aged-balances', { account_id: a.receivables.id, as_of_date: '2026-06-30', ...params });
      return { aged, buckets: buckets(aged.rows.find((candidate: any) => candidate.account_id === customer.id)) };
    };

    it('ages by net 30 by default, and by a stated due date when the entry has a valid one', async () => {
      const { aged, buckets: found } = await row({});
      expect(aged.terms_days).toBe(30);
      expect(found).toEqual(['100.00', '500.00', '0.00', '0.00', '400.00', '1000.00']);
    });

    it('ages by the terms given: net 0 is due on the entry date, net 60 later still', async () => {
      // Net 0: 06-25 is 5 days past due, 05-20 41, the stated 06-29 still 1, 02-01 149.
      expect((await row({ terms_days: 0 })).buckets).toEqual(['0.00', '400.00', '200.00', '0.00', '400.00', '1000.00']);
      // Net 60: 06-25 and 05-20 not yet due, the stated 06-29 1 day past due, 02-01 due 04-02: 89.
      expect((await row({ terms_days: 60 })).buckets).toEqual(['300.00', '300.00', '0.00', '400.00', '0.00', '1000.00']);
    });

    it('refuses terms outside 0 to 3650 days', async () => {
      for (const terms of ['-1', '3651', '1.5', 'net30']) {
        expectError(await getReport(api, 'aged-balances', { account_id: a.receivables.id, terms_days: terms }), 400, 'VALIDATION_ERROR', 'terms_days');
      }
    });
  });
});
