import { describe, expect, it } from 'vitest';
import { columnLabel, lastActivityEnd, quarterStart, toDateRange } from './dates.js';

describe('report column labels', () => {
  it.each([
    ['2026-01', 'Jan 2026'], ['2026-12', 'Dec 2026'], ['2024-05', 'May 2024'],
    ['2026-Q1', 'Q1 2026'], ['2025-Q4', 'Q4 2025'],
    ['2026-13', '2026-13'], ['Q1 2026', 'Q1 2026'], ['Adjustments', 'Adjustments'],
  ])('writes %s as %s', (label, expected) => {
    expect(columnLabel(label)).toBe(expected);
  });
});

describe('"to date" ranges', () => {
  const periods = [
    { start_date: '2026-01-01', end_date: '2026-01-31' },
    { start_date: '2026-02-01', end_date: '2026-02-28' },
    { start_date: '2026-03-01', end_date: '2026-03-31' },
    { start_date: '2026-04-01', end_date: '2026-04-30' },
  ];

  it('run through the end of the period holding the latest entry, not to today', () => {
    expect(lastActivityEnd('2026-03-14', periods, '2026-11-27')).toBe('2026-03-31');
  });

  it('run through a period after today when the latest entry is there', () => {
    expect(lastActivityEnd('2026-04-01', periods, '2026-03-20')).toBe('2026-04-30');
  });

  it('fall back to the entry\'s date without a period, and to today without entries', () => {
    expect(lastActivityEnd('2026-07-04', periods, '2026-11-27')).toBe('2026-07-04');
    expect(lastActivityEnd(null, periods, '2026-11-27')).toBe('2026-11-27');
  });

  it('start on the first day of the end\'s year or quarter', () => {
    expect(toDateRange('year', '2024-06-30')).toEqual({ start: '2024-01-01', end: '2024-06-30' });
    expect(toDateRange('quarter', '2024-06-30')).toEqual({ start: '2024-04-01', end: '2024-06-30' });
    expect(quarterStart('2026-12-31')).toBe('2026-10-01');
    expect(quarterStart('2026-01-01')).toBe('2026-01-01');
  });
});
