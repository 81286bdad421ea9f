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
