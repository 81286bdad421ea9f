/**
 * Why a database could not be opened, in words a user can act on (never a driver's stack trace).
 * Kept apart from open-ledger.ts so that the CLI's error reporting can recognise these without
 * loading the storage and service modules: `--help`, `--version` and usage errors then start
 * without them.
 */
export type DatabaseErrorCode = 'NOT_FOUND' | 'VALIDATION_ERROR' | 'INTERNAL_ERROR';

export class DatabaseOpenError extends Error {
  constructor(readonly code: DatabaseErrorCode, message: string, readonly suggestion: string) {
    super(message);
    this.name = 'DatabaseOpenError';
  }
}

/** The database (a SQLite file, or a PostgreSQL database without the ledger's schema) does not exist yet. */
export class MissingDatabaseError extends DatabaseOpenError {
  constructor(readonly location: string) {
    super('NOT_FOUND', `No ledger database at ${location}. Run \`ledger init\` (or pass --db / LEDGER_DB) first.`,
      'Run `ledger init` to create it');
  }
}
