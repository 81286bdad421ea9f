/**
 * PostgreSQL for the tests of the postgres project: a throw-away cluster started once per
 * `vitest run` (by test/postgres-global-setup.ts), and a fresh, empty database on it for each
 * ledger a test makes. LEDGER_TEST_PG_URL names an existing server to use instead of a cluster of
 * our own; its user must be allowed to create and drop databases.
 *
 * The cluster (test/helpers/postgres-cluster.ts) lives in a temp folder and listens on 127.0.0.1
 * at a free port, never 5432. It is deleted after the run, so it gives up crash safety
 * for speed: no fsync and no waiting for the WAL flush at commit. A commit is still atomic and
 * visible at once; a crash of the machine could lose or corrupt the cluster, which the next run
 * would not use anyway. Dropping a database checkpoints, and
 * with fsync that made the postgres project about twice as slow (measured: 72-98 s against
 * 37-59 s for the auth, pagination and model-based tests on a busy 2-core machine). Its default
 * collation is linguistic (ICU root), as on most installed servers, so an ORDER BY on text that
 * forgets COLLATE "C" sorts differently from SQLite here, not only in production.
 */
import pg from 'pg';
import { createDatabase, dropDatabase, startCluster } from './postgres-cluster.js';

/** The key under which the global setup provides the admin URL to the test workers. */
export const ADMIN_URL_KEY = 'postgresAdminUrl';
/** The key of the PgBouncer port (the pgbouncer project): the test databases are reached through it. */
export const POOLER_PORT_KEY = 'postgresPoolerPort';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    postgresPoolerPort: number;
  }
}

export interface TestCluster {
  /** A URL of the maintenance database, for creating and dropping the test databases. */
  adminUrl: string;
  stop(): Promise<void>;
}

export interface TestDatabase {
  /** postgres://... of the new, empty database. */
  url: string;
  /** Drops the database, closing any connection still open to it. */
  drop(): Promise<void>;
}

const SERVER_SETTINGS = [
  // Parallel test files each open a pool per ledger; the default of 100 runs out.
  'max_connections=300',
  'fsync=off',
  'synchronous_commit=off',
];

/** Starts a new cluster, or hands out the server named by LEDGER_TEST_PG_URL. */
export async function startTestCluster(): Promise<TestCluster> {
  const given = process.env.LEDGER_TEST_PG_URL;
  if (given) {
    await checkServer(given);
    return { adminUrl: given, stop: async () => {} };
  }
  try {
    return await startCluster({ settings: SERVER_SETTINGS, initdbArgs: ['--locale-provider=icu', '--icu-locale=und'] });
  } catch (error) {
    throw new Error(`Cannot start the PostgreSQL test cluster: ${(error as Error).message}\n`
      + 'Install the server (apt-get install postgresql), or set LEDGER_TEST_PG_URL to a server the tests may create databases on.');
  }
}

async function checkServer(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new Error(`Cannot use the PostgreSQL server of LEDGER_TEST_PG_URL (${withoutPassword(adminUrl)}): ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
}

function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}

/** The server the tests of this run use, as its administrator: LEDGER_TEST_PG_URL, or the cluster of the global setup. */
export async function adminUrl(): Promise<string> {
  if (process.env.LEDGER_TEST_PG_URL) return process.env.LEDGER_TEST_PG_URL;
  // Imported here so that scripts outside vitest can use the rest of this module.
  const { inject } = await import('vitest');
  const provided = inject(ADMIN_URL_KEY);
  if (!provided) {
    throw new Error('No PostgreSQL server for the tests: run them in the postgres project (npx vitest run --project postgres), '
      + 'whose global setup starts one, or set LEDGER_TEST_PG_URL');
  }
  return provided;
}

/** The PgBouncer port of the pgbouncer project, or undefined (the postgres project: straight to the server). */
async function poolerPort(): Promise<number | undefined> {
  if (process.env.LEDGER_TEST_POOLER !== 'pgbouncer') return undefined;
  const { inject } = await import('vitest');
  const port = inject(POOLER_PORT_KEY);
  if (!port) throw new Error('LEDGER_TEST_POOLER=pgbouncer, but no PgBouncer was started: run the pgbouncer project');
  return port;
}

let databaseSerial = 0;

/** Creates a fresh, empty database with a name no other test file of any run uses. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = await adminUrl();
  databaseSerial += 1;
  const name = `ledger_test_${process.pid}_${databaseSerial}_${Math.random().toString(36).slice(2, 8)}`;
  const direct = await createDatabase(admin, name);
  const pooler = await poolerPort();
  let url = direct;
  if (pooler !== undefined) {
    const through = new URL(direct);
    through.port = String(pooler);
    through.searchParams.set('pgbouncer', 'true');
    url = through.toString();
  }
  let dropped = false;
  return {
    url,
    async drop() {
      if (dropped) return;
      dropped = true;
      await dropDatabase(admin, name);
    },
  };
}
