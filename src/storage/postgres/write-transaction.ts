/**
 * One write transaction of the group commit (PostgreSQL): the queued jobs run one after another,
 * and this decides when what they write reaches the database.
 *
 * Grouped (the default): the entries and audit records a job posts wait in the WriteBuffer and are
 * written with the whole group's as one statement just before COMMIT. A job that issues no other
 * write needs no savepoint, and if it fails, what it added is simply forgotten. A job that does
 * write (any statement that is not a SELECT: a currency, a user, an idempotency key, a period
 * closed) first gets a savepoint, taken after the group's pending rows are written (so rolling back
 * to it never drops an earlier job's rows), and its own pending rows are written before its
 * statement, so every write sees what was posted before it.
 *
 * A statement that fails while the running job has no savepoint (the group's rows refused as a
 * whole, for example two jobs reversing the same entry) cannot be pinned on one job: the group is
 * then rolled back and run again `careful`ly, each job under its own savepoint with its rows
 * written when it ends, so that each job gets its own answer.
 *
 * Periods locked (FOR SHARE) are remembered within the transaction: they stay locked until COMMIT,
 * so no other transaction can change them meanwhile. Accounts read are remembered by the process
 * (AccountCache) for as long as the database's accounts version, read as each transaction begins,
 * stays the same: a transaction sees the accounts as they were when it began, as if it had read
 * them then. Both are forgotten whenever this transaction changes an account or a period, or rolls
 * a job back (a rollback to a savepoint may release locks taken after it). The credentials version
 * (service/auth/authenticate.ts) is read in the same statement as the accounts version, and read
 * again after this transaction changes a user or an API key or rolls back a job that may have.
 */
import type { Account, Period } from '../../domain/types.js';
import type { AccountCache } from '../shared/account-cache.js';
import type { JobState } from '../shared/errors.js';
import { PendingTables } from '../shared/pending-writes.js';
import { PeriodMemo } from '../shared/period-memo.js';
import { type PgExecutor, PgQueries } from './queries.js';
import { POSTGRES_PENDING_TABLES, WriteBuffer } from './write-buffer.js';

const PENDING_TABLES = new PendingTables(POSTGRES_PENDING_TABLES);

/** A statement failed with no savepoint to roll back to: the group is run again, carefully. */
export class RunCarefully extends Error {
  constructor(override readonly cause: unknown) {
    super('a grouped write failed; running the group again job by job');
  }
}

export class WriteTransaction {
  readonly buffer = new WriteBuffer();
  /** The running job's first refused call (see guardedTransaction). */
  readonly job: JobState = { failure: undefined };
  /** The transaction's own statements (control, the buffer's writes). */
  private readonly own: PgQueries;
  /**
   * The jobs' statements: a read of a pending table (POSTGRES_PENDING_TABLES) first writes what is
   * pending; a job's first write first takes its savepoint and writes the pending rows.
   */
  readonly q: PgQueries;
  /**
   * The locks the buffer itself keeps track of (the entry numbers' row, a currency's total): taken
   * without writing what is pending, which they neither read nor change.
   */
  readonly locks: PgQueries;
  private savepoint = false;
  /** Why the transaction cannot go on (a statement failed while the job had no savepoint). */
  private unrecoverable: unknown;
  private readonly periods = new PeriodMemo();
  /** The credentials version, read as the transaction began; undefined once this transaction changed a user or key. */
  private credentials: string | undefined;

  constructor(connection: PgExecutor, readonly careful: boolean, private readonly accounts: AccountCache) {
    const executor: PgExecutor = {
      query: async (config) => {
        try {
          return await connection.query(config);
        } catch (error) {
          if (!this.savepoint) this.unrecoverable ??= error;
          throw error;
        }
      },
    } as PgExecutor;
    this.own = new PgQueries(executor, true);
    this.locks = this.own;
    this.q = new PgQueries(executor, true, (sql, read) => {
      if (!read) return this.beforeWrite();
      return PENDING_TABLES.touchedBy(sql) ? this.flush() : undefined;
    });
  }

  async begin(): Promise<void> {
    const rows = await this.own.script<{ name: string; version: string }>(`BEGIN; ${this.careful ? 'SAVEPOINT job; ' : ''}`
      + "SELECT name, version::text AS version FROM catalog_versions WHERE name IN ('accounts', 'credentials')");
    const version = (name: string) => rows.find((row) => row.name === name)!.version;
    this.accounts.validate(version('accounts'));
    this.credentials = version('credentials');
    this.savepoint = this.careful;
  }

  /**
   * The credentials version as the transaction began: it moves only when a user or key changes,
   * and this transaction forgets it when it changes one itself (the statement that does moves it).
   */
  async credentialsVersion(read: () => Promise<string>): Promise<string> {
    this.credentials ??= await read();
    return this.credentials;
  }

  /** The transaction changes a user or an API key: the version read as it began is out of date. */
  forgetCredentials(): void {
    this.credentials = undefined;
  }

  startJob(): void {
    this.job.failure = undefined;
  }

  /** The running job succeeded: its rows join the group's (careful: are written now). */
  async keepJob(): Promise<void> {
    if (this.careful) {
      await this.buffer.writeJob(this.own);
      this.buffer.keepJob();
      await this.own.command('RELEASE job; SAVEPOINT job');
      return;
    }
    this.buffer.keepJob();
    if (this.savepoint) {
      await this.own.command('RELEASE job');
      this.savepoint = false;
    }
    if (this.buffer.full) await this.buffer.writeGroup(this.own);
  }

  /** The running job failed: what it added is forgotten, what it wrote rolled back. */
  async dropJob(): Promise<void> {
    this.buffer.dropJob();
    if (!this.savepoint) return;
    // What the job changed is undone: accounts, periods and the credentials version are read again.
    this.forget();
    this.forgetCredentials();
    if (this.careful) {
      await this.own.command('ROLLBACK TO job');
    } else {
      await this.own.command('ROLLBACK TO job; RELEASE job');
      this.savepoint = false;
    }
  }

  /** True when a statement failed where no savepoint can undo it: only a rerun of the group can. */
  get broken(): boolean {
    return this.unrecoverable !== undefined;
  }

  /** Writes the group's pending rows (the last statement before COMMIT). */
  async finish(): Promise<void> {
    await this.buffer.writeGroup(this.own);
  }

  /** Writes every pending row: the group's, then the running job's (under its savepoint). */
  async flush(): Promise<void> {
    await this.buffer.writeGroup(this.own);
    if (!this.buffer.jobEmpty) {
      await this.takeSavepoint();
      await this.buffer.writeJob(this.own);
    }
  }

  /** Before a job's first write: the group's rows, then the savepoint, then the job's own rows. */
  private async beforeWrite(): Promise<void> {
    await this.takeSavepoint();
    await this.buffer.writeJob(this.own);
  }

  private async takeSavepoint(): Promise<void> {
    if (this.savepoint) return;
    await this.buffer.writeGroup(this.own);
    await this.own.command('SAVEPOINT job');
    this.savepoint = true;
  }

  /** The transaction changes accounts or periods: what it remembers of them may be stale. */
  forget(): void {
    this.accounts.clear();
    this.periods.clear();
  }

  /** Accounts from memory where this transaction (or the process, under the same accounts version) read them already. */
  getAccounts(ids: readonly string[], load: (ids: readonly string[]) => Promise<Map<string, Account>>): Promise<Map<string, Account>> {
    return this.accounts.getAccounts(ids, load);
  }

  /** A period this transaction locked already (it stays locked until COMMIT), else `load`ed and remembered. */
  findPeriodContaining(date: string, load: (date: string) => Promise<Period | undefined>): Promise<Period | undefined> {
    return this.periods.find(date, load);
  }
}
