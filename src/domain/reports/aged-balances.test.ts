import { describe, expect, it } from 'vitest';
import { testAccount as account } from '../../../test/fixtures/domain.js';
import {
  ageInDays, ageOpenAmount, type BucketAmounts, bucketOf, buildAgedBalances, type DatedAmount, dueDateOf, OpenAmountAging, sideOfBalance,
  zeroBuckets,
} from './aged-balances.js';

const AS_OF = '2026-06-30';
const moved = (entry_date: string, amount: bigint): DatedAmount => ({ entry_date, amount });
const buckets = (values: Partial<BucketAmounts>): BucketAmounts => ({ ...zeroBuckets(), ...values });

describe('ageInDays and bucketOf', () => {
  it.each([
    ['2026-06-30', 0, 'current'],
    ['2026-06-29', 1, 'days_1_30'],
    ['2026-05-31', 30, 'days_1_30'],
    ['2026-05-30', 31, 'days_31_60'],
    ['2026-05-01', 60, 'days_31_60'],
    ['2026-04-30', 61, 'days_61_90'],
    ['2026-04-01', 90, 'days_61_90'],
    ['2026-03-31', 91, 'days_over_90'],
    ['2025-06-30', 365, 'days_over_90'],
  ])('an item dated %s is %i days old on 2026-06-30: %s', (date, days, bucket) => {
    expect(ageInDays(date, AS_OF)).toBe(days);
    expect(bucketOf(days)).toBe(bucket);
  });

  it('counts calendar days, a leap day too', () => {
    expect(ageInDays('2028-02-28', '2028-03-01')).toBe(2);
    expect(ageInDays('2027-02-28', '2027-03-01')).toBe(1);
  });
});

describe('ageOpenAmount (first in, first out)', () => {
  it('takes the newest movements until they cover the open amount, the oldest of them only in part', () => {
    // Invoices of 100 (120 days old), 200 (45 days), 50 (today); 180 paid: 170 are open.
    // FIFO: the payment settles the 100 and 80 of the 200, leaving 120 of it and the 50.
    const newestFirst = [moved('2026-06-30', 50n), moved('2026-05-16', 200n), moved('2026-03-02', 100n)];
    expect(ageOpenAmount(170n, newestFirst, AS_OF, 0)).toEqual(buckets({ current: 50n, days_31_60: 120n }));
  });

  it('reads no further than it needs', () => {
    function* movements(): Generator<DatedAmount> {
      yield moved('2026-06-01', 10n);
      throw new Error('read past the open amount');
    }
    expect(ageOpenAmount(10n, movements(), AS_OF, 0)).toEqual(buckets({ days_1_30: 10n }));
  });

  it('is exact far beyond a double\'s precision', () => {
    const huge = (1n << 126n) + 7n;
    expect(ageOpenAmount(huge - 1n, [moved('2026-01-01', huge)], AS_OF, 0)).toEqual(buckets({ days_over_90: huge - 1n }));
  });

  it('throws when the movements do not cover the open amount (totals and lines disagree)', () => {
    expect(() => ageOpenAmount(100n, [moved('2026-06-01', 60n)], AS_OF)).toThrow(/40 missing/);
  });

  it('ages page by page as the movements arrive, the same as all at once', () => {
    const newestFirst = [moved('2026-06-30', 50n), moved('2026-05-16', 200n), moved('2026-03-02', 100n), moved('2026-01-02', 900n)];
    const aging = new OpenAmountAging(300n, AS_OF, 0);
    expect(aging.take(newestFirst.slice(0, 1))).toBe(false);
    expect(() => aging.buckets()).toThrow(/250 missing/);
    expect(aging.take(newestFirst.slice(1, 3))).toBe(true);
    expect(aging.take(newestFirst.slice(3))).toBe(true);
    expect(aging.buckets()).toEqual(ageOpenAmount(300n, newestFirst, AS_OF, 0));
    expect(aging.buckets()).toEqual(buckets({ current: 50n, days_31_60: 200n, days_over_90: 50n }));
  });
});

describe('days past due (terms and stated due dates)', () => {
  it.each([
    [{ entry_date: '2026-06-25', amount: 1n }, 30, '2026-07-25'],
    [{ entry_date: '2026-06-25', amount: 1n }, 0, '2026-06-25'],
    [{ entry_date: '2026-01-31', amount: 1n }, 30, '2026-03-02'],
    [{ entry_date: '2026-03-01', amount: 1n, due_date: '2026-06-29' }, 30, '2026-06-29'],
    [{ entry_date: '2026-03-01', amount: 1n, due_date: '2026-02-30' }, 10, '2026-03-11'],
    [{ entry_date: '2026-03-01', amount: 1n, due_date: 20260629 }, 10, '2026-03-11'],
    [{ entry_date: '2026-03-01', amount: 1n, due_date: null }, 10, '2026-03-11'],
  ] as [DatedAmount, number, string][])('case %# (terms %i days) falls due on %s', (movement, terms, due) => {
    expect(dueDateOf(movement, terms)).toBe(due);
  });

  it('is current until due and ages by the days past due after', () => {
    // Net 30 as of 06-30: an invoice of 06-01 is due 07-01 (current), one of 05-20 is 11 days past due.
    expect(ageOpenAmount(30n, [moved('2026-06-01', 10n), moved('2026-05-20', 20n)], AS_OF)).toEqual(buckets({ current: 10n, days_1_30: 20n }));
    expect(ageOpenAmount(10n, [{ entry_date: '2025-01-01', amount: 10n, due_date: '2026-07-15' }], AS_OF)).toEqual(buckets({ current: 10n }));
  });
});

describe('sideOfBalance', () => {
  it('is the normal side for a positive balance and the other side for a negative one', () => {
    expect([sideOfBalance('debit', 5n), sideOfBalance('debit', -5n), sideOfBalance('credit', 5n), sideOfBalance('credit', -5n)])
      .toEqual(['debit', 'credit', 'credit', 'debit']);
  });
});

describe('buildAgedBalances', () => {
  it('lists each sub-account with its buckets and total, and each bucket\'s total across them', () => {
    const control = account('receivables', '1200', { has_subledger: true, name: 'Receivables' });
    const acme = account('acme', '1200-01', { parent_id: 'receivables', entity_id: 'acme', name: 'Acme' });
    const globex = account('globex', '1200-02', { parent_id: 'receivables', entity_id: 'globex', name: 'Globex' });
    const report = buildAgedBalances(control, AS_OF, [
      { account: acme, buckets: buckets({ current: 5000n, days_over_90: 125n }) },
      { account: globex, buckets: buckets({ days_31_60: -2000n }) },
    ], 2);
    expect(report).toMatchObject({ account_id: 'receivables', account_number: '1200', as_of_date: AS_OF, normal_balance: 'debit' });
    expect(report.rows[0]).toMatchObject({
      account_id: 'acme', account_number: '1200-01', entity_id: 'acme', current: '5000', days_over_90: '125', days_1_30: '0',
      total: '5125', display_total: '51.25', display_current: '50.00',
    });
    expect(report.rows[1]).toMatchObject({ days_31_60: '-2000', display_days_31_60: '-20.00', total: '-2000' });
    expect(report.totals).toMatchObject({
      current: '5000', days_1_30: '0', days_31_60: '-2000', days_61_90: '0', days_over_90: '125', total: '3125', display_total: '31.25',
    });
  });
});
