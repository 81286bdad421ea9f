/**
 * The import page's CSV mapping preview, without a DOM so it is tested in Node.
 *
 * The browser reads only the first rows of the file, to show its columns and how the chosen
 * mapping reads them. Dates and amounts go through the server's own pure readers
 * (`parseCsvDate`, `parseCsvAmount` and the mapping check from src/domain/bank), so a row the
 * preview reads is read the same way by the import. Rows are split here the way the server's
 * csv-parse settings split them (quoted fields with `""` and line breaks, a stray quote inside an
 * unquoted field kept as text, cells trimmed, blank rows skipped); the server stays the authority
 * and its error, which names the file's line, is what the page shows when the import fails.
 */
import { checkCsvMapping, resolveCsvColumns } from '../../../../src/domain/bank/csv-mapping.js';
import { parseCsvAmount } from '../../../../src/domain/bank/statement-amount.js';
import { parseCsvDate } from '../../../../src/domain/bank/statement-date.js';
import { normaliseDescription } from '../../../../src/domain/bank/statement-description.js';
import type { CsvDateFormat, CsvDelimiter, CsvMapping, DecimalSeparator } from '../../../../src/domain/bank/statement.js';
import { LedgerError } from '../../../../src/domain/errors.js';

export type { CsvDateFormat, CsvDelimiter, DecimalSeparator };
export const DATE_FORMATS: readonly CsvDateFormat[] = ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY'];
export const DELIMITERS: readonly { value: CsvDelimiter; label: string }[] = [
  { value: ',', label: 'Comma (,)' }, { value: ';', label: 'Semicolon (;)' }, { value: '\t', label: 'Tab' },
];

/** How many rows after the header the preview reads and shows. */
export const PREVIEW_ROWS = 20;

export interface CsvRecord {
  /** The file's line (1-based) where the row starts, as a text editor counts lines. */
  lineNumber: number;
  cells: string[];
}

/**
 * Splits CSV text into rows, starting after `skipLines` lines, reading at most `maxRecords`
 * rows that are not blank.
 */
export function readCsvRecords(text: string, delimiter: CsvDelimiter, skipLines: number, maxRecords: number): CsvRecord[] {
  const records: CsvRecord[] = [];
  let line = 1;
  let index = 0;
  // Skip whole lines first, as the server does (a preamble can hold unbalanced quotes).
  while (line <= skipLines && index < text.length) {
    const char = text[index];
    index += 1;
    if (char === '\n' || (char === '\r' && text[index] !== '\n')) line += 1;
  }
  if (text.charCodeAt(0) === 0xfeff && index === 0) index = 1;
  while (index < text.length && records.length < maxRecords) {
    const start = line;
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    let atFieldStart = true;
    let ended = false;
    while (index < text.length && !ended) {
      const char = text[index]!;
      if (quoted) {
        if (char === '"' && text[index + 1] === '"') { cell += '"'; index += 2; continue; }
        if (char === '"') { quoted = false; index += 1; continue; }
        if (char === '\n' || (char === '\r' && text[index + 1] !== '\n')) line += 1;
        cell += char;
        index += 1;
        continue;
      }
      if (char === '"' && atFieldStart && cell.trim() === '') { quoted = true; cell = ''; atFieldStart = false; index += 1; continue; }
      if (char === delimiter) { cells.push(cell.trim()); cell = ''; atFieldStart = true; index += 1; continue; }
      if (char === '\r' || char === '\n') {
        index += char === '\r' && text[index + 1] === '\n' ? 2 : 1;
        line += 1;
        ended = true;
        continue;
      }
      if (char !== ' ' && char !== '\t') atFieldStart = false;
      cell += char;
      index += 1;
    }
    cells.push(cell.trim());
    if (cells.some((value) => value !== '')) records.push({ lineNumber: start, cells });
  }
  return records;
}

/** The separator that occurs most in the first lines (a comma when none does). */
export function guessDelimiter(text: string): CsvDelimiter {
  const head = text.split(/\r\n|\n|\r/).slice(0, 30).join('\n');
  let best: CsvDelimiter = ',';
  let bestCount = 0;
  for (const { value } of DELIMITERS) {
    const count = head.split(value).length - 1;
    if (count > bestCount) { best = value; bestCount = count; }
  }
  return best;
}

/**
 * The preamble's length: the transactions are the rows of the width that covers the most cells
 * among the first rows (a preamble has few cells a row), and the header is the first row of that width.
 */
export function guessSkipRows(text: string, delimiter: CsvDelimiter): number {
  const records = readCsvRecords(text, delimiter, 0, 40);
  const counts = new Map<number, number>();
  for (const record of records) counts.set(record.cells.length, (counts.get(record.cells.length) ?? 0) + 1);
  let width = 0;
  let best = 0;
  for (const [cells, count] of counts) {
    const score = cells * count;
    if (count >= 2 && (score > best || (score === best && cells > width))) { width = cells; best = score; }
  }
  const first = records.find((record) => record.cells.length === width);
  return first ? first.lineNumber - 1 : 0;
}

function readsAsDate(cell: string): boolean {
  return DATE_FORMATS.some((format) => { try { parseCsvDate(cell, format); return true; } catch { return false; } });
}

/** A first row with a date in it is a transaction, not a header. */
export function guessHeader(firstRow: readonly string[] | undefined): boolean {
  return !(firstRow ?? []).some(readsAsDate);
}

/** The date format that reads every sample; day first unless the browser's locale writes the month first. */
export function guessDateFormat(samples: readonly string[], monthFirst = false): CsvDateFormat {
  const filled = samples.filter((sample) => sample.trim() !== '');
  const fits = DATE_FORMATS.filter((format) => filled.length > 0 && filled.every((sample) => {
    try { parseCsvDate(sample, format); return true; } catch { return false; }
  }));
  if (fits.includes('MM/DD/YYYY') && fits.includes('DD/MM/YYYY')) return monthFirst ? 'MM/DD/YYYY' : 'DD/MM/YYYY';
  return fits[0] ?? 'YYYY-MM-DD';
}

/** "," when the amounts end in a comma and one or two digits ("-12,30", "1.234,56"). */
export function guessDecimalSeparator(samples: readonly string[]): DecimalSeparator {
  let comma = 0;
  let point = 0;
  for (const sample of samples) {
    if (/,\d{1,2}\s*\)?[A-Za-z-]*$/.test(sample.trim())) comma += 1;
    else if (/\.\d{1,2}\s*\)?[A-Za-z-]*$/.test(sample.trim())) point += 1;
  }
  return comma > point ? ',' : '.';
}

/** What the columns are for, by the names banks give them (English, German, French, Dutch, Spanish). */
const ROLE_NAMES: Record<'date' | 'description' | 'amount' | 'debit' | 'credit' | 'balance' | 'id', RegExp[]> = {
  date: [/^(posted|posting|booking|transaction)? ?date$/i, /buchungstag|buchungsdatum/i, /^datum$/i, /date|datum|fecha|data/i],
  description: [/^description$/i, /verwendungszweck/i, /description|memo|narrative|details|libell|omschrijving|concepto|beschreibung|buchungstext|payee|text/i],
  amount: [/^amount$/i, /^betrag/i, /amount|betrag|montant|bedrag|importe/i],
  debit: [/^debit/i, /paid out|money out|withdraw|soll|ausgang|afschrijving/i],
  credit: [/^credit/i, /paid in|money in|deposit|haben|eingang|bijschrijving/i],
  balance: [/balance|saldo|solde/i],
  id: [/^(transaction )?id$/i, /fitid|transaction id|transaktions-?id/i],
};

export type ColumnRole = keyof typeof ROLE_NAMES;

/** 1-based column numbers the header names suggest for each role. */
export function guessColumns(header: readonly string[]): Partial<Record<ColumnRole, number>> {
  const found: Partial<Record<ColumnRole, number>> = {};
  const used = new Set<number>();
  for (const role of ['date', 'balance', 'debit', 'credit', 'amount', 'description', 'id'] as ColumnRole[]) {
    for (const pattern of ROLE_NAMES[role]) {
      const index = header.findIndex((name, position) => !used.has(position) && pattern.test(name.trim()));
      if (index !== -1) { found[role] = index + 1; used.add(index); break; }
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// The mapping as the form holds it, and as the API takes it

export interface MappingDraft {
  delimiter: CsvDelimiter;
  header: boolean;
  skipRows: number;
  dateFormat: CsvDateFormat;
  decimalSeparator: DecimalSeparator;
  amountMode: 'single' | 'split';
  /** 1-based column numbers; null for "not chosen" (or "none" for the optional ones). */
  columns: Record<ColumnRole, number | null>;
}

export const EMPTY_COLUMNS: MappingDraft['columns'] = { date: null, description: null, amount: null, debit: null, credit: null, balance: null, id: null };

/**
 * The API's `csv` object: a column is sent by its header name when the file has a header row and
 * the name is unique there (so a remembered mapping survives a bank adding a column), else by number.
 */
export function toCsvMapping(draft: MappingDraft, header: readonly string[] | null): CsvMapping {
  const column = (number: number | null): string | number | undefined => {
    if (number === null) return undefined;
    const name = header?.[number - 1]?.trim();
    if (!draft.header || !name) return number;
    const same = header!.filter((cell) => cell.trim().toLowerCase() === name.toLowerCase()).length;
    return same === 1 ? name : number;
  };
  // A date or description column not chosen yet stays out, so that the mapping check names it.
  const mapping = {
    delimiter: draft.delimiter, header: draft.header, skip_rows: draft.skipRows, date_format: draft.dateFormat,
    decimal_separator: draft.decimalSeparator,
  } as CsvMapping;
  const optional = (key: `${ColumnRole}_column`, number: number | null) => {
    const value = column(number);
    if (value !== undefined) mapping[key] = value;
  };
  optional('date_column', draft.columns.date);
  optional('description_column', draft.columns.description);
  if (draft.amountMode === 'single') optional('amount_column', draft.columns.amount);
  else {
    optional('debit_column', draft.columns.debit);
    optional('credit_column', draft.columns.credit);
  }
  optional('id_column', draft.columns.id);
  optional('balance_column', draft.columns.balance);
  return mapping;
}

/** A remembered mapping back into the form, its names found in this file's header row. */
export function fromCsvMapping(mapping: CsvMapping, header: readonly string[] | null): MappingDraft {
  const number = (column: string | number | undefined): number | null => {
    if (column === undefined) return null;
    if (typeof column === 'number') return column;
    const index = (header ?? []).findIndex((cell) => cell.trim().toLowerCase() === column.trim().toLowerCase());
    return index === -1 ? null : index + 1;
  };
  const split = mapping.amount_column === undefined && (mapping.debit_column !== undefined || mapping.credit_column !== undefined);
  return {
    delimiter: mapping.delimiter ?? ',', header: mapping.header ?? true, skipRows: mapping.skip_rows ?? 0,
    dateFormat: mapping.date_format, decimalSeparator: mapping.decimal_separator ?? '.', amountMode: split ? 'split' : 'single',
    columns: {
      date: number(mapping.date_column), description: number(mapping.description_column), amount: number(mapping.amount_column),
      debit: number(mapping.debit_column), credit: number(mapping.credit_column), balance: number(mapping.balance_column),
      id: number(mapping.id_column),
    },
  };
}

/** A first guess for a file never imported into this account. */
export function guessMapping(text: string, monthFirst = false): MappingDraft {
  const delimiter = guessDelimiter(text);
  const skipRows = guessSkipRows(text, delimiter);
  const records = readCsvRecords(text, delimiter, skipRows, PREVIEW_ROWS + 1);
  const header = guessHeader(records[0]?.cells);
  const names = header ? records[0]?.cells ?? [] : [];
  const rows = header ? records.slice(1) : records;
  const guessed = guessColumns(names);
  const columns: MappingDraft['columns'] = { ...EMPTY_COLUMNS, ...guessed };
  if (!header) {
    // Without names, the first column holding dates is the date.
    const width = rows[0]?.cells.length ?? 0;
    for (let index = 0; index < width; index += 1) {
      if (rows.every((row) => readsAsDate(row.cells[index] ?? ''))) { columns.date = index + 1; break; }
    }
  }
  const samples = (column: number | null) => (column === null ? [] : rows.map((row) => row.cells[column - 1] ?? ''));
  const amountMode = columns.amount === null && columns.debit !== null && columns.credit !== null ? 'split' : 'single';
  const amountSamples = amountMode === 'single' ? samples(columns.amount) : [...samples(columns.debit), ...samples(columns.credit)];
  return {
    delimiter, header, skipRows, amountMode, columns,
    dateFormat: guessDateFormat(samples(columns.date), monthFirst),
    decimalSeparator: guessDecimalSeparator(amountSamples.filter((sample) => sample !== '')),
  };
}

// ---------------------------------------------------------------------------------------------
// The preview

export interface PreviewRow {
  lineNumber: number;
  cells: string[];
  /** As the import reads the row; `error` instead when it cannot (the import would refuse the file). */
  date?: string;
  description?: string;
  amount?: bigint;
  balance?: bigint | null;
  error?: string;
}

export interface CsvPreview {
  /** The header row's cells, or null without one. */
  header: string[] | null;
  headerLine: number | null;
  /** The widest row's number of cells (the raw table's columns). */
  width: number;
  rows: PreviewRow[];
  /** A mapping the server would refuse as a whole (a missing column, a name not in the header). */
  mappingError?: { field: string; message: string } | undefined;
}

export interface PreviewMoney {
  scale: number;
  currencyCode: string;
}

/** Reads the first rows of `text` as the import would with `mapping`. */
export function previewCsv(text: string, draft: MappingDraft, money: PreviewMoney, maxRows = PREVIEW_ROWS): CsvPreview {
  const records = readCsvRecords(text, draft.delimiter, draft.skipRows, maxRows + 1);
  const headerRecord = draft.header ? records[0] : undefined;
  const header = headerRecord ? headerRecord.cells : null;
  const dataRecords = draft.header ? records.slice(1) : records.slice(0, maxRows);
  const width = Math.max(0, ...records.map((record) => record.cells.length));
  const preview: CsvPreview = { header, headerLine: headerRecord?.lineNumber ?? null, width, rows: dataRecords.map((record) => ({ ...record })) };
  let indexes: ReturnType<typeof resolveCsvColumns>;
  try {
    const mapping = toCsvMapping(draft, header);
    const settings = checkCsvMapping(mapping);
    indexes = resolveCsvColumns(settings, draft.header ? header ?? [] : null);
  } catch (error) {
    preview.mappingError = error instanceof LedgerError ? { field: error.field ?? 'csv', message: error.message } : { field: 'csv', message: String(error) };
    return preview;
  }
  const options = { decimalSeparator: draft.decimalSeparator, scale: money.scale, currencyCode: money.currencyCode };
  const cell = (record: CsvRecord, index: number | undefined) => (index === undefined ? '' : (record.cells[index] ?? '').trim());
  preview.rows = dataRecords.map((record) => {
    const row: PreviewRow = { ...record };
    try {
      row.date = parseCsvDate(cell(record, indexes.date), draft.dateFormat);
      if (indexes.amount !== undefined) row.amount = parseCsvAmount(cell(record, indexes.amount), options);
      else row.amount = debitOrCredit(cell(record, indexes.debit), cell(record, indexes.credit), options);
      row.description = normaliseDescription(cell(record, indexes.description));
      if (indexes.balance !== undefined) {
        const balance = cell(record, indexes.balance);
        row.balance = balance === '' ? null : parseCsvAmount(balance, options, 'balance');
      }
    } catch (error) {
      row.error = error instanceof Error ? error.message : String(error);
    }
    return row;
  });
  return preview;
}

/** As the server reads a debit (money out) and a credit (money in) column: the column gives the direction. */
function debitOrCredit(debitText: string, creditText: string, options: Parameters<typeof parseCsvAmount>[1]): bigint {
  const magnitude = (value: bigint | undefined) => (value === undefined ? 0n : value < 0n ? -value : value);
  const debit = debitText === '' ? undefined : parseCsvAmount(debitText, options, 'debit');
  const credit = creditText === '' ? undefined : parseCsvAmount(creditText, options, 'credit');
  if (debit === undefined && credit === undefined) throw new Error('both the debit and the credit cell are empty');
  if (debit !== undefined && credit !== undefined && debit !== 0n && credit !== 0n) {
    throw new Error(`both the debit "${debitText}" and the credit "${creditText}" cell hold an amount`);
  }
  return magnitude(credit) - magnitude(debit);
}
