import { describe, expect, it } from 'vitest';
import { rateUnits } from '../currencies/exchange-rate.js';
import { RateBook, translateAtRate, translateDays } from './translation.js';

const day = (entry_date: string, debit: bigint, credit: bigint) => ({ entry_date, debit_total: debit, credit_total: credit }) as never;

describe('RateBook', () => {
  const book = new RateBook('usd', [
    { currency_id: 'eur', rate_date: '2026-02-01', rate: '1.12' },
    { currency_id: 'eur', rate_date: '2026-01-01', rate: '1.10' },
    { currency_id: 'eur', rate_date: '2026-01-20', rate: '1.08' },
  ]);

  it('answers the latest rate on or before a day, 1 for the base currency', () => {
    expect(book.rateOn('eur', '2026-01-19')).toBe(rateUnits('1.10'));
    expect(book.rateOn('eur', '2026-01-20')).toBe(rateUnits('1.08'));
    expect(book.rateOn('eur', '2027-06-01')).toBe(rateUnits('1.12'));
    expect(book.rateOn('usd', '1999-01-01')).toBe(rateUnits('1'));
    expect(book.missing.size).toBe(0);
  });

  it('records the earliest day without a rate, per currency', () => {
    const sparse = new RateBook('usd', [{ currency_id: 'eur', rate_date: '2026-01-01', rate: '1.1' }]);
    expect(sparse.rateOn('eur', '2025-12-30')).toBeUndefined();
    expect(sparse.rateOn('eur', '2025-12-01')).toBeUndefined();
    expect(sparse.rateOn('gbp', '2026-03-10')).toBeUndefined();
    expect([...sparse.missing]).toEqual([['eur', '2025-12-01'], ['gbp', '2026-03-10']]);
  });
});

describe('translation', () => {
  const book = new RateBook('usd', [
    { currency_id: 'eur', rate_date: '2026-01-01', rate: '1.10' },
    { currency_id: 'eur', rate_date: '2026-01-20', rate: '1.08' },
    { currency_id: 'eur', rate_date: '2026-02-15', rate: '1.09' },
  ]);

  it('at one rate: debits and credits each rounded half to even', () => {
    expect(translateAtRate({ debit_total: 850_100n, credit_total: 300_000n } as never, rateUnits('1.0842'), 2, 2))
      .toEqual({ debit_total: 921_678n, credit_total: 325_260n });
  });

  it('day by day: summed exactly, rounded once (4,000.50 × 1.09 = 4,360.545 → 4,360.54)', () => {
    const range = { start_date: '2026-01-01', end_date: '2026-03-31' };
    expect(translateDays('eur', [day('2026-02-20', 0n, 400_050n)], range, [], book, 2, 2)).toEqual({ debit_total: 0n, credit_total: 436_054n });
    // Two halves that round up apart sum to an exact cent together.
    expect(translateDays('eur', [day('2026-02-20', 0n, 400_050n), day('2026-02-21', 0n, 400_050n)], range, [], book, 2, 2))
      .toEqual({ debit_total: 0n, credit_total: 872_109n });
  });

  it('a closed period inside the range nets to zero: its closing entry takes back what its days added', () => {
    const january = { start_date: '2026-01-01', end_date: '2026-01-31' };
    const activity = [day('2026-01-10', 0n, 200_000n), day('2026-01-25', 0n, 100_000n), day('2026-02-20', 0n, 400_050n)];
    const all = translateDays('eur', activity, { start_date: '2026-01-01', end_date: '2026-03-31' }, [january], book, 2, 2)!;
    expect(all).toEqual({ debit_total: 328_000n, credit_total: 328_000n + 436_054n });
    // A range starting inside the closed period: only its days in range, but the whole period closed.
    const fromMid = translateDays('eur', activity, { start_date: '2026-01-20', end_date: '2026-03-31' }, [january], book, 2, 2)!;
    expect(fromMid).toEqual({ debit_total: 328_000n, credit_total: 108_000n + 436_054n });
  });

  it('a day without a rate makes the whole translation incomplete', () => {
    const sparse = new RateBook('usd', [{ currency_id: 'eur', rate_date: '2026-02-01', rate: '1.1' }]);
    expect(translateDays('eur', [day('2026-01-10', 0n, 1n)], { start_date: '2026-01-01', end_date: '2026-03-31' }, [], sparse, 2, 2)).toBeUndefined();
    expect(sparse.missing.get('eur')).toBe('2026-01-10');
  });
});
