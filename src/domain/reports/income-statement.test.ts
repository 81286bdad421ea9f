import { describe, expect, it } from 'vitest';
import { asAmount } from '../money/amount.js';
import type { Account, Totals } from '../types.js';
import { buildIncomeStatement } from './income-statement.js';
import type { ReportInputs } from './report-inputs.js';
import { testAccount } from '../../../test/fixtures/domain.js';

/** Revenue accounts unless told otherwise. */
const account = (id: string, account_number: string, overrides: Partial<Account> = {}): Account =>
  testAccount(id, account_number, { account_type: 'revenue', normal_balance: 'credit', ...overrides });

/**
 * Revenue with a control account and two sub-accounts, contra accounts on both sides (sales
 * returns: revenue with a debit normal balance; purchase rebates: expense with a credit normal
 * balance), a balance-sheet account that must never appear, and an 18-decimal currency.
 */
const CHART: readonly Account[] = [
  account('cash', '1000', { account_type: 'asset', normal_balance: 'debit' }),
  account('sales', '4000'),
  account('services', '4100', { has_subledger: true }),
  account('services-acme', '4100-01', { parent_id: 'services', entity_id: 'acme' }),
  account('services-globex', '4100-02', { parent_id: 'services', entity_id: 'globex' }),
  account('returns', '4900', { normal_balance: 'debit' }),
  account('rent', '6000', { account_type: 'expense', normal_balance: 'debit' }),
  account('wages', '6100', { account_type: 'expense', normal_balance: 'debit' }),
  account('rebates', '6900', { account_type: 'expense', normal_balance: 'credit' }),
  account('fees', '4000-E', { currency_id: 'eth' }),
  account('gas', '6000-E', { currency_id: 'eth', account_type: 'expense', normal_balance: 'debit' }),
];
const INPUTS: ReportInputs = {
  accounts: new Map(CHART.map((a) => [a.id, a])),
  scales: new Map([['usd', 2], ['eth', 18]]),
};
const USD = { currency_id: 'usd', period_id: 'p-q1', start_date: '2026-01-01', end_date: '2026-03-31' };

function totals(rows: Record<string, [bigint, bigint]>): Map<string, Totals> {
  return new Map(Object.entries(rows).map(([id, [debit, credit]]) =>
    [id, { debit_total: asAmount(debit), credit_total: asAmount(credit) }]));
}

const row = (id: string, number: string, parent: string | null, amount: string, display: string) =>
  ({ account_id: id, account_number: number, account_name: `Account ${id}`, parent_id: parent, amount, display_amount: display });

describe('buildIncomeStatement', () => {
  it('shows revenue as credits minus debits and expenses as debits minus credits, sub-accounts and contra accounts included', () => {
    const statement = buildIncomeStatement(INPUTS, totals({
      cash: [999999n, 1n],
      sales: [10000n, 250000n], // 2500.00 - 100.00 refund = 2400.00
      'services-acme': [0n, 40000n], // 400.00
      'services-globex': [5000n, 15000n], // 150.00 - 50.00 = 100.00
      returns: [12000n, 2000n], // contra revenue: 20.00 - 120.00 = -100.00
      rent: [90000n, 0n], // 900.00
      wages: [60000n, 10000n], // 600.00 - 100.00 = 500.00
      rebates: [0n, 3000n], // contra expense: 0 - 30.00 = -30.00
    }), USD);
    expect(statement).toEqual({
      currency_id: 'usd', period_id: 'p-q1', start_date: '2026-01-01', end_date: '2026-03-31',
      revenue: [
        row('sales', '4000', null, '240000', '2400.00'),
        row('services-acme', '4100-01', 'services', '40000', '400.00'),
        row('services-globex', '4100-02', 'services', '10000', '100.00'),
        row('returns', '4900', null, '-10000', '-100.00'),
      ],
      expenses: [
        row('rent', '6000', null, '90000', '900.00'),
        row('wages', '6100', null, '50000', '500.00'),
        row('rebates', '6900', null, '-3000', '-30.00'),
      ],
      // 2400.00 + 400.00 + 100.00 - 100.00 = 2800.00
      total_revenue: '280000', display_total_revenue: '2800.00',
      // 900.00 + 500.00 - 30.00 = 1370.00
      total_expenses: '137000', display_total_expenses: '1370.00',
      // 2800.00 - 1370.00 = 1430.00
      net_income: '143000', display_net_income: '1430.00',
    });
  });

  it('shows a net loss as a negative net income', () => {
    // revenue 120.00; expenses 300.00 + 45.50 = 345.50; net 120.00 - 345.50 = -225.50.
    const statement = buildIncomeStatement(INPUTS, totals({ sales: [0n, 12000n], rent: [30000n, 0n], wages: [4550n, 0n] }), USD);
    expect(statement).toMatchObject({
      total_revenue: '12000', total_expenses: '34550', net_income: '-22550', display_net_income: '-225.50',
    });
  });

  it('keeps an account whose activity nets to zero and leaves out accounts without activity', () => {
    const statement = buildIncomeStatement(INPUTS, totals({ sales: [500n, 500n], rent: [0n, 0n] }), USD);
    expect(statement.revenue).toEqual([row('sales', '4000', null, '0', '0.00')]);
    expect(statement.expenses).toEqual([]);
    expect(statement).toMatchObject({ total_revenue: '0', total_expenses: '0', net_income: '0', display_net_income: '0.00' });
  });

  it('reports one currency only, exactly at 18 decimals', () => {
    // fees 3 ETH - 1 wei = 2999999999999999999 wei; gas 0.000000000000000007 ETH = 7 wei;
    // net = 2999999999999999999 - 7 = 2999999999999999992 wei.
    const statement = buildIncomeStatement(INPUTS, totals({
      sales: [0n, 100n], fees: [1n, 3_000000000000000000n], gas: [7n, 0n],
    }), { currency_id: 'eth', period_id: null, start_date: null, end_date: null });
    expect(statement).toEqual({
      currency_id: 'eth', period_id: null, start_date: null, end_date: null,
      revenue: [row('fees', '4000-E', null, '2999999999999999999', '2.999999999999999999')],
      expenses: [row('gas', '6000-E', null, '7', '0.000000000000000007')],
      total_revenue: '2999999999999999999', display_total_revenue: '2.999999999999999999',
      total_expenses: '7', display_total_expenses: '0.000000000000000007',
      net_income: '2999999999999999992', display_net_income: '2.999999999999999992',
    });
  });

  it('is all zeros for a period without activity', () => {
    expect(buildIncomeStatement(INPUTS, new Map(), USD)).toEqual({
      currency_id: 'usd', period_id: 'p-q1', start_date: '2026-01-01', end_date: '2026-03-31', revenue: [], expenses: [],
      total_revenue: '0', display_total_revenue: '0.00', total_expenses: '0', display_total_expenses: '0.00',
      net_income: '0', display_net_income: '0.00',
    });
  });
});
