/**
 * The storage port. The service talks only to these interfaces; no driver type crosses them. The
 * reads and writes are declared by concern, one file each (books-store.ts, credentials-store.ts,
 * idempotency-store.ts, audit-store.ts, copying-store.ts, banking-store.ts, rates-store.ts, events-store.ts, webhooks-store.ts), and
 * composed here into the store and its write transaction.
 * Adapters (storage/sqlite, storage/postgres) translate their driver's failures into LedgerError
 * codes (a unique violation becomes DUPLICATE, and so on). Every adapter passes the one contract
 * suite in test/storage/.
 */
import type { AuditReads, AuditWrites } from './audit-store.js';
import type { BankingReads, BankingWrites } from './banking-store.js';
import type { BooksReads, BooksWrites } from './books-store.js';
import type { CopyingReads } from './copying-store.js';
import type { CredentialReads, CredentialWrites } from './credentials-store.js';
import type { EventsReads, EventsWrites } from './events-store.js';
import type { WebhooksReads, WebhooksWrites } from './webhooks-store.js';
import type { IdempotencyReads, IdempotencyWrites } from './idempotency-store.js';
import type { RatesReads, RatesWrites } from './rates-store.js';
import type { ConnectionPoolUse } from './observer.js';
import type { Permissions } from '../../domain/types.js';

/** A keyset position: the sort-key values of the last row of the previous page. */
export type { Keyset, PageRequest, StorePage } from './store-pages.js';
export type * from './audit-store.js';
export type * from './books-store.js';
export type * from './copying-store.js';
export type * from './credentials-store.js';
export type * from './events-store.js';
export type * from './webhooks-store.js';
export type * from './idempotency-store.js';

/**
 * Every read of the store, by concern: the books, credentials, idempotency keys, the audit log,
 * whole-ledger copying, banking and exchange rates (one file each beside this one).
 */
export interface LedgerReads extends BooksReads, CredentialReads, IdempotencyReads, AuditReads, CopyingReads, BankingReads, RatesReads,
  EventsReads, WebhooksReads {}

/** Every write of the store, by concern; only inside `write`. */
export interface LedgerWrites extends BooksWrites, CredentialWrites, IdempotencyWrites, AuditWrites, BankingWrites, RatesWrites,
  EventsWrites, WebhooksWrites {}

/**
 * Reads and writes inside one write transaction. Where a rule depends on what a read saw, the read
 * holds that row against other writers (other processes too) until the transaction ends:
 * `findPeriodContaining` holds the period against a close (posts to one period run side by side),
 * `getPeriod` holds it against every post and close, `findRefreshToken` holds the token,
 * `countActiveAdmins` holds every active admin, `countUsers` holds the first-user setup, and
 * `findOverlappingPeriods` holds period creation. Uniqueness (reversals, idempotency keys, codes,
 * numbers, e-mails) is kept by the database's own constraints.
 *
 * A call that fails rejects at once with a LedgerError where the failure is the caller's (a
 * duplicate is DUPLICATE, an entry past its currency's bound is `currencyTotalOverflow()`). After
 * one refused call the job is over: later calls reject with the same error and the whole job is
 * rolled back, even if it caught the error and went on.
 *
 * Pending writes: inside a write, every read sees every write made before it in the same
 * transaction, the running job's and those of the jobs grouped before it (storage/shared/
 * group-commit.ts), and none of a job that failed. Adapters may keep rows in memory until the
 * group commits (totals, search words, PostgreSQL's grouped entries); a read that needs them
 * writes them first. Nothing outside the transaction sees any of it before COMMIT.
 */
export interface LedgerTx extends LedgerReads, LedgerWrites {}

/** How a write is queued (LedgerStore.write). */
export interface WriteOptions {
  /**
   * A large job (a batch, an import, a copy): it commits in a transaction of its own instead of
   * sharing one with the jobs queued beside it. Sharing saves those nothing (its own work dwarfs a
   * commit) and costs it: a job that shares a transaction runs under a savepoint, which on SQLite
   * makes each page it changes cost more the more the savepoint already holds.
   */
  readonly alone?: boolean;
}

export interface LedgerStore extends LedgerReads {
  /**
   * Runs `work` in one write transaction: all of it commits or none of it does, and it behaves as
   * if no other writer ran at the same time (the rules above). A rejected `work` rolls back only
   * its own changes. A transaction that loses a race with another process (a serialisation
   * failure or deadlock) is run again by the adapter, so `work` may run more than once and must
   * act only through `tx`: hash passwords, sign tokens and do any other slow or asynchronous work
   * before or after.
   */
  write<T>(work: (tx: LedgerTx) => Promise<T>, options?: WriteOptions): Promise<T>;
  /**
   * Resolves once this process has no write queued or running (at once when it has none), or
   * after `maxWaitMs`: how work in the background (webhook delivery) gives way to the writes the
   * requests are waiting for while they keep the queue full.
   */
  writesIdle(maxWaitMs: number): Promise<void>;
  /**
   * Runs `work` on one consistent snapshot of committed data: every read inside sees the same
   * state, whatever other processes commit meanwhile. Reports and any answer built from several
   * reads use it.
   */
  read<T>(work: (reads: LedgerReads) => Promise<T>): Promise<T>;
  /** True when the database answers. */
  ping(): Promise<boolean>;
  /**
   * The database's migrations against this code's: what /readyz and `ledger doctor` check. Throws
   * when the database does not answer (PostgreSQL: UNAVAILABLE).
   */
  schemaState(): Promise<SchemaState>;
  /** The connection pool's use (PostgreSQL); undefined for a store without one (SQLite). */
  connectionPool(): ConnectionPoolUse | undefined;
  close(): Promise<void>;
}

export interface SchemaState {
  /** The highest migration this code knows. */
  expected: number;
  /** This code's migrations the database lacks (an older ledger not yet upgraded); empty when current. */
  missing: number[];
  /** Migrations the database has that this code does not know (a newer version of `ledger` upgraded it). */
  newer: number[];
}

/** Compares the versions a database recorded with the versions the code knows. */
export function compareSchema(applied: readonly number[], known: readonly number[]): SchemaState {
  const has = new Set(applied);
  const knows = new Set(known);
  return {
    expected: Math.max(0, ...known),
    missing: known.filter((version) => !has.has(version)),
    newer: applied.filter((version) => !knows.has(version)).sort((a, b) => a - b),
  };
}

export type { Permissions };
