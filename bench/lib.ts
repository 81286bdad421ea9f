/**
 * Shared helpers of the benchmarks: options, the CLI and server child processes, CPU pinning,
 * a keep-alive HTTP client and latency statistics. Uses only Node's standard library and the
 * project's own dependencies (nothing is added).
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, fsyncSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_BATCH_ENTRIES } from '../src/schemas/journal-entry.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const LEDGER_BIN = join(ROOT, 'bin', 'ledger.js');

export interface BenchOptions {
  /** Entries posted through HTTP per run (and inserted by each SQLite baseline). */
  entries: number;
  /** Concurrent HTTP clients. */
  concurrency: number;
  /** Entries posted before measuring (to a separate pair of accounts). */
  warmup: number;
  /** Requests per measurement of the authentication cost. */
  authRequests: number;
  /** Entries per transaction in the batched SQLite baseline. */
  batch: number;
  /** Hard time limit of one measured loop, in seconds. */
  maxSeconds: number;
  /** Skip `tsc -p tsconfig.build.json` (use dist/ as it is). */
  skipBuild: boolean;
  /** Write a V8 CPU profile of the server (FULL run) and print its hottest functions. */
  profile: boolean;
  /** Directory for the temporary databases (default: the OS temp dir). */
  dir: string;
  /** Which benchmarks to run ('sqlite' and 'baseline' both mean the bare-store baseline). */
  only: Set<BenchName>;
  /** Which store: SQLite (the default), PostgreSQL, or both in one run. */
  backend: 'sqlite' | 'postgres' | 'both';
  /**
   * An existing PostgreSQL server to use instead of a throw-away cluster (its user must be
   * allowed to CREATE DATABASE; each run makes and drops its own database there).
   */
  db: string | undefined;
  /**
   * How the PostgreSQL reports ledger is made: copied row for row from a SQLite one built through
   * the service (fast), or built through the service on PostgreSQL (several minutes at 1M lines).
   */
  pgBuild: 'copy' | 'service';
  /** The CPU the throw-away PostgreSQL cluster is pinned to (default 0, with the ledger servers). */
  pgCpu: number;
  /** Connect to the throw-away cluster over its Unix-domain socket instead of TCP on 127.0.0.1. */
  pgSocket: boolean;
  /** Diagnostics: load pg_stat_statements in the throw-away cluster and print each posting run's costliest statements. */
  pgStatements: boolean;
  /** Journal lines of the ledger the reports benchmark builds. */
  lines: number;
  /** Timed calls per report (after three warm-up calls). */
  repeat: number;
  /** Keep the temporary directory (for inspection). */
  keep: boolean;
  /**
   * Run the reports on this existing SQLite ledger, built by buildLedger with `lines` lines
   * (bench/verify.ts --db FILE keeps one), instead of building one: the 10,000,000-line runs.
   */
  reportsDb: string | undefined;
  /** Also write the whole Markdown output to this file, headed by the command and the commit. */
  write: string | undefined;
  /**
   * A checkout of another build (a git worktree with its own dist/, e.g. the commit before a
   * change): its server posts too, in the same run, and with --profile is profiled too.
   */
  before: string | undefined;
  /** Journal lines (two per entry) of the bulk-loading runs: the imported file, and the batch route's limit. */
  bulkLines: number;
  /** Entries per request of the batch route runs. */
  bulkBatch: number;
  /**
   * Active webhook endpoints of the posting runs with webhooks (issue 26: delivery does not slow
   * posting); 0 leaves the comparison out.
   */
  webhooks: number;
  /** Posting runs with the endpoints, and as many without, alternated (the plain FULL run is the first without). */
  webhookRuns: number;
  /** After a run with endpoints, they must have delivered every event within this long, or the run fails. */
  webhookCatchUpSeconds: number;
  /**
   * Windows of the interleaved comparison (bench/webhooks-interleaved.ts): one server, windows
   * alternating without and with the endpoints; 0 leaves it out. Even.
   */
  webhookWindows: number;
  /** Posts per window of the interleaved comparison. */
  webhookWindowEntries: number;
}

/** Every name `--only` takes; the default runs them all. */
const BENCH_NAMES = ['posting', 'auth', 'sqlite', 'baseline', 'reports', 'http', 'bulk', 'startup'] as const;
export type BenchName = typeof BENCH_NAMES[number];

/** Timed calls per report (--repeat): enough that p99 is not simply the slowest call. */
export const DEFAULT_REPORT_CALLS = 100;

const HELP = `npm run bench -- [options]   (every option also reads an env variable)
  --entries N        entries per run                          BENCH_ENTRIES      (20000)
  --concurrency C    concurrent HTTP clients                  BENCH_CONCURRENCY  (64)
  --warmup W         warm-up entries before each HTTP run     BENCH_WARMUP       (2000)
  --auth-requests R  requests per auth-cost measurement       BENCH_AUTH_REQUESTS (5000)
  --batch B          entries per transaction, batched baseline BENCH_BATCH       (64)
  --max-seconds S    time limit of one measured loop          BENCH_MAX_SECONDS  (15)
  --dir D            where the temporary databases go         BENCH_DIR          (OS temp dir)
  --only LIST        posting,auth,baseline,reports,http,bulk, BENCH_ONLY         (all)
                     startup (sqlite = baseline: the bare store without HTTP;
                     http and startup run on SQLite only)
  --backend B        sqlite, postgres or both                 BENCH_BACKEND      (sqlite)
  --db URL           postgres://user:pass@host:port/db of an  BENCH_PG_URL       (a throw-away cluster)
                     existing server (implies --backend postgres unless both;
                     its user needs CREATEDB: every run creates and drops a database)
  --pg-build HOW     copy or service: how the PostgreSQL     BENCH_PG_BUILD     (copy)
                     reports ledger is made (copy: the SQLite one, built through the
                     service, copied row for row; service: built through the
                     service on PostgreSQL, several minutes at 1M lines)
  --pg-cpu N         pin the throw-away cluster to CPU N       BENCH_PG_CPU       (0, with the servers)
                     (1 = beside the load generator, to see the server without the database on its core)
  --pg-socket        connect over the cluster's Unix socket    BENCH_PG_SOCKET=1
                     instead of TCP on 127.0.0.1 (a local deployment; default TCP)
  --pg-statements    load pg_stat_statements in the cluster   BENCH_PG_STATEMENTS=1
                     and print each posting run's costliest statements (diagnostics)
  --lines L          journal lines of the reports ledger      BENCH_LINES        (1000000)
  --repeat R         timed calls per report                   BENCH_REPEAT       (${DEFAULT_REPORT_CALLS})
  --bulk-lines L     journal lines of the bulk import and of  BENCH_BULK_LINES   (1000000)
                     each batch-route run (even: two-line entries)
  --bulk-batch B     entries per batch-route request          BENCH_BULK_BATCH   (1000)
                     (at most 10000, the API's limit)
  --webhooks N       active webhook endpoints of the posting  BENCH_WEBHOOKS     (3)
                     runs with webhooks (FULL, each endpoint for every event, on a
                     receiver of the bench's on CPU 1; issue 26); 0 = no such runs
  --webhook-runs R   posting runs with the endpoints, and as  BENCH_WEBHOOK_RUNS (2)
                     many without, in the order without, with, with, without, ...
                     (the plain FULL run is the first without); medians compared
  --webhook-catch-up S                                        BENCH_WEBHOOK_CATCH_UP (300)
                     after each run with endpoints, fail unless they delivered every
                     event within S seconds (or if no cursor moves for 15 s);
                     catching up 20,000 events took about 80 s on this machine
  --webhook-windows W                                         BENCH_WEBHOOK_WINDOWS (16)
                     the interleaved comparison (the goal's verdict): one server, W
                     windows alternating without and with the endpoints (without,
                     with, with, without, ...); even; 0 = not run
  --webhook-window-entries E                                  BENCH_WEBHOOK_WINDOW_ENTRIES (4000)
                     posts per window of the interleaved comparison
  --skip-build       do not run tsc before starting           BENCH_SKIP_BUILD=1
  --profile          CPU-profile the server (FULL run)        BENCH_PROFILE=1
                     (with --before: both builds, µs per entry by part of the code side by side;
                     with --webhooks N: a run with the endpoints too, both compared during the load)
  --keep             keep the temporary directory             BENCH_KEEP=1
  --reports-db FILE  run the reports on this SQLite ledger    BENCH_REPORTS_DB   (build one)
                     (built with the same --lines by bench/verify.ts --db FILE);
                     on PostgreSQL, copy this ledger instead of building one
  --write FILE       also write the Markdown output to FILE   BENCH_WRITE        (stdout only)
  --before DIR       another build's checkout (its dist/):    BENCH_BEFORE       (none)
                     posted (and profiled) beside this one; with reports (SQLite,
                     no --reports-db) it builds the reports ledger, this build
                     migrates a copy, and both serve the calls side by side`;

function positiveInt(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got ${text}`);
  return value;
}

function nonNegativeInt(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got ${text}`);
  return value;
}

function evenInt(name: string, text: string): number {
  const value = nonNegativeInt(name, text);
  if (value % 2 !== 0) throw new Error(`${name} must be even (windows alternate in pairs), got ${text}`);
  return value;
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const booleans = new Set(['skip-build', 'profile', 'keep', 'help', 'pg-statements', 'pg-socket']);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new Error(`Unexpected argument ${arg}\n${HELP}`);
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    if (booleans.has(name)) { flags.add(name); continue; }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`--${name} needs a value\n${HELP}`);
    values.set(name, value);
  }
  if (flags.has('help')) {
    process.stdout.write(`${HELP}\n`);
    process.exit(0);
  }
  const known = ['entries', 'concurrency', 'warmup', 'auth-requests', 'batch', 'max-seconds', 'dir', 'only', 'lines', 'repeat',
    'backend', 'db', 'pg-build', 'pg-cpu', 'reports-db', 'write', 'before', 'bulk-lines', 'bulk-batch',
    'webhooks', 'webhook-runs', 'webhook-catch-up', 'webhook-windows', 'webhook-window-entries'];
  for (const name of values.keys()) if (!known.includes(name)) throw new Error(`Unknown option --${name}\n${HELP}`);
  const pick = (name: string, envName: string, fallback: string) => values.get(name) ?? env[envName] ?? fallback;
  const flag = (name: string, envName: string) => flags.has(name) || env[envName] === '1' || env[envName] === 'true';
  const only = new Set(pick('only', 'BENCH_ONLY', 'posting,auth,baseline,reports,http,bulk,startup').split(',').map((s) => s.trim())
    .filter(Boolean));
  for (const item of only) {
    if (!(BENCH_NAMES as readonly string[]).includes(item)) {
      throw new Error(`--only takes posting, auth, baseline (or sqlite), reports, http, bulk, startup; got ${item}`);
    }
  }
  if (only.has('sqlite')) only.add('baseline');
  if (only.has('baseline')) only.add('sqlite');
  const db = values.get('db') ?? env.BENCH_PG_URL;
  if (db !== undefined && !/^postgres(ql)?:\/\//i.test(db)) throw new Error(`--db takes a postgres:// URL, got ${db}`);
  const backend = pick('backend', 'BENCH_BACKEND', db === undefined ? 'sqlite' : 'postgres');
  if (backend !== 'sqlite' && backend !== 'postgres' && backend !== 'both') {
    throw new Error(`--backend takes sqlite, postgres or both; got ${backend}`);
  }
  if (db !== undefined && backend === 'sqlite') throw new Error('--db postgres://... needs --backend postgres or both');
  const pgBuild = pick('pg-build', 'BENCH_PG_BUILD', 'copy');
  if (pgBuild !== 'copy' && pgBuild !== 'service') throw new Error(`--pg-build takes copy or service; got ${pgBuild}`);
  const bulkLines = positiveInt('--bulk-lines', pick('bulk-lines', 'BENCH_BULK_LINES', '1000000'));
  if (bulkLines % 2 !== 0) throw new Error(`--bulk-lines must be even (the entries have two lines each), got ${bulkLines}`);
  const bulkBatch = positiveInt('--bulk-batch', pick('bulk-batch', 'BENCH_BULK_BATCH', '1000'));
  if (bulkBatch > MAX_BATCH_ENTRIES) throw new Error(`--bulk-batch is at most ${MAX_BATCH_ENTRIES} (the API's limit), got ${bulkBatch}`);
  return {
    entries: positiveInt('--entries', pick('entries', 'BENCH_ENTRIES', '20000')),
    concurrency: positiveInt('--concurrency', pick('concurrency', 'BENCH_CONCURRENCY', '64')),
    warmup: Number(pick('warmup', 'BENCH_WARMUP', '2000')),
    authRequests: positiveInt('--auth-requests', pick('auth-requests', 'BENCH_AUTH_REQUESTS', '5000')),
    batch: positiveInt('--batch', pick('batch', 'BENCH_BATCH', '64')),
    maxSeconds: positiveInt('--max-seconds', pick('max-seconds', 'BENCH_MAX_SECONDS', '15')),
    dir: pick('dir', 'BENCH_DIR', tmpdir()),
    only: only as Set<BenchName>,
    backend,
    db,
    pgBuild,
    pgStatements: flag('pg-statements', 'BENCH_PG_STATEMENTS'),
    pgSocket: flag('pg-socket', 'BENCH_PG_SOCKET'),
    pgCpu: nonNegativeInt('--pg-cpu', pick('pg-cpu', 'BENCH_PG_CPU', '0')),
    skipBuild: flag('skip-build', 'BENCH_SKIP_BUILD'),
    profile: flag('profile', 'BENCH_PROFILE'),
    keep: flag('keep', 'BENCH_KEEP'),
    lines: positiveInt('--lines', pick('lines', 'BENCH_LINES', '1000000')),
    repeat: positiveInt('--repeat', pick('repeat', 'BENCH_REPEAT', String(DEFAULT_REPORT_CALLS))),
    reportsDb: values.get('reports-db') ?? env.BENCH_REPORTS_DB,
    write: values.get('write') ?? env.BENCH_WRITE,
    before: values.get('before') ?? env.BENCH_BEFORE,
    bulkLines,
    bulkBatch,
    webhooks: nonNegativeInt('--webhooks', pick('webhooks', 'BENCH_WEBHOOKS', '3')),
    webhookRuns: positiveInt('--webhook-runs', pick('webhook-runs', 'BENCH_WEBHOOK_RUNS', '2')),
    webhookCatchUpSeconds: positiveInt('--webhook-catch-up', pick('webhook-catch-up', 'BENCH_WEBHOOK_CATCH_UP', '300')),
    webhookWindows: evenInt('--webhook-windows', pick('webhook-windows', 'BENCH_WEBHOOK_WINDOWS', '16')),
    webhookWindowEntries: positiveInt('--webhook-window-entries', pick('webhook-window-entries', 'BENCH_WEBHOOK_WINDOW_ENTRIES', '4000')),
  };
}

// ---------------------------------------------------------------------------------------------
// Processes

export const HAS_TASKSET = spawnSync('which', ['taskset'], { stdio: 'ignore' }).status === 0;

/** Pins this process (all its threads) to one CPU; returns false when taskset is missing. */
export function pinSelf(cpu: number): boolean {
  if (!HAS_TASKSET) return false;
  const result = spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(process.pid)], { stdio: 'ignore' });
  return result.status === 0;
}

/** A small deterministic generator (mulberry32), so that every run builds and posts the same data. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/**
 * Compiles src/ to dist/ and bundles it into dist/bundle/ (what bin/ledger.js runs); retries while
 * src/ is being edited.
 */
export async function buildDist(): Promise<void> {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  for (let attempt = 1; attempt <= 3; attempt++) {
    let result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' });
    if (result.status === 0) result = spawnSync(process.execPath, ['scripts/bundle-cli.mjs'], { cwd: ROOT, encoding: 'utf8' });
    if (result.status === 0) return;
    process.stderr.write(`build failed (attempt ${attempt}/3):\n${result.stdout}${result.stderr}\n`);
    if (attempt < 3) {
      process.stderr.write('retrying in 30 s (src/ may be mid-edit)\n');
      await sleep(30_000);
    }
  }
  throw new Error('the build (tsc -p tsconfig.build.json, then scripts/bundle-cli.mjs) failed; fix src/ or pass --skip-build');
}

/** Runs the compiled CLI synchronously and returns its stdout. */
/** Runs a `ledger` command (this checkout's, or `bin`: another build's, see --before). */
export function ledgerCli(db: string, args: string[], bin = LEDGER_BIN): string {
  return execFileSync(process.execPath, [bin, '--db', db, ...args], {
    cwd: ROOT, encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Latency of the disk's flush: `count` times, overwrite 4 KiB of a file and fsync it. FULL
 * commits pay this once each, so it explains most of the run-to-run spread of FULL figures.
 */
export function fsyncProbe(dir: string, count = 200): LatencySummary {
  const path = join(dir, 'fsync-probe.bin');
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(4096, 1);
  const times = new Float64Array(count);
  try {
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      writeSync(fd, block, 0, block.length, 0);
      fsyncSync(fd);
      times[i] = performance.now() - t0;
    }
  } finally {
    closeSync(fd);
    rmSync(path, { force: true });
  }
  return summarize(times);
}

export function makeTempDir(base: string): string {
  return mkdtempSync(join(base, 'ledger-bench-'));
}

export function removeDir(path: string): void {
  rmSync(path, { recursive: true, force: true });
}

/**
 * CPU seconds a process has used so far, from /proc: the sum of its threads' run time in
 * nanoseconds (/proc/PID/task/TID/schedstat), else utime + stime in clock ticks; undefined when
 * /proc is missing.
 */
export function processCpuSeconds(pid: number): number | undefined {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch { /* the thread ended */ }
    }
    if (ns > 0) return ns / 1e9;
  } catch { /* fall through */ }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[11] = utime, fields[12] = stime (fields 14 and 15 of proc(5)), in clock ticks.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** CPU seconds the whole machine has been busy (all cores, every process), from /proc/stat. */
export function machineBusySeconds(): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
    return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) / 100;
  } catch {
    return undefined;
  }
}

/** CPU seconds one core has been busy (every process), from the cpuN line of /proc/stat. */
export function coreBusySeconds(cpu: number): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n').find((l) => l.startsWith(`cpu${cpu} `));
    if (line === undefined) return undefined;
    const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
    return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) / 100;
  } catch {
    return undefined;
  }
}

/** Tracks the CPU that processes other than the benchmark's own used during a measurement. */
export class OtherCpu {
  private readonly machine0 = machineBusySeconds();
  private readonly own0: number[];
  private readonly self0 = process.cpuUsage();
  private readonly t0 = performance.now();

  constructor(private readonly pids: number[]) {
    this.own0 = pids.map((pid) => processCpuSeconds(pid) ?? 0);
  }

  /** Cores' worth of CPU used by everything else (0.0 on a quiet machine; 1.0 = one full core). */
  cores(): number | undefined {
    const machine1 = machineBusySeconds();
    if (this.machine0 === undefined || machine1 === undefined) return undefined;
    const self = process.cpuUsage(this.self0);
    const own = this.pids.reduce((sum, pid, i) => sum + ((processCpuSeconds(pid) ?? 0) - this.own0[i]!), 0)
      + (self.user + self.system) / 1e6;
    const seconds = (performance.now() - this.t0) / 1000;
    return Math.max(0, (machine1 - this.machine0 - own) / seconds);
  }
}

export interface Server {
  child: ChildProcess;
  pid: number;
  baseUrl: string;
  output: () => string;
}

/** `command args` pinned to `cpu` with taskset (which execs it: the pid is the command's), or unpinned without taskset. */
export function pinned(cpu: number, command: string, args: string[]): [string, string[]] {
  return HAS_TASKSET ? ['taskset', ['-c', String(cpu), command, ...args]] : [command, args];
}

/**
 * Starts `ledger serve` on 127.0.0.1 with a free port chosen by the kernel (--port 0; the real
 * address is read from the server's start-up line), pinned to `cpu` when taskset exists.
 */
/** `bin`: the `ledger` program to start, this checkout's by default (see --before). */
export function startServer(db: string, env: Record<string, string>, cpu: number, nodeArgs: string[] = [],
  bin = LEDGER_BIN): Promise<Server> {
  return startNodeServer('ledger serve', [...nodeArgs, bin, '--db', db, 'serve', '--host', '127.0.0.1', '--port', '0'], env, cpu,
    /ledger listening on (http:\/\/127\.0\.0\.1:\d+)/);
}

/**
 * Starts `node args` pinned to `cpu` and waits for the start-up line matching `listening`, whose
 * first group is the base URL.
 */
export async function startNodeServer(name: string, args: string[], env: Record<string, string>, cpu: number,
  listening: RegExp): Promise<Server> {
  const [command, commandArgs] = pinned(cpu, process.execPath, args);
  const child = spawn(command, commandArgs, {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const keep = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    if (text.length > 100_000) text = text.slice(-50_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const server: Server = { child, pid: child.pid!, baseUrl: '', output: () => text };
  running.add(server);
  child.once('exit', () => running.delete(server));
  // 60 s: on a loaded machine (tests running beside the benchmark) a start has taken over 20 s.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const match = listening.exec(text);
    if (match) {
      server.baseUrl = match[1]!;
      return server;
    }
    if (child.exitCode !== null || child.signalCode !== null) break;
    await sleep(20);
  }
  await stopServer(server);
  throw new Error(`${name} did not start:\n${text}`);
}

const running = new Set<Server>();

/** Kills the servers still running (by pid) when the benchmark itself is interrupted. */
export function killRunningServers(): void {
  for (const server of running) {
    try { process.kill(server.pid, 'SIGKILL'); } catch { /* already gone */ }
  }
}

/** SIGTERM (the server closes cleanly and writes its CPU profile), then SIGKILL after 10 s. */
export async function stopServer(server: Server): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------
// HTTP client

export interface Response {
  status: number;
  body: string;
}

export class Client {
  readonly agent: http.Agent;
  private readonly url: URL;

  constructor(baseUrl: string, maxSockets: number, private readonly apiKey?: string) {
    this.url = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  request(method: string, path: string, body?: unknown, authenticated = true): Promise<Response> {
    return this.send(method, path, body === undefined ? undefined : JSON.stringify(body), authenticated);
  }

  /** As request(), with a body already serialized (so that building it is not timed). */
  send(method: string, path: string, payload: string | undefined, authenticated = true): Promise<Response> {
    const headers: Record<string, string> = {};
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    if (authenticated && this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    return new Promise((done, fail) => {
      const req = http.request({
        host: this.url.hostname, port: this.url.port, method, path, headers, agent: this.agent,
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', fail);
      });
      req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${path}: no answer in 30 s`)));
      req.on('error', fail);
      req.end(payload);
    });
  }

  /** Sends and insists on `expected`; returns the parsed JSON body. */
  async json<T>(method: string, path: string, body: unknown, expected: number): Promise<T> {
    const response = await this.request(method, path, body);
    if (response.status !== expected) {
      throw new Error(`${method} ${path}: expected ${expected}, got ${response.status}: ${response.body.slice(0, 500)}`);
    }
    return JSON.parse(response.body) as T;
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface LoadResult {
  count: number;
  seconds: number;
  latenciesMs: Float64Array;
}

/**
 * Runs `count` calls of `one(i)` with `concurrency` workers, each starting its next call as soon
 * as the previous one answered (closed loop). Stops early at `maxSeconds` (then count < asked).
 */
export async function closedLoop(count: number, concurrency: number, maxSeconds: number,
  one: (index: number, worker: number) => Promise<void>): Promise<LoadResult> {
  const latencies = new Float64Array(count);
  let next = 0;
  let done = 0;
  let failure: { error: unknown } | undefined;
  const deadline = performance.now() + maxSeconds * 1000;
  const start = performance.now();
  const worker = async (_: unknown, workerIndex: number) => {
    while (next < count && failure === undefined && performance.now() < deadline) {
      const index = next++;
      const t0 = performance.now();
      try {
        await one(index, workerIndex);
      } catch (error) {
        failure ??= { error };
        return;
      }
      latencies[done++] = performance.now() - t0;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  const seconds = (performance.now() - start) / 1000;
  if (failure !== undefined) throw failure.error;
  return { count: done, seconds, latenciesMs: latencies.subarray(0, done) };
}

export interface LatencySummary {
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

/**
 * `count` runs or windows in the order without, with, with, without, and again (ABBA, so that a
 * drift of the machine's speed over them weighs on both sides alike), as `value` (with) or 0.
 */
export function abbaOrder(value: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => ('ABBA'[i % 4] === 'A' ? 0 : value));
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** summarize() over several loops' latencies together. */
export function summarizeAll(parts: readonly Float64Array[]): LatencySummary {
  const all = new Float64Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return summarize(all);
}

export function summarize(latenciesMs: Float64Array): LatencySummary {
  const sorted = Float64Array.from(latenciesMs).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
  let sum = 0;
  for (const value of sorted) sum += value;
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? NaN, mean: sum / sorted.length };
}

// ---------------------------------------------------------------------------------------------
// Output

export function fmt(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A share of one core as a percentage ('n/a' when it could not be read). */
export function pct(cores: number | undefined): string {
  return cores === undefined ? 'n/a' : `${fmt(cores * 100)}%`;
}

export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
  return [line(headers), `|${widths.map((w, i) => (i === 0 ? `-${'-'.repeat(w)}-` : `-${'-'.repeat(w)}:`)).join('|')}|`,
    ...rows.map(line)].join('\n');
}

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/** Says where a written copy comes from: it is regenerated by a run, never edited by hand. */
export function generatedHeader(args: readonly string[], command = 'npm run bench --'): string {
  const git = (...gitArgs: string[]) => spawnSync('git', gitArgs, { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() ?? '';
  const commit = git('log', '-1', '--format=%h %s');
  const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
  return [
    `<!-- Written by \`${command}\` (--write); regenerate it with a new run instead of editing it. -->`,
    '',
    `Command: \`${command} ${args.join(' ')}\`  `,
    `Commit: ${commit || 'unknown'}${dirty ? ' (with uncommitted changes)' : ''}`,
    '',
  ].join('\n');
}
