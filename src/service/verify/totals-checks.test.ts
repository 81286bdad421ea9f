import { describe, expect, it } from 'vitest';
import { balanceDates } from './totals-checks.js';

describe('balanceDates: where "balance before date" can change', () => {
  const periods = [
    { start_date: '2026-01-01', end_date: '2026-01-31' },
    // A gap in February: no period covers it.
    { start_date: '2026-03-01', end_date: '2026-03-31' },
  ];

  it('asks the day after every date with lines, and each period\'s first day, last day and the day after it', () => {
    expect(balanceDates(['2026-01-05', '2026-01-31', '2026-03-10'], periods)).toEqual([
      '2026-01-01', '2026-01-06', '2026-01-31', '2026-02-01', '2026-03-01', '2026-03-11', '2026-03-31', '2026-04-01',
    ]);
  });

  it('crosses month and year ends by the calendar, and lists each date once', () => {
    expect(balanceDates(['2024-02-28', '2024-02-29', '2026-12-31'], [])).toEqual(['2024-02-29', '2024-03-01', '2027-01-01']);
    expect(balanceDates(['2026-01-30'], [{ start_date: '2026-01-01', end_date: '2026-01-31' }]))
      .toEqual(['2026-01-01', '2026-01-31', '2026-02-01']);
  });
});
