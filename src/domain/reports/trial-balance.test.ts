import { describe, expect, it } from 'vitest';
import { asAmount } from '../money/amount.js';
import type { Account, Totals } from '../types.js';
import type { ReportInputs } from './report-inputs.js';
import { buildTrialBalance } from './trial-balance.js';
import { testAccount as account } from '../../../test/fixtures/domain.js';

/**
 * USD (scale 2) and ETH (scale 18) books. Accumulated depreciation is a contra asset (credit
 * normal balance); receivables is a control account with two sub-accounts.
 */
const CHART: readonly Account[] = [
  account('cash', '1000'),
  account('receivables', '1200', { has_subledger: true }),
  account('receivables-acme', '1200-01', { parent_id: 'receivables', entity_id: 'acme' }),
  account('receivables-globex', '1200-02', { parent_id: 'receivables', entity_id: 'globex' }),
  account('depreciation', '1590', { normal_balance: 'credit' }),
  account('loan', '2000', { account_type: 'liability', normal_balance: 'credit' }),
  account('retained', '3100', { account_type: 'equity', normal_balance: 'credit' }),
  account('sales', '4000', { account_type: 'revenue', normal_balance: 'credit' }),
  account('rent', '6000', { account_type: 'expense', normal_balance: 'debit' }),
  account('idle', '6500', { account_type: 'expense', normal_balance: 'debit' }),
  account('wallet', '1100', { currency_id: 'eth' }),
  account('fees', '4100', { currency_id: 'eth', account_type: 'revenue', normal_balance: 'credit' }),
];
const INPUTS: ReportInputs = {
  accounts: new Map(CHART.map((a) => [a.id, a])),
  scales: new Map([['usd', 2], ['eth', 18]]),
};

function totals(rows: Record<string, [bigint, bigint]>): Map<string, Totals> {
  return new Map(Object.entries(rows).map(([id, [debit, credit]]) =>
    [id, { debit_total: asAmount(debit), credit_total: asAmount(credit) }]));
}

/**
 * A consistent USD ledger (every entry balanced):
 *   loan received        cash dr 5000.00 / loan cr 5000.00
 *   invoices             acme dr 1200.00, globex dr 300.00 / sales cr 1500.00
 *   acme pays            cash dr 1000.00 / acme cr 1000.00
 *   rent                 rent dr 800.00 / cash cr 800.00
 *   depreciation         rent dr 50.00 / depreciation cr 50.00
 * plus in ETH: wallet dr 2.000000000000000001 / fees cr 2.000000000000000001.
 */
const LEDGER = totals({
  cash: [600000n, 80000n],
  'receivables-acme': [120000n, 100000n],
  'receivables-globex': [30000n, 0n],
  depreciation: [0n, 5000n],
  loan: [0n, 500000n],
  sales: [0n, 150000n],
  rent: [85000n, 0n],
  idle: [0n, 0n],
  wallet: [2_000000000000000001n, 0n],
  fees: [0n, 2_000000000000000001n],
});

const row = (id: string, number: string, type: string, currency: string, parent: string | null,
  debit: string, credit: string, net: string, display: [string, string, string]) => ({
  account_id: id, account_number: number, account_name: `Account ${id}`, account_type: type, currency_id: currency,
  parent_id: parent, debit_total: debit, credit_total: credit, net_balance: net,
  display_debit_total: display[0], display_credit_total: display[1], display_net_balance: display[2],
});

describe('buildTrialBalance', () => {
  it('lists every posting account with activity, ordered by account number, with totals per currency', () => {
    const report = buildTrialBalance(INPUTS, LEDGER, { period_id: null, currency_id: null });
    expect(report.rows).toMatchObject([
      // cash: 6000.00 - 800.00 = 5200.00 (debit normal).
      row('cash', '1000', 'asset', 'usd', null, '600000', '80000', '520000', ['6000.00', '800.00', '5200.00']),
      row('wallet', '1100', 'asset', 'eth', null, '2000000000000000001', '0', '2000000000000000001',
        ['2.000000000000000001', '0.000000000000000000', '2.000000000000000001']),
      // acme: 1200.00 - 1000.00 = 200.00. The control account 1200 has no row of its own.
      row('receivables-acme', '1200-01', 'asset', 'usd', 'receivables', '120000', '100000', '20000', ['1200.00', '1000.00', '200.00']),
      row('receivables-globex', '1200-02', 'asset', 'usd', 'receivables', '30000', '0', '30000', ['300.00', '0.00', '300.00']),
      // The contra asset is signed as an asset, debits - credits = -50.00, as the balance sheet shows it.
      row('depreciation', '1590', 'asset', 'usd', null, '0', '5000', '-5000', ['0.00', '50.00', '-50.00']),
      row('loan', '2000', 'liability', 'usd', null, '0', '500000', '500000', ['0.00', '5000.00', '5000.00']),
      row('sales', '4000', 'revenue', 'usd', null, '0', '150000', '150000', ['0.00', '1500.00', '1500.00']),
      row('fees', '4100', 'revenue', 'eth', null, '0', '2000000000000000001', '2000000000000000001',
        ['0.000000000000000000', '2.000000000000000001', '2.000000000000000001']),
      row('rent', '6000', 'expense', 'usd', null, '85000', '0', '85000', ['850.00', '0.00', '850.00']),
    ]);
    // USD debits: 6000.00 + 1200.00 + 300.00 + 850.00 = 8350.00;
    // USD credits: 800.00 + 1000.00 + 50.00 + 5000.00 + 1500.00 = 8350.00.
    expect(report.totals).toMatchObject([
      { currency_id: 'eth', debit_total: '2000000000000000001', credit_total: '2000000000000000001',
        display_debit_total: '2.000000000000000001', display_credit_total: '2.000000000000000001', is_balanced: true },
      { currency_id: 'usd', debit_total: '835000', credit_total: '835000',
        display_debit_total: '8350.00', display_credit_total: '8350.00', is_balanced: true },
    ]);
    expect(report.is_balanced).toBe(true);
    expect(report).toMatchObject({ period_id: null, currency_id: null });
  });

  it('limits rows and totals to one currency when currency_id is given, and echoes the scope', () => {
    const report = buildTrialBalance(INPUTS, LEDGER, { period_id: 'p-1', currency_id: 'eth' });
    expect(report.rows.map((r) => r.account_id)).toEqual(['wallet', 'fees']);
    expect(report.totals.map((t) => t.currency_id)).toEqual(['eth']);
    expect(report).toMatchObject({ period_id: 'p-1', currency_id: 'eth', is_balanced: true });
  });

  it('shows a negative net balance for an account on the wrong side of its normal balance', () => {
    // An overdrawn bank: debits 10.00, credits 30.00, net (debit normal) 10.00 - 30.00 = -20.00.
    const report = buildTrialBalance(INPUTS, totals({ cash: [1000n, 3000n], loan: [3000n, 1000n] }), { period_id: null, currency_id: null });
    expect(report.rows.map((r) => [r.account_id, r.net_balance, r.display_net_balance])).toEqual([
      ['cash', '-2000', '-20.00'],
      // loan is credit normal: 10.00 - 30.00 = -20.00.
      ['loan', '-2000', '-20.00'],
    ]);
  });

  it('keeps an account whose lines net to zero (gross activity) and drops one without lines', () => {
    const report = buildTrialBalance(INPUTS, totals({ rent: [700n, 700n], cash: [700n, 700n], idle: [0n, 0n] }), { period_id: null, currency_id: null });
    expect(report.rows.map((r) => [r.account_id, r.debit_total, r.credit_total, r.net_balance])).toEqual([
      ['cash', '700', '700', '0'],
      ['rent', '700', '700', '0'],
    ]);
  });

  it('flags a currency whose debits and credits differ, and the report with it', () => {
    // USD: debits 100.00 vs credits 99.99. ETH stays balanced.
    const report = buildTrialBalance(INPUTS, totals({ cash: [10000n, 0n], sales: [0n, 9999n], wallet: [5n, 0n], fees: [0n, 5n] }),
      { period_id: null, currency_id: null });
    expect(report.totals.map((t) => [t.currency_id, t.debit_total, t.credit_total, t.is_balanced])).toEqual([
      ['eth', '5', '5', true],
      ['usd', '10000', '9999', false],
    ]);
    expect(report.is_balanced).toBe(false);
  });

  it('is empty and balanced for a ledger without activity', () => {
    expect(buildTrialBalance(INPUTS, new Map(), { period_id: null, currency_id: null }))
      .toEqual({
        period_id: null, currency_id: null, as_of_date: null, start_date: null, end_date: null, basis: 'balance',
        label: 'Balances, all time', rows: [], totals: [], is_balanced: true,
      });
  });

  it('puts each account\'s net in a debit-balance or a credit-balance column, whose totals agree', () => {
    // cash 6000.00 dr / 800.00 cr nets 5200.00 on the debit side; the contra asset's 50.00 credit
    // sits on the credit side though the account is an asset.
    const report = buildTrialBalance(INPUTS, LEDGER, { period_id: null, currency_id: 'usd' });
    const balances = Object.fromEntries(report.rows.map((r) => [r.account_id, [r.display_debit_balance, r.display_credit_balance]]));
    expect(balances).toEqual({
      'cash': ['5200.00', '0.00'], 'receivables-acme': ['200.00', '0.00'], 'receivables-globex': ['300.00', '0.00'],
      'depreciation': ['0.00', '50.00'], 'loan': ['0.00', '5000.00'], 'sales': ['0.00', '1500.00'], 'rent': ['850.00', '0.00'],
    });
    // 5200.00 + 200.00 + 300.00 + 850.00 = 6550.00 = 50.00 + 5000.00 + 1500.00.
    expect(report.totals).toMatchObject([{ currency_id: 'usd', debit_balance: '655000', credit_balance: '655000',
      display_debit_balance: '6550.00', display_credit_balance: '6550.00' }]);
  });

  it.each([
    ['all time', { period_id: null, currency_id: null }, 'balance', 'Balances, all time'],
    ['as of a date', { period_id: null, currency_id: null, as_of_date: '2026-03-31' }, 'balance', 'Balances as of 2026-03-31'],
    ['a period', { period_id: 'p-1', currency_id: null, start_date: '2026-01-01', end_date: '2026-06-30', period_name: 'H1' },
      'movement', 'Movement of H1 from 2026-01-01 to 2026-06-30 (activity in the range, not balances)'],
    ['an open-ended range', { period_id: null, currency_id: null, start_date: '2026-04-01' },
      'movement', 'Movement from 2026-04-01 to today (activity in the range, not balances)'],
  ])('says whether it shows balances or movement: %s', (_name, scope, basis, label) => {
    expect(buildTrialBalance(INPUTS, new Map(), scope)).toMatchObject({ basis, label });
  });
});
