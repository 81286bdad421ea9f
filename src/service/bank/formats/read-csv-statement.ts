/**
 * CSV statements, by the caller's column mapping (`CsvMapping`), read with csv-parse.
 *
 * - `skip_rows` lines (a preamble of account details) are skipped before the header row, counted
 *   as a text editor shows lines. With `header` (the default) the first row after them names the
 *   columns. Rows whose every cell is empty (`;;;;`, blank lines, trailing lines) are ignored.
 *   Every other row is a transaction: a row that does not read as one (a bank's "Kontostand"
 *   summary row under the transactions, say) refuses the file with its line. The mapping cannot
 *   mark such footers yet; the file must be trimmed of them.
 * - Quoted fields may hold the delimiter, quotes (`""`) and line breaks; a stray quote inside an
 *   unquoted field is kept as text (banks write `Bäckerei "Zum Korn"` unquoted).
 * - Amount: one signed `amount_column` (negative = money out, as the file signs it), or
 *   `debit_column` (money out) and `credit_column` (money in), of which each row fills exactly
 *   one; a zero in the other one is fine, as is a zero in both (a zero-amount row). The sign a
 *   bank prints inside a debit or credit cell is ignored: the column says the direction.
 * - `id_column`: the external id and the fingerprint, when the cell is not empty.
 * - `balance_column`: the statement's opening and closing balances (`running-balance.ts`); an
 *   empty balance cell is allowed.
 * - Line numbers: csv-parse's own count is off inside quoted fields with `\r\n`, and asking it
 *   for each row's position (`on_record`) costs more than the parsing, so rows are counted here:
 *   csv-parse keeps blank lines as rows, and each row takes one line plus the line breaks inside
 *   its quoted fields. Only after a CSV syntax error is the file parsed again, up to the bad row.
 * - Limits: a field longer than 10,000 characters, or more than 200,000 transactions, is refused.
 */
import { CsvError, parse } from 'csv-parse/sync';
import { checkCsvMapping, resolveCsvColumns, type CsvColumnIndexes, type CsvSettings } from '../../../domain/bank/csv-mapping.js';
import { balancesFromRunningBalances, type RunningBalanceRow } from '../../../domain/bank/running-balance.js';
import { parseCsvAmount, type CsvAmountOptions } from '../../../domain/bank/statement-amount.js';
import { parseCsvDate } from '../../../domain/bank/statement-date.js';
import { normaliseDescription } from '../../../domain/bank/statement-description.js';
import { atLine, fileError, lineError, quoted, tooManyLines } from '../../../domain/bank/statement-errors.js';
import { FINGERPRINT_PREFIXES } from '../../../domain/bank/statement-fingerprint.js';
import {
  MAX_CSV_FIELD_CHARS, MAX_STATEMENT_LINES, type CsvMapping, type StatementDraft, type StatementLineDraft,
} from '../../../domain/bank/statement.js';
import { validationError } from '../../../domain/errors.js';
import { isWithinRange } from '../../../domain/money/amount.js';

/** csv-parse's own cap on a row, far above any real row, so an unclosed quote stops early. */
const MAX_ROW_CHARS = 10 * MAX_CSV_FIELD_CHARS;
/**
 * Rows csv-parse reads at most (blank ones and the header included): past this the file is
 * refused as too long without reading the rest.
 */
const MAX_ROWS = 2 * MAX_STATEMENT_LINES + 2;
const LINE_FEED = 10;
const CARRIAGE_RETURN = 13;
const LINE_BREAK = /\r\n?|\n/g;

export function readCsvStatement(text: string, mapping: CsvMapping | undefined, scale: number, currencyCode: string): StatementDraft {
  const settings = checkCsvMapping(mapping);
  const body = text.slice(offsetAfterLines(text, settings.skipRows));
  return new CsvStatementReader(settings, body, { decimalSeparator: settings.decimalSeparator, scale, currencyCode }).read();
}

class CsvStatementReader {
  private columns: CsvColumnIndexes | undefined;
  private readonly drafts: StatementLineDraft[] = [];
  private readonly balances: RunningBalanceRow[] = [];

  constructor(private readonly settings: CsvSettings, private readonly body: string, private readonly amounts: CsvAmountOptions) {
    if (!settings.header) this.columns = resolveCsvColumns(settings, null);
  }

  read(): StatementDraft {
    const records = this.parse(MAX_ROWS);
    if (records.length >= MAX_ROWS) throw tooManyLines();
    let line_number = this.settings.skipRows + 1;
    for (const record of records) {
      const breaks = lineBreaksWithin(record, line_number);
      this.row(record, line_number);
      line_number += 1 + breaks;
    }
    if (this.columns === undefined) {
      throw fileError(`The file has no header row${this.settings.skipRows > 0 ? ` after the ${this.settings.skipRows} skipped lines` : ''}`,
        'Check csv.skip_rows and csv.header');
    }
    const { opening_balance, closing_balance } = this.settings.columns.balance === undefined || this.drafts.length === 0
      ? { opening_balance: null, closing_balance: null } : balancesFromRunningBalances(this.balances);
    return { start_date: null, end_date: null, opening_balance, closing_balance, currency_code: null, lines: this.drafts };
  }

  /** The first `limit` rows; a CSV syntax error is reported at the first line of its row. */
  private parse(limit: number): string[][] {
    try {
      return parse(this.body, {
        delimiter: this.settings.delimiter,
        record_delimiter: ['\r\n', '\n', '\r'],
        trim: true,
        relax_quotes: true,
        relax_column_count: true,
        max_record_size: MAX_ROW_CHARS,
        to: limit,
      });
    } catch (error) {
      if (!(error instanceof CsvError)) throw error;
      const rowsBefore = typeof error.records === 'number' && error.records > 0 ? this.parse(error.records) : [];
      let line_number = this.settings.skipRows + 1;
      for (const record of rowsBefore) line_number += 1 + lineBreaksWithin(record, line_number);
      throw lineError(line_number, csvProblem(error));
    }
  }

  private row(record: readonly string[], line_number: number): void {
    if (isBlank(record)) return;
    if (this.columns === undefined) {
      this.columns = resolveCsvColumns(this.settings, record);
      return;
    }
    if (this.drafts.length >= MAX_STATEMENT_LINES) throw tooManyLines();
    this.drafts.push(atLine(line_number, () => this.transaction(record, this.columns as CsvColumnIndexes, line_number)));
  }

  private transaction(record: readonly string[], columns: CsvColumnIndexes, line_number: number): StatementLineDraft {
    const posted_date = parseCsvDate(cell(record, columns.date), this.settings.dateFormat);
    const amount = columns.amount !== undefined ? parseCsvAmount(cell(record, columns.amount), this.amounts)
      : this.debitOrCredit(cell(record, columns.debit), cell(record, columns.credit));
    if (columns.balance !== undefined) {
      const balance = cell(record, columns.balance);
      this.balances.push({ posted_date, amount, balance: balance === '' ? null : parseCsvAmount(balance, this.amounts, 'balance') });
    }
    const id = cell(record, columns.id);
    return {
      line_number,
      posted_date,
      amount,
      description: normaliseDescription(cell(record, columns.description)),
      external_id: id === '' ? null : id,
      identity: id === '' ? null : FINGERPRINT_PREFIXES.csvId + id,
    };
  }

  private debitOrCredit(debitText: string, creditText: string): bigint {
    const debit = debitText === '' ? undefined : parseCsvAmount(debitText, this.amounts, 'debit');
    const credit = creditText === '' ? undefined : parseCsvAmount(creditText, this.amounts, 'credit');
    if (debit === undefined && credit === undefined) throw validationError('both the debit and the credit cell are empty', 'content');
    if (debit !== undefined && credit !== undefined && debit !== 0n && credit !== 0n) {
      throw validationError(`both the debit ${quoted(debitText)} and the credit ${quoted(creditText)} cell hold an amount`, 'content',
        'Each row must be money out (debit) or money in (credit)');
    }
    const amount = magnitude(credit) - magnitude(debit);
    if (!isWithinRange(amount)) throw validationError('the amount is outside the signed 128-bit range', 'content');
    return amount;
  }
}

/** A row's cell, trimmed; empty for a column the mapping does not use or the row does not reach. */
function cell(record: readonly string[], index: number | undefined): string {
  return index === undefined ? '' : (record[index] ?? '').trim();
}

/** A row whose every cell is empty or spaces: a blank line, or `;;;;`. */
function isBlank(record: readonly string[]): boolean {
  for (const field of record) if (field !== '' && field.trim() !== '') return false;
  return true;
}

/** The line breaks inside a row's quoted fields; also refuses a field that is too long. */
function lineBreaksWithin(record: readonly string[], line_number: number): number {
  let breaks = 0;
  for (const field of record) {
    if (field.length > MAX_CSV_FIELD_CHARS) throw lineError(line_number, `a field is longer than ${MAX_CSV_FIELD_CHARS} characters`);
    if (field.indexOf('\n') !== -1 || field.indexOf('\r') !== -1) breaks += field.match(LINE_BREAK)?.length ?? 0;
  }
  return breaks;
}

function magnitude(amount: bigint | undefined): bigint {
  if (amount === undefined) return 0n;
  return amount < 0n ? -amount : amount;
}

/** The offset in `text` after its first `count` lines (or its end, when it has fewer). */
function offsetAfterLines(text: string, count: number): number {
  let lines = 0;
  let offset = 0;
  while (lines < count && offset < text.length) {
    const code = text.charCodeAt(offset);
    offset += 1;
    if (code === LINE_FEED || (code === CARRIAGE_RETURN && text.charCodeAt(offset) !== LINE_FEED)) lines += 1;
  }
  return offset;
}

function csvProblem(error: CsvError): string {
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is not closed (a " is missing)';
    case 'CSV_MAX_RECORD_SIZE':
      return `the row is longer than ${MAX_ROW_CHARS} characters (a quote that is never closed?)`;
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'a closing quote is followed by other characters than the delimiter';
    default:
      return `the row is not valid CSV (${error.message})`;
  }
}
