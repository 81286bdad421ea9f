import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiFixture, MAX_AMOUNT, balanceOf, createAccount, createCurrency, createPeriod, dataOf, expectError, postEntry,
  startApi, walkPages,
} from '../helpers/api-fixture.js';

const ENTRIES = '/api/v1/journal-entries';
const MAX = MAX_AMOUNT.toString(); // 170141183460469231731687303715884105727
const TWO_TO_127 = (MAX_AMOUNT + 1n).toString();

/**
 * Exact money at the edges of the signed 128-bit range, through HTTP. Each test works in a
 * currency of its own, because the range bounds the totals of a currency.
 */
describe('amounts at the 128-bit edges', () => {
  let api: ApiFixture;
  beforeAll(async () => {
    api = await startApi();
    await createPeriod(api, 'FY2026', '2026-01-01', '2026-12-31');
  });
  afterAll(async () => { await api.close(); });

  let serial = 0;
  async function books(scale = 0) {
    serial += 1;
    const currency = await createCurrency(api, { asset_scale: scale });
    const open = (number: string, name: string, account_type: string, normal_balance: string) =>
      createAccount(api, { account_number: `M${serial}-${number}`, name, currency_id: currency.id, account_type, normal_balance });
    return { currency, cash: await open('1000', 'Cash', 'asset', 'debit'), bank: await open('1100', 'Bank', 'asset', 'debit'),
      sales: await open('4000', 'Sales', 'revenue', 'credit') };
  }

  it('accepts an entry of 2^127 - 1 on each side and returns the amounts exactly', async () => {
    const { cash, sales } = await books();
    const entry = await postEntry(api, cash.id, sales.id, MAX);
    expect(entry.lines.map((line: Record<string, string>) => [line.debit_amount, line.credit_amount]))
      .toEqual([[MAX, '0'], ['0', MAX]]);
    const fetched = dataOf(await api.request('GET', `${ENTRIES}/${entry.id}`));
    expect(fetched.lines[0].debit_amount).toBe('170141183460469231731687303715884105727');
    expect(fetched.lines[1].credit_amount).toBe('170141183460469231731687303715884105727');
    expect(await balanceOf(api, cash.id)).toMatchObject({ total_debits: MAX, total_credits: '0', net_balance: MAX, display_balance: MAX });
    expect(await balanceOf(api, sales.id)).toMatchObject({ total_debits: '0', total_credits: MAX, net_balance: MAX });
  });

  it('refuses an amount of 2^127 on either side with VALIDATION_ERROR naming the line', async () => {
    const { cash, sales } = await books();
    const body = (debit: string, credit: string) => ({
      entry_date: '2026-03-01', description: 'too big',
      lines: [{ account_id: cash.id, debit_amount: debit }, { account_id: sales.id, credit_amount: credit }],
    });
    expectError(await api.request('POST', ENTRIES, body(TWO_TO_127, TWO_TO_127)), 400, 'VALIDATION_ERROR', 'lines[0].debit_amount');
    expectError(await api.request('POST', ENTRIES, body(MAX, TWO_TO_127)), 400, 'VALIDATION_ERROR', 'lines[1].credit_amount');
    expect(await balanceOf(api, cash.id)).toMatchObject({ total_debits: '0', total_credits: '0' });
  });

  it('refuses an entry whose lines each fit but whose total passes 2^127 - 1', async () => {
    const { cash, bank, sales } = await books();
    const response = await api.request('POST', ENTRIES, {
      entry_date: '2026-03-01', description: 'total too big',
      lines: [
        { account_id: cash.id, debit_amount: MAX },
        { account_id: bank.id, debit_amount: '1' },
        { account_id: sales.id, credit_amount: MAX },
        { account_id: sales.id, credit_amount: '1' },
      ],
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(await balanceOf(api, sales.id)).toMatchObject({ total_credits: '0' });
  });

  it('accepts an entry whose lines add up to exactly 2^127 - 1', async () => {
    const { cash, bank, sales } = await books();
    dataOf(await api.request('POST', ENTRIES, {
      entry_date: '2026-03-01', description: 'exactly the largest total',
      lines: [
        { account_id: cash.id, debit_amount: (MAX_AMOUNT - 1n).toString() },
        { account_id: bank.id, debit_amount: '1' },
        { account_id: sales.id, credit_amount: MAX },
      ],
    }), 201);
    expect(await balanceOf(api, sales.id)).toMatchObject({ net_balance: MAX });
    expect(await balanceOf(api, cash.id)).toMatchObject({ net_balance: (MAX_AMOUNT - 1n).toString() });
  });

  it('refuses a further entry that would push the totals past 2^127 - 1 and changes nothing', async () => {
    const { cash, bank, sales } = await books();
    await postEntry(api, cash.id, sales.id, (MAX_AMOUNT - 10n).toString());
    await postEntry(api, bank.id, sales.id, '10');
    const snapshot = async () => ({
      balances: await Promise.all([cash, bank, sales].map((account) => balanceOf(api, account.id))),
      entries: (await walkPages(api, `${ENTRIES}?account_id=${sales.id}`)).rows,
    });
    const before = await snapshot();
    expect(before.balances[2]).toMatchObject({ net_balance: MAX });
    expectError(await api.request('POST', ENTRIES, {
      entry_date: '2026-03-01', description: 'one too many',
      lines: [{ account_id: cash.id, debit_amount: '1' }, { account_id: sales.id, credit_amount: '1' }],
    }), 400, 'VALIDATION_ERROR');
    // Debiting and crediting the same side back would not raise a balance, but it still raises the gross totals.
    expectError(await api.request('POST', ENTRIES, {
      entry_date: '2026-03-01', description: 'one back',
      lines: [{ account_id: sales.id, debit_amount: '1' }, { account_id: cash.id, credit_amount: '1' }],
    }), 400, 'VALIDATION_ERROR');
    expect(await snapshot()).toEqual(before);
  });

  it('keeps the totals of other currencies independent', async () => {
    const full = await books();
    await postEntry(api, full.cash.id, full.sales.id, MAX);
    const other = await books();
    await postEntry(api, other.cash.id, other.sales.id, MAX);
    expect(await balanceOf(api, other.cash.id)).toMatchObject({ net_balance: MAX });
  });

  it('formats 18-decimal amounts exactly', async () => {
    const { cash, sales } = await books(18);
    const entry = await postEntry(api, cash.id, sales.id, MAX);
    expect(entry.lines[0]).toMatchObject({ display_debit: '170141183460469231731.687303715884105727', display_credit: '0.000000000000000000' });
    expect(await balanceOf(api, sales.id)).toMatchObject({ display_balance: '170141183460469231731.687303715884105727' });
  });

  it('formats 38-decimal amounts exactly, including tiny and negative ones', async () => {
    const { cash, sales } = await books(38);
    const big = await postEntry(api, cash.id, sales.id, MAX);
    expect(big.lines[0].display_debit).toBe('1.70141183460469231731687303715884105727');
    const other = await books(38);
    const tiny = await postEntry(api, other.sales.id, other.cash.id, '1');
    expect(tiny.lines[0].display_debit).toBe('0.00000000000000000000000000000000000001');
    expect(await balanceOf(api, other.sales.id)).toMatchObject({
      net_balance: '-1', display_balance: '-0.00000000000000000000000000000000000001',
    });
  });
});
