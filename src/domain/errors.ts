/**
 * The closed set of error codes the core can raise. Each face (HTTP, CLI) maps every code in a
 * `Record<ErrorCode, ...>` table, so adding a code here does not compile until both handle it.
 */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'UNBALANCED_ENTRY',
  'INACTIVE_ACCOUNT',
  'CURRENCY_MISMATCH',
  'CONTROL_ACCOUNT',
  'NO_OPEN_PERIOD',
  'RETAINED_EARNINGS_NOT_SET',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'DUPLICATE',
  'PERIOD_OVERLAP',
  'REVERSAL_NOT_ALLOWED',
  'PERIOD_CLOSED',
  'IDEMPOTENCY_CONFLICT',
  'ALREADY_SET_UP',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'AMOUNT_MISMATCH',
  'BANK_LINE_RESOLVED',
  'RECONCILED',
  'RECONCILIATION_DIFFERENCE',
  'EARLIER_PERIOD_OPEN',
  'PERIOD_IN_USE',
  'ACCOUNT_IN_USE',
  'PERIOD_LOCKED',
  'RATE_MISSING',
  'UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorDetails {
  field?: string | undefined;
  suggestion?: string | undefined;
  /** For RATE_LIMITED and UNAVAILABLE: when the caller may try again (the Retry-After header). */
  retryAfterSeconds?: number | undefined;
}

/** A rule violation or failure the caller can act on; carries no transport detail. */
export class LedgerError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  readonly suggestion: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'LedgerError';
    this.code = code;
    this.field = details.field;
    this.suggestion = details.suggestion;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

export function validationError(message: string, field?: string, suggestion?: string): LedgerError {
  return new LedgerError('VALIDATION_ERROR', message, { field, suggestion });
}

export function notFound(resource: string, id: string, field?: string): LedgerError {
  return new LedgerError('NOT_FOUND', `${resource} ${id} does not exist`, {
    field,
    suggestion: `List ${plural(resource.toLowerCase())} to find a valid id`,
  });
}

/** "account" → "accounts", "journal entry" → "journal entries", "currency" → "currencies". */
function plural(noun: string): string {
  return noun.endsWith('y') ? `${noun.slice(0, -1)}ies` : `${noun}s`;
}

export function isLedgerError(value: unknown): value is LedgerError {
  return value instanceof LedgerError;
}

/**
 * An entry whose debits would take its currency's all-time debit total past 2^127 - 1. That total
 * bounds every balance and report total, so keeping it in range keeps every sum exact in 128 bits.
 */
export function currencyTotalOverflow(): LedgerError {
  return validationError('Posting this entry would take the currency\'s totals beyond 2^127 - 1', 'lines',
    'Amounts this large cannot be summed exactly in 128 bits; use a currency with a smaller asset_scale');
}
