import { describe, expect, it } from 'vitest';
import { asAmount } from '../money/amount.js';
import type { Account, Totals } from '../types.js';
import { buildBalanceSheet, CURRENT_EARNINGS_NAME } from './balance-sheet.js';
import type { ReportInputs } from './report-inputs.js';
import { testAccount as account } from '../../../test/fixtures/domain.js';

/**
 * USD (scale 2) and ETH (scale 18) books with contra accounts in every section: accumulated
 * depreciation (asset, credit normal), a bond discount (liability, debit normal) and owner's
 * drawings (equity, debit normal). Receivables is a control account with two sub-accounts.
 */
const CHART: readonly Account[] = [
  account('cash', '1000'),
  account('receivables', '1200', { has_subledger: true }),
  account('receivables-acme', '1200-01', { parent_id: 'receivables', entity_id: 'acme' }),
  account('receivables-globex', '1200-02', { parent_id: 'receivables', entity_id: 'globex' }),
  account('depreciation', '1590', { normal_balance: 'credit' }),
  account('loan', '2000', { account_type: 'liability', normal_balance: 'credit' }),
  account('bond-discount', '2090', { account_type: 'liability', normal_balance: 'debit' }),
  account('retained', '3100', { account_type: 'equity', normal_balance: 'credit' }),
  account('drawings', '3200', { account_type: 'equity', normal_balance: 'debit' }),
  account('sales', '4000', { account_type: 'revenue', normal_balance: 'credit' }),
  account('returns', '4900', { account_type: 'revenue', normal_balance: 'debit' }),
  account('rent', '6000', { account_type: 'expense', normal_balance: 'debit' }),
  account('wallet', '1100', { currency_id: 'eth' }),
  account('fees', '4100', { currency_id: 'eth', account_type: 'revenue', normal_balance: 'credit' }),
];
const INPUTS: ReportInputs = {
  accounts: new Map(CHART.map((a) => [a.id, a])),
  scales: new Map([['usd', 2], ['eth', 18]]),
};
const USD = { currency_id: 'usd', as_of_date: '2026-03-31', period_id: null };

function totals(rows: Record<string, [bigint, bigint]>): Map<string, Totals> {
  return new Map(Object.entries(rows).map(([id, [debit, credit]]) =>
    [id, { debit_total: asAmount(debit), credit_total: asAmount(credit) }]));
}

/**
 * A consistent ledger (every entry balanced):
 *   loan received        cash dr 5000.00 / loan cr 5000.00
 *   invoices             acme dr 1200.00, globex dr 300.00 / sales cr 1500.00
 *   acme pays            cash dr 1000.00 / acme cr 1000.00
 *   rent                 rent dr 800.00 / cash cr 800.00
 *   depreciation         rent dr 50.00 / depreciation cr 50.00
 *   ETH fees             wallet dr 2.000000000000000001 / fees cr 2.000000000000000001
 */
const LEDGER = {
  cash: [600000n, 80000n],
  'receivables-acme': [120000n, 100000n],
  'receivables-globex': [30000n, 0n],
  depreciation: [0n, 5000n],
  loan: [0n, 500000n],
  sales: [0n, 150000n],
  rent: [85000n, 0n],
  wallet: [2_000000000000000001n, 0n],
  fees: [0n, 2_000000000000000001n],
} satisfies Record<string, [bigint, bigint]>;

const line = (id: string | null, number: string | null, name: string, parent: string | null, balance: string, display: string) =>
  ({ account_id: id, account_number: number, account_name: name, parent_id: parent, balance, display_balance: display });
const earnings = (balance: string, display: string) => line(null, null, CURRENT_EARNINGS_NAME, null, balance, display);

describe('buildBalanceSheet', () => {
  it('shows assets as debits minus credits and liabilities and equity as credits minus debits, with current earnings', () => {
    const sheet = buildBalanceSheet(INPUTS, totals(LEDGER), USD);
    expect(sheet).toEqual({
      currency_id: 'usd', as_of_date: '2026-03-31', period_id: null,
      assets: {
        accounts: [
          line('cash', '1000', 'Account cash', null, '520000', '5200.00'), // 6000.00 - 800.00
          line('receivables-acme', '1200-01', 'Account receivables-acme', 'receivables', '20000', '200.00'), // 1200.00 - 1000.00
          line('receivables-globex', '1200-02', 'Account receivables-globex', 'receivables', '30000', '300.00'),
          line('depreciation', '1590', 'Account depreciation', null, '-5000', '-50.00'), // contra asset: 0 - 50.00
        ],
        total: '565000', display_total: '5650.00', // 5200.00 + 200.00 + 300.00 - 50.00
      },
      liabilities: {
        accounts: [line('loan', '2000', 'Account loan', null, '500000', '5000.00')],
        total: '500000', display_total: '5000.00',
      },
      equity: {
        // Not yet closed: sales 1500.00 - rent 850.00 = 650.00.
        accounts: [earnings('65000', '650.00')],
        total: '65000', display_total: '650.00',
      },
      total_assets: '565000', display_total_assets: '5650.00',
      total_liabilities_and_equity: '565000', display_total_liabilities_and_equity: '5650.00', // 5000.00 + 650.00
      is_balanced: true,
    });
  });

  it('moves the result from current earnings to retained earnings once the closing entry is posted', () => {
    // Closing entry: sales dr 1500.00, rent cr 850.00, retained cr 650.00.
    const closed = totals({ ...LEDGER, sales: [150000n, 150000n], rent: [85000n, 85000n], retained: [0n, 65000n] });
    const sheet = buildBalanceSheet(INPUTS, closed, USD);
    expect(sheet.equity).toEqual({
      accounts: [line('retained', '3100', 'Account retained', null, '65000', '650.00'), earnings('0', '0.00')],
      total: '65000', display_total: '650.00',
    });
    expect(sheet).toMatchObject({ total_assets: '565000', total_liabilities_and_equity: '565000', is_balanced: true });
  });

  it('shows a net loss as negative current earnings and contra equity and liability accounts as negative rows', () => {
    // opening capital    cash dr 1000.00 / retained cr 1000.00
    // drawings           drawings dr 200.00 / cash cr 200.00
    // bond issued        cash dr 95.00, bond-discount dr 5.00 / loan cr 100.00
    // rent               rent dr 300.00 / cash cr 300.00
    // sales              cash dr 100.00 / sales cr 100.00
    // returns            returns dr 40.00 / cash cr 40.00
    // cash: (1000.00 + 95.00 + 100.00) - (200.00 + 300.00 + 40.00) = 1195.00 - 540.00 = 655.00.
    const sheet = buildBalanceSheet(INPUTS, totals({
      cash: [119500n, 54000n], retained: [0n, 100000n], drawings: [20000n, 0n], loan: [0n, 10000n],
      'bond-discount': [500n, 0n], rent: [30000n, 0n], sales: [0n, 10000n], returns: [4000n, 0n],
    }), USD);
    expect(sheet.assets).toEqual({ accounts: [line('cash', '1000', 'Account cash', null, '65500', '655.00')], total: '65500', display_total: '655.00' });
    // loan 100.00, bond discount -5.00 (a debit in the credit-positive section): 95.00.
    expect(sheet.liabilities.accounts.map((row) => [row.account_id, row.balance])).toEqual([['loan', '10000'], ['bond-discount', '-500']]);
    expect(sheet.liabilities.total).toBe('9500');
    // Current earnings: sales 100.00 - returns 40.00 - rent 300.00 = -240.00 (a loss).
    // Equity: retained 1000.00 - drawings 200.00 - 240.00 = 560.00; 95.00 + 560.00 = 655.00.
    expect(sheet.equity).toEqual({
      accounts: [
        line('retained', '3100', 'Account retained', null, '100000', '1000.00'),
        line('drawings', '3200', 'Account drawings', null, '-20000', '-200.00'),
        earnings('-24000', '-240.00'),
      ],
      total: '56000', display_total: '560.00',
    });
    expect(sheet).toMatchObject({ total_assets: '65500', total_liabilities_and_equity: '65500', is_balanced: true });
  });

  it('reports one currency only, exactly at 18 decimals', () => {
    const sheet = buildBalanceSheet(INPUTS, totals(LEDGER), { currency_id: 'eth', as_of_date: null, period_id: 'p-1' });
    expect(sheet).toEqual({
      currency_id: 'eth', as_of_date: null, period_id: 'p-1',
      assets: {
        accounts: [line('wallet', '1100', 'Account wallet', null, '2000000000000000001', '2.000000000000000001')],
        total: '2000000000000000001', display_total: '2.000000000000000001',
      },
      liabilities: { accounts: [], total: '0', display_total: '0.000000000000000000' },
      equity: { accounts: [earnings('2000000000000000001', '2.000000000000000001')], total: '2000000000000000001', display_total: '2.000000000000000001' },
      total_assets: '2000000000000000001', display_total_assets: '2.000000000000000001',
      total_liabilities_and_equity: '2000000000000000001', display_total_liabilities_and_equity: '2.000000000000000001',
      is_balanced: true,
    });
  });

  it('keeps an account whose lines net to zero and leaves out accounts without lines', () => {
    const sheet = buildBalanceSheet(INPUTS, totals({ cash: [500n, 500n], loan: [0n, 0n] }), USD);
    expect(sheet.assets.accounts.map((row) => [row.account_id, row.balance])).toEqual([['cash', '0']]);
    expect(sheet.liabilities.accounts).toEqual([]);
    expect(sheet.equity.accounts).toEqual([earnings('0', '0.00')]);
    expect(sheet.is_balanced).toBe(true);
  });

  it('is not balanced when the totals it is given are inconsistent', () => {
    // cash 100.00 against a loan of 99.00: 100.00 != 99.00 + 0.
    const sheet = buildBalanceSheet(INPUTS, totals({ cash: [10000n, 0n], loan: [0n, 9900n] }), USD);
    expect(sheet).toMatchObject({ total_assets: '10000', total_liabilities_and_equity: '9900', is_balanced: false });
  });
});
