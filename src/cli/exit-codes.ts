/** The CLI face's mapping of every core error code to a process exit code (docs/cli.md). */
import type { ErrorCode } from '../domain/errors.js';

export const EXIT = {
  ok: 0,
  rejected: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  internal: 5,
  /** The database could not be reached (or the outcome of a write is unknown): try again later. */
  unavailable: 6,
} as const;

export const EXIT_CODE: Record<ErrorCode, number> = {
  VALIDATION_ERROR: EXIT.rejected,
  UNBALANCED_ENTRY: EXIT.rejected,
  INACTIVE_ACCOUNT: EXIT.rejected,
  CURRENCY_MISMATCH: EXIT.rejected,
  CONTROL_ACCOUNT: EXIT.rejected,
  NO_OPEN_PERIOD: EXIT.rejected,
  RETAINED_EARNINGS_NOT_SET: EXIT.rejected,
  DUPLICATE: EXIT.rejected,
  PERIOD_OVERLAP: EXIT.rejected,
  REVERSAL_NOT_ALLOWED: EXIT.rejected,
  PERIOD_CLOSED: EXIT.rejected,
  IDEMPOTENCY_CONFLICT: EXIT.rejected,
  ALREADY_SET_UP: EXIT.rejected,
  UNSUPPORTED_MEDIA_TYPE: EXIT.usage,
  PAYLOAD_TOO_LARGE: EXIT.rejected,
  RATE_LIMITED: EXIT.rejected,
  AMOUNT_MISMATCH: EXIT.rejected,
  BANK_LINE_RESOLVED: EXIT.rejected,
  RECONCILED: EXIT.rejected,
  RECONCILIATION_DIFFERENCE: EXIT.rejected,
  EARLIER_PERIOD_OPEN: EXIT.rejected,
  PERIOD_IN_USE: EXIT.rejected,
  ACCOUNT_IN_USE: EXIT.rejected,
  PERIOD_LOCKED: EXIT.rejected,
  RATE_MISSING: EXIT.rejected,
  UNAUTHORIZED: EXIT.auth,
  FORBIDDEN: EXIT.auth,
  NOT_FOUND: EXIT.notFound,
  INTERNAL_ERROR: EXIT.internal,
  UNAVAILABLE: EXIT.unavailable,
};
