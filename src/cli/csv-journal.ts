/**
 * The CSV form of `journal-entries import`: one row per journal line, consecutive rows with the
 * same `entry` value forming one entry (its date, description and reference from its first row).
 *
 * The header decides how a row names its account and writes its amounts, each in one of two ways
 * (docs/cli.md, "Import formats"):
 *  - `account_number` (the number people know an account by) or `account_id`;
 *  - `debit`,`credit` in major units as people write them (`3200.00`, at most the currency's
 *    decimal places) or `debit_amount`,`credit_amount` in the API's minor units (`320000`).
 * A header with both ways of one kind is refused rather than guessed at. Amounts in major units
 * are turned into minor units by the one amount parser, exactly: more fraction digits than the
 * account's currency has is an error naming the row and column, never a rounding.
 */
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { LedgerError, validationError } from '../domain/errors.js';
import { type CurrencyLabel, parseMajorUnits } from '../domain/money/amount.js';
import type { CreateEntryInput } from '../schemas/journal-entry.js';

export interface SourcedEntry {
  entry: CreateEntryInput;
  /** The line of the file where the entry starts. */
  line: number;
}

export interface ChartAccount {
  id: string;
  currency: CurrencyLabel;
}

/** The accounts a file may name, by number and by id. */
export interface CsvChart {
  byNumber: ReadonlyMap<string, ChartAccount>;
  byId: ReadonlyMap<string, ChartAccount>;
}

type AccountColumn = 'account_number' | 'account_id';

interface Layout {
  account: AccountColumn;
  /** Major units (`debit`, `credit`) or the API's minor units (`debit_amount`, `credit_amount`). */
  units: 'major' | 'minor';
  debit: 'debit' | 'debit_amount';
  credit: 'credit' | 'credit_amount';
}

const HEADER_HINT = 'Use the columns entry,entry_date,description,reference,account_number,debit,credit,line_description '
  + '(amounts in major units such as 3200.00), or account_id and debit_amount,credit_amount (minor units such as 320000)';

/** Reads the header's columns into the one layout they allow. */
function layoutOf(columns: readonly string[]): Layout {
  const has = (column: string) => columns.includes(column);
  const missing = ['entry', 'entry_date'].filter((column) => !has(column));
  if (has('account_number') && has('account_id')) {
    throw validationError('The CSV header has both account_number and account_id: a row names its account one way', 'file', HEADER_HINT);
  }
  const major = has('debit') || has('credit');
  const minor = has('debit_amount') || has('credit_amount');
  if (major && minor) {
    throw validationError('The CSV header mixes amounts in major units (debit, credit) with amounts in minor units '
      + '(debit_amount, credit_amount)', 'file', HEADER_HINT);
  }
  if (!has('account_number') && !has('account_id')) missing.push('account_number (or account_id)');
  const amountColumns = minor ? ['debit_amount', 'credit_amount'] : ['debit', 'credit'];
  missing.push(...amountColumns.filter((column) => !has(column)).map((column) => (major || minor ? column : `${column} (or ${column}_amount)`)));
  if (missing.length > 0) throw validationError(`The CSV header lacks ${missing.join(', ')}`, 'file', HEADER_HINT);
  const account: AccountColumn = has('account_number') ? 'account_number' : 'account_id';
  return minor ? { account, units: 'minor', debit: 'debit_amount', credit: 'credit_amount' } : { account, units: 'major', debit: 'debit', credit: 'credit' };
}

/** A refusal of one row: the line of the file and the column, and that nothing was imported. */
function rowError(line: number, column: string, message: string, suggestion: string): LedgerError {
  return validationError(`Line ${line}, column ${column}: ${message}`, 'file', `${suggestion}; nothing was imported`);
}

const optional = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

/** The account a row names, as the API's account_id, and its currency when the chart knows it. */
function accountOf(record: Record<string, string>, layout: Layout, chart: CsvChart, line: number): { id: string; known?: ChartAccount } {
  const text = record[layout.account] ?? '';
  if (layout.account === 'account_number') {
    const known = chart.byNumber.get(text);
    if (known === undefined) {
      throw rowError(line, 'account_number', text === '' ? 'the account number is empty' : `no account has the number ${JSON.stringify(text)}`,
        'Use the number of an existing account (ledger accounts list)');
    }
    return { id: known.id, known };
  }
  const known = chart.byId.get(text);
  // With minor units an unknown id goes on to the service, which refuses it as the API does.
  if (known === undefined && layout.units === 'major') {
    throw rowError(line, 'account_id', text === '' ? 'the account id is empty' : `no account has the id ${JSON.stringify(text)}`,
      'Use the id of an existing account (ledger accounts list), or its number in an account_number column');
  }
  return known === undefined ? { id: text } : { id: text, known };
}

/** An amount in major units as minor units at the account's currency's scale; empty stays absent. */
function minorUnitsOf(text: string | undefined, column: string, currency: CurrencyLabel, line: number): string | undefined {
  if (text === undefined || text === '') return undefined;
  const { code, asset_scale: scale } = currency;
  const example = scale === 0 ? '3200' : `3200.${'0'.repeat(scale)}`;
  if (/^-/.test(text)) {
    throw rowError(line, column, `${text} is negative`, `Write the amount without a sign, in the ${column === 'debit' ? 'credit' : 'debit'} column`);
  }
  const fraction = /^[0-9]+\.([0-9]+)$/.exec(text)?.[1];
  if (fraction !== undefined && fraction.length > scale) {
    throw rowError(line, column, `${text} has ${fraction.length} decimal places, and ${code} has ${scale}`,
      `Write the amount with at most ${scale} digits after the decimal point, e.g. ${example}`);
  }
  try {
    return parseMajorUnits(text, scale, column).toString();
  } catch (error) {
    if (!(error instanceof LedgerError)) throw error;
    throw rowError(line, column, `${JSON.stringify(text)} is not an amount in ${code} such as ${example}`,
      'Write digits with a decimal point, without thousands separators or a currency sign');
  }
}

/** Reads the entries of a CSV journal against the chart of accounts, one at a time. */
export function csvJournalReader(chart: CsvChart): (stream: Readable) => AsyncGenerator<SourcedEntry> {
  return async function* fromCsv(stream) {
    const rows = stream.pipe(parse({ columns: true, skip_empty_lines: true, trim: true, info: true, bom: true }));
    let layout: Layout | undefined;
    let pending: SourcedEntry | undefined;
    let currentKey: string | undefined;
    try {
      for await (const { record, info } of rows as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
        layout ??= layoutOf(Object.keys(record));
        const account = accountOf(record, layout, chart, info.lines);
        const [debit, credit] = layout.units === 'minor' || account.known === undefined
          ? [optional(record[layout.debit]), optional(record[layout.credit])]
          : [minorUnitsOf(record.debit, 'debit', account.known.currency, info.lines),
            minorUnitsOf(record.credit, 'credit', account.known.currency, info.lines)];
        const row = { account_id: account.id, debit_amount: debit, credit_amount: credit, description: optional(record.line_description) };
        if (pending === undefined || record.entry !== currentKey) {
          if (pending !== undefined) yield pending;
          currentKey = record.entry;
          const entry: CreateEntryInput = { entry_date: record.entry_date ?? '', description: record.description ?? '', lines: [] };
          const reference = optional(record.reference);
          if (reference !== undefined) entry.reference = reference;
          pending = { entry, line: info.lines };
        }
        pending.entry.lines.push(row);
      }
    } catch (error) {
      if (error instanceof LedgerError) throw error;
      throw validationError(`The CSV file cannot be read: ${(error as Error).message}`, 'file');
    }
    if (pending !== undefined) yield pending;
  };
}
