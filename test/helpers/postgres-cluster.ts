/**
 * Throw-away PostgreSQL clusters, for the tests (test/helpers/postgres.ts: fast, not durable) and
 * the benchmark (bench/pg-cluster.ts: durable, pinned to a CPU). initdb in a temporary folder,
 * started with pg_ctl on 127.0.0.1 at a free port (never 5432, so it cannot meet a server of the
 * machine), stopped with `pg_ctl -m fast -w stop` and deleted; if the process ends without its
 * teardown, an exit hook stops the server at once, so it never outlives its run.
 *
 * initdb refuses to run as root, so as root the server programs run as the `postgres` user (which
 * the Debian package creates), in a cluster folder that user owns inside a temporary folder it can
 * reach but not list; anyone else runs them as themselves.
 */
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export interface ClusterOptions {
  /** Server settings, `name=value` (passed as `-c`); listen_addresses is always 127.0.0.1. */
  settings: readonly string[];
  /** More initdb arguments (locale provider, ...). */
  initdbArgs?: readonly string[];
  /** Pins the postmaster, and so every process it forks, to this CPU (when taskset exists). */
  cpu?: number | undefined;
  /** Where the temporary folder goes (default: the OS's). */
  baseDir?: string | undefined;
  /**
   * Makes a streaming standby of the server at 127.0.0.1:`port` (pg_basebackup -R) instead of a
   * new cluster: it follows the primary until `promote`. The primary's default pg_hba lets
   * 127.0.0.1 replicate.
   */
  standbyOf?: number | undefined;
}

export interface Cluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres: the maintenance database (create others from it). */
  adminUrl: string;
  /** The same over the server's Unix-domain socket. */
  socketUrl: string;
  port: number;
  postmasterPid: number;
  /** The CPU the server processes are pinned to, or undefined. */
  cpu: number | undefined;
  stop(): Promise<void>;
  /**
   * Stops the server and keeps its files (`immediate`: as a crash or a pulled plug would, without a
   * checkpoint; `fast`: as an administrator's restart would), so that `resume` can start it again.
   */
  halt(mode: 'fast' | 'immediate'): Promise<void>;
  /** Starts a halted server again on the same port (crash recovery replays its WAL). */
  resume(): Promise<void>;
  /** Makes a standby the primary (pg_ctl promote), waiting until it accepts writes. */
  promote(): Promise<void>;
}

export const HAS_TASKSET = spawnSync('which', ['taskset'], { stdio: 'ignore' }).status === 0;

/** Where Debian puts the server programs: the newest installed major version. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root).filter((version) => existsSync(join(root, version, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error('No PostgreSQL server programs under /usr/lib/postgresql/*/bin (apt-get install postgresql)');
  }
  return join(root, versions[0]!, 'bin');
}

function asServerUser(program: string, args: readonly string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [program, [...args]];
  return ['runuser', ['-u', 'postgres', '--', program, ...args]];
}

async function runServerProgram(program: string, args: readonly string[], cpu?: number): Promise<void> {
  let [command, fullArgs] = asServerUser(program, args);
  if (cpu !== undefined) [command, fullArgs] = ['taskset', ['-c', String(cpu), command, ...fullArgs]];
  try {
    await run(command, fullArgs, { timeout: 120_000 });
  } catch (error) {
    const failure = error as { code?: number | string; stdout?: string; stderr?: string };
    throw new Error(`${[command, ...fullArgs].join(' ')} failed (${failure.code}):\n${failure.stdout ?? ''}${failure.stderr ?? ''}`.trim());
  }
}

/** A free TCP port of 127.0.0.1 (never 5432, so nothing started on it can meet a server of the machine). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null && address.port !== 5432
        ? resolve(address.port) : reject(new Error('no usable port'))));
    });
  });
}

/** The ids of the `postgres` user, which runs the server when we are root. */
async function serverUserIds(): Promise<{ uid: number; gid: number }> {
  try {
    const [uid, gid] = await Promise.all(['-u', '-g'].map(async (flag) => Number((await run('id', [flag, 'postgres'])).stdout)));
    return { uid: uid!, gid: gid! };
  } catch {
    throw new Error('Cannot start a PostgreSQL cluster as root: there is no `postgres` user (apt-get install postgresql creates it)');
  }
}

function logTail(logPath: string): string {
  if (!existsSync(logPath)) return '(no server log)';
  return readFileSync(logPath, 'utf8').split('\n').slice(-20).join('\n');
}

/** Starts a fresh cluster; throws with the server's log when it cannot. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const bin = postgresBinDir();
  const owner = process.getuid?.() === 0 ? await serverUserIds() : undefined;
  const top = mkdtempSync(join(options.baseDir ?? tmpdir(), 'ledger-pg-'));
  const folder = join(top, 'cluster');
  const data = join(folder, 'data');
  const log = join(folder, 'log');
  const remove = () => rmSync(top, { recursive: true, force: true });
  const cpu = options.cpu !== undefined && HAS_TASKSET ? options.cpu : undefined;
  try {
    mkdirSync(folder);
    if (owner) {
      chmodSync(top, 0o701);
      chownSync(folder, owner.uid, owner.gid);
    }
    if (options.standbyOf !== undefined) {
      await runServerProgram(join(bin, 'pg_basebackup'), ['-D', data, '-R', '-X', 'stream', '--no-sync', '-h', '127.0.0.1',
        '-p', String(options.standbyOf), '-U', 'postgres']);
    } else {
      // --no-sync only skips initdb's final flush of the fresh files; the settings decide the server's own.
      await runServerProgram(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '--no-instructions',
        '--encoding=UTF8', '--locale=C.UTF-8', ...(options.initdbArgs ?? [])]);
    }
    const settings = ['listen_addresses=127.0.0.1', ...options.settings];
    const port = await startServer(bin, data, log, folder, settings, cpu);
    const postmasterPid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n', 1)[0]);
    let halted = false;
    const stopNow = () => {
      const [command, args] = asServerUser(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      spawnSync(command, args, { stdio: 'ignore', timeout: 30_000 });
      remove();
    };
    process.once('exit', stopNow);
    return {
      adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
      socketUrl: `postgres://postgres@localhost:${port}/postgres?host=${encodeURIComponent(folder)}`,
      port, postmasterPid, cpu,
      async halt(mode) {
        await runServerProgram(join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop']);
        halted = true;
      },
      async promote() {
        await runServerProgram(join(bin, 'pg_ctl'), ['-D', data, '-w', 'promote']);
      },
      async resume() {
        await runServerProgram(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-o', serverOptions(port, folder, settings), 'start'], cpu);
        halted = false;
      },
      async stop() {
        process.removeListener('exit', stopNow);
        try {
          if (!halted) await runServerProgram(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
        } finally {
          remove();
        }
      },
    };
  } catch (error) {
    remove();
    throw error;
  }
}

/**
 * Starts the server on a free port. Another program may take the port between our check and the
 * server's bind, so a start that fails to bind is tried again on a new port, twice.
 */
async function startServer(bin: string, data: string, log: string, socketFolder: string, settings: readonly string[],
  cpu: number | undefined): Promise<number> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    try {
      await runServerProgram(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-w', '-o', serverOptions(port, socketFolder, settings), 'start'], cpu);
      return port;
    } catch (error) {
      lastError = error;
      if (!/could not bind|address already in use/i.test(logTail(log))) break;
    }
  }
  throw new Error(`${(lastError as Error).message}\nserver log:\n${logTail(log)}`);
}

function serverOptions(port: number, socketFolder: string, settings: readonly string[]): string {
  return [`-p ${port}`, `-k ${socketFolder}`, ...settings.map((setting) => `-c ${setting}`)].join(' ');
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database `name` on the server of `adminUrl`; answers its URL. */
export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops the database, closing any connection still open to it. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`));
}
