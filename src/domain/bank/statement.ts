/**
 * A bank statement as read from a file: the shapes every format reader produces.
 *
 * Reading is a pure function of the file's text, its column mapping (CSV) and the account's
 * currency: `readStatement({format, text, csv?, scale, currencyCode})` in
 * `src/service/bank/formats/read-statement.ts` answers a `ParsedStatement` or throws a
 * `VALIDATION_ERROR` (field `content`, the message naming the file's line, or `csv.*` for a bad
 * mapping). A file with any bad line throws; nothing is ever returned half read.
 * `decodeStatementBytes(bytes)` in `src/service/bank/formats/decode-statement-bytes.ts` turns an
 * uploaded file's bytes into that text.
 *
 * Signs: a line's `amount` is positive when money came INTO the account (a deposit; on a card
 * account, a payment or refund) and negative when it went out. Balances keep the file's own sign
 * (positive = in the holder's favour, as OFX and CAMT state them); turning them to the account's
 * normal side is the importer's job.
 *
 * Fingerprints (`statement-fingerprint.ts`) identify a transaction across overlapping downloads
 * of the same account; their definitions are stable across releases.
 */
export type StatementFormat = 'csv' | 'ofx' | 'camt053';
export const STATEMENT_FORMATS: readonly StatementFormat[] = ['csv', 'ofx', 'camt053'];

export type CsvDateFormat = 'YYYY-MM-DD' | 'DD/MM/YYYY' | 'MM/DD/YYYY' | 'DD.MM.YYYY';
export type CsvDelimiter = ',' | ';' | '\t';
export type DecimalSeparator = '.' | ',';
/** A header name (trimmed, matched case-insensitively) or a 1-based column number. */
export type CsvColumn = string | number;

/** How a CSV file's columns map to statement lines; the `csv` object of the import request. */
export interface CsvMapping {
  delimiter?: CsvDelimiter;
  header?: boolean;
  /** Lines skipped before the header row (a bank's preamble of account information). */
  skip_rows?: number;
  date_column: CsvColumn;
  date_format: CsvDateFormat;
  description_column: CsvColumn;
  /** One signed amount (negative = money out), or else both `debit_column` and `credit_column`. */
  amount_column?: CsvColumn;
  /** Money out, as banks print it. */
  debit_column?: CsvColumn;
  /** Money in. */
  credit_column?: CsvColumn;
  decimal_separator?: DecimalSeparator;
  id_column?: CsvColumn;
  /** The running balance after each row; gives the statement's opening and closing balances. */
  balance_column?: CsvColumn;
}

export interface ParsedStatementLine {
  /** 1-based line in the file where the transaction starts (for error messages and display). */
  line_number: number;
  /** YYYY-MM-DD, the booking date as the bank states it. */
  posted_date: string;
  /** Minor units of the account currency; positive = money into the account. */
  amount: bigint;
  /** Trimmed, inner whitespace collapsed to one space. */
  description: string;
  /** FITID, AcctSvcrRef, NtryRef or the CSV `id_column` value; null when the file has none. */
  external_id: string | null;
  fingerprint: string;
}

export interface ParsedStatement {
  /** The file's own statement period when it states one, else the first and last posted dates. */
  start_date: string | null;
  end_date: string | null;
  /** The file's balances in the bank's sign; null when the file states none. */
  opening_balance: bigint | null;
  closing_balance: bigint | null;
  /** As the file states it (OFX CURDEF, CAMT Acct/Ccy); null for CSV. */
  currency_code: string | null;
  lines: ParsedStatementLine[];
}

/**
 * A line as a format reader produces it, before fingerprints, which need the whole file (a row's
 * fingerprint counts identical rows before it).
 */
export interface StatementLineDraft {
  line_number: number;
  posted_date: string;
  amount: bigint;
  description: string;
  external_id: string | null;
  /** The fingerprint from the bank's own reference (`ofx:...`), or null to fingerprint the row. */
  identity: string | null;
}

export interface StatementDraft {
  /** The period the file states, each end null when it states none. */
  start_date: string | null;
  end_date: string | null;
  opening_balance: bigint | null;
  closing_balance: bigint | null;
  currency_code: string | null;
  lines: StatementLineDraft[];
}

/** More transactions than this in one file are refused: a statement, not a data dump. */
export const MAX_STATEMENT_LINES = 200_000;
/** A CSV field longer than this is refused (a stray quote swallowing the file, or not a statement). */
export const MAX_CSV_FIELD_CHARS = 10_000;
