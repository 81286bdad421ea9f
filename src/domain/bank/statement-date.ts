/**
 * Dates as statement files print them, read strictly into YYYY-MM-DD: a day that does not exist
 * (2026-02-30) or a two-digit year is refused, never guessed. A time of day or a time zone next
 * to a date is dropped: the date is the bank's booking date as the bank printed it, never moved
 * to another zone (a payment booked late on 31 January in New York stays a January payment).
 */
import { isCalendarDate } from '../dates.js';
import { validationError } from '../errors.js';
import { quoted } from './statement-errors.js';
import type { CsvDateFormat } from './statement.js';

interface DatePattern {
  pattern: RegExp;
  /** The positions of year, month and day among the pattern's groups. */
  year: number;
  month: number;
  day: number;
}

// Day and month may have one digit ("1/5/2026", as many US exports write them); ISO may not.
const CSV_DATE_PATTERNS: Record<CsvDateFormat, DatePattern> = {
  'YYYY-MM-DD': { pattern: /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/, year: 1, month: 2, day: 3 },
  'DD/MM/YYYY': { pattern: /^([0-9]{1,2})\/([0-9]{1,2})\/([0-9]{4})$/, year: 3, month: 2, day: 1 },
  'MM/DD/YYYY': { pattern: /^([0-9]{1,2})\/([0-9]{1,2})\/([0-9]{4})$/, year: 3, month: 1, day: 2 },
  'DD.MM.YYYY': { pattern: /^([0-9]{1,2})\.([0-9]{1,2})\.([0-9]{4})$/, year: 3, month: 2, day: 1 },
};

export const CSV_DATE_FORMATS = Object.keys(CSV_DATE_PATTERNS) as CsvDateFormat[];

export function parseCsvDate(raw: string, format: CsvDateFormat, label = 'date'): string {
  const { pattern, year, month, day } = CSV_DATE_PATTERNS[format];
  const match = pattern.exec(raw.trim());
  const date = match ? calendarDate(match[year], match[month], match[day]) : undefined;
  if (date === undefined) {
    throw validationError(`${label} ${quoted(raw)} is not a valid ${format} date`, label,
      raw.trim() === '' ? undefined : `Check the column and csv.date_format ("${format}" now)`);
  }
  return date;
}

/**
 * OFX dates: `YYYYMMDD`, then optionally `HHMMSS` (some banks send only `HHMM`), milliseconds
 * `.XXX` and a zone `[-5:EST]` (`[+5.30:IST]`, `[0:GMT]`, `[-5]`). The date part is taken as
 * given; the time and zone only have to be well-formed.
 */
const OFX_DATE = /^([0-9]{4})([0-9]{2})([0-9]{2})(?:([0-9]{2})([0-9]{2})(?:([0-9]{2})(?:\.[0-9]{1,6})?)?)?\s*(?:\[[+-]?[0-9]{1,2}(?:\.[0-9]{1,2})?(?::[A-Za-z]{1,8})?\])?$/;

export function parseOfxDate(raw: string, label: string): string {
  const match = OFX_DATE.exec(raw.trim());
  const date = match && isTimeOfDay(match[4], match[5], match[6]) ? calendarDate(match[1], match[2], match[3]) : undefined;
  if (date === undefined) {
    throw validationError(`${label} ${quoted(raw)} is not a valid OFX date such as 20260131 or 20260131120000[-5:EST]`, label);
  }
  return date;
}

/**
 * ISO 20022 dates: `xs:date` (`2026-01-31`, optionally with a zone) or `xs:dateTime`
 * (`2026-01-31T10:15:00`, `.000`, `Z` or `+01:00`).
 */
const ISO_DATE_OR_DATE_TIME = /^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?)?(?:Z|[+-][0-9]{2}:[0-9]{2})?$/;

export function parseIsoDateOrDateTime(raw: string, label: string): string {
  const match = ISO_DATE_OR_DATE_TIME.exec(raw.trim());
  const date = match && isTimeOfDay(match[4], match[5], match[6]) ? calendarDate(match[1], match[2], match[3]) : undefined;
  if (date === undefined) {
    throw validationError(`${label} ${quoted(raw)} is not a valid date such as 2026-01-31 or 2026-01-31T10:15:00`, label);
  }
  return date;
}

function calendarDate(year = '', month = '', day = ''): string | undefined {
  const date = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  return year !== '0000' && isCalendarDate(date) ? date : undefined;
}

/** Absent parts are fine; present ones must be a time of day (a leap second allowed). */
function isTimeOfDay(hours?: string, minutes?: string, seconds?: string): boolean {
  return (hours === undefined || hours <= '23') && (minutes === undefined || minutes <= '59')
    && (seconds === undefined || seconds <= '60');
}
