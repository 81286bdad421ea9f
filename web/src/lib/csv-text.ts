/**
 * CSV text of the rows on screen (RFC 4180 quoting, text that a spreadsheet would run as a formula
 * neutralised: the rule `ledger export` uses too). No DOM here, so it is tested without a browser.
 */
import { csvField } from '../../../src/domain/export/csv-cell.js';

export type CsvCell = string | number | boolean | null | undefined;

export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}
