/**
 * Reading a bank statement file: the one entry point of `src/service/bank/formats/`.
 *
 * ```ts
 * readStatement({ format, text, csv?, scale, currencyCode }): ParsedStatement
 * decodeStatementBytes(bytes): string   // decode-statement-bytes.ts
 * ```
 *
 * `text` is the file's text (from `decodeStatementBytes` for uploaded bytes; a leading BOM is
 * ignored); `scale` and `currencyCode` are the account currency's (amounts with more fraction
 * digits than `scale` are refused, amounts or statements in another currency are refused).
 * The answer is described in `src/domain/bank/statement.ts`. Any problem throws a
 * `VALIDATION_ERROR` (`LedgerError`): field `content` with the file's line number in the message
 * ("line 14: ..."), or `csv.*` for a mapping that does not fit the file. Nothing is returned for a
 * file with a bad line. Pure: no storage, no clock; the same input always gives the same answer.
 */
import * as crypto from 'node:crypto';
import { finishStatement } from '../../../domain/bank/finish-statement.js';
import { STATEMENT_FORMATS, type CsvMapping, type ParsedStatement, type StatementDraft, type StatementFormat } from '../../../domain/bank/statement.js';
import { validationError } from '../../../domain/errors.js';
import { readCamt053Statement } from './read-camt053-statement.js';
import { readCsvStatement } from './read-csv-statement.js';
import { readOfxStatement } from './read-ofx-statement.js';

export interface ReadStatementInput {
  format: StatementFormat;
  text: string;
  /** Required for `csv`, ignored otherwise. */
  csv?: CsvMapping;
  /** The account currency's number of fraction digits (its asset_scale). */
  scale: number;
  /** The account's currency, e.g. "EUR". */
  currencyCode: string;
}

export function readStatement(input: ReadStatementInput): ParsedStatement {
  if (!Number.isSafeInteger(input.scale) || input.scale < 0) throw new RangeError(`scale must be a whole number from 0, not ${input.scale}`);
  const text = input.text.charCodeAt(0) === 0xfeff ? input.text.slice(1) : input.text;
  return finishStatement(readDraft(input.format, text, input), sha256Hex);
}

function readDraft(format: StatementFormat, text: string, input: ReadStatementInput): StatementDraft {
  switch (format) {
    case 'csv':
      return readCsvStatement(text, input.csv, input.scale, input.currencyCode);
    case 'ofx':
      return readOfxStatement(text, input.scale, input.currencyCode);
    case 'camt053':
      return readCamt053Statement(text, input.scale, input.currencyCode);
    default:
      throw validationError(`format must be one of ${STATEMENT_FORMATS.map((name) => JSON.stringify(name)).join(', ')}`, 'format');
  }
}

/**
 * The row fingerprints' hash (`statement-fingerprint.ts`): lower-case hex SHA-256 of the UTF-8
 * text. `crypto.hash` (Node 20.12 and later) is twice as fast as a `createHash` per line; Node
 * 20.10 and 20.11, which the package still accepts, lack it.
 */
const sha256Hex: (text: string) => string = typeof crypto.hash === 'function'
  ? (text) => crypto.hash('sha256', text, 'hex')
  : (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');
