import { describe, expect, it } from 'vitest';
import { parseLines } from '../journal/validate-entry.js';
import { asAmount } from '../money/amount.js';
import type { Account, Period, Totals } from '../types.js';
import { assertRetainedEarningsAccount, computeClosingEntries, computeClosingEntry } from './closing-entry.js';
import { testAccount as account, thrownBy } from '../../../test/fixtures/domain.js';

const revenue = { account_type: 'revenue', normal_balance: 'credit' } as const;
const expense = { account_type: 'expense', normal_balance: 'debit' } as const;

/**
 * A chart of accounts with every shape the close has to handle: plain revenue and expense accounts,
 * a revenue control account with two sub-accounts, contra accounts on both sides (sales returns are
 * revenue with a debit normal balance, purchase rebates are an expense with a credit normal
 * balance), an account in another currency and one in an 18-decimal currency.
 */
const CHART: readonly Account[] = [
  account('cash', '1000'),
  account('loan', '2000', { account_type: 'liability', normal_balance: 'credit' }),
  account('retained', '3100', { account_type: 'equity', normal_balance: 'credit' }),
  account('sales', '4000', revenue),
  account('services', '4100', { ...revenue, has_subledger: true }),
  account('services-acme', '4100-01', { ...revenue, parent_id: 'services', entity_id: 'acme' }),
  account('services-globex', '4100-02', { ...revenue, parent_id: 'services', entity_id: 'globex' }),
  account('euro-sales', '4500', { ...revenue, currency_id: 'eur' }),
  account('returns', '4900', { account_type: 'revenue', normal_balance: 'debit' }),
  account('rent', '6000', expense),
  account('wages', '6100', expense),
  account('rebates', '6900', { account_type: 'expense', normal_balance: 'credit' }),
];
const ACCOUNTS = new Map(CHART.map((a) => [a.id, a]));
const RETAINED = ACCOUNTS.get('retained')!;

/** The same chart in an 18-decimal currency ("wei"), for exact arithmetic on large amounts. */
const WEI_CHART: readonly Account[] = [
  account('wei-retained', '3100', { account_type: 'equity', normal_balance: 'credit', currency_id: 'eth' }),
  account('wei-fees', '4000', { ...revenue, currency_id: 'eth' }),
  account('wei-gas', '6000', { ...expense, currency_id: 'eth' }),
];
const WEI_ACCOUNTS = new Map(WEI_CHART.map((a) => [a.id, a]));

const PERIOD: Period = {
  id: 'p-2026-q1',
  name: 'Q1 2026',
  start_date: '2026-01-01',
  end_date: '2026-03-31',
  status: 'open',
  closed_at: null,
  closed_by: null,
  closing_entry_id: null,
  created_at: '2026-01-01T00:00:00.000Z',
};

/** Gross totals per account id: [debits, credits]. */
function totals(rows: Record<string, [bigint, bigint]>): Map<string, Totals> {
  return new Map(Object.entries(rows).map(([id, [debit, credit]]) =>
    [id, { debit_total: asAmount(debit), credit_total: asAmount(credit) }]));
}

const dr = (account_id: string, amount: string, description: string) => ({ account_id, debit_amount: amount, description });
const cr = (account_id: string, amount: string, description: string) => ({ account_id, credit_amount: amount, description });
const CLOSE = 'Close to retained earnings';
const INCOME = 'Net income for the period';
const LOSS = 'Net loss for the period';


interface ClosingCase {
  name: string;
  totals: Record<string, [bigint, bigint]>;
  lines: object[];
}

describe('computeClosingEntry', () => {
  it.each<ClosingCase>([
    {
      name: 'a net income: revenue debited, expenses credited, the difference credited to retained earnings',
      // sales net credit 1000.00; rent net debit 300.00; income = 1000.00 - 300.00 = 700.00 (credit RE).
      totals: { cash: [100000n, 30000n], sales: [0n, 100000n], rent: [30000n, 0n] },
      lines: [dr('sales', '100000', CLOSE), cr('rent', '30000', CLOSE), cr('retained', '70000', INCOME)],
    },
    {
      name: 'a net loss: the difference debited to retained earnings',
      // sales net credit 200.00; rent net debit 500.00; loss = 500.00 - 200.00 = 300.00 (debit RE).
      totals: { cash: [20000n, 50000n], sales: [0n, 20000n], rent: [50000n, 0n] },
      lines: [dr('sales', '20000', CLOSE), cr('rent', '50000', CLOSE), dr('retained', '30000', LOSS)],
    },
    {
      name: 'revenue and expenses that cancel out exactly: no retained earnings line',
      // sales 400.00 credit, rent 400.00 debit: net difference 0, so only the two closing lines.
      totals: { sales: [0n, 40000n], rent: [40000n, 0n] },
      lines: [dr('sales', '40000', CLOSE), cr('rent', '40000', CLOSE)],
    },
    {
      name: 'gross totals on both sides: only the net of each account is closed',
      // sales: credits 1200.00 - debits 200.00 (a refund) = net credit 1000.00;
      // rent: debits 450.00 - credits 50.00 = net debit 400.00; income = 1000.00 - 400.00 = 600.00.
      totals: { sales: [20000n, 120000n], rent: [45000n, 5000n] },
      lines: [dr('sales', '100000', CLOSE), cr('rent', '40000', CLOSE), cr('retained', '60000', INCOME)],
    },
    {
      name: 'zero-net accounts (an entry and its reversal) are skipped',
      // wages: 250.00 debit and 250.00 credit, net 0: no line. sales net credit 50.00.
      totals: { sales: [0n, 5000n], wages: [25000n, 25000n], cash: [5000n, 0n] },
      lines: [dr('sales', '5000', CLOSE), cr('retained', '5000', INCOME)],
    },
    {
      name: 'sub-accounts of a revenue control account, each closed on its own line',
      // acme net credit 150.00; globex credits 250.00 - debits 50.00 = net credit 200.00;
      // income = 150.00 + 200.00 = 350.00. The control account 4100 itself never posts.
      totals: { 'services-acme': [0n, 15000n], 'services-globex': [5000n, 25000n] },
      lines: [dr('services-acme', '15000', CLOSE), dr('services-globex', '20000', CLOSE), cr('retained', '35000', INCOME)],
    },
    {
      name: 'contra accounts: sales returns credited, purchase rebates debited',
      // sales net credit 1000.00, returns (debit-normal revenue) net debit 80.00,
      // rent net debit 300.00, rebates (credit-normal expense) net credit 20.00.
      // net debits = -1000.00 + 80.00 + 300.00 - 20.00 = -640.00, i.e. income 640.00 (credit RE).
      totals: { sales: [0n, 100000n], returns: [8000n, 0n], rent: [30000n, 0n], rebates: [0n, 2000n] },
      lines: [
        dr('sales', '100000', CLOSE), cr('returns', '8000', CLOSE), cr('rent', '30000', CLOSE), dr('rebates', '2000', CLOSE),
        cr('retained', '64000', INCOME),
      ],
    },
    {
      name: 'only expenses: the whole amount is a loss',
      // rent 120.00 + wages 80.00 = 200.00 debit; loss 200.00.
      totals: { rent: [12000n, 0n], wages: [8000n, 0n] },
      lines: [cr('rent', '12000', CLOSE), cr('wages', '8000', CLOSE), dr('retained', '20000', LOSS)],
    },
    {
      name: 'an account in another currency whose net is zero does not block the close',
      // euro-sales: 90.00 credit and 90.00 debit, net 0, skipped before the currency is checked.
      totals: { 'euro-sales': [9000n, 9000n], sales: [0n, 100n] },
      lines: [dr('sales', '100', CLOSE), cr('retained', '100', INCOME)],
    },
  ])('closes $name', ({ totals: rows, lines }) => {
    const draft = computeClosingEntry(PERIOD, totals(rows), ACCOUNTS, RETAINED);
    expect(draft).toEqual({ entry_date: '2026-03-31', description: 'Closing entry for Q1 2026', lines });
  });

  it('orders the lines by account number whatever order the totals come in, retained earnings last', () => {
    const shuffled = totals({ rebates: [0n, 1n], rent: [2n, 0n], 'services-globex': [0n, 4n], sales: [0n, 8n] });
    const draft = computeClosingEntry(PERIOD, shuffled, ACCOUNTS, RETAINED)!;
    // net debits = -1 + 2 - 4 - 8 = -11: income 11.
    expect(draft.lines.map((line) => line.account_id)).toEqual(['sales', 'services-globex', 'rent', 'rebates', 'retained']);
    expect(draft.lines.at(-1)).toEqual(cr('retained', '11', INCOME));
  });

  it('is exact on 18-decimal amounts', () => {
    // fees: 1.5 ETH credited and 0.000000000000000001 ETH debited (one wei refund):
    //   net credit 1_500000000000000000 - 1 = 1_499999999999999999 wei.
    // gas: 0.25 ETH debited = 250000000000000000 wei.
    // income = 1499999999999999999 - 250000000000000000 = 1249999999999999999 wei.
    const draft = computeClosingEntry(PERIOD, totals({
      'wei-fees': [1n, 1_500000000000000000n],
      'wei-gas': [250000000000000000n, 0n],
    }), WEI_ACCOUNTS, WEI_ACCOUNTS.get('wei-retained')!);
    expect(draft!.lines).toEqual([
      dr('wei-fees', '1499999999999999999', CLOSE),
      cr('wei-gas', '250000000000000000', CLOSE),
      cr('wei-retained', '1249999999999999999', INCOME),
    ]);
  });

  it('is exact near the top of the 128-bit range', () => {
    // fees credited 2^126 = 85070591730234615865843651857942052864; gas debited 1:
    // income = 85070591730234615865843651857942052863.
    const draft = computeClosingEntry(PERIOD, totals({ 'wei-fees': [0n, 1n << 126n], 'wei-gas': [1n, 0n] }),
      WEI_ACCOUNTS, WEI_ACCOUNTS.get('wei-retained')!);
    expect(draft!.lines).toEqual([
      dr('wei-fees', '85070591730234615865843651857942052864', CLOSE),
      cr('wei-gas', '1', CLOSE),
      cr('wei-retained', '85070591730234615865843651857942052863', INCOME),
    ]);
  });

  it.each([
    ['no totals at all', {}],
    ['only balance-sheet accounts moved', { cash: [50000n, 0n], loan: [0n, 50000n] }],
    ['every revenue and expense account nets to zero', { sales: [700n, 700n], rent: [300n, 300n], 'services-acme': [1n, 1n] }],
  ] satisfies [string, Record<string, [bigint, bigint]>][])('returns null when %s', (_case, rows) => {
    expect(computeClosingEntry(PERIOD, totals(rows), ACCOUNTS, RETAINED)).toBeNull();
  });

  it('produces a balanced entry that passes the line checks of the posting path', () => {
    const draft = computeClosingEntry(PERIOD, totals({
      sales: [20000n, 120000n], returns: [8000n, 0n], 'services-acme': [0n, 15000n], rent: [45000n, 5000n], rebates: [0n, 2000n],
    }), ACCOUNTS, RETAINED)!;
    const parsed = parseLines(draft.lines);
    const debits = parsed.reduce((sum, line) => sum + line.debit_amount, 0n);
    const credits = parsed.reduce((sum, line) => sum + line.credit_amount, 0n);
    // sales dr 1000.00 + acme dr 150.00 + rebates dr 20.00 = 1170.00;
    // returns cr 80.00 + rent cr 400.00 + retained cr (1170.00 - 480.00 = 690.00) = 1170.00.
    expect({ debits, credits }).toEqual({ debits: 117000n, credits: 117000n });
    expect(draft.lines.at(-1)).toEqual(cr('retained', '69000', INCOME));
  });

  it('leaves accounts in other currencies to their own closing entry', () => {
    const draft = computeClosingEntry(PERIOD, totals({ sales: [0n, 100n], 'euro-sales': [0n, 500n] }), ACCOUNTS, RETAINED)!;
    expect(draft.lines).toEqual([dr('sales', '100', CLOSE), cr('retained', '100', INCOME)]);
    expect(computeClosingEntry(PERIOD, totals({ 'euro-sales': [0n, 500n] }), ACCOUNTS, RETAINED)).toBeNull();
  });
});

describe('computeClosingEntries', () => {
  const EURO_RETAINED = account('euro-retained', '3150', { account_type: 'equity', normal_balance: 'credit', currency_id: 'eur' });
  const euroOnly = (currencyId: string) => (currencyId === 'eur' ? EURO_RETAINED : undefined);

  it('posts one entry per currency, the default currency first, each into its own retained earnings account', () => {
    // USD: sales cr 1.00, rent dr 0.40 -> income 0.60; EUR: euro sales cr 5.00 -> income 5.00.
    const entries = computeClosingEntries(PERIOD, totals({ sales: [0n, 100n], rent: [40n, 0n], 'euro-sales': [0n, 500n] }),
      ACCOUNTS, RETAINED, euroOnly);
    expect(entries.map(({ currency_id, draft }) => [currency_id, draft.lines])).toEqual([
      ['usd', [dr('sales', '100', CLOSE), cr('rent', '40', CLOSE), cr('retained', '60', INCOME)]],
      ['eur', [dr('euro-sales', '500', CLOSE), cr('euro-retained', '500', INCOME)]],
    ]);
  });

  it('closes only the currency that moved when the default currency has no activity', () => {
    const entries = computeClosingEntries(PERIOD, totals({ 'euro-sales': [0n, 500n] }), ACCOUNTS, RETAINED, euroOnly);
    expect(entries.map(({ currency_id }) => currency_id)).toEqual(['eur']);
  });

  it('refuses with CURRENCY_MISMATCH naming the currency when it has no retained earnings account', () => {
    const error = thrownBy(() => computeClosingEntries(PERIOD, totals({ sales: [0n, 100n], 'euro-sales': [0n, 500n] }),
      ACCOUNTS, RETAINED, () => undefined, (id) => id.toUpperCase()));
    expect(error.code).toBe('CURRENCY_MISMATCH');
    expect(error.field).toBe('retained_earnings_account_ids');
    expect(error.message).toContain('4500');
    expect(error.message).toContain('EUR');
    expect(error.suggestion).toContain('retained_earnings_account_ids');
  });

  it('does not ask for a retained earnings account where the other currency nets to zero', () => {
    const entries = computeClosingEntries(PERIOD, totals({ sales: [0n, 100n], 'euro-sales': [500n, 500n] }), ACCOUNTS, RETAINED, () => undefined);
    expect(entries.map(({ currency_id }) => currency_id)).toEqual(['usd']);
  });
});

describe('assertRetainedEarningsAccount', () => {
  it('refuses with RETAINED_EARNINGS_NOT_SET when no account is configured', () => {
    const error = thrownBy(() => assertRetainedEarningsAccount(undefined, undefined));
    expect(error.code).toBe('RETAINED_EARNINGS_NOT_SET');
    expect(error.suggestion).toContain('retained_earnings_account_id');
  });

  it('returns the configured account when it is an active equity account without sub-accounts', () => {
    expect(assertRetainedEarningsAccount(RETAINED, 'retained')).toBe(RETAINED);
  });

  it.each([
    ['no longer exists', undefined],
    ['is not an equity account', account('sales', '4000', revenue)],
    ['is inactive', { ...RETAINED, is_active: false }],
    ['is a control account', { ...RETAINED, has_subledger: true }],
  ])('refuses with VALIDATION_ERROR on retained_earnings_account_id when the configured account %s', (_case, configured) => {
    const error = thrownBy(() => assertRetainedEarningsAccount(configured, 'retained'));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.field).toBe('retained_earnings_account_id');
  });
});
