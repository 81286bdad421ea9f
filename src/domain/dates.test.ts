import { describe, expect, it } from 'vitest';
import { isCalendarDate, nextDay, parseDate } from './dates.js';
import { LedgerError } from './errors.js';

const existingDates = [
  ['an ordinary date', '2026-01-31'],
  ['the first day of a year', '2026-01-01'],
  ['the last day of a year', '2026-12-31'],
  ['the 30th of a 30-day month', '2026-04-30'],
  ['the 31st of a 31-day month', '2026-07-31'],
  ['28 February in a common year', '2026-02-28'],
  ['29 February in a leap year divisible by 4', '2024-02-29'],
  ['29 February in a century leap year divisible by 400', '2000-02-29'],
  ['the smallest four-digit year', '0001-01-01'],
  ['the largest four-digit year', '9999-12-31'],
] as const;

const impossibleOrMalformed = [
  ['30 February', '2026-02-30'],
  ['29 February in a common year', '2026-02-29'],
  ['29 February in a century year not divisible by 400', '1900-02-29'],
  ['29 February in 2100', '2100-02-29'],
  ['31 April', '2026-04-31'],
  ['31 June', '2026-06-31'],
  ['31 September', '2026-09-31'],
  ['31 November', '2026-11-31'],
  ['day 32', '2026-01-32'],
  ['day 00', '2026-01-00'],
  ['month 00', '2026-00-10'],
  ['month 13', '2026-13-01'],
  ['an empty string', ''],
  ['a single-digit month and day', '2026-1-5'],
  ['a two-digit year', '26-01-05'],
  ['a five-digit year', '12026-01-05'],
  ['slashes', '2026/01/05'],
  ['no separators', '20260105'],
  ['day-month-year order', '05-01-2026'],
  ['a timestamp', '2026-01-05T00:00:00Z'],
  ['a trailing newline', '2026-01-05\n'],
  ['a leading space', ' 2026-01-05'],
  ['a negative year', '-2026-01-05'],
  ['letters', 'yesterday'],
  ['full-width digits', '\uFF12\uFF10\uFF12\uFF16-01-05'],
] as const;

describe('isCalendarDate', () => {
  it.each(existingDates)('accepts %s (%s)', (_name, text) => {
    expect(isCalendarDate(text)).toBe(true);
  });

  it.each(impossibleOrMalformed)('rejects %s (%j)', (_name, text) => {
    expect(isCalendarDate(text)).toBe(false);
  });
});

describe('parseDate', () => {
  it.each(existingDates)('returns %s unchanged (%s)', (_name, text) => {
    expect(parseDate(text, 'entry_date')).toBe(text);
  });

  it.each(impossibleOrMalformed)('rejects %s (%j) as a validation error naming the field', (_name, text) => {
    expectDateRejected(text, 'start_date');
  });

  it.each([
    ['a number', 20260105],
    ['a Date object', new Date('2026-01-05T00:00:00Z')],
    ['null', null],
    ['undefined', undefined],
    ['an array holding a date', ['2026-01-05']],
  ])('rejects %s that is not a string', (_name, raw) => {
    expectDateRejected(raw, 'entry_date');
  });
});

describe('nextDay', () => {
  it.each([
    ['2026-01-31', '2026-02-01'],
    ['2024-02-28', '2024-02-29'],
    ['2026-02-28', '2026-03-01'],
    ['2026-12-31', '2027-01-01'],
    ['2026-03-29', '2026-03-30'],
  ])('the day after %s is %s', (date, expected) => {
    expect(nextDay(date)).toBe(expected);
  });
});

function expectDateRejected(raw: unknown, field: string): void {
  let caught: unknown;
  try {
    parseDate(raw, field);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(LedgerError);
  const error = caught as LedgerError;
  expect(error.code).toBe('VALIDATION_ERROR');
  expect(error.field).toBe(field);
  expect(error.message).toBe(`${field} must be a calendar date in the form YYYY-MM-DD`);
}
