/** Ledger errors for constraint violations, worded the same whichever database found them. */
import { LedgerError } from '../../domain/errors.js';

const DUPLICATE_MESSAGES: Record<string, string> = {
  'currencies.code': 'A currency with this code already exists',
  'currencies.caip19_id': 'A currency with this CAIP-19 id already exists',
  'accounts.account_number': 'An account with this account number already exists',
  'users.email': 'A user with this e-mail address already exists',
};

/** A unique constraint on `table.column` was violated. */
export function uniqueViolation(table: string | undefined, column: string | undefined): LedgerError {
  if (column === 'reverses_id') {
    return new LedgerError('REVERSAL_NOT_ALLOWED', 'The entry was already reversed', {
      suggestion: 'Post a new entry to correct it further',
    });
  }
  const what = DUPLICATE_MESSAGES[`${table}.${column}`];
  return new LedgerError('DUPLICATE', what ?? `${column ?? 'value'} is already taken`, {
    field: column, suggestion: `Choose a different ${column ?? 'value'}`,
  });
}

/** What a write job's calls have met so far: the first refusal, if any. */
export interface JobState {
  failure: unknown;
}

/**
 * The transaction as a job sees it: every call that fails rejects with a ledger error at once (a
 * unique violation is DUPLICATE inside the job, not only when the job ends), and after one call
 * was refused every later call is refused the same way. The group commit then rolls the whole job
 * back even if the job caught the error and went on: a statement that failed may have left the
 * database transaction unusable (PostgreSQL) or half a call written (SQLite), so both adapters
 * end the job alike. `state` is reset by the group commit before each job.
 */
export function guardedTransaction<T extends object>(tx: T, translate: (error: unknown) => unknown, state: JobState): T {
  const guarded: Record<string, unknown> = {};
  // Every method of the transaction's class and of the classes it extends (its concerns are mixed into them).
  for (let proto = Object.getPrototypeOf(tx); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || name in guarded) continue;
      const method = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
      if (typeof method !== 'function') continue;
      guarded[name] = async (...args: unknown[]) => {
        if (state.failure !== undefined) throw state.failure;
        try {
          return await (method as (...a: unknown[]) => Promise<unknown>).apply(tx, args);
        } catch (error) {
          state.failure = translate(error);
          throw state.failure;
        }
      };
    }
  }
  return guarded as T;
}
