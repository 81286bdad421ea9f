/**
 * A PgBouncer (Debian's `pgbouncer`) in transaction pooling mode in front of a test cluster, for
 * the pgbouncer project of vitest.config.ts: the PostgreSQL API suite run again through it
 * (docs/operations.md, "PgBouncer"). It listens on 127.0.0.1 at a free port, passes every
 * database to the cluster as its `postgres` user, and is stopped by its own process id.
 *
 * PgBouncer refuses to run as root: as root it runs as the `postgres` user, like the cluster.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './postgres-cluster.js';

export interface Pooler {
  port: number;
  stop(): Promise<void>;
}

export function pgbouncerBinary(): string {
  const found = spawnSync('sh', ['-c', 'command -v pgbouncer || ls /usr/sbin/pgbouncer'], { encoding: 'utf8' }).stdout.trim().split('\n')[0];
  if (!found) throw new Error('No pgbouncer program (apt-get install pgbouncer)');
  return found;
}

/** Starts PgBouncer in front of the server at 127.0.0.1:`serverPort`; resolves once it accepts connections. */
export async function startPgbouncer(serverPort: number): Promise<Pooler> {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-pgbouncer-'));
  const asRoot = process.getuid?.() === 0;
  const port = await freePort();
  const config = join(dir, 'pgbouncer.ini');
  writeFileSync(config, [
    '[databases]',
    `* = host=127.0.0.1 port=${serverPort} user=postgres`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = any',
    'pool_mode = transaction',
    // Every test file opens pools of its own (and `ledger serve` children theirs): many clients, few server connections.
    'max_client_conn = 4000',
    'default_pool_size = 40',
    'max_db_connections = 60',
    'server_reset_query =',
    'ignore_startup_parameters = extra_float_digits,options',
    `logfile = ${join(dir, 'pgbouncer.log')}`,
    `pidfile = ${join(dir, 'pgbouncer.pid')}`,
    'log_connections = 0',
    'log_disconnections = 0',
    '',
  ].join('\n'));
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout);
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout);
    chmodSync(dir, 0o700);
    chownSync(dir, uid, gid);
    chownSync(config, uid, gid);
  }
  const binary = pgbouncerBinary();
  const [command, args] = asRoot ? ['runuser', ['-u', 'postgres', '--', binary, config]] : [binary, [config]];
  const child: ChildProcess = spawn(command, args, { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = () => { try { return readFileSync(join(dir, 'pgbouncer.log'), 'utf8'); } catch { return '(no log)'; } };
  const deadline = Date.now() + 20_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`pgbouncer did not start:\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    async stop() {
      // SIGTERM is PgBouncer 1.18's immediate shutdown (SIGINT would wait for every client to
      // leave). Sent to PgBouncer itself, by the pid it wrote: runuser, its parent as root, does
      // not pass signals on.
      if (child.exitCode === null) {
        const pid = Number(readFileSync(join(dir, 'pgbouncer.pid'), 'utf8').trim());
        process.kill(pid, 'SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(port, '127.0.0.1');
    probe.once('connect', () => { probe.destroy(); resolve(true); });
    probe.once('error', () => resolve(false));
  });
}
