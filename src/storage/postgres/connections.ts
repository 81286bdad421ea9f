/**
 * The store's connections: one `pg` pool on the host the URL's target chose (target.ts), moved to
 * another host when that one stops answering or stops accepting writes (a failover), without a
 * restart (docs/operations.md, "Failover").
 *
 * Every failure that says the database is away (outages.ts) makes the pool look again, at most
 * every PROBE_EVERY_MS and one look at a time: each host in the URL's order is asked whether it
 * takes writes, and the first that does gets a new pool; the old pool ends once its connections
 * come back. Requests meanwhile are answered 503 UNAVAILABLE, as during any outage. With one host
 * and no `target_session_attrs` there is nowhere else to go: `pg`'s pool reconnects by itself.
 */
import pg from 'pg';
import { StoreOpenError } from '../../service/ports/store-errors.js';
import type { ConnectionPoolUse, LedgerObserver } from '../../service/ports/observer.js';
import { isDatabaseUnreachable, outageError } from './outages.js';
import { describeHost, type HostPort, type PostgresTarget } from './target.js';

/** How long a look waits for one host to answer before trying the next. */
const PROBE_TIMEOUT_MS = 3_000;
/** The least time between two looks for the writable host. */
const PROBE_EVERY_MS = 250;

export interface PoolSettings {
  max: number;
  types: pg.CustomTypesConfig;
  connectionTimeoutMillis: number;
  /** Told how long each checkout of a connection waited (the metrics). */
  observer: LedgerObserver;
}

/** What a look found: the host to use, or why none will do. */
type Found = { host: HostPort; url: string } | { host: undefined; reasons: string[] };

/** Asks each host in turn whether it is the one to use; the first that is wins. */
export async function findHost(target: PostgresTarget, types: pg.CustomTypesConfig): Promise<Found> {
  const hosts = target.hosts.length === 0 ? [{ host: '', port: 0 }] : target.hosts;
  const reasons: string[] = [];
  for (const host of hosts) {
    const url = target.urlFor(host);
    if (hosts.length === 1 && target.sessionAttrs === 'any') return { host, url };
    const client = new pg.Client({ connectionString: url, types, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
    client.on('error', () => {});
    try {
      await client.connect();
      if (target.sessionAttrs === 'any' || await acceptsWrites(client, target)) return { host, url };
      reasons.push(`${describeHost(host)} does not accept writes (a standby)`);
    } catch (error) {
      // A wrong password or database name is wrong on every host: said as it is, not as an outage.
      if (!isDatabaseUnreachable(error)) throw error;
      reasons.push(`${describeHost(host)}: ${(error as { code?: string }).code ?? (error as Error).message}`);
    } finally {
      await client.end().catch(() => {});
    }
  }
  return { host: undefined, reasons };
}

async function acceptsWrites(client: pg.Client, target: PostgresTarget): Promise<boolean> {
  if (target.sessionAttrs === 'primary') return (await client.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby')).rows[0]?.standby === false;
  return (await client.query<{ transaction_read_only: string }>('SHOW transaction_read_only')).rows[0]?.transaction_read_only === 'off';
}

/** The host to open the store on, or a StoreOpenError that names what each host answered. */
export async function requireHost(target: PostgresTarget, types: pg.CustomTypesConfig): Promise<{ host: HostPort; url: string }> {
  const found = await findHost(target, types);
  if (found.host !== undefined) return found;
  throw new StoreOpenError('UNAVAILABLE', `No host of ${target.described} accepts writes (${found.reasons.join('; ')})`,
    'Check that the primary is running; after a failover, that the new primary was promoted');
}

export class FailoverPool {
  private pool: pg.Pool;
  private host: HostPort;
  private looking: Promise<void> | undefined;
  private lastLookMs = 0;
  private ended = false;

  constructor(private readonly target: PostgresTarget, first: { host: HostPort; url: string }, private readonly settings: PoolSettings) {
    this.host = first.host;
    this.pool = this.newPool(first.url);
  }

  /** The host in use, for messages. */
  get current(): string {
    return describeHost(this.host);
  }

  /** A statement on the pool; an unreachable database is told as UNAVAILABLE (outages.ts). */
  query<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
    return this.pool.query<R>(config).catch((error: unknown) => {
      this.suspect(error);
      throw outageError(error);
    });
  }

  connect(): Promise<pg.PoolClient> {
    const started = performance.now();
    return this.pool.connect().then((client) => {
      this.settings.observer.connectionAcquired((performance.now() - started) / 1000);
      return client;
    }, (error: unknown) => this.failed(error));
  }

  /** A statement or a connection failed: when the database seems away, look for the host to use (in the background). */
  suspect(error: unknown): void {
    if (this.ended || !isDatabaseUnreachable(error)) return;
    if (this.target.hosts.length <= 1 && this.target.sessionAttrs === 'any') return;
    if (this.looking !== undefined || Date.now() - this.lastLookMs < PROBE_EVERY_MS) return;
    this.lastLookMs = Date.now();
    this.looking = this.lookAgain().finally(() => { this.looking = undefined; });
  }

  use(): ConnectionPoolUse {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount, max: this.settings.max };
  }

  async end(): Promise<void> {
    this.ended = true;
    await this.looking;
    await this.pool.end();
  }

  private failed(error: unknown): never {
    this.suspect(error);
    throw error;
  }

  private async lookAgain(): Promise<void> {
    const found = await findHost(this.target, this.settings.types).catch(() => undefined);
    if (found?.host === undefined || this.ended) return;
    if (found.host.host === this.host.host && found.host.port === this.host.port) return;
    const old = this.pool;
    this.host = found.host;
    this.pool = this.newPool(found.url);
    // Connections in use finish (their statements fail, or they were on a standby and answer it);
    // the old pool closes each as it comes back.
    void old.end().catch(() => {});
  }

  private newPool(url: string): pg.Pool {
    const pool = new pg.Pool({
      connectionString: url, max: this.settings.max, types: this.settings.types,
      connectionTimeoutMillis: this.settings.connectionTimeoutMillis,
      // A connection to a host that vanished (a failover, a cut network) is noticed, not waited on for hours.
      keepAlive: true, keepAliveInitialDelayMillis: 10_000,
      ...(this.target.prepared ? {} : { Client: UnpreparedClient }),
    });
    // A connection that the server drops (a restart, a failover) emits an error outside any
    // request: idle in the pool (the pool's 'error') or checked out between two statements (the
    // client's own, which nobody else listens to). Neither may crash the process: the statement
    // under way fails with the error, the pool discards the connection, and the next request
    // connects anew.
    pool.on('error', (error) => this.suspect(error));
    pool.on('connect', (client) => client.on('error', (error) => this.suspect(error)));
    return pool;
  }
}

/**
 * A client that prepares nothing by name, behind a pooler in transaction mode (`pgbouncer=true`):
 * the statements go as unnamed ones, parsed each time, which any server connection can run.
 */
class UnpreparedClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [config] = args;
    if (typeof config === 'object' && config !== null && 'name' in config) args[0] = { ...config, name: undefined };
    return (super.query as (...all: unknown[]) => never)(...args);
  }
}
