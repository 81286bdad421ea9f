/**
 * Errors about a statement file. Each is a `VALIDATION_ERROR` on `content` (the file the caller
 * sent) whose message names the file's line, so that a person can open the file and find it.
 */
import { LedgerError, validationError } from '../errors.js';
import { MAX_STATEMENT_LINES } from './statement.js';

/** Errors that already name their line, so that `atLine` inside `atLine` does not name it twice. */
const namingTheirLine = new WeakSet<LedgerError>();

/** An error on one line of the file: "line 14: amount "12.345" has more than 2 decimal places". */
export function lineError(lineNumber: number, message: string, suggestion?: string): LedgerError {
  const error = validationError(`line ${lineNumber}: ${message}`, 'content',
    suggestion ?? `Correct line ${lineNumber} of the file (or export it again) and import the whole file again; a file with a bad line imports nothing`);
  namingTheirLine.add(error);
  return error;
}

/** An error about the file as a whole (its kind, its account, its currency). */
export function fileError(message: string, suggestion?: string): LedgerError {
  return validationError(message, 'content', suggestion);
}

/**
 * Runs `read` for one line of the file; a `LedgerError` it throws (a bad amount, a bad date) is
 * thrown again with the line number in front of its message and `content` as its field.
 */
export function atLine<T>(lineNumber: number, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof LedgerError) || namingTheirLine.has(error)) throw error;
    throw lineError(lineNumber, error.message, error.suggestion);
  }
}

export function tooManyLines(): LedgerError {
  return fileError(`The file holds more than ${MAX_STATEMENT_LINES.toLocaleString('en-US')} transactions`,
    'Download the statement in shorter periods and import each file');
}

/** Shortens a value quoted in a message, so that a huge field cannot make a huge error. */
export function quoted(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}
