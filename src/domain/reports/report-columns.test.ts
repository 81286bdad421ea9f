import { describe, expect, it } from 'vitest';
import { splitIntoColumns } from './report-columns.js';

describe('splitIntoColumns', () => {
  it.each([
    ['month columns of a year to date, the last cut to the end date', '2026-01-01', '2026-03-15', 'month' as const, [
      ['2026-01', '2026-01-01', '2026-01-31'], ['2026-02', '2026-02-01', '2026-02-28'], ['2026-03', '2026-03-01', '2026-03-15'],
    ]],
    ['a leap February', '2028-02-10', '2028-02-29', 'month' as const, [['2028-02', '2028-02-10', '2028-02-29']]],
    ['quarters across a year end, the first cut to the start date', '2025-11-15', '2026-04-01', 'quarter' as const, [
      ['2025-Q4', '2025-11-15', '2025-12-31'], ['2026-Q1', '2026-01-01', '2026-03-31'], ['2026-Q2', '2026-04-01', '2026-04-01'],
    ]],
    ['one day', '2026-07-04', '2026-07-04', 'quarter' as const, [['2026-Q3', '2026-07-04', '2026-07-04']]],
    ['December into January', '2025-12-01', '2026-01-31', 'month' as const, [
      ['2025-12', '2025-12-01', '2025-12-31'], ['2026-01', '2026-01-01', '2026-01-31'],
    ]],
  ])('%s', (_name, start, end, interval, expected) => {
    expect(splitIntoColumns(start, end, interval).map((column) => [column.label, column.start_date, column.end_date])).toEqual(expected);
  });
});
