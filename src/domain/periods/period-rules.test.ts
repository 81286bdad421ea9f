import { describe, expect, it } from 'vitest';
import type { Period } from '../types.js';
import { assertNoOverlap, assertPeriodBounds } from './period-rules.js';
import { thrownBy } from '../../../test/fixtures/domain.js';
import { periodFixture } from '../../../test/storage/contract/fixtures.js';

function period(name: string, startDate: string, endDate: string): Period {
  return periodFixture(startDate, endDate, { id: name.toLowerCase().replace(/\s+/g, '-'), name });
}


describe('assertPeriodBounds', () => {
  it.each([
    ['a month', '2026-01-01', '2026-01-31'],
    ['a single day', '2026-01-01', '2026-01-01'],
    ['a span across a year end', '2025-12-01', '2026-01-31'],
  ])('accepts %s', (_name, startDate, endDate) => {
    expect(() => assertPeriodBounds(startDate, endDate)).not.toThrow();
  });

  it.each([
    ['an end one day before the start', '2026-01-02', '2026-01-01'],
    ['an end a year before the start', '2026-01-01', '2025-01-01'],
  ])('rejects %s with field end_date', (_name, startDate, endDate) => {
    const error = thrownBy(() => assertPeriodBounds(startDate, endDate));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.field).toBe('end_date');
  });
});

describe('assertNoOverlap', () => {
  const january = period('January 2026', '2026-01-01', '2026-01-31');
  const march = period('March 2026', '2026-03-01', '2026-03-31');
  const newYearsDay = period('New Year 2027', '2027-01-01', '2027-01-01');
  const existing = [january, march, newYearsDay];

  it.each([
    ['no existing periods', '2026-01-01', '2026-12-31', []],
    ['a period ending the day before the next starts', '2026-02-20', '2026-02-28', existing],
    ['a period starting the day after the previous ends', '2026-02-01', '2026-02-10', existing],
    ['a period before every existing one', '2025-12-01', '2025-12-31', existing],
    ['a period filling the gap between two exactly', '2026-02-01', '2026-02-28', existing],
    ['a single day between two periods', '2026-02-15', '2026-02-15', existing],
    ['a single day the day before a single-day period', '2026-12-31', '2026-12-31', existing],
    ['a single day the day after a single-day period', '2027-01-02', '2027-01-02', existing],
  ])('accepts %s', (_name, startDate, endDate, periods) => {
    expect(() => assertNoOverlap(startDate, endDate, periods)).not.toThrow();
  });

  it.each([
    ['sharing the last day of an existing period', '2026-01-31', '2026-02-28', 'January 2026'],
    ['sharing the first day of an existing period', '2026-02-01', '2026-03-01', 'March 2026'],
    ['the same bounds as an existing period', '2026-01-01', '2026-01-31', 'January 2026'],
    ['lying inside an existing period', '2026-01-10', '2026-01-20', 'January 2026'],
    ['enclosing an existing period', '2025-12-01', '2026-02-28', 'January 2026'],
    ['a single day on an existing period\'s first day', '2026-03-01', '2026-03-01', 'March 2026'],
    ['a single day on an existing period\'s last day', '2026-03-31', '2026-03-31', 'March 2026'],
    ['a single day on an existing single-day period', '2027-01-01', '2027-01-01', 'New Year 2027'],
    ['a range enclosing an existing single-day period', '2026-12-31', '2027-01-02', 'New Year 2027'],
    ['a range starting on an existing single-day period', '2027-01-01', '2027-01-31', 'New Year 2027'],
    ['a range ending on an existing single-day period', '2026-12-01', '2027-01-01', 'New Year 2027'],
    ['a range touching two periods names the first in the list', '2026-01-31', '2026-03-01', 'January 2026'],
  ])('rejects a period %s with PERIOD_OVERLAP', (_name, startDate, endDate, clashName) => {
    const error = thrownBy(() => assertNoOverlap(startDate, endDate, existing));
    expect(error.code).toBe('PERIOD_OVERLAP');
    expect(error.field).toBe('start_date');
    const clash = existing.find((candidate) => candidate.name === clashName)!;
    expect(error.message).toBe(`The period overlaps ${clash.name} (${clash.start_date} to ${clash.end_date})`);
  });
});
