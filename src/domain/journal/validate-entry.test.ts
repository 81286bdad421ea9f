import { describe, expect, it } from 'vitest';
import { LedgerError } from '../errors.js';
import { MAX_AMOUNT } from '../money/amount.js';
import type { Account, Period } from '../types.js';
import { type EntryContext, type LineInput, parseLines, validateEntry } from './validate-entry.js';
import { testAccount } from '../../../test/fixtures/domain.js';

const MAX_TEXT = MAX_AMOUNT.toString();
const ENTRY_DATE = '2026-03-15';

const account = (id: string, overrides: Partial<Account> = {}): Account => testAccount(id, `N-${id}`, overrides);

const openPeriod: Period = {
  id: 'p-2026-03',
  name: 'March 2026',
  start_date: '2026-03-01',
  end_date: '2026-03-31',
  status: 'open',
  closed_at: null,
  closed_by: null,
  closing_entry_id: null,
  created_at: '2026-01-01T00:00:00.000Z',
};

const closedPeriod: Period = {
  ...openPeriod,
  status: 'closed',
  closed_at: '2026-04-02T00:00:00.000Z',
  closed_by: 'user-1',
};

/** The ledger an entry is checked against: cash and revenue in USD plus one account per problem. */
const ACCOUNTS: readonly Account[] = [
  account('cash'),
  account('bank'),
  account('revenue', { account_type: 'revenue', normal_balance: 'credit' }),
  account('dormant', { is_active: false }),
  account('dormant-2', { is_active: false }),
  account('receivables', { has_subledger: true }),
  account('euro-cash', { currency_id: 'eur' }),
  // Inactive and a control account at once, to pin which of the two is reported.
  account('dormant-control', { is_active: false, has_subledger: true }),
  account('euro-control', { currency_id: 'eur', has_subledger: true }),
  account('euro-dormant', { currency_id: 'eur', is_active: false }),
];

/** USD with cents; the euro accounts' currency with no decimals, so a wrong scale would show. */
const CURRENCIES = new Map([['usd', { code: 'USD', asset_scale: 2 }], ['eur', { code: 'EUR', asset_scale: 0 }]]);

function context(overrides: Partial<EntryContext> = {}): EntryContext {
  return { accounts: new Map(ACCOUNTS.map((entry) => [entry.id, entry])), period: openPeriod, currencies: CURRENCIES, ...overrides };
}

const debit = (accountId: string, amount: string): LineInput => ({ account_id: accountId, debit_amount: amount });
const credit = (accountId: string, amount: string): LineInput => ({ account_id: accountId, credit_amount: amount });

/** Parses and validates in the order the posting path does; returns the thrown `LedgerError`. */
function rejectionOf(lines: readonly LineInput[], overrides: Partial<EntryContext> = {}): LedgerError {
  try {
    validateEntry(ENTRY_DATE, parseLines(lines), context(overrides));
  } catch (error) {
    expect(error).toBeInstanceOf(LedgerError);
    return error as LedgerError;
  }
  throw new Error('expected the entry to be rejected, but it was accepted');
}

describe('parseLines', () => {
  it('turns each line into bigint amounts with "0" for the absent side', () => {
    expect(parseLines([
      { account_id: 'cash', debit_amount: '25000', description: 'Till' },
      { account_id: 'revenue', credit_amount: '25000', debit_amount: null },
    ])).toEqual([
      { account_id: 'cash', debit_amount: 25000n, credit_amount: 0n, description: 'Till' },
      { account_id: 'revenue', debit_amount: 0n, credit_amount: 25000n, description: null },
    ]);
  });

  it.each([
    ['no lines', []],
    ['a single line', [debit('cash', '100')]],
    ['lines that are not an array', { 0: debit('cash', '1'), 1: credit('revenue', '1'), length: 2 }],
    ['lines that are a string', 'lines'],
  ])('rejects %s with field "lines"', (_name, lines) => {
    let caught: unknown;
    try {
      parseLines(lines as readonly LineInput[]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LedgerError);
    expect((caught as LedgerError).code).toBe('VALIDATION_ERROR');
    expect((caught as LedgerError).field).toBe('lines');
  });

  it.each<[string, LineInput[], string]>([
    ['a line that is null', [debit('cash', '1'), null as unknown as LineInput], 'lines[1]'],
    ['a line that is a string', ['cash' as unknown as LineInput, credit('revenue', '1')], 'lines[0]'],
    ['a missing account_id', [{ debit_amount: '1' }, credit('revenue', '1')], 'lines[0].account_id'],
    ['an empty account_id', [debit('cash', '1'), { account_id: '', credit_amount: '1' }], 'lines[1].account_id'],
    ['a numeric account_id', [debit('cash', '1'), { account_id: 7, credit_amount: '1' }], 'lines[1].account_id'],
    ['a debit sent as a JSON number', [{ account_id: 'cash', debit_amount: 100 }, credit('revenue', '100')], 'lines[0].debit_amount'],
    ['a credit sent as a JSON number', [debit('cash', '100'), { account_id: 'revenue', credit_amount: 100 }], 'lines[1].credit_amount'],
    ['a negative credit', [debit('cash', '100'), credit('revenue', '-100')], 'lines[1].credit_amount'],
    ['a credit with a decimal point', [debit('cash', '100'), credit('revenue', '1.00')], 'lines[1].credit_amount'],
    ['a debit with an exponent', [debit('cash', '1e2'), credit('revenue', '100')], 'lines[0].debit_amount'],
    ['a debit with a leading zero', [debit('cash', '0100'), credit('revenue', '100')], 'lines[0].debit_amount'],
    ['an empty debit string', [debit('cash', ''), credit('revenue', '100')], 'lines[0].debit_amount'],
    ['a credit above 2^127 - 1', [debit('cash', '1'), credit('revenue', (MAX_AMOUNT + 1n).toString())], 'lines[1].credit_amount'],
    // A malformed amount on the absent side is still malformed, even next to a good positive side.
    ['a bad "0" spelling on the other side', [{ account_id: 'cash', debit_amount: '5', credit_amount: '00' }, credit('revenue', '5')], 'lines[0].credit_amount'],
    ['both sides positive', [debit('cash', '1'), { account_id: 'revenue', debit_amount: '1', credit_amount: '1' }], 'lines[1]'],
    ['neither side given', [{ account_id: 'cash' }, credit('revenue', '1')], 'lines[0]'],
    ['both sides null', [debit('cash', '1'), { account_id: 'revenue', debit_amount: null, credit_amount: null }], 'lines[1]'],
    ['"0" on both sides', [{ account_id: 'cash', debit_amount: '0', credit_amount: '0' }, credit('revenue', '1')], 'lines[0]'],
    ['a lone "0" debit', [debit('cash', '0'), credit('revenue', '1')], 'lines[0]'],
    ['a numeric line description', [debit('cash', '1'), { ...credit('revenue', '1'), description: 5 }], 'lines[1].description'],
  ])('rejects %s with the exact field', (_name, lines, field) => {
    let caught: unknown;
    try {
      parseLines(lines);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LedgerError);
    expect((caught as LedgerError).code).toBe('VALIDATION_ERROR');
    expect((caught as LedgerError).field).toBe(field);
  });

  it.each<[string, LineInput]>([
    ['"0" on the credit side of a debit line', { account_id: 'cash', debit_amount: '100', credit_amount: '0' }],
    ['"0" on the debit side of a credit line', { account_id: 'cash', debit_amount: '0', credit_amount: '100' }],
    ['null on the other side', { account_id: 'cash', debit_amount: '100', credit_amount: null }],
  ])('accepts %s', (_name, line) => {
    const [parsed] = parseLines([line, credit('revenue', '100')]);
    expect(parsed!.debit_amount + parsed!.credit_amount).toBe(100n);
    expect(parsed!.debit_amount === 0n || parsed!.credit_amount === 0n).toBe(true);
  });

  it('reports the first bad line when several are bad', () => {
    let caught: unknown;
    try {
      parseLines([debit('cash', '1'), credit('revenue', '-1'), { account_id: 'bank' }]);
    } catch (error) {
      caught = error;
    }
    expect((caught as LedgerError).field).toBe('lines[1].credit_amount');
  });

  it('checks the amount format of a line before whether it has both or neither side', () => {
    let caught: unknown;
    try {
      parseLines([{ account_id: 'cash', debit_amount: '1', credit_amount: '-1' }, credit('revenue', '1')]);
    } catch (error) {
      caught = error;
    }
    expect((caught as LedgerError).field).toBe('lines[0].credit_amount');
  });
});

describe('validateEntry', () => {
  it('accepts a balanced entry and reports its period, currency and total', () => {
    const lines = parseLines([debit('cash', '15000'), debit('bank', '10000'), credit('revenue', '25000')]);
    const result = validateEntry(ENTRY_DATE, lines, context());
    expect(result).toEqual({ period: openPeriod, currency_id: 'usd', lines, total: 25000n });
  });

  it.each<[string, LineInput[], string, string]>([
    ['rejects an entry naming an account that does not exist',
      [debit('cash', '1'), credit('ghost', '1')], 'VALIDATION_ERROR', 'lines[1].account_id'],
    ['rejects an entry with a line on an inactive account',
      [debit('cash', '1'), credit('dormant', '1')], 'INACTIVE_ACCOUNT', 'lines[1].account_id'],
    ['rejects an entry posting directly to a control account',
      [debit('receivables', '1'), credit('revenue', '1')], 'CONTROL_ACCOUNT', 'lines[0].account_id'],
    ['rejects an entry whose lines are in two currencies',
      [debit('cash', '1'), debit('bank', '1'), credit('euro-cash', '2')], 'CURRENCY_MISMATCH', 'lines[2].account_id'],
    ['rejects an entry whose debits and credits differ',
      [debit('cash', '100'), credit('revenue', '99')], 'UNBALANCED_ENTRY', 'lines'],
    ['rejects an entry whose debits and credits differ by one unit at the top of the range',
      [debit('cash', MAX_TEXT), credit('revenue', (MAX_AMOUNT - 1n).toString())], 'UNBALANCED_ENTRY', 'lines'],
  ])('%s', (_name, lines, code, field) => {
    const error = rejectionOf(lines);
    expect(error.code).toBe(code);
    expect(error.field).toBe(field);
  });

  it('lets a closing entry, and only a closing entry, post to an inactive account', () => {
    const lines = parseLines([debit('dormant', '7'), credit('revenue', '7')]);
    expect(validateEntry(ENTRY_DATE, lines, context({ allowInactiveAccounts: true })).total).toBe(7n);
    expect(rejectionOf([debit('dormant', '7'), credit('revenue', '7')], { allowInactiveAccounts: false }).code).toBe('INACTIVE_ACCOUNT');
  });

  it.each<[string, Period | undefined, string]>([
    ['no period contains the date', undefined, `No period contains ${ENTRY_DATE}`],
    ['the period containing the date is closed', closedPeriod, `Period March 2026 containing ${ENTRY_DATE} is closed`],
  ])('rejects a balanced entry with NO_OPEN_PERIOD when %s', (_name, period, message) => {
    const error = rejectionOf([debit('cash', '1'), credit('revenue', '1')], { period });
    expect(error.code).toBe('NO_OPEN_PERIOD');
    expect(error.field).toBe('entry_date');
    expect(error.message).toBe(message);
  });

  describe('when an entry breaks several rules, reports the first in the documented order', () => {
    it.each<[string, LineInput[], EntryContext['period'], string, string]>([
      ['a line-shape error on a later line beats an unknown account on an earlier line',
        [debit('ghost', '1'), { account_id: 'revenue' }], openPeriod, 'VALIDATION_ERROR', 'lines[1]'],
      ['an unknown account beats an inactive account on an earlier line',
        [debit('dormant', '1'), credit('ghost', '1')], openPeriod, 'VALIDATION_ERROR', 'lines[1].account_id'],
      ['an inactive account beats a control account on an earlier line',
        [debit('receivables', '1'), credit('dormant', '1')], openPeriod, 'INACTIVE_ACCOUNT', 'lines[1].account_id'],
      ['an account that is inactive and a control account reports INACTIVE_ACCOUNT',
        [debit('dormant-control', '1'), credit('revenue', '1')], openPeriod, 'INACTIVE_ACCOUNT', 'lines[0].account_id'],
      ['the first of two inactive accounts is named',
        [debit('cash', '2'), credit('dormant-2', '1'), credit('dormant', '1')], openPeriod, 'INACTIVE_ACCOUNT', 'lines[1].account_id'],
      ['an inactive account beats a currency mismatch',
        [debit('cash', '1'), credit('euro-dormant', '1')], openPeriod, 'INACTIVE_ACCOUNT', 'lines[1].account_id'],
      ['a control account beats a currency mismatch',
        [debit('cash', '1'), credit('euro-control', '1')], openPeriod, 'CONTROL_ACCOUNT', 'lines[1].account_id'],
      ['an unbalanced entry with an inactive account reports INACTIVE_ACCOUNT',
        [debit('cash', '100'), credit('dormant', '1')], openPeriod, 'INACTIVE_ACCOUNT', 'lines[1].account_id'],
      ['an unbalanced entry with a control account reports CONTROL_ACCOUNT',
        [debit('receivables', '100'), credit('revenue', '1')], openPeriod, 'CONTROL_ACCOUNT', 'lines[0].account_id'],
      ['an unbalanced entry in two currencies reports CURRENCY_MISMATCH',
        [debit('cash', '100'), credit('euro-cash', '1')], openPeriod, 'CURRENCY_MISMATCH', 'lines[1].account_id'],
      ['an unbalanced entry outside every period reports UNBALANCED_ENTRY',
        [debit('cash', '100'), credit('revenue', '1')], undefined, 'UNBALANCED_ENTRY', 'lines'],
      ['an unbalanced entry in a closed period reports UNBALANCED_ENTRY',
        [debit('cash', '100'), credit('revenue', '1')], closedPeriod, 'UNBALANCED_ENTRY', 'lines'],
      ['an inactive account outside every period reports INACTIVE_ACCOUNT',
        [debit('cash', '1'), credit('dormant', '1')], undefined, 'INACTIVE_ACCOUNT', 'lines[1].account_id'],
      ['a currency mismatch in a closed period reports CURRENCY_MISMATCH',
        [debit('cash', '1'), credit('euro-cash', '1')], closedPeriod, 'CURRENCY_MISMATCH', 'lines[1].account_id'],
      ['an unknown account outside every period reports the unknown account',
        [debit('cash', '1'), credit('ghost', '1')], undefined, 'VALIDATION_ERROR', 'lines[1].account_id'],
      ['a total above 2^127 - 1 outside every period reports the total',
        [debit('cash', MAX_TEXT), debit('bank', '1'), credit('revenue', MAX_TEXT), credit('revenue', '1')],
        undefined, 'VALIDATION_ERROR', 'lines'],
    ])('%s', (_name, lines, period, code, field) => {
      const error = rejectionOf(lines, { period });
      expect(error.code).toBe(code);
      expect(error.field).toBe(field);
    });

    it('reports the first line in a currency other than the first line\'s', () => {
      const error = rejectionOf([debit('euro-cash', '2'), credit('cash', '1'), credit('bank', '1')]);
      expect(error.code).toBe('CURRENCY_MISMATCH');
      expect(error.field).toBe('lines[1].account_id');
    });
  });

  describe('entry totals near the 128-bit limit', () => {
    it.each<[string, LineInput[], bigint]>([
      ['one line of 2^127 - 1 each side', [debit('cash', MAX_TEXT), credit('revenue', MAX_TEXT)], MAX_AMOUNT],
      ['2^127 - 1 split over two debit lines',
        [debit('cash', (MAX_AMOUNT - 1n).toString()), debit('bank', '1'), credit('revenue', MAX_TEXT)], MAX_AMOUNT],
      ['2^127 - 1 split over two lines on both sides',
        [debit('cash', (MAX_AMOUNT - 7n).toString()), debit('bank', '7'),
          credit('revenue', '3'), credit('revenue', (MAX_AMOUNT - 3n).toString())], MAX_AMOUNT],
    ])('accepts a total of exactly 2^127 - 1 from %s', (_name, lines, total) => {
      expect(validateEntry(ENTRY_DATE, parseLines(lines), context()).total).toBe(total);
    });

    it.each<[string, LineInput[]]>([
      ['2^127 - 1 plus one', [debit('cash', MAX_TEXT), debit('bank', '1'), credit('revenue', MAX_TEXT), credit('revenue', '1')]],
      ['twice 2^127 - 1', [debit('cash', MAX_TEXT), debit('bank', MAX_TEXT), credit('revenue', MAX_TEXT), credit('revenue', MAX_TEXT)]],
      ['three lines of 2^126 each side',
        [debit('cash', (1n << 126n).toString()), debit('cash', (1n << 126n).toString()), debit('bank', (1n << 126n).toString()),
          credit('revenue', (1n << 126n).toString()), credit('revenue', (1n << 126n).toString()), credit('revenue', (1n << 126n).toString())]],
    ])('rejects a balanced entry whose total is %s', (_name, lines) => {
      const error = rejectionOf(lines);
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.field).toBe('lines');
      expect(error.message).toMatch(/^The entry total \d+\.\d\d USD exceeds the largest amount, 1701411834604692317316873037158841057\.27 USD \(2\^127 - 1 minor units\)$/);
    });
  });

  describe('names amounts as people write them', () => {
    it.each<[string, LineInput[], string, string]>([
      ['debits above credits, in dollars and cents', [debit('cash', '9240'), credit('revenue', '9204')],
        'Debits 92.40 USD differ from credits 92.04 USD',
        'Adjust the lines so both sides total the same: the debits are 0.36 USD more (36 in the minor units of debit_amount and credit_amount)'],
      ['credits above debits, a fraction of a cent apart', [debit('cash', '5'), credit('revenue', '7')],
        'Debits 0.05 USD differ from credits 0.07 USD',
        'Adjust the lines so both sides total the same: the credits are 0.02 USD more (2 in the minor units of debit_amount and credit_amount)'],
      ['a currency without decimals at its own scale', [debit('euro-cash', '300'), credit('euro-cash', '299')],
        'Debits 300 EUR differ from credits 299 EUR',
        'Adjust the lines so both sides total the same: the debits are 1 EUR more (1 in the minor units of debit_amount and credit_amount)'],
    ])('in an unbalanced entry: %s', (_name, lines, message, suggestion) => {
      const error = rejectionOf(lines);
      expect([error.code, error.message, error.suggestion]).toEqual(['UNBALANCED_ENTRY', message, suggestion]);
    });

    it('names a currency it was not told about by its id, in minor units', () => {
      const error = rejectionOf([debit('cash', '9240'), credit('revenue', '9204')], { currencies: new Map() });
      expect(error.message).toBe('Debits 9240 usd differ from credits 9204 usd');
    });
  });
});
