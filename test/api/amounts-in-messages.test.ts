/**
 * Error messages name amounts as a person writes them ("92.40 USD"): at the currency's scale, with
 * its code, while the fields the caller sent keep their raw minor units. Through the real app, on
 * each store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, balanceOf, createAccount, createCurrency, createPeriod, expectError, startApi } from '../helpers/api-fixture.js';

const ENTRIES = '/api/v1/journal-entries';

describe('amounts in error messages', () => {
  let api: ApiFixture;

  beforeAll(async () => {
    api = await startApi();
    await createPeriod(api, 'FY2026', '2026-01-01', '2026-12-31');
  });
  afterAll(async () => { await api.close(); });

  async function books(code: string, scale: number) {
    const currency = await createCurrency(api, { code, asset_scale: scale });
    const open = (number: string, account_type: string, normal_balance: string) =>
      createAccount(api, { account_number: `${code}-${number}`, name: `${code} ${number}`, currency_id: currency.id, account_type, normal_balance });
    return { cash: await open('1000', 'asset', 'debit'), sales: await open('4000', 'revenue', 'credit') };
  }

  const unbalanced = (cash: { id: string }, sales: { id: string }, debit: string, credit: string) => ({
    entry_date: '2026-03-01', description: 'Invoice with a typo',
    lines: [{ account_id: cash.id, debit_amount: debit }, { account_id: sales.id, credit_amount: credit }],
  });

  it('names the debits, the credits and the difference of an unbalanced entry in the currency, and posts nothing', async () => {
    const { cash, sales } = await books('USD', 2);
    const response = await api.request('POST', ENTRIES, unbalanced(cash, sales, '9240', '9204'));
    expectError(response, 400, 'UNBALANCED_ENTRY', 'lines');
    expect(response.body.message).toBe('Debits 92.40 USD differ from credits 92.04 USD');
    expect(response.body.suggestion).toBe('Adjust the lines so both sides total the same: the debits are 0.36 USD more '
      + '(36 in the minor units of debit_amount and credit_amount)');
    expect((await balanceOf(api, cash.id)).total_debits).toBe('0');
  });

  it('writes each currency at its own scale: none for a yen-like currency, three for a dinar-like one', async () => {
    const yen = await books('JPX', 0);
    const dinar = await books('KWX', 3);
    const inYen = await api.request('POST', ENTRIES, unbalanced(yen.cash, yen.sales, '1500', '1499'));
    expect(inYen.body.message).toBe('Debits 1500 JPX differ from credits 1499 JPX');
    const inDinar = await api.request('POST', ENTRIES, unbalanced(dinar.cash, dinar.sales, '1', '2500'));
    expect(inDinar.body.message).toBe('Debits 0.001 KWX differ from credits 2.500 KWX');
    expect(inDinar.body.suggestion).toMatch(/^Adjust the lines so both sides total the same: the credits are 2\.499 KWX more \(2499 in /);
  });

  it('says the same in a dry run and names the entry of a batch', async () => {
    const { cash, sales } = await books('EUX', 2);
    const dryRun = await api.request('POST', `${ENTRIES}?dry_run=true`, unbalanced(cash, sales, '320000', '32000'));
    expectError(dryRun, 400, 'UNBALANCED_ENTRY', 'lines');
    expect(dryRun.body.message).toBe('Debits 3200.00 EUX differ from credits 320.00 EUX');
    const balanced = unbalanced(cash, sales, '100', '100');
    const batch = await api.request('POST', `${ENTRIES}/batch`, { entries: [balanced, unbalanced(cash, sales, '100', '10')] });
    expectError(batch, 400, 'UNBALANCED_ENTRY', 'entries[1].lines');
    expect(batch.body.message).toBe('Entry 2: Debits 1.00 EUX differ from credits 0.10 EUX');
    expect((await balanceOf(api, cash.id)).total_debits).toBe('0');
  });

  it('names the total of an entry above the largest amount in the currency', async () => {
    const { cash, sales } = await books('BIX', 2);
    const max = ((1n << 127n) - 1n).toString();
    const response = await api.request('POST', ENTRIES, {
      entry_date: '2026-03-01', description: 'Too much',
      lines: [{ account_id: cash.id, debit_amount: max }, { account_id: cash.id, debit_amount: '1' },
        { account_id: sales.id, credit_amount: max }, { account_id: sales.id, credit_amount: '1' }],
    });
    expectError(response, 400, 'VALIDATION_ERROR', 'lines');
    expect(response.body.message).toBe('The entry total 1701411834604692317316873037158841057.28 BIX exceeds the largest amount, '
      + '1701411834604692317316873037158841057.27 BIX (2^127 - 1 minor units)');
    expect((await balanceOf(api, cash.id)).total_debits).toBe('0');
  });
});
