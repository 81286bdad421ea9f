/**
 * CSV text of the rows on screen (RFC 4180 quoting, text that a spreadsheet would run as a formula
 * neutralised: the rule `ledger export` uses too), and the names of the downloaded files. No DOM
 * here, so it is tested without a browser.
 */
import { csvField } from '../../../src/domain/export/csv-cell.js';

export type CsvCell = string | number | boolean | null | undefined;

export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/**
 * A file-name word: lower case, the letters and digits of any script (accents dropped from Latin letters), dashes
 * between words, at most `maxLength` characters ("Müller & Söhne GmbH" -> "muller-sohne-gmbh").
 */
export function fileNameSlug(text: string, maxLength = 60): string {
  // Accents come off Latin letters only: other scripts keep their marks (プ stays プ).
  return text.normalize('NFKD').replace(/([A-Za-z])\p{M}+/gu, '$1').normalize('NFC').toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '')
    .slice(0, maxLength).replace(/-+$/, '');
}

/** The dates a report covers, as its response states them. */
export interface ReportDates {
  as_of_date?: string | null | undefined;
  start_date?: string | null | undefined;
  end_date?: string | null | undefined;
}

/**
 * What a report covers, for its file name: the day of a balance ("2026-06-30"), a range
 * ("2026-01-01-to-2026-06-30", "from-2026-01-01", "to-2026-06-30"), or all time, which is named
 * with the day it was exported ("all-time-2026-11-25") so that every file carries a date.
 */
export function reportCoverage(dates: ReportDates, today: string): string {
  if (dates.as_of_date) return dates.as_of_date;
  if (dates.start_date && dates.end_date) return `${dates.start_date}-to-${dates.end_date}`;
  if (dates.start_date) return `from-${dates.start_date}`;
  if (dates.end_date) return `to-${dates.end_date}`;
  return `all-time-${today}`;
}

/**
 * A CSV download's name: the company (when one is set), then the report and what it covers, e.g.
 * `acme-ltd-income-statement-2026-01-01-to-2026-06-30.csv`. Empty parts are left out.
 */
export function csvFileName(companyName: string | null | undefined, parts: readonly (string | null | undefined | false)[]): string {
  const words = [companyName ? fileNameSlug(companyName) : '', ...parts.map((part) => (part ? fileNameSlug(part) : ''))];
  return `${words.filter(Boolean).join('-') || 'export'}.csv`;
}
