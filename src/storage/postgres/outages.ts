/**
 * When PostgreSQL cannot be reached (stopped, restarting, failing over, or the host a URL names is a
 * standby that refuses writes), every request is answered `503 UNAVAILABLE` with `Retry-After`,
 * never a 500, and the pool reconnects by itself once the database answers again
 * (docs/operations.md, "Database outages").
 *
 * A write whose connection is lost while COMMIT is on its way is different: the database may have
 * committed it or not, and nothing here can tell. It is never run again; its caller is told the
 * outcome is unknown and how to learn it (the same request with the same Idempotency-Key answers
 * the first outcome, since the key's record commits with the change).
 */
import { LedgerError } from '../../domain/errors.js';

/** Seconds a client is asked to wait before trying again while the database does not answer. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/** Socket errors of a connection that could not be made or was cut. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
  'EPIPE', 'ECONNABORTED']);

/**
 * SQLSTATEs of a server that is going away, not there yet, or not the primary: class 08
 * (connection exception), 57P01-57P03 (shut down by the administrator, crashed, cannot connect
 * now: starting up or in recovery), 53300 (too many connections), 25006 (a read-only transaction:
 * the host is a standby, as the old primary is after a failover that demoted it).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '25006']);

/** What `pg` itself throws when a connection ends or cannot be made in time (no code of its own). */
const LOST_CONNECTION_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable|Connection ended|server closed the connection/i;

/** True when `error` says the database cannot be reached now, not that a statement is wrong. */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith('08')) return true;
    if (/^[0-9A-Z]{5}$/.test(code)) return false;
  }
  return typeof message === 'string' && LOST_CONNECTION_MESSAGES.test(message);
}

export function databaseUnavailable(): LedgerError {
  return new LedgerError('UNAVAILABLE', 'The database is not answering', {
    suggestion: `Retry in ${UNAVAILABLE_RETRY_AFTER_SECONDS} seconds; the server reconnects by itself once the database is back`,
    retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
  });
}

/** The connection was lost while a group's COMMIT was on its way: whether it committed is unknown. */
export class CommitOutcomeUnknown extends Error {
  constructor(override readonly cause: unknown) {
    super('the connection was lost during COMMIT');
  }
}

export function commitOutcomeUnknown(): LedgerError {
  return new LedgerError('UNAVAILABLE',
    'The connection to the database was lost while this change was being committed: it may or may not have been saved', {
      suggestion: 'Send the same request again with the same Idempotency-Key: it answers the first outcome, or makes the change once if it '
        + 'was not saved. Without a key, look for the change (e.g. GET /api/v1/journal-entries?reference=...) before sending it again',
      retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
    });
}

/** A driver error as the ledger tells it: the two kinds above, or the error itself. */
export function outageError(error: unknown): unknown {
  if (error instanceof CommitOutcomeUnknown) return commitOutcomeUnknown();
  return isDatabaseUnreachable(error) ? databaseUnavailable() : error;
}
