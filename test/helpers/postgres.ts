/**
 * PostgreSQL for the tests of the postgres project: a throw-away cluster started once per
 * `vitest run` (by test/postgres-global-setup.ts), and a fresh, empty database on it for each
 * ledger a test makes. LEDGER_TEST_PG_URL names an existing server to use instead of a cluster of
 * our own; its user must be allowed to create and drop databases.
 *
 * The cluster lives in a temp folder and listens on 127.0.0.1 at a free port, never 5432, so it
 * cannot meet a server of the machine. It is deleted after the run, so it gives up crash safety
 * for speed: no fsync and no waiting for the WAL flush at commit. A commit is still atomic and
 * visible at once; a crash of the machine could lose or corrupt the cluster, which the next run
 * would not use anyway. Dropping a database checkpoints, and
 * with fsync that made the postgres project about twice as slow (measured: 72-98 s against
 * 37-59 s for the auth, pagination and model-based tests on a busy 2-core machine). Its default
 * collation is linguistic (ICU root), as on most installed servers, so an ORDER BY on text that
 * forgets COLLATE "C" sorts differently from SQLite here, not only in production.
 */
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** The key under which the global setup provides the admin URL to the test workers. */
export const ADMIN_URL_KEY = 'postgresAdminUrl';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
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
  'listen_addresses=127.0.0.1',
  // Parallel test files each open a pool per ledger; the default of 100 runs out.
  'max_connections=300',
  'fsync=off',
  'synchronous_commit=off',
];

/** Where Debian puts the server programs: the newest installed major version. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root).filter((version) => existsSync(join(root, version, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error('Cannot start the PostgreSQL test cluster: no initdb under /usr/lib/postgresql/*/bin. '
      + 'Install the server (apt-get install postgresql), or set LEDGER_TEST_PG_URL to a server the tests may create databases on.');
  }
  return join(root, versions[0]!, 'bin');
}

/**
 * initdb refuses to run as root, so as root the server programs run as the `postgres` user
 * (which the Debian package creates); anyone else runs them as themselves.
 */
function asServerUser(program: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [program, args];
  return ['runuser', ['-u', 'postgres', '--', program, ...args]];
}

async function runServerProgram(program: string, args: string[]): Promise<void> {
  const [command, fullArgs] = asServerUser(program, args);
  try {
    await run(command, fullArgs, { timeout: 60_000 });
  } catch (error) {
    const failure = error as { code?: number | string; stdout?: string; stderr?: string };
    throw new Error(`${[command, ...fullArgs].join(' ')} failed (${failure.code}):\n${failure.stdout ?? ''}${failure.stderr ?? ''}`.trim());
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The ids of the `postgres` user, which runs the server when we are root. */
async function serverUserIds(): Promise<{ uid: number; gid: number }> {
  try {
    const [uid, gid] = await Promise.all(['-u', '-g'].map(async (flag) => Number((await run('id', [flag, 'postgres'])).stdout)));
    return { uid: uid!, gid: gid! };
  } catch {
    throw new Error('Cannot start the PostgreSQL test cluster as root: there is no `postgres` user (apt-get install postgresql creates it)');
  }
}

/** A folder the server user owns, inside a temp folder it can reach but not list. */
async function makeClusterFolder(): Promise<{ top: string; cluster: string }> {
  const owner = process.getuid?.() === 0 ? await serverUserIds() : undefined;
  const top = mkdtempSync(join(tmpdir(), 'ledger-pg-'));
  const cluster = join(top, 'cluster');
  mkdirSync(cluster);
  if (owner) {
    chmodSync(top, 0o701);
    chownSync(cluster, owner.uid, owner.gid);
  }
  return { top, cluster };
}

function logTail(logPath: string): string {
  if (!existsSync(logPath)) return '(no server log)';
  return readFileSync(logPath, 'utf8').split('\n').slice(-20).join('\n');
}

/** Starts a new cluster, or hands out the server named by LEDGER_TEST_PG_URL. */
export async function startTestCluster(): Promise<TestCluster> {
  const given = process.env.LEDGER_TEST_PG_URL;
  if (given) {
    await checkServer(given);
    return { adminUrl: given, stop: async () => {} };
  }
  const bin = postgresBinDir();
  const { top, cluster } = await makeClusterFolder();
  const data = join(cluster, 'data');
  const log = join(cluster, 'log');
  try {
    // --no-sync: a cluster that is deleted after the run need not be on disk before it starts.
    await runServerProgram(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '--no-instructions',
      '--encoding=UTF8', '--locale=C.UTF-8', '--locale-provider=icu', '--icu-locale=und']);
    const port = await startServer(bin, data, log, cluster);
    const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const stopSync = () => { stopServerSync(bin, data); rmSync(top, { recursive: true, force: true }); };
    // The run may end without its teardown (an uncaught error, Ctrl-C): the server must not outlive it.
    process.once('exit', stopSync);
    return {
      adminUrl,
      async stop() {
        process.removeListener('exit', stopSync);
        try {
          await runServerProgram(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
        } finally {
          rmSync(top, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(top, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Starts the server on a free port. Another program may take the port between our check and the
 * server's bind, so a start that fails is tried again on a new port, twice.
 */
async function startServer(bin: string, data: string, log: string, socketFolder: string): Promise<number> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    const options = [`-p ${port}`, `-k ${socketFolder}`, ...SERVER_SETTINGS.map((setting) => `-c ${setting}`)].join(' ');
    try {
      await runServerProgram(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-o', options, 'start']);
      return port;
    } catch (error) {
      lastError = error;
      if (!/could not bind|address already in use/i.test(logTail(log))) break;
    }
  }
  throw new Error(`Cannot start the PostgreSQL test cluster: ${(lastError as Error).message}\nserver log:\n${logTail(log)}`);
}

function stopServerSync(bin: string, data: string): void {
  const [command, args] = asServerUser(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
  spawnSync(command, args, { stdio: 'ignore', timeout: 30_000 });
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

/** The server the tests of this run use: LEDGER_TEST_PG_URL, or the cluster of the global setup. */
async function adminUrl(): Promise<string> {
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

async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

let databaseSerial = 0;

/** Creates a fresh, empty database with a name no other test file of any run uses. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = await adminUrl();
  databaseSerial += 1;
  const name = `ledger_test_${process.pid}_${databaseSerial}_${Math.random().toString(36).slice(2, 8)}`;
  await withAdmin(admin, (client) => client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      await withAdmin(admin, (client) => client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`));
    },
  };
}
