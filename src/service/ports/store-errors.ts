/**
 * Why a store could not be opened, in words a user can act on (never a driver's stack trace):
 * the server is unreachable, the database does not exist or has no ledger yet, the location is
 * malformed. Adapters raise it; the faces print it (the CLI maps `code` to its exit code).
 */
export type StoreOpenErrorCode = 'NOT_FOUND' | 'VALIDATION_ERROR' | 'UNAVAILABLE' | 'INTERNAL_ERROR';

export class StoreOpenError extends Error {
  constructor(readonly code: StoreOpenErrorCode, message: string, readonly suggestion: string) {
    super(message);
    this.name = 'StoreOpenError';
  }
}
