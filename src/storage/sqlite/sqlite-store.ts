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
import type { Account, Period } from '../../domain/types.js';
import type { LedgerObserver } from '../../service/ports/observer.js';
import { compareSchema, type LedgerReads, type LedgerStore, type LedgerTx, type SchemaState, type WriteOptions } from '../../service/ports/ledger-store.js';
import { AccountCache } from '../shared/account-cache.js';
import { guardedTransaction, type JobState, uniqueViolation } from '../shared/errors.js';
import { GroupCommit, type GroupDriver, type GroupFailure, type GroupTransaction } from '../shared/group-commit.js';
import { PendingTables } from '../shared/pending-writes.js';
import { PeriodMemo } from '../shared/period-memo.js';
import { mixConcerns } from '../shared/concerns.js';
import { SqliteAuditReads, SqliteAuditWrites } from './audit-log.js';
import { SqliteBankingReads, SqliteBankingWrites } from './banking.js';
import { SqliteEventsReads, SqliteEventsWrites } from './events.js';
import { SqliteWebhooksReads, SqliteWebhooksWrites } from './webhooks.js';
import { SqliteRatesReads, SqliteRatesWrites } from './exchange-rates.js';
import { SqliteBooksReads } from './ledger-reads.js';
import { PendingWrites, SQLITE_PENDING_TABLES } from './pending-writes.js';
import { SqliteBooksWrites } from './posting.js';
import { SqliteQueries } from './queries.js';
import { MIGRATIONS } from './schema.js';
import { SqliteCredentialReads, SqliteCredentialWrites } from './users.js';

type Sqlite = Database.Database;

export interface SqliteStoreOptions {
  path: string;
  /** FULL (default) fsyncs every commit; NORMAL trades the last commits on power loss for speed. */
  synchronous?: 'FULL' | 'NORMAL';
  busyTimeoutMs?: number;
  /** Told of every committed write group (the metrics). */
  observer?: LedgerObserver | undefined;
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
  // A page cache of up to 64 MiB (SQLite's default is 2 MiB): a large write (an import, a batch)
  // changes the pages of nine entry indexes at random dates; past the cache SQLite spills them to
  // the WAL before COMMIT and reads them back. An import of 100,000 entries 15.7 -> 13.1 s.
  db.pragma(`cache_size = ${-64 * 1024}`);
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

/** The store's reads on one connection, every concern's (one file each) in one class. */
interface SqliteReads extends SqliteBooksReads, SqliteCredentialReads, SqliteAuditReads, SqliteBankingReads, SqliteRatesReads, SqliteEventsReads, SqliteWebhooksReads {}
class SqliteReads implements LedgerReads {
  constructor(readonly q: SqliteQueries) {}
}
mixConcerns(SqliteReads, [SqliteBooksReads, SqliteCredentialReads, SqliteAuditReads, SqliteBankingReads, SqliteRatesReads, SqliteEventsReads, SqliteWebhooksReads]);

/**
 * The write transaction as the jobs see it: the reads and every concern's writes on the writer
 * connection. What it keeps pending (pending-writes.ts) is written by `q` before any statement that
 * touches a pending table, so every read sees it (the port's rule). Accounts and periods are
 * remembered until the transaction ends, rolls a job back or changes one (the books' writes forget
 * them, posting.ts).
 */
interface SqliteTransaction extends SqliteBooksWrites, SqliteCredentialWrites, SqliteAuditWrites, SqliteBankingWrites, SqliteRatesWrites, SqliteEventsWrites, SqliteWebhooksWrites {}
class SqliteTransaction extends SqliteReads implements LedgerTx {
  constructor(q: SqliteQueries, readonly pending: PendingWrites, readonly accounts: AccountCache,
    readonly periods: PeriodMemo, readonly onAuditWritten: () => void) {
    super(q);
  }

  override getAccounts(ids: readonly string[]): Promise<Map<string, Account>> {
    return this.accounts.getAccounts(ids, (missing) => super.getAccounts(missing));
  }

  override findPeriodContaining(date: string): Promise<Period | undefined> {
    return this.periods.find(date, (day) => super.findPeriodContaining(day));
  }
}
mixConcerns(SqliteTransaction, [SqliteBooksWrites, SqliteCredentialWrites, SqliteAuditWrites, SqliteBankingWrites, SqliteRatesWrites,
  SqliteEventsWrites, SqliteWebhooksWrites]);

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
  return new SqliteStore(writer, options.observer, () => {
    const db = new Database(options.path, { fileMustExist: true, readonly: true });
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    return db;
  });
}

/** The store: reads on a reader connection, `read()` snapshots on pooled ones, writes through the one write queue. */
class SqliteStore extends SqliteReads implements LedgerStore {
  private readonly writes: GroupCommit;
  private readonly idleReaders: SnapshotReader[] = [];
  private readonly busyReaders = new Set<SnapshotReader>();
  private readonly reader: Sqlite;

  constructor(private readonly writer: Sqlite, observer: LedgerObserver | undefined, private readonly openReader: () => Sqlite) {
    const reader = openReader();
    super(new SqliteQueries(reader));
    this.reader = reader;
    this.writes = new GroupCommit(new SqliteGroups(writer), observer);
  }

  write<T>(work: (tx: LedgerTx) => Promise<T>, options?: WriteOptions): Promise<T> {
    return this.writes.enqueue(work, options);
  }

  writesIdle(maxWaitMs: number): Promise<void> {
    return this.writes.writesIdle(maxWaitMs);
  }

  async read<T>(work: (reads: LedgerReads) => Promise<T>): Promise<T> {
    // Each snapshot has a connection of its own: the WAL snapshot starts at its first read and
    // lasts until COMMIT, and no other request's reads can land inside it.
    const snapshot = this.borrowReader();
    this.busyReaders.add(snapshot);
    snapshot.begin.run();
    try {
      return await work(snapshot.reads);
    } finally {
      snapshot.end.run();
      this.busyReaders.delete(snapshot);
      if (this.idleReaders.length < MAX_IDLE_SNAPSHOT_READERS) this.idleReaders.push(snapshot);
      else snapshot.db.close();
    }
  }

  async ping(): Promise<boolean> {
    return (this.reader.prepare('SELECT 1 AS one').get() as { one: number } | undefined)?.one === 1;
  }

  connectionPool(): undefined {
    return undefined;
  }

  async schemaState(): Promise<SchemaState> {
    const applied = (this.reader.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((row) => row.version);
    return compareSchema(applied, MIGRATIONS.map((migration) => migration.version));
  }

  async close(): Promise<void> {
    await this.writes.drain();
    while (this.busyReaders.size > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const idle of this.idleReaders.splice(0)) idle.db.close();
    this.reader.close();
    this.writer.close();
  }

  private borrowReader(): SnapshotReader {
    const idle = this.idleReaders.pop();
    if (idle) return idle;
    const db = this.openReader();
    return { db, reads: new SqliteReads(new SqliteQueries(db)), begin: db.prepare('BEGIN'), end: db.prepare('COMMIT') };
  }
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
  /** Whether the running job has a savepoint to roll back to. */
  private savepoint = false;
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
    this.tx = guardedTransaction(new SqliteTransaction(q, this.pending, this.accounts, this.periods, () => { this.auditWritten = true; }),
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

  startJob(alone: boolean): void {
    // The group's only job needs no savepoint: if it fails, the whole transaction is rolled back.
    this.savepoint = !alone;
    if (this.savepoint) this.control.savepoint.run();
    this.job.failure = undefined;
  }

  keepJob(): void {
    if (this.savepoint) this.control.release.run();
    this.pending.keepJob();
  }

  dropJob(error: unknown): void {
    // Without a savepoint (the group's only job), or when SQLite rolled the whole transaction
    // back itself, the group fails as a whole: its one job, or every job, is told `error`.
    if (!this.savepoint || !this.writer.inTransaction) throw error;
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
