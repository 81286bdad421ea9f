/**
 * The `csv` column mapping of an import: checked once, then its columns found in the header row.
 * A header name matches a header cell trimmed and case-insensitively; a number is 1-based.
 */
import { validationError, type LedgerError } from '../errors.js';
import { CSV_DATE_FORMATS } from './statement-date.js';
import type { CsvColumn, CsvDateFormat, CsvDelimiter, CsvMapping, DecimalSeparator } from './statement.js';

const DELIMITERS: readonly CsvDelimiter[] = [',', ';', '\t'];
const DECIMAL_SEPARATORS: readonly DecimalSeparator[] = ['.', ','];
/** Preambles are a few lines; a larger number is a mistake (or a way to make us scan a file for nothing). */
const MAX_SKIP_ROWS = 1_000;

const ROLES = ['date', 'description', 'amount', 'debit', 'credit', 'id', 'balance'] as const;
export type CsvRole = (typeof ROLES)[number];

export interface CsvSettings {
  delimiter: CsvDelimiter;
  header: boolean;
  skipRows: number;
  dateFormat: CsvDateFormat;
  decimalSeparator: DecimalSeparator;
  /** Each role's column as the mapping names it; absent roles are not read. */
  columns: Partial<Record<CsvRole, CsvColumn>>;
}

/** 0-based positions in a row; `undefined` for a role the mapping does not use. */
export type CsvColumnIndexes = Partial<Record<CsvRole, number>>;

export function csvColumnField(role: CsvRole): string {
  return `csv.${role}_column`;
}

/** Checks the mapping as the API and the command line pass it, filling in the defaults. */
export function checkCsvMapping(mapping: CsvMapping | undefined): CsvSettings {
  if (mapping === undefined || mapping === null || typeof mapping !== 'object') {
    throw validationError('A CSV statement needs the csv column mapping', 'csv',
      'Send csv with at least date_column, date_format, description_column and amount_column (or debit_column and credit_column)');
  }
  const settings: CsvSettings = {
    delimiter: oneOf(mapping.delimiter ?? ',', DELIMITERS, 'csv.delimiter'),
    header: mapping.header ?? true,
    skipRows: mapping.skip_rows ?? 0,
    dateFormat: oneOf(mapping.date_format, CSV_DATE_FORMATS, 'csv.date_format'),
    decimalSeparator: oneOf(mapping.decimal_separator ?? '.', DECIMAL_SEPARATORS, 'csv.decimal_separator'),
    columns: {},
  };
  if (typeof settings.header !== 'boolean') throw validationError('csv.header must be true or false', 'csv.header');
  if (!Number.isSafeInteger(settings.skipRows) || settings.skipRows < 0 || settings.skipRows > MAX_SKIP_ROWS) {
    throw validationError(`csv.skip_rows must be a whole number from 0 to ${MAX_SKIP_ROWS}`, 'csv.skip_rows');
  }
  for (const role of ROLES) {
    const column = mapping[`${role}_column`];
    if (column !== undefined && column !== null) settings.columns[role] = checkColumn(column, role, settings.header);
  }
  checkAmountColumns(settings.columns);
  if (settings.columns.date === undefined) throw missingColumn('date');
  if (settings.columns.description === undefined) throw missingColumn('description');
  return settings;
}

/** Finds each role's column: by name in `header` (null when the file has no header row), or by number. */
export function resolveCsvColumns(settings: CsvSettings, header: readonly string[] | null): CsvColumnIndexes {
  const names = header?.map((cell) => cell.trim().toLowerCase());
  const indexes: CsvColumnIndexes = {};
  for (const role of ROLES) {
    const column = settings.columns[role];
    if (column === undefined) continue;
    if (typeof column === 'number') {
      if (header !== null && column > header.length) {
        throw validationError(`${csvColumnField(role)} is column ${column}, but the header row has ${header.length}: ${headerNames(header)}`,
          csvColumnField(role), 'Check the column number and csv.skip_rows');
      }
      indexes[role] = column - 1;
      continue;
    }
    const wanted = column.trim().toLowerCase();
    const found = names?.indexOf(wanted) ?? -1;
    if (found === -1) {
      throw validationError(`${csvColumnField(role)} ${JSON.stringify(column)} is not in the header row, which has ${headerNames(header ?? [])}`,
        csvColumnField(role), 'Check the name, and csv.skip_rows if the header row is further down');
    }
    if (names?.indexOf(wanted, found + 1) !== -1) {
      throw validationError(`${csvColumnField(role)} ${JSON.stringify(column)} names more than one column of the header row`,
        csvColumnField(role), 'Give the column by its number instead (1 is the first)');
    }
    indexes[role] = found;
  }
  return indexes;
}

function checkAmountColumns(columns: CsvSettings['columns']): void {
  const { amount, debit, credit } = columns;
  if (amount !== undefined && (debit !== undefined || credit !== undefined)) {
    throw validationError('csv.amount_column cannot be given together with csv.debit_column or csv.credit_column', 'csv.amount_column',
      'Give one signed amount column, or a debit column (money out) and a credit column (money in)');
  }
  if (amount === undefined && (debit === undefined || credit === undefined)) {
    const missing = debit === undefined && credit !== undefined ? 'debit' : credit === undefined && debit !== undefined ? 'credit' : 'amount';
    throw validationError(`${csvColumnField(missing)} is required`, csvColumnField(missing),
      'Give one signed amount column, or a debit column (money out) and a credit column (money in)');
  }
}

function checkColumn(column: unknown, role: CsvRole, header: boolean): CsvColumn {
  const field = csvColumnField(role);
  if (typeof column === 'number') {
    if (!Number.isSafeInteger(column) || column < 1) throw validationError(`${field} must be a column number from 1, or a header name`, field);
    return column;
  }
  if (typeof column !== 'string' || column.trim() === '') {
    throw validationError(`${field} must be a header name or a column number from 1`, field);
  }
  if (!header) {
    throw validationError(`${field} names a column, but csv.header is false`, field, 'Without a header row, give columns by number (1 is the first)');
  }
  return column;
}

function missingColumn(role: CsvRole): LedgerError {
  return validationError(`${csvColumnField(role)} is required`, csvColumnField(role));
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T {
  if (!allowed.includes(value as T)) {
    throw validationError(`${field} must be one of ${allowed.map((item) => JSON.stringify(item)).join(', ')}`, field);
  }
  return value as T;
}

/** The header's names as a message lists them: "Datum", "Text", "Betrag". */
function headerNames(header: readonly string[]): string {
  if (header.length === 0) return 'no columns';
  const shown = header.slice(0, 30).map((cell) => JSON.stringify(cell.trim())).join(', ');
  return header.length > 30 ? `${shown}, ... (${header.length} columns)` : shown;
}
