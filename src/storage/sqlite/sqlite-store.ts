/**
 * The SQLite adapter of the LedgerStore port (better-sqlite3): connections, transactions and
 * group commit. What the statements are lives beside it, one file per concern: schema.ts,
 * ledger-reads.ts, posting.ts, users.ts.
 *
 * Reads outside a transaction use a reader connection that sees only committed data. `read()`
 * borrows a pooled reader connection and holds one WAL snapshot for the whole callback. Writes are
 * queued and committed in groups by the one write queue (storage/shared/group-commit.ts, with
 * `SqliteGroups` below as its driver): every job queued in the same event-loop turn runs inside one
 * `BEGIN IMMEDIATE` transaction, each under its own savepoint, so a rejected job rolls back only
 * itself and one fsync serves many requests (durable `synchronous=FULL` at high throughput).
 * `BEGIN IMMEDIATE` takes SQLite's single write lock, so every write transaction, in this process
 * or another, runs alone: the rules that read-then-write need no further locking here.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, openSync, statSync } from 'node:fs';
import { LedgerError } from '../../domain/errors.js';
import type { Period } from '../../domain/types.js';
import type { LedgerReads, LedgerStore, LedgerTx } from '../../service/ports/ledger-store.js';
import { AccountCache } from '../shared/account-cache.js';
import { guardedTransaction, type JobState, uniqueViolation } from '../shared/errors.js';
import { GroupCommit, type GroupDriver, type GroupFailure, type GroupTransaction } from '../shared/group-commit.js';
import { PendingTables } from '../shared/pending-writes.js';
import { auditReads, auditWrites } from './audit-log.js';
import { bankingReads, bankingWrites } from './banking.js';
import { ratesReads, ratesWrites } from './exchange-rates.js';
import { ledgerReads } from './ledger-reads.js';
import { PendingWrites, SQLITE_PENDING_TABLES } from './pending-writes.js';
import { postingWrites } from './posting.js';
import { SqliteQueries } from './queries.js';
import { MIGRATIONS } from './schema.js';
import { userReads, userWrites } from './users.js';

type Sqlite = Database.Database;

export interface SqliteStoreOptions {
  path: string;
  /** FULL (default) fsyncs every commit; NORMAL trades the last commits on power loss for speed. */
  synchronous?: 'FULL' | 'NORMAL';
  busyTimeoutMs?: number;
}

/**
 * The ledger file holds the password hashes and (unless LEDGER_JWT_SECRET is set) the token
 * signing secret, so only its owner may read it. SQLite gives the -wal, -shm and -journal files
 * the mode of the database file, so creating the file 0600 covers them too.
 */
export const DATABASE_FILE_MODE = 0o600;

/** Creates an empty file readable by its owner only, unless one exists; tightens the mode of one created before. */
export function createPrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', DATABASE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // A file made by an older version may be 0644: tightened when its owner runs init or serve.
  // Someone else's file (EPERM) is left as it is.
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, DATABASE_FILE_MODE);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EPERM') throw error;
    }
  }
}

function isEmptyFile(path: string): boolean {
  try {
    return statSync(path).size === 0;
  } catch {
    return false;
  }
}

/** Creates the database file (owner-only) if needed and brings its schema up to date. */
export function migrateSqlite(path: string): void {
  if (path !== ':memory:') createPrivateFile(path);
  const db = new Database(path);
  try {
    configure(db, 'FULL', 10_000);
    migrate(db);
  } finally {
    db.close();
  }
}

function configure(db: Sqlite, synchronous: string, busyTimeoutMs: number): void {
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('foreign_keys = ON');
  // Each queued write runs under a savepoint; past 64 KiB SQLite would spill the savepoint journal
  // to temporary files, a third of the write throughput. Temporary data stays in memory.
  db.pragma('temp_store = MEMORY');
}

function migrate(db: Sqlite): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT');
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
  const apply = db.transaction((migration: (typeof MIGRATIONS)[number]) => {
    db.exec(migration.sql);
    migration.backfill?.(db);
    if (migration.rebuildsReferencedTable && (db.pragma('foreign_key_check') as unknown[]).length > 0) {
      throw new Error(`migration ${migration.version} (${migration.name}) would leave references to rows that no longer exist`);
    }
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
      .run(migration.version, migration.name, new Date().toISOString());
  });
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    if (migration.rebuildsReferencedTable) db.pragma('foreign_keys = OFF');
    try {
      apply.immediate(migration);
    } finally {
      if (migration.rebuildsReferencedTable) db.pragma('foreign_keys = ON');
    }
  }
}

function readsOn(q: SqliteQueries): LedgerReads {
  return { ...ledgerReads(q), ...userReads(q), ...auditReads(q), ...bankingReads(q), ...ratesReads(q) };
}

/**
 * Periods found by a write transaction: every post looks up its date's period, and the entries of
 * a group or an import mostly fall in the same few. Valid, like the accounts, while the transaction
 * holds the write lock and has not changed a period or rolled a job back.
 */
class PeriodMemo {
  private readonly periods: Period[] = [];

  async find(date: string, load: (date: string) => Promise<Period | undefined>): Promise<Period | undefined> {
    const known = this.periods.find((period) => period.start_date <= date && date <= period.end_date);
    if (known) return known;
    const found = await load(date);
    if (found) this.periods.push(found);
    return found;
  }

  clear(): void {
    this.periods.length = 0;
  }
}

/** A write that changes what `memo` remembers: the memo forgets it first. */
function forgetting<A extends unknown[], R>(memo: { clear(): void }, write: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    memo.clear();
    return write(...args);
  };
}

/**
 * The write transaction's view: accounts and periods are remembered until the transaction ends or
 * changes one (see GroupCommit). What it keeps pending (pending-writes.ts) is written by `q` before
 * any statement that touches a pending table, so every read sees it (the port's rule).
 */
function txOn(q: SqliteQueries, pending: PendingWrites, accounts: AccountCache, periods: PeriodMemo,
  onAuditWritten: () => void): LedgerTx {
  const reads = readsOn(q);
  const writes = postingWrites(q, pending);
  return {
    ...reads, ...writes, ...userWrites(q), ...auditWrites(q, onAuditWritten), ...bankingWrites(q), ...ratesWrites(q),
    getAccounts: (ids) => accounts.getAccounts(ids, reads.getAccounts),
    insertAccount: forgetting(accounts, writes.insertAccount),
    updateAccount: forgetting(accounts, writes.updateAccount),
    findPeriodContaining: (date) => periods.find(date, reads.findPeriodContaining),
    insertPeriod: forgetting(periods, writes.insertPeriod),
    updatePeriod: forgetting(periods, writes.updatePeriod),
    deletePeriod: forgetting(periods, writes.deletePeriod),
    deleteAccount: forgetting(accounts, writes.deleteAccount),
  };
}

/** Turns driver errors into ledger errors; anything unknown passes through (a bug: 500). */
function translateError(error: unknown): unknown {
  if (error instanceof LedgerError) return error;
  const code = (error as { code?: string }).code;
  const message = (error as { message?: string }).message ?? '';
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const [, table, column] = /UNIQUE constraint failed: (\w+)\.(\w+)/.exec(message) ?? [];
    return uniqueViolation(table, column);
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new Error(`database is busy: ${message}`);
  }
  return error;
}

const MAX_JOBS_PER_COMMIT = 512;
/** Reader connections kept open for `read()` snapshots between uses. */
const MAX_IDLE_SNAPSHOT_READERS = 4;

interface SnapshotReader {
  db: Sqlite;
  reads: LedgerReads;
  begin: Database.Statement;
  end: Database.Statement;
}

export function openSqliteStore(options: SqliteStoreOptions): LedgerStore {
  const busyTimeoutMs = options.busyTimeoutMs ?? 10_000;
  // An existing empty file (made by `touch`, or given to `ledger copy --to`) is about to hold a
  // ledger: it gets the mode of every database file before anything is written into it.
  if (options.path !== ':memory:' && isEmptyFile(options.path)) createPrivateFile(options.path);
  const writer = new Database(options.path, { fileMustExist: true });
  configure(writer, options.synchronous ?? 'FULL', busyTimeoutMs);
  migrate(writer);
  const openReader = () => {
    const db = new Database(options.path, { fileMustExist: true, readonly: true });
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    return db;
  };
  const reader = openReader();
  const writes = new GroupCommit(new SqliteGroups(writer));
  const idleReaders: SnapshotReader[] = [];
  const busyReaders = new Set<SnapshotReader>();

  const borrowReader = (): SnapshotReader => {
    const idle = idleReaders.pop();
    if (idle) return idle;
    const db = openReader();
    return { db, reads: readsOn(new SqliteQueries(db)), begin: db.prepare('BEGIN'), end: db.prepare('COMMIT') };
  };

  return {
    ...readsOn(new SqliteQueries(reader)),

    write: (work) => writes.enqueue(work),

    async read(work) {
      // Each snapshot has a connection of its own: the WAL snapshot starts at its first read and
      // lasts until COMMIT, and no other request's reads can land inside it.
      const snapshot = borrowReader();
      busyReaders.add(snapshot);
      snapshot.begin.run();
      try {
        return await work(snapshot.reads);
      } finally {
        snapshot.end.run();
        busyReaders.delete(snapshot);
        if (idleReaders.length < MAX_IDLE_SNAPSHOT_READERS) idleReaders.push(snapshot);
        else snapshot.db.close();
      }
    },

    async ping() {
      return (reader.prepare('SELECT 1 AS one').get() as { one: number } | undefined)?.one === 1;
    },

    async close() {
      await writes.drain();
      while (busyReaders.size > 0) await new Promise((resolve) => setImmediate(resolve));
      for (const idle of idleReaders.splice(0)) idle.db.close();
      reader.close();
      writer.close();
    },
  };
}

/**
 * The SQLite driver of the write queue (storage/shared/group-commit.ts): a group is one `BEGIN
 * IMMEDIATE` transaction on the writer connection, each job under the savepoint `job`. The
 * totals and words its entries add are written once, before COMMIT (pending-writes.ts). A group
 * whose transaction fails as a whole (busy past the timeout, disk full, I/O error) is not run
 * again: nothing of it committed, and its jobs are told so.
 */
class SqliteGroups implements GroupDriver {
  readonly maxJobs = MAX_JOBS_PER_COMMIT;
  private readonly transaction: SqliteGroup;

  constructor(writer: Sqlite) {
    this.transaction = new SqliteGroup(writer);
  }

  async begin(): Promise<GroupTransaction> {
    this.transaction.begin();
    return this.transaction;
  }

  failed(error: unknown): GroupFailure {
    return { rerun: false, error };
  }

  translate(error: unknown): unknown {
    return translateError(error);
  }
}

/** The writer connection's transaction; one at a time, so one object serves every group. */
class SqliteGroup implements GroupTransaction {
  readonly tx: LedgerTx;
  readonly job: JobState = { failure: undefined };
  auditWritten = false;
  /** The totals and words the running transaction's entries add, written once before COMMIT. */
  private readonly pending: PendingWrites;
  /** Accounts and periods read in the running transaction: it holds the write lock, so only it can change them. */
  private readonly accounts = new AccountCache();
  private readonly periods = new PeriodMemo();
  /** Transaction control runs for every queued job, so its statements are prepared once. */
  private readonly control: Record<'begin' | 'savepoint' | 'release' | 'rollbackTo' | 'commit', Database.Statement>;

  constructor(private readonly writer: Sqlite) {
    const own = new SqliteQueries(writer);
    this.pending = new PendingWrites(own);
    const pendingTables = new PendingTables(SQLITE_PENDING_TABLES);
    const q = own.withHook((sql) => {
      if (pendingTables.touchedBy(sql)) this.pending.write();
    });
    this.tx = guardedTransaction(txOn(q, this.pending, this.accounts, this.periods, () => { this.auditWritten = true; }),
      translateError, this.job);
    this.control = {
      begin: writer.prepare('BEGIN IMMEDIATE'),
      savepoint: writer.prepare('SAVEPOINT job'),
      release: writer.prepare('RELEASE job'),
      rollbackTo: writer.prepare('ROLLBACK TO job'),
      commit: writer.prepare('COMMIT'),
    };
  }

  begin(): void {
    this.auditWritten = false;
    this.control.begin.run();
    this.pending.begin();
    this.accounts.clear();
    this.periods.clear();
  }

  startJob(): void {
    this.control.savepoint.run();
    this.job.failure = undefined;
  }

  keepJob(): void {
    this.control.release.run();
    this.pending.keepJob();
  }

  dropJob(error: unknown): void {
    // Some errors make SQLite roll back the whole transaction; then the group fails.
    if (!this.writer.inTransaction) throw error;
    this.control.rollbackTo.run();
    this.control.release.run();
    this.pending.dropJob();
    this.accounts.clear();
    this.periods.clear();
  }

  async commit(): Promise<void> {
    this.pending.write();
    this.control.commit.run();
  }

  async rollback(): Promise<void> {
    if (!this.writer.inTransaction) return;
    try {
      this.writer.exec('ROLLBACK');
    } catch {
      // The connection already rolled back.
    }
  }

  release(): void {}
}
