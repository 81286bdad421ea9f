/**
 * The PostgreSQL adapter of the LedgerStore port (`pg`, with a connection pool): connections,
 * transactions, group commit and error translation. What the statements are lives beside it, one
 * file per concern: schema.ts, ledger-reads.ts, posting.ts, users.ts.
 *
 * Several server processes may share one database; the database, not any process's memory, keeps
 * every rule:
 * - Writes run at READ COMMITTED. Totals are atomic upserts (`total = total + delta`), so
 *   concurrent posts lose and double nothing, and the `amount` domain keeps them within 2^127 - 1.
 * - Reads that decide a rule lock their rows (see LedgerTx): a post holds its period FOR SHARE, a
 *   close FOR UPDATE, so no entry lands in a period being closed; rotations lock their refresh
 *   token; removing an admin locks every active admin; setup and period creation take advisory locks.
 * - Uniqueness (one reversal per entry, idempotency keys, codes, numbers, e-mails) is constraints.
 * - A job that loses a race (deadlock, serialisation failure) is rolled back to its savepoint and
 *   run again, so the caller never sees it.
 * Like the SQLite adapter, each process queues its writes in the one write queue
 * (storage/shared/group-commit.ts) and commits the jobs queued meanwhile in one transaction: one
 * commit (one WAL flush) serves many requests. `PostgresGroups` below is its driver.
 * `read()` runs on one pooled connection in a REPEATABLE READ, READ ONLY transaction: one snapshot.
 */
import pg from 'pg';
import { currencyTotalOverflow, LedgerError } from '../../domain/errors.js';
import type { Account, Period } from '../../domain/types.js';
import { type ConnectionPoolUse, type LedgerObserver, SILENT_OBSERVER } from '../../service/ports/observer.js';
import { compareSchema, type LedgerReads, type LedgerStore, type LedgerTx, type SchemaState, type WriteOptions } from '../../service/ports/ledger-store.js';
import { StoreOpenError } from '../../service/ports/store-errors.js';
import { guardedTransaction, uniqueViolation } from '../shared/errors.js';
import { GroupCommit, type GroupDriver, type GroupFailure, type GroupTransaction } from '../shared/group-commit.js';
import { mixConcerns } from '../shared/concerns.js';
import { PostgresAuditReads, PostgresAuditWrites } from './audit-log.js';
import { PostgresBankingReads, PostgresBankingWrites } from './banking.js';
import { PostgresEventsReads, PostgresEventsWrites } from './events.js';
import { PostgresWebhooksReads, PostgresWebhooksWrites } from './webhooks.js';
import { PostgresRatesReads, PostgresRatesWrites } from './exchange-rates.js';
import { PostgresBooksReads } from './ledger-reads.js';
import { PostgresBooksWrites } from './posting.js';
import { type PgExecutor, PgQueries } from './queries.js';
import { POSTGRES_MIGRATIONS } from './schema.js';
import { PostgresCredentialReads, PostgresCredentialWrites } from './users.js';
import { AccountCache } from '../shared/account-cache.js';
import { RunCarefully, WriteTransaction } from './write-transaction.js';
import { CommitOutcomeUnknown, isDatabaseUnreachable, outageError } from './outages.js';
import { FailoverPool, requireHost } from './connections.js';
import { type HostPort, parsePostgresTarget, type PostgresTarget } from './target.js';

export interface PostgresStoreOptions {
  url: string;
  /** Connections in this process's pool (default 10): one writer at a time plus concurrent reads. */
  poolSize?: number | undefined;
  /** The error to raise when the database has no ledger schema yet. */
  missing: () => Error;
  /** Told of every committed write group (the metrics). */
  observer?: LedgerObserver | undefined;
}

/** int8 (counts, sequence numbers) as JavaScript numbers; amounts are numeric and stay strings. */
const TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) {
      return (text: string) => {
        const value = Number(text);
        if (!Number.isSafeInteger(value)) throw new RangeError(`int8 ${text} is beyond JavaScript's exact integers`);
        return value;
      };
    }
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

const MIGRATION_LOCK = "hashtext('ledger.migrations')";
/** How long a request waits for a new connection before it is answered 503 UNAVAILABLE. */
const CONNECT_TIMEOUT_MS = 5_000;

/** The store's reads on the pool or one connection, every concern's (one file each) in one class. */
interface PostgresReads extends PostgresBooksReads, PostgresCredentialReads, PostgresAuditReads, PostgresBankingReads, PostgresRatesReads,
  PostgresEventsReads, PostgresWebhooksReads {}
class PostgresReads implements LedgerReads {
  constructor(readonly q: PgQueries) {}
}
mixConcerns(PostgresReads, [PostgresBooksReads, PostgresCredentialReads, PostgresAuditReads, PostgresBankingReads, PostgresRatesReads,
  PostgresEventsReads, PostgresWebhooksReads]);

/**
 * A write transaction as the jobs see it: the reads and every concern's writes through the
 * transaction's statement runner (write-transaction.ts: what is pending is written before a
 * statement that touches it), with the accounts, locked periods and credentials version it
 * remembers.
 */
interface PostgresTransaction extends PostgresBooksWrites, PostgresCredentialWrites, PostgresAuditWrites, PostgresBankingWrites,
  PostgresRatesWrites, PostgresEventsWrites, PostgresWebhooksWrites {}
class PostgresTransaction extends PostgresReads implements LedgerTx {
  readonly credentialsChanged: () => void;

  constructor(readonly transaction: WriteTransaction, readonly onAuditWritten: () => void) {
    super(transaction.q);
    this.credentialsChanged = () => transaction.forgetCredentials();
  }

  override getAccounts(ids: readonly string[]): Promise<Map<string, Account>> {
    return this.transaction.getAccounts(ids, (missing) => super.getAccounts(missing));
  }

  override findPeriodContaining(date: string): Promise<Period | undefined> {
    return this.transaction.findPeriodContaining(date, (day) => super.findPeriodContaining(day));
  }

  override credentialsVersion(): Promise<string> {
    return this.transaction.credentialsVersion(() => super.credentialsVersion());
  }
}
mixConcerns(PostgresTransaction, [PostgresBooksWrites, PostgresCredentialWrites, PostgresAuditWrites, PostgresBankingWrites,
  PostgresRatesWrites, PostgresEventsWrites, PostgresWebhooksWrites]);

interface PgError {
  code?: string;
  constraint?: string;
  table?: string;
  message?: string;
}

/** Losing a race with another transaction: run the job again. */
function isRetryable(error: unknown): boolean {
  const code = (error as PgError).code;
  return code === '40001' || code === '40P01';
}

/** Turns driver errors into ledger errors; anything unknown passes through (a bug: 500). */
function translateError(error: unknown): unknown {
  if (error instanceof LedgerError) return error;
  const outage = outageError(error);
  if (outage !== error) return outage;
  const { code, constraint, table } = error as PgError;
  if (code === '23505') {
    // Constraint names are <table>_<column>_key (see schema.ts); a primary key is the id.
    const column = constraint?.endsWith('_pkey') ? 'id' : constraint?.slice((table ?? '').length + 1).replace(/_key$/, '');
    return uniqueViolation(table, column);
  }
  // The amount domain: a total past 2^127 - 1 (every total is bounded by its currency's).
  if (code === '23514' && constraint === 'amount_check') return currencyTotalOverflow();
  return error;
}

/** Why a connection could not be made, in words a user can act on. */
function openError(error: unknown, url: string): unknown {
  const { code, message } = error as PgError;
  const target = new URL(url);
  const where = `${target.hostname || 'localhost'}:${target.port || '5432'}`;
  const database = decodeURIComponent(target.pathname.slice(1));
  if (isDatabaseUnreachable(error)) {
    return new StoreOpenError('UNAVAILABLE', `Cannot reach PostgreSQL at ${where} (${code ?? message})`,
      'Check that the server is running (and not still starting up) and that the URL\'s host and port are right');
  }
  if (code === '3D000') {
    return new StoreOpenError('NOT_FOUND', `PostgreSQL database "${database}" does not exist on ${where}`,
      `Create it (createdb ${database}), then run \`ledger init --db <url>\``);
  }
  if (code === '28P01' || code === '28000') {
    return new StoreOpenError('INTERNAL_ERROR', `PostgreSQL at ${where} refused the user name or password`,
      'Check the user and password in the URL');
  }
  if (error instanceof Error && !(code && /^[0-9A-Z]{5}$/.test(code))) {
    return new StoreOpenError('INTERNAL_ERROR', `Cannot connect to PostgreSQL at ${where}: ${message}`,
      'Check the URL (postgres://user:password@host:port/dbname)');
  }
  return error;
}

/** The URL's target (target.ts), or why it is malformed. */
function targetOf(url: string): PostgresTarget {
  try {
    return parsePostgresTarget(url);
  } catch (error) {
    throw new StoreOpenError('VALIDATION_ERROR', `The PostgreSQL URL is malformed: ${(error as Error).message}`,
      'Use postgres://user:password@host:port/dbname, or host1:port1,host2:port2 with target_session_attrs=read-write');
  }
}

/** The host of the URL to use now (the writable one of several), in words a user can act on when there is none. */
async function chooseHost(target: PostgresTarget): Promise<{ host: HostPort; url: string }> {
  try {
    return await requireHost(target, TYPES);
  } catch (error) {
    throw error instanceof StoreOpenError ? error : openError(error, target.urlFor(target.hosts[0] ?? { host: '', port: 0 }));
  }
}

/** A connection of its own (migrations, the existence check) to the host the URL's target chooses. */
async function connect(url: string): Promise<pg.Client> {
  const { url: hostUrl } = await chooseHost(targetOf(url));
  const client = new pg.Client({ connectionString: hostUrl, types: TYPES });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    throw openError(error, hostUrl);
  }
  return client;
}

/**
 * How many of the migrations this code knows the database has applied; undefined when it has no
 * ledger's schema. Each migration is checked, not only the highest (as SQLite's migrate does): a
 * database missing an earlier one is brought up to date too.
 */
async function appliedMigrations(client: PgExecutor): Promise<number | undefined> {
  const exists = await client.query<{ table: string | null }>({ text: "SELECT to_regclass('schema_migrations')::text AS table" });
  if (exists.rows[0]?.table == null) return undefined;
  const result = await client.query<{ applied: string }>({
    text: 'SELECT count(*)::text AS applied FROM schema_migrations WHERE version = ANY($1::integer[])',
    values: [POSTGRES_MIGRATIONS.map((migration) => String(migration.version))],
  });
  return Number(result.rows[0]?.applied ?? 0);
}

/** Applies the missing migrations in one transaction, one process at a time. */
async function migrate(client: pg.Client): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`);
    const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((row) => row.version));
    for (const migration of POSTGRES_MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.sql);
      await migration.backfill?.(client);
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
        [migration.version, migration.name, new Date().toISOString()]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/** Creates the ledger's schema in an existing database, or brings it up to date. */
export async function migratePostgres(url: string): Promise<void> {
  const client = await connect(url);
  try {
    await migrate(client);
  } finally {
    await client.end();
  }
}

/** True when the database exists and has the ledger's schema. */
export async function postgresLedgerExists(url: string): Promise<boolean> {
  let client: pg.Client;
  try {
    client = await connect(url);
  } catch (error) {
    if (error instanceof StoreOpenError && error.code === 'NOT_FOUND') return false;
    throw error;
  }
  try {
    return (await appliedMigrations(client)) !== undefined;
  } finally {
    await client.end();
  }
}

export async function openPostgresStore(options: PostgresStoreOptions): Promise<LedgerStore> {
  const client = await connect(options.url);
  try {
    const applied = await appliedMigrations(client);
    if (applied === undefined) throw options.missing();
    if (applied < POSTGRES_MIGRATIONS.length) await migrate(client);
  } finally {
    await client.end();
  }
  const target = targetOf(options.url);
  // While the database is away a request waits CONNECT_TIMEOUT_MS for a connection, then answers 503.
  const pool = new FailoverPool(target, await chooseHost(target), {
    max: options.poolSize ?? 10, types: TYPES, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, observer: options.observer ?? SILENT_OBSERVER,
  });
  return new PostgresStore(pool, options.observer);
}

/** The store: reads on the pool, `read()` snapshots on one pooled connection, writes through the one write queue. */
class PostgresStore extends PostgresReads implements LedgerStore {
  private readonly writes: GroupCommit;

  constructor(private readonly pool: FailoverPool, observer: LedgerObserver | undefined) {
    super(new PgQueries(pool, false));
    this.writes = new GroupCommit(new PostgresGroups(pool), observer);
  }

  connectionPool(): ConnectionPoolUse {
    return this.pool.use();
  }

  write<T>(work: (tx: LedgerTx) => Promise<T>, options?: WriteOptions): Promise<T> {
    return this.writes.enqueue(work, options);
  }

  writesIdle(maxWaitMs: number): Promise<void> {
    return this.writes.writesIdle(maxWaitMs);
  }

  async read<T>(work: (reads: LedgerReads) => Promise<T>): Promise<T> {
    const connection = await this.pool.connect().catch((error: unknown) => { throw outageError(error); });
    try {
      await connection.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const result = await work(new PostgresReads(new PgQueries(connection, false)));
      await connection.query('COMMIT');
      return result;
    } catch (error) {
      this.pool.suspect(error);
      await connection.query('ROLLBACK').catch(() => {});
      throw outageError(error);
    } finally {
      connection.release();
    }
  }

  async ping(): Promise<boolean> {
    return (await this.pool.query<{ one: number }>({ text: 'SELECT 1 AS one' })).rows[0]?.one === 1;
  }

  async schemaState(): Promise<SchemaState> {
    const applied = await this.q.all<{ version: number }>('SELECT version FROM schema_migrations');
    return compareSchema(applied.map((row) => row.version), POSTGRES_MIGRATIONS.map((migration) => migration.version));
  }

  async close(): Promise<void> {
    await this.writes.drain();
    await this.pool.end();
  }
}

const MAX_JOBS_PER_COMMIT = 256;
/** A batch that keeps losing races is tried this often before its error is passed on. */
const MAX_ATTEMPTS = 20;
/** The longest wait before running a batch again, times the attempt number (a random share of it). */
const RETRY_BACKOFF_MS = 20;

/**
 * The PostgreSQL driver of the write queue (storage/shared/group-commit.ts): a group is one
 * transaction on a pooled connection (write-transaction.ts: which rows wait for the group's one
 * statement, when a job takes a savepoint).
 *
 * A job that loses a race (deadlock, serialisation failure) fails the whole group, so that it
 * holds no lock while the winner finishes; the group waits a short random while and runs again:
 * retrying only the job, with the group's earlier locks still held, can meet the same deadlock
 * again and again. A grouped write that fails where no savepoint can undo it runs the group again
 * carefully, job by job. A COMMIT that fails leaves the outcome unknown: it is never run again.
 */
class PostgresGroups implements GroupDriver {
  readonly maxJobs = MAX_JOBS_PER_COMMIT;
  private readonly accounts = new AccountCache();

  constructor(private readonly pool: FailoverPool) {}

  async begin(careful: boolean): Promise<GroupTransaction> {
    const connection = await this.pool.connect();
    const group = new PostgresGroup(connection, new WriteTransaction(connection, careful, this.accounts));
    try {
      await group.begin();
    } catch (error) {
      connection.release(error as Error);
      throw error;
    }
    return group;
  }

  failed(error: unknown, attempt: number, careful: boolean): GroupFailure {
    // The transaction may have read its own changes of accounts, which did not commit.
    this.accounts.clear();
    this.pool.suspect(error instanceof CommitOutcomeUnknown || error instanceof RunCarefully ? error.cause : error);
    if (error instanceof RunCarefully && !careful) return { rerun: true, careful: true, delayMs: 0 };
    if (error instanceof LostRace && attempt < MAX_ATTEMPTS) {
      return { rerun: true, careful, delayMs: Math.random() * RETRY_BACKOFF_MS * attempt };
    }
    return { rerun: false, error: error instanceof LostRace || error instanceof RunCarefully ? error.cause : error };
  }

  translate(error: unknown): unknown {
    return translateError(error);
  }
}

class PostgresGroup implements GroupTransaction {
  readonly tx: LedgerTx;
  auditWritten = false;

  constructor(private readonly connection: pg.PoolClient, private readonly transaction: WriteTransaction) {
    this.tx = guardedTransaction(new PostgresTransaction(transaction, () => { this.auditWritten = true; }), translateError, transaction.job);
  }

  get job() {
    return this.transaction.job;
  }

  begin(): Promise<void> {
    return this.transaction.begin();
  }

  startJob(): void {
    this.transaction.startJob();
  }

  keepJob(): Promise<void> {
    return this.transaction.keepJob();
  }

  async dropJob(error: unknown): Promise<void> {
    if (isRetryable(error)) throw new LostRace(error);
    if (this.transaction.broken) throw new RunCarefully(error);
    await this.transaction.dropJob();
  }

  async commit(): Promise<void> {
    try {
      await this.transaction.finish();
    } catch (error) {
      if (isRetryable(error)) throw new LostRace(error);
      throw this.transaction.careful ? error : new RunCarefully(error);
    }
    // PostgreSQL answers COMMIT of a transaction a failed statement has aborted with a ROLLBACK.
    // A connection lost on the way leaves the outcome unknown: the group is never run again.
    const committed = await this.connection.query('COMMIT').catch((error: unknown) => {
      throw isDatabaseUnreachable(error) ? new CommitOutcomeUnknown(error) : error;
    });
    if (committed.command !== 'COMMIT') throw new Error('The write transaction was rolled back instead of committed');
  }

  async rollback(): Promise<void> {
    await this.connection.query('ROLLBACK').catch(() => {});
  }

  release(failure?: unknown): void {
    this.connection.release(failure === undefined ? undefined : (failure instanceof Error ? failure : new Error(String(failure))));
  }
}

/** A job of the group lost a race with another transaction: the group is run again. */
class LostRace extends Error {
  constructor(override readonly cause: unknown) {
    super('lost a race with another transaction');
  }
}
