/** Printing results and failures: JSON envelopes under --json, readable text otherwise. */
import { isLedgerError } from '../domain/errors.js';
import { MissingDatabaseError } from '../app/missing-database-error.js';
import { StoreOpenError } from '../service/ports/store-errors.js';
import { EXIT, EXIT_CODE } from './exit-codes.js';

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function reportFailure(error: unknown, json: boolean): number {
  // `ledger export ... | head`: the reader has all it wanted (see the stdout handler in main.ts).
  if ((error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE') return EXIT.ok;
  if (error instanceof StoreOpenError) {
    const body = { code: error.code, message: error.message, suggestion: error.suggestion };
    // A missing database's message already says to run `ledger init`.
    const hint = error instanceof MissingDatabaseError ? '' : `${error.suggestion}\n`;
    process.stderr.write(json ? `${JSON.stringify(body)}\n` : `error: ${error.message}\n${hint}`);
    return EXIT_CODE[error.code];
  }
  if (isLedgerError(error)) {
    const body: Record<string, string> = { code: error.code, message: error.message };
    if (error.field !== undefined) body.field = error.field;
    if (error.suggestion !== undefined) body.suggestion = error.suggestion;
    if (json) process.stderr.write(`${JSON.stringify(body)}\n`);
    else {
      const where = error.field ? ` (${error.field})` : '';
      process.stderr.write(`error [${error.code}]${where}: ${error.message}\n`);
      if (error.suggestion) process.stderr.write(`hint: ${error.suggestion}\n`);
    }
    return EXIT_CODE[error.code];
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(json ? `${JSON.stringify({ code: 'INTERNAL_ERROR', message })}\n` : `error: ${message}\n`);
  return EXIT.internal;
}
