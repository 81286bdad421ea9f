/**
 * The benchmark's throw-away PostgreSQL cluster (test/helpers/postgres-cluster.ts starts and
 * stops it), optionally pinned to one CPU with taskset (the postmaster and every backend it forks
 * inherit the affinity). Unlike the test suite's cluster (which turns fsync and synchronous_commit
 * off), this one is DURABLE: fsync and synchronous_commit stay at their defaults (on), so every
 * COMMIT waits for its WAL flush, as on a production server.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { type Cluster as ThrowAwayCluster, startCluster as startThrowAwayCluster } from '../test/helpers/postgres-cluster.js';
import { log, processCpuSeconds } from './lib.js';

export { createDatabase, dropDatabase } from '../test/helpers/postgres-cluster.js';

/** The throw-away cluster, with what the benchmark reports of it. */
export interface Cluster extends ThrowAwayCluster {
  /** The postmaster's CPU affinity as taskset reported it right after the start. */
  affinity: string;
  /** `SHOW` of the settings that decide durability, as the running server reports them. */
  settings: Record<string, string>;
}

/** Server settings; fsync and synchronous_commit are deliberately left at their defaults (on). */
const SETTINGS = [
  // 2 servers × pool of 10, the 64 connections of the bare baseline, the benchmark's own.
  'max_connections=200',
];

/**
 * Starts a fresh durable cluster under `baseDir`; pins it to `cpu` when given and taskset exists.
 * `extraSettings` are more `-c name=value` server settings (diagnostics such as pg_stat_statements).
 */
export async function startCluster(baseDir: string, cpu?: number, extraSettings: string[] = []): Promise<Cluster> {
  const cluster = await startThrowAwayCluster({ settings: [...SETTINGS, ...extraSettings], cpu, baseDir });
  try {
    const settings = await showSettings(cluster.adminUrl);
    const pinnedTo = affinity(cluster.postmasterPid);
    log(`PostgreSQL ${settings.server_version} pid ${cluster.postmasterPid} on 127.0.0.1:${cluster.port}`
      + `${cluster.cpu !== undefined ? ` pinned to CPU ${cluster.cpu} (${pinnedTo})` : ''}; `
      + `fsync=${settings.fsync}, synchronous_commit=${settings.synchronous_commit}, wal_sync_method=${settings.wal_sync_method}`);
    return { ...cluster, affinity: pinnedTo, settings };
  } catch (error) {
    await cluster.stop();
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

/**
 * CPU seconds the cluster has used so far: its live processes plus the children the postmaster
 * has reaped (cutime + cstime of /proc/PID/stat). Between two readings this counts a backend that
 * started and ended in between, such as the CLI's during an import, which clusterPids misses.
 */
export function clusterCpuSeconds(postmasterPid: number): number | undefined {
  let reaped: number;
  try {
    const stat = readFileSync(`/proc/${postmasterPid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[13] = cutime, fields[14] = cstime (fields 16 and 17 of proc(5)), in clock ticks.
    reaped = (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
  return clusterPids(postmasterPid).reduce((total, pid) => total + (processCpuSeconds(pid) ?? 0), reaped);
}
