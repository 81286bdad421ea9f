/**
 * What `ledger doctor` asks a PostgreSQL database (app/doctor.ts words the verdicts): which hosts of
 * the URL answer and which takes writes, the schema's migrations, the server's connection limit and
 * durability settings, and whether a pooler in transaction mode sits in between. It changes
 * nothing (no migration, no write) and uses connections of its own.
 */
import pg from 'pg';
import { isDatabaseUnreachable } from './outages.js';
import { POSTGRES_MIGRATIONS } from './schema.js';
import { describeHost, type HostPort, parsePostgresTarget } from './target.js';

export interface HostDiagnosis {
  host: string;
  /** Why it did not answer; undefined when it did. */
  error?: string | undefined;
  /** It answered and takes writes (SHOW transaction_read_only is off). */
  writable?: boolean | undefined;
}

export interface PostgresDiagnosis {
  hosts: HostDiagnosis[];
  /** The first writable host, which `ledger serve` would use; undefined when none answered as one. */
  chosen?: string | undefined;
  /** `pgbouncer=true` in the URL: statements are not prepared by name. */
  prepared: boolean;
  serverVersion?: string;
  /** Migration versions recorded; undefined when the database has no ledger schema. */
  applied?: number[] | undefined;
  known: number[];
  maxConnections?: number;
  reservedConnections?: number;
  openConnections?: number;
  fsync?: string;
  synchronousCommit?: string;
  /** Two transactions of one client connection ran on different server sessions: a pooler in transaction mode. */
  transactionPooling?: boolean;
}

const PROBE_TIMEOUT_MS = 3_000;

async function client(url: string): Promise<pg.Client> {
  const connection = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  connection.on('error', () => {});
  await connection.connect();
  return connection;
}

function reason(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return code === undefined ? String(message) : `${code}${message ? `: ${message}` : ''}`;
}

export async function diagnosePostgres(url: string, poolSize: number): Promise<PostgresDiagnosis> {
  const target = parsePostgresTarget(url);
  const known = POSTGRES_MIGRATIONS.map((migration) => migration.version);
  const diagnosis: PostgresDiagnosis = { hosts: [], prepared: target.prepared, known };
  const hosts: HostPort[] = target.hosts.length === 0 ? [{ host: '', port: 0 }] : target.hosts;
  for (const host of hosts) {
    const name = target.hosts.length === 0 ? 'the Unix socket of the URL' : describeHost(host);
    try {
      const probe = await client(target.urlFor(host));
      try {
        const readOnly = (await probe.query<{ transaction_read_only: string }>('SHOW transaction_read_only')).rows[0]?.transaction_read_only;
        diagnosis.hosts.push({ host: name, writable: readOnly === 'off' });
        if (readOnly === 'off' && diagnosis.chosen === undefined) {
          diagnosis.chosen = name;
          await describeServer(probe, diagnosis);
          diagnosis.transactionPooling = await transactionPooling(target.urlFor(host), probe, poolSize);
        }
      } finally {
        await probe.end().catch(() => {});
      }
    } catch (error) {
      if (!isDatabaseUnreachable(error) && diagnosis.hosts.length === 0 && hosts.length === 1) throw error;
      diagnosis.hosts.push({ host: name, error: reason(error) });
    }
  }
  return diagnosis;
}

async function describeServer(probe: pg.Client, diagnosis: PostgresDiagnosis): Promise<void> {
  const show = async (name: string) => (await probe.query<Record<string, string>>(`SHOW ${name}`)).rows[0]?.[name];
  diagnosis.serverVersion = await show('server_version');
  diagnosis.maxConnections = Number(await show('max_connections'));
  diagnosis.reservedConnections = Number(await show('superuser_reserved_connections'));
  diagnosis.fsync = await show('fsync');
  diagnosis.synchronousCommit = await show('synchronous_commit');
  diagnosis.openConnections = Number((await probe.query<{ n: string }>('SELECT count(*)::text AS n FROM pg_stat_activity WHERE backend_type = \'client backend\'')).rows[0]?.n);
  const table = (await probe.query<{ table: string | null }>("SELECT to_regclass('schema_migrations')::text AS table")).rows[0]?.table;
  diagnosis.applied = table == null ? undefined
    : (await probe.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).rows.map((row) => Number(row.version));
}

/**
 * Whether the client connection `probe` keeps its server session across transactions. A second
 * connection holds a transaction open meanwhile: behind a pooler in transaction mode it takes the
 * server session `probe` just gave back (PgBouncer hands out the most recently used), or `probe`'s
 * next transaction lands on another session. Direct, or behind a session-mode pooler, neither
 * happens. Three rounds, since a pooler may pick otherwise once.
 */
async function transactionPooling(url: string, probe: pg.Client, poolSize: number): Promise<boolean> {
  const pid = async (connection: pg.Client) => Number((await connection.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid);
  const other = await client(url);
  try {
    for (let round = 0; round < Math.min(3, Math.max(1, poolSize)); round += 1) {
      const first = await pid(probe);
      await other.query('BEGIN');
      const held = await pid(other);
      const answered = await Promise.race([pid(probe), new Promise<undefined>((resolve) => { setTimeout(() => resolve(undefined), PROBE_TIMEOUT_MS); })]);
      await other.query('COMMIT');
      if (held === first || (answered !== undefined && answered !== first)) return true;
    }
    return false;
  } finally {
    await other.end().catch(() => {});
  }
}
