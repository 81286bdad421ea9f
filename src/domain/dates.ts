/** Calendar dates are `YYYY-MM-DD` strings; they compare correctly as strings. */
import { validationError } from './errors.js';

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The first and last dates of the YYYY-MM-DD form: the ends of a range left open. */
export const FIRST_DATE = '0001-01-01';
export const LAST_DATE = '9999-12-31';

export function isCalendarDate(text: string): boolean {
  const match = DATE_PATTERN.exec(text);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

export function parseDate(raw: unknown, field: string): string {
  if (typeof raw !== 'string' || !isCalendarDate(raw)) {
    throw validationError(`${field} must be a calendar date in the form YYYY-MM-DD`, field,
      'Use an existing date such as 2026-01-31');
  }
  return raw;
}

/** The calendar day after `date` (YYYY-MM-DD), in UTC so no time zone can shift it. */
export function nextDay(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/** `date` moved by `days` (negative: earlier), in UTC. */
export function addDays(date: string, days: number): string {
  const moved = new Date(`${date}T00:00:00Z`);
  moved.setUTCDate(moved.getUTCDate() + days);
  return moved.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
