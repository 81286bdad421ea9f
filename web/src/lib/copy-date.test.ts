import { describe, expect, it } from 'vitest';
import { copyDate } from './copy-date.js';

const month = (start: string, end: string, status: 'open' | 'closed') => ({ start_date: start, end_date: end, status });
const january = month('2026-01-01', '2026-01-31', 'closed');
const february = month('2026-02-01', '2026-02-28', 'open');
const march = month('2026-03-01', '2026-03-31', 'open');

describe('the date of a copied entry', () => {
  it('is today when today is in an open period', () => {
    expect(copyDate('2026-01-15', [january, february, march], '2026-03-10')).toEqual({ date: '2026-03-10', reason: 'today' });
  });

  it('is the original\'s date when today is in no open period and the original\'s period is open', () => {
    expect(copyDate('2026-02-14', [january, february, march], '2026-04-02')).toEqual({ date: '2026-02-14', reason: 'original' });
  });

  it('is the first day of the earliest open period when neither today nor the original\'s date is open', () => {
    expect(copyDate('2026-01-15', [march, january, february], '2026-04-02')).toEqual({ date: '2026-02-01', reason: 'earliest-open' });
    // Today in a closed period counts as not open.
    expect(copyDate('2026-01-15', [january, march], '2026-01-20')).toEqual({ date: '2026-03-01', reason: 'earliest-open' });
  });

  it('is today when no period is open', () => {
    expect(copyDate('2026-01-15', [january], '2026-04-02')).toEqual({ date: '2026-04-02', reason: 'no-open-period' });
    expect(copyDate('2026-01-15', [], '2026-04-02')).toEqual({ date: '2026-04-02', reason: 'no-open-period' });
  });
});
