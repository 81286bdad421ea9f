import { describe, expect, it } from 'vitest';
import { LedgerError } from '../errors.js';
import { asAmount } from '../money/amount.js';
import type { JournalEntry } from '../types.js';
import { assertReversible, buildReversal } from './reversal.js';
import { parseLines } from './validate-entry.js';

function postedEntry(overrides: Partial<JournalEntry> = {}): JournalEntry {
  return {
    id: 'entry-1',
    entry_date: '2026-03-15',
    description: 'Invoice 42',
    reference: 'INV-42',
    metadata: { customer: 'ACME', tags: ['q1'] },
    period_id: 'p-2026-03',
    entry_type: 'standard',
    reverses_id: null,
    reversed_by_id: null,
    created_by: 'user-1',
    posted_at: '2026-03-15T10:00:00.000Z',
    currency_id: 'usd',
    override_reason: null,
    hash_version: 2,
    credential_type: null,
    credential_id: null,
    request_id: null,
    lines: [
      { id: 'line-1', account_id: 'receivable', debit_amount: asAmount(11900n), credit_amount: asAmount(0n), description: 'Gross' },
      { id: 'line-2', account_id: 'revenue', debit_amount: asAmount(0n), credit_amount: asAmount(10000n), description: null },
      { id: 'line-3', account_id: 'vat', debit_amount: asAmount(0n), credit_amount: asAmount(1900n), description: 'VAT 19%' },
    ],
    ...overrides,
  };
}

describe('buildReversal', () => {
  it('swaps every debit and credit and keeps accounts, order and line descriptions', () => {
    expect(buildReversal(postedEntry(), undefined).lines).toEqual([
      { account_id: 'receivable', debit_amount: '0', credit_amount: '11900', description: 'Gross' },
      { account_id: 'revenue', debit_amount: '10000', credit_amount: '0', description: null },
      { account_id: 'vat', debit_amount: '1900', credit_amount: '0', description: 'VAT 19%' },
    ]);
  });

  it('produces lines that pass the line checks of the posting path', () => {
    expect(parseLines(buildReversal(postedEntry(), undefined).lines).map((line) => [line.debit_amount, line.credit_amount]))
      .toEqual([[0n, 11900n], [10000n, 0n], [1900n, 0n]]);
  });

  it('swaps amounts at the top of the 128-bit range without loss', () => {
    const max = asAmount((1n << 127n) - 1n);
    const entry = postedEntry({
      lines: [
        { id: 'a', account_id: 'cash', debit_amount: max, credit_amount: asAmount(0n), description: null },
        { id: 'b', account_id: 'revenue', debit_amount: asAmount(0n), credit_amount: max, description: null },
      ],
    });
    expect(buildReversal(entry, undefined).lines.map((line) => [line.debit_amount, line.credit_amount])).toEqual([
      ['0', '170141183460469231731687303715884105727'],
      ['170141183460469231731687303715884105727', '0'],
    ]);
  });

  it.each([
    ['Invoice 42', 'Reversal of: Invoice 42'],
    ['', 'Reversal of: '],
    ['Reversal of: Invoice 42', 'Reversal of: Reversal of: Invoice 42'],
  ])('describes the reversal of %j as %j', (description, expected) => {
    expect(buildReversal(postedEntry({ description }), undefined).description).toBe(expected);
  });

  it.each<[string, string | null, Record<string, unknown> | null]>([
    ['a reference and metadata', 'INV-42', { customer: 'ACME', tags: ['q1'] }],
    ['no reference and no metadata', null, null],
  ])('copies %s from the original', (_name, reference, metadata) => {
    const reversal = buildReversal(postedEntry({ reference, metadata }), undefined);
    expect(reversal.reference).toBe(reference);
    expect(reversal.metadata).toEqual(metadata);
  });

  it.each<[string, string | undefined, string]>([
    ['defaults to the original entry date', undefined, '2026-03-15'],
    ['uses the given date', '2026-04-01', '2026-04-01'],
  ])('%s', (_name, entryDate, expected) => {
    expect(buildReversal(postedEntry(), entryDate).entry_date).toBe(expected);
  });

  it('refuses to build a reversal of an entry that cannot be reversed', () => {
    let caught: unknown;
    try {
      buildReversal(postedEntry({ entry_type: 'reversal', reverses_id: 'entry-0' }), undefined);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LedgerError);
    expect((caught as LedgerError).code).toBe('REVERSAL_NOT_ALLOWED');
  });
});

describe('assertReversible', () => {
  it('allows a standard entry that was never reversed', () => {
    expect(() => assertReversible(postedEntry())).not.toThrow();
  });

  it.each<[string, Partial<JournalEntry>, string]>([
    ['a reversal entry', { entry_type: 'reversal', reverses_id: 'entry-0' },
      'A reversal entry cannot be reversed'],
    ['a closing entry', { entry_type: 'closing' },
      'A closing entry cannot be reversed; period close is permanent'],
    ['an entry that was already reversed', { reversed_by_id: 'entry-2' },
      'Entry entry-1 was already reversed by entry-2'],
    // An already-reversed reversal is still reported as a reversal: the entry type is checked first.
    ['a reversal entry that was itself reversed', { entry_type: 'reversal', reversed_by_id: 'entry-3' },
      'A reversal entry cannot be reversed'],
  ])('rejects %s with REVERSAL_NOT_ALLOWED', (_name, overrides, message) => {
    let caught: unknown;
    try {
      assertReversible(postedEntry(overrides));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LedgerError);
    const error = caught as LedgerError;
    expect(error.code).toBe('REVERSAL_NOT_ALLOWED');
    expect(error.message).toBe(message);
    expect(error.field).toBeUndefined();
  });
});
