/**
 * A throw-away PostgreSQL cluster for the benchmark: initdb in a temporary folder, started with
 * pg_ctl on 127.0.0.1 at a free port (never 5432), optionally pinned to one CPU with taskset
 * (the postmaster and every backend it forks inherit the affinity), stopped with
 * `pg_ctl -m fast -w stop` and deleted at the end.
 *
 * Unlike the test suite's cluster (test/helpers/postgres.ts on branch infra, which turns
 * synchronous_commit off), this one is DURABLE: fsync and synchronous_commit stay at their
 * defaults (on), so every COMMIT waits for its WAL flush, as on a production server.
 *
 * As root, initdb and pg_ctl run as the `postgres` user (`runuser -u postgres --`): initdb refuses
 * to run as root. The temporary folder is made reachable (o+x) and the cluster folder inside it
 * is owned by `postgres`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { HAS_TASKSET, log } from './lib.js';

export const PG_BIN = '/usr/lib/postgresql/15/bin';

export interface Cluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres: the maintenance database (create others from it). */
  adminUrl: string;
  /** The same over the server's Unix-domain socket (postgres://postgres@localhost:PORT/postgres?host=DIR). */
  socketUrl: string;
  port: number;
  /** The postmaster's pid (its children are the backends, checkpointer, WAL writer, ...). */
  postmasterPid: number;
  /** The CPU the server processes are pinned to, or undefined. */
  cpu: number | undefined;
  /** The postmaster's CPU affinity as taskset reported it right after the start. */
  affinity: string;
  /** `SHOW` of the settings that decide durability, as the running server reports them. */
  settings: Record<string, string>;
  stop(): Promise<void>;
}

/** Server settings; fsync and synchronous_commit are deliberately left at their defaults (on). */
const SETTINGS = [
  'listen_addresses=127.0.0.1',
  // 2 servers × pool of 10, the 64 connections of the bare baseline, the benchmark's own.
  'max_connections=200',
];

function asPostgres(program: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [program, args];
  return ['runuser', ['-u', 'postgres', '--', program, ...args]];
}

function runAsPostgres(program: string, args: string[], cpu?: number): void {
  let [command, fullArgs] = asPostgres(join(PG_BIN, program), args);
  if (cpu !== undefined && HAS_TASKSET) [command, fullArgs] = ['taskset', ['-c', String(cpu), command, ...fullArgs]];
  const result = spawnSync(command, fullArgs, { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) {
    throw new Error(`${[command, ...fullArgs].join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
  }
}

function freePort(): Promise<number> {
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

function tail(path: string, lines = 20): string {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').slice(-lines).join('\n') : '(no log)';
}

/**
 * Starts a fresh durable cluster under `baseDir`; pins it to `cpu` when given and taskset exists.
 * `extraSettings` are more `-c name=value` server settings (diagnostics such as pg_stat_statements).
 */
export async function startCluster(baseDir: string, cpu?: number, extraSettings: string[] = []): Promise<Cluster> {
  if (!existsSync(join(PG_BIN, 'initdb'))) {
    throw new Error(`No PostgreSQL 15 under ${PG_BIN} (apt-get install postgresql), or pass --db postgres://... of an existing server`);
  }
  const top = mkdtempSync(join(baseDir, 'ledger-bench-pg-'));
  const folder = join(top, 'cluster');
  mkdirSync(folder);
  const data = join(folder, 'data');
  const logPath = join(folder, 'log');
  const remove = () => rmSync(top, { recursive: true, force: true });
  try {
    if (process.getuid?.() === 0) {
      chmodSync(top, 0o711);
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      chownSync(folder, uid, gid);
    }
    // --no-sync only skips initdb's final flush of the fresh files; the server itself runs with fsync on.
    runAsPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '--no-instructions', '--encoding=UTF8',
      '--locale=C.UTF-8']);
    let port = 0;
    for (let attempt = 1; ; attempt += 1) {
      port = await freePort();
      const options = [`-p ${port}`, `-k ${folder}`, ...[...SETTINGS, ...extraSettings].map((setting) => `-c ${setting}`)].join(' ');
      try {
        runAsPostgres('pg_ctl', ['-D', data, '-l', logPath, '-w', '-o', options, 'start'], cpu);
        break;
      } catch (error) {
        if (attempt >= 3 || !/could not bind|address already in use/i.test(tail(logPath))) {
          throw new Error(`${(error as Error).message}\nserver log:\n${tail(logPath)}`);
        }
      }
    }
    const postmasterPid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n', 1)[0]);
    const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const socketUrl = `postgres://postgres@localhost:${port}/postgres?host=${encodeURIComponent(folder)}`;
    const stopNow = () => {
      const [command, args] = asPostgres(join(PG_BIN, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      spawnSync(command, args, { stdio: 'ignore', timeout: 30_000 });
      remove();
    };
    // If the benchmark dies without its teardown, the server must not outlive it.
    process.once('exit', stopNow);
    const settings = await showSettings(adminUrl);
    const pinnedTo = affinity(postmasterPid);
    log(`PostgreSQL ${settings.server_version} pid ${postmasterPid} on 127.0.0.1:${port}`
      + `${cpu !== undefined && HAS_TASKSET ? ` pinned to CPU ${cpu} (${pinnedTo})` : ''}; `
      + `fsync=${settings.fsync}, synchronous_commit=${settings.synchronous_commit}, wal_sync_method=${settings.wal_sync_method}`);
    return {
      adminUrl, socketUrl, port, postmasterPid, cpu: cpu !== undefined && HAS_TASKSET ? cpu : undefined, affinity: pinnedTo, settings,
      async stop() {
        process.removeListener('exit', stopNow);
        try {
          runAsPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
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

/** `taskset -p` of a process, e.g. "current affinity list: 0". */
export function affinity(pid: number): string {
  const result = spawnSync('taskset', ['-c', '-p', String(pid)], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim().replace(/^pid \d+'s /, '') : 'affinity unknown';
}

export async function showSettings(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const out: Record<string, string> = {};
    for (const name of ['server_version', 'fsync', 'synchronous_commit', 'wal_sync_method', 'full_page_writes', 'shared_buffers',
      'max_connections', 'shared_preload_libraries']) {
      out[name] = (await client.query<Record<string, string>>(`SHOW ${name}`)).rows[0]![name]!;
    }
    return out;
  } finally {
    await client.end();
  }
}

/** Creates an empty database `name` on the server of `adminUrl`; returns its URL. */
export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/**
 * CPU seconds used so far by the postmaster and all its children (backends, WAL writer,
 * checkpointer, ...), from /proc. A backend that exits during a measurement takes its time
 * with it; the pools keep theirs open, so that loss is small.
 */
export function clusterPids(postmasterPid: number): number[] {
  const result = spawnSync('ps', ['-o', 'pid=', '--ppid', String(postmasterPid)], { encoding: 'utf8' });
  const children = result.stdout.split('\n').map((s) => Number(s.trim())).filter((n) => n > 0);
  return [postmasterPid, ...children];
}
