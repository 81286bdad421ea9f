/**
 * The PostgreSQL side of the benchmark (`npm run bench -- --backend postgres`):
 *
 * - Posting through HTTP with durable commits (fsync and synchronous_commit on): one `ledger
 *   serve` process, then TWO processes on the same database with the clients split between them;
 *   entries between random accounts among 200, and a hot-account variant in which every entry
 *   debits the same account. Each run gets a fresh database; afterwards the books are checked
 *   (trial balance through the API, entry count = 201 answers, and every maintained total against
 *   the lines, in SQL).
 * - The reference of issue 25's goal: a bare `node:http` server on `pg` (bench/bare-pg-server.mjs,
 *   group commit of up to 64 requests in one statement), started, pinned and loaded exactly as one
 *   `ledger serve` (runPgReference).
 * - Bare PostgreSQL through the same driver (`pg`), the adapter's statements for a two-line entry
 *   with one transaction per request and 64 connections, plus variants that show where the limit is.
 *
 * The server runs on a throw-away cluster (bench/pg-cluster.ts) unless --db names an existing one.
 */
import pg from 'pg';
import {
  type BenchOptions, Client, closedLoop, coreBusySeconds, fmt, type LatencySummary, ledgerCli, log, machineBusySeconds, processCpuSeconds,
  random, ROOT, type Server, startNodeServer, startServer, stopServer, summarize, table,
} from './lib.js';
import { type Cluster, clusterCpuSeconds, clusterPids, createDatabase, dropDatabase, showSettings, startCluster } from './pg-cluster.js';
import type { BulkStore } from './bulk.js';
import { prepareDatabase, type ProfileSummary, summarizeProfile } from './posting.js';
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';

/** Where the benchmark's databases go: our own cluster, or a server named by --db. */
export interface PgTarget {
  adminUrl: string;
  cluster: Cluster | undefined;
  settings: Record<string, string>;
  /** CPU the PostgreSQL processes are pinned to (our cluster only). */
  cpu: number | undefined;
  /** pg_stat_statements is loaded (--pg-statements). */
  statements: boolean;
  /** Connections go over the Unix-domain socket (--pg-socket). */
  socket: boolean;
  stop(): Promise<void>;
}

export async function openTarget(options: BenchOptions, serverCpu: number | undefined): Promise<PgTarget> {
  if (options.db !== undefined) {
    const settings = await showSettings(options.db);
    log(`using the existing PostgreSQL server of --db (${settings.server_version}); it is not pinned and its CPU is not measured`);
    const statements = options.pgStatements && settings.shared_preload_libraries!.includes('pg_stat_statements');
    if (options.pgStatements && !statements) log('--pg-statements: the server of --db does not preload pg_stat_statements; ignored');
    return { adminUrl: options.db, cluster: undefined, settings, cpu: undefined, statements, socket: false, stop: async () => {} };
  }
  const extra = options.pgStatements
    ? ['shared_preload_libraries=pg_stat_statements', 'pg_stat_statements.track=all', 'pg_stat_statements.track_planning=on'] : [];
  const cluster = await startCluster(options.dir, serverCpu, extra);
  return {
    adminUrl: options.pgSocket ? cluster.socketUrl : cluster.adminUrl, cluster, settings: cluster.settings, cpu: cluster.cpu,
    statements: options.pgStatements, socket: options.pgSocket, stop: () => cluster.stop(),
  };
}

let databaseSerial = 0;

function databaseName(tag: string): string {
  databaseSerial += 1;
  return `ledger_bench_${process.pid}_${databaseSerial}_${tag.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}`;
}


export const ACCOUNTS = 200;

// ---------------------------------------------------------------------------------------------
// CPU accounting of one measured loop

interface CpuSnapshot {
  servers: (number | undefined)[];
  pgPids: number[];
  pg: number[];
  core: number | undefined;
  machine: number | undefined;
  self: NodeJS.CpuUsage;
  t0: number;
}

export interface CpuUse {
  /** Each ledger server's CPU over the loop, in cores (1.0 = one core busy). */
  servers: (number | undefined)[];
  /** Every PostgreSQL process together (our cluster only). */
  postgres: number | undefined;
  /** How busy the servers' core was, all processes on it. */
  serverCore: number | undefined;
  /** The load generator (this process). */
  client: number;
  /** Every other process on the machine. */
  other: number | undefined;
}

function cpuSnapshot(servers: number[], postmaster: number | undefined, core: number | undefined): CpuSnapshot {
  const pgPids = postmaster === undefined ? [] : clusterPids(postmaster);
  return {
    servers: servers.map((pid) => processCpuSeconds(pid)),
    pgPids,
    pg: pgPids.map((pid) => processCpuSeconds(pid) ?? 0),
    core: core === undefined ? undefined : coreBusySeconds(core),
    machine: machineBusySeconds(),
    self: process.cpuUsage(),
    t0: performance.now(),
  };
}

function cpuSince(start: CpuSnapshot, servers: number[], postmaster: number | undefined, core: number | undefined): CpuUse {
  const seconds = (performance.now() - start.t0) / 1000;
  const serverUse = servers.map((pid, i) => {
    const before = start.servers[i];
    const after = processCpuSeconds(pid);
    return before === undefined || after === undefined ? undefined : (after - before) / seconds;
  });
  let postgres: number | undefined;
  if (postmaster !== undefined) {
    // Backends that appeared during the loop count from zero; the pools opened theirs before it.
    const now = clusterPids(postmaster);
    let total = 0;
    for (const pid of now) {
      const index = start.pgPids.indexOf(pid);
      total += (processCpuSeconds(pid) ?? 0) - (index >= 0 ? start.pg[index]! : 0);
    }
    postgres = total / seconds;
  }
  const coreNow = core === undefined ? undefined : coreBusySeconds(core);
  const machineNow = machineBusySeconds();
  const self = process.cpuUsage(start.self);
  const client = (self.user + self.system) / 1e6 / seconds;
  const own = serverUse.reduce<number>((sum, value) => sum + (value ?? 0), 0) + (postgres ?? 0) + client;
  return {
    servers: serverUse,
    postgres,
    serverCore: start.core === undefined || coreNow === undefined ? undefined : (coreNow - start.core) / seconds,
    client,
    other: start.machine === undefined || machineNow === undefined ? undefined : Math.max(0, (machineNow - start.machine) / seconds - own),
  };
}

// ---------------------------------------------------------------------------------------------
// Where the database's backends are during a loop

/**
 * Samples pg_stat_activity of one database every `everyMs` from its own connection and counts
 * what each backend is doing: running, idle (waiting for its client), or waiting for a lock, the
 * WAL flush, ... One cheap query per sample: at 20 samples a second it costs next to nothing.
 */
export class WaitSampler {
  private readonly counts = new Map<string, number>();
  private samples = 0;
  private timer: NodeJS.Timeout | undefined;
  private busy = false;

  private constructor(private readonly client: pg.Client) {}

  static async start(url: string, everyMs = 50): Promise<WaitSampler> {
    const client = new pg.Client({ connectionString: url });
    // A run that fails drops its database WITH (FORCE), which ends this connection: the run's own
    // error is the one to report, not this one.
    client.on('error', () => {});
    await client.connect();
    const sampler = new WaitSampler(client);
    sampler.timer = setInterval(() => { void sampler.sample(); }, everyMs);
    // A run that fails never stops its sampler: the benchmark must still end after saying why.
    sampler.timer.unref();
    return sampler;
  }

  private async sample(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const result = await this.client.query<{ state: string | null; type: string | null; event: string | null }>(
        `SELECT state, wait_event_type AS type, wait_event AS event FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`);
      this.samples += 1;
      for (const row of result.rows) {
        const key = row.state === 'active'
          ? (row.type === null ? 'active: running (CPU)' : `active: waiting ${row.type}:${row.event}`)
          : `${row.state ?? 'unknown'}${row.type === null || row.type === 'Client' ? '' : ` ${row.type}:${row.event}`}`;
        this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
      }
    } catch { /* a sample lost is no matter */ } finally {
      this.busy = false;
    }
  }

  /** Average number of backends in each state over the samples, most frequent first. */
  async stop(): Promise<{ samples: number; states: { state: string; backends: number }[] }> {
    clearInterval(this.timer);
    while (this.busy) await new Promise((done) => setTimeout(done, 5));
    await this.client.end();
    const states = [...this.counts.entries()].sort((a, b) => b[1] - a[1])
      .map(([state, count]) => ({ state, backends: count / Math.max(1, this.samples) }));
    return { samples: this.samples, states };
  }
}

export function waitText(waits: { samples: number; states: { state: string; backends: number }[] } | undefined): string {
  if (!waits || waits.samples === 0) return 'no samples';
  return waits.states.slice(0, 6).map((s) => `${s.state} ${s.backends.toFixed(2)}`).join(', ');
}

// ---------------------------------------------------------------------------------------------
// Posting through HTTP

export interface PgPostingSpec {
  label: string;
  servers: 1 | 2;
  /** Every entry debits the same account (else both sides are random among the 200). */
  hot: boolean;
  profile?: boolean;
  /** The bare node:http server on `pg` (bench/bare-pg-server.mjs) instead of `ledger serve`: the goal's reference. */
  reference?: boolean;
}

export interface PgPostingResult {
  spec: PgPostingSpec;
  concurrency: number;
  /** 201 answers in the measured loop. */
  entries: number;
  /** Every answer in the measured loop (201 or not). */
  requests: number;
  statuses: Record<string, number>;
  seconds: number;
  entriesPerSecond: number;
  latency: LatencySummary;
  cpu: CpuUse;
  /** Entries in the database after the run, and the 201 answers (warm-up + measured) they must equal. */
  entryCount: number;
  answered201: number;
  verified: string;
  /** What the database's backends were doing during the loop (sampled pg_stat_activity). */
  waits: Awaited<ReturnType<WaitSampler['stop']>> | undefined;
  /** --pg-statements: the costliest statements of the loop. */
  statements?: StatementCost[] | undefined;
  /** The reference only: entries per group it wrote (one statement, one COMMIT each), over its life. */
  groupSize?: number | undefined;
  profile?: ProfileSummary | undefined;
}

export interface StatementCost {
  query: string;
  calls: number;
  /** Per 201 answer of the loop. */
  callsPerEntry: number;
  meanExecMs: number;
  meanPlanMs: number;
  /** Execution + planning time per 201 answer, in µs. */
  usPerEntry: number;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function resetStatements(url: string): Promise<void> {
  await withClient(url, async (client) => {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await client.query('SELECT pg_stat_statements_reset()');
  });
}

async function topStatements(url: string, entries: number): Promise<StatementCost[]> {
  return withClient(url, async (client) => {
    const rows = (await client.query<{ query: string; calls: string; exec: number; plan: number }>(
      `SELECT query, calls::text AS calls, total_exec_time AS exec, total_plan_time AS plan FROM pg_stat_statements
       WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
       ORDER BY total_exec_time + total_plan_time DESC LIMIT 10`)).rows;
    return rows.map((row) => {
      const calls = Number(row.calls);
      return {
        query: row.query.replace(/\s+/g, ' ').slice(0, 110), calls, callsPerEntry: calls / Math.max(1, entries),
        meanExecMs: row.exec / Math.max(1, calls), meanPlanMs: row.plan / Math.max(1, calls),
        usPerEntry: ((row.exec + row.plan) * 1000) / Math.max(1, entries),
      };
    });
  });
}

interface Fixtures {
  accounts: string[];
  warmDebit: string;
  warmCredit: string;
}

async function createFixtures(client: Client): Promise<Fixtures> {
  const currency = await client.json<{ data: { id: string } }>('POST', '/api/v1/currencies', {
    code: 'USD', name: 'US dollar', symbol: '$', asset_scale: 2, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:USD',
  }, 201);
  const open = async (number: string, name: string, type: string, normal: string) =>
    (await client.json<{ data: { id: string } }>('POST', '/api/v1/accounts', {
      account_number: number, name, currency_id: currency.data.id, account_type: type, normal_balance: normal,
    }, 201)).data.id;
  const accounts: string[] = [];
  for (let i = 0; i < ACCOUNTS; i += 8) {
    accounts.push(...await Promise.all(Array.from({ length: Math.min(8, ACCOUNTS - i) }, (_, k) => {
      const n = i + k;
      return n % 2 === 0 ? open(`1${String(n).padStart(4, '0')}`, `Asset ${n}`, 'asset', 'debit')
        : open(`4${String(n).padStart(4, '0')}`, `Revenue ${n}`, 'revenue', 'credit');
    })));
  }
  const warmDebit = await open('19000', 'Warm-up cash', 'asset', 'debit');
  const warmCredit = await open('49000', 'Warm-up sales', 'revenue', 'credit');
  await client.json('POST', '/api/v1/periods', { name: 'FY2026', start_date: '2026-01-01', end_date: '2026-12-31' }, 201);
  return { accounts, warmDebit, warmCredit };
}

function dateIn2026(next: () => number): string {
  const month = 1 + Math.floor(next() * 12);
  const day = 1 + Math.floor(next() * 28);
  return `2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

interface Tally {
  ok: number;
  sum: bigint;
  statuses: Record<string, number>;
  samples: string[];
}

async function post(client: Client, tally: Tally, body: { entry_date: string; description: string; lines: unknown[] },
  amount: bigint): Promise<void> {
  const response = await client.request('POST', '/api/v1/journal-entries', body);
  tally.statuses[response.status] = (tally.statuses[response.status] ?? 0) + 1;
  if (response.status === 201) {
    tally.ok += 1;
    tally.sum += amount;
  } else if (tally.samples.length < 3) {
    tally.samples.push(`${response.status}: ${response.body.slice(0, 300)}`);
  }
}

function entry(debit: string, credit: string, amount: bigint, date: string, index: number) {
  return {
    entry_date: date,
    description: `bench sale ${index}`,
    lines: [
      { account_id: debit, debit_amount: amount.toString() },
      { account_id: credit, credit_amount: amount.toString() },
    ],
  };
}

interface Consistency {
  entries: number;
  lines: number;
  balance_mismatches: number;
  period_mismatches: number;
  daily_mismatches: number;
  currency_total: string;
  line_debits: string;
  line_credits: string;
}

/** Every maintained total against the lines it sums; run after the servers have stopped. */
export async function checkTotals(url: string): Promise<Consistency> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<Record<string, string>>(`
      WITH line_sums AS (
        SELECT account_id, sum(debit_amount) AS d, sum(credit_amount) AS c FROM journal_lines GROUP BY account_id
      ), period_sums AS (
        SELECT account_id, sum(debit_total) AS d, sum(credit_total) AS c FROM account_period_totals GROUP BY account_id
      ), daily_sums AS (
        SELECT account_id, sum(debit_total) AS d, sum(credit_total) AS c FROM account_daily_totals GROUP BY account_id
      )
      SELECT
        (SELECT count(*) FROM journal_entries)::text AS entries,
        (SELECT count(*) FROM journal_lines)::text AS lines,
        (SELECT count(*) FROM line_sums l FULL JOIN account_balances b USING (account_id)
          WHERE l.d IS DISTINCT FROM b.debit_total OR l.c IS DISTINCT FROM b.credit_total)::text AS balance_mismatches,
        (SELECT count(*) FROM line_sums l FULL JOIN period_sums p USING (account_id)
          WHERE l.d IS DISTINCT FROM p.d OR l.c IS DISTINCT FROM p.c)::text AS period_mismatches,
        (SELECT count(*) FROM line_sums l FULL JOIN daily_sums p USING (account_id)
          WHERE l.d IS DISTINCT FROM p.d OR l.c IS DISTINCT FROM p.c)::text AS daily_mismatches,
        (SELECT coalesce(sum(debit_total), 0) FROM currency_totals)::text AS currency_total,
        (SELECT coalesce(sum(debit_amount), 0) FROM journal_lines)::text AS line_debits,
        (SELECT coalesce(sum(credit_amount), 0) FROM journal_lines)::text AS line_credits`);
    const row = result.rows[0]!;
    return {
      entries: Number(row.entries), lines: Number(row.lines), balance_mismatches: Number(row.balance_mismatches),
      period_mismatches: Number(row.period_mismatches), daily_mismatches: Number(row.daily_mismatches),
      currency_total: row.currency_total!, line_debits: row.line_debits!, line_credits: row.line_credits!,
    };
  } finally {
    await client.end();
  }
}

function fail(message: string): never {
  throw new Error(`VERIFICATION FAILED: ${message}`);
}

export async function runPgPosting(options: BenchOptions, target: PgTarget, dir: string, spec: PgPostingSpec): Promise<PgPostingResult> {
  const tag = `${spec.servers}srv${spec.hot ? '_hot' : ''}${spec.profile ? '_prof' : ''}`;
  const name = databaseName(tag);
  const url = await createDatabase(target.adminUrl, name);
  const servers: Server[] = [];
  const clients: Client[] = [];
  const profileDir = join(dir, `profile-pg-${tag}`);
  let result: PgPostingResult | undefined;
  try {
    const apiKey = prepareDatabase(url);
    for (let i = 0; i < spec.servers; i += 1) {
      const nodeArgs = spec.profile && i === 0 ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
      servers.push(await startServer(url, {}, 0, nodeArgs));
    }
    log(`pg ${spec.label}: ledger serve pid ${servers.map((s) => `${s.pid} at ${s.baseUrl}`).join(', ')}`);
    const perServer = Math.ceil(options.concurrency / spec.servers);
    for (const server of servers) clients.push(new Client(server.baseUrl, perServer, apiKey));
    const fixtures = await createFixtures(clients[0]!);
    const next = random(spec.hot ? 7 : 11);
    const hotAccount = fixtures.accounts[0]!;
    const pickPair = (): [string, string] => {
      if (spec.hot) return [hotAccount, fixtures.accounts[1 + Math.floor(next() * (ACCOUNTS - 1))]!];
      const a = Math.floor(next() * ACCOUNTS);
      const b = (a + 1 + Math.floor(next() * (ACCOUNTS - 1))) % ACCOUNTS;
      return [fixtures.accounts[a]!, fixtures.accounts[b]!];
    };
    // Worker w always talks to server w mod N: the clients are split evenly between the servers.
    const clientOf = (worker: number) => clients[worker % spec.servers]!;

    const warm: Tally = { ok: 0, sum: 0n, statuses: {}, samples: [] };
    if (options.warmup > 0) {
      await closedLoop(options.warmup, options.concurrency, options.maxSeconds, (i, w) => {
        const amount = BigInt(1 + Math.floor(next() * 1_000_000));
        return post(clientOf(w), warm, entry(fixtures.warmDebit, fixtures.warmCredit, amount, dateIn2026(next), i), amount);
      });
    }
    const tally: Tally = { ok: 0, sum: 0n, statuses: {}, samples: [] };
    const pids = servers.map((s) => s.pid);
    const postmaster = target.cluster?.postmasterPid;
    if (target.statements) await resetStatements(url);
    const sampler = await WaitSampler.start(url);
    const start = cpuSnapshot(pids, postmaster, 0);
    const load = await closedLoop(options.entries, options.concurrency, options.maxSeconds, (i, w) => {
      const [debit, credit] = pickPair();
      const amount = BigInt(1 + Math.floor(next() * 1_000_000));
      return post(clientOf(w), tally, entry(debit, credit, amount, dateIn2026(next), i), amount);
    });
    const cpu = cpuSince(start, pids, postmaster, 0);
    const waits = await sampler.stop();
    const statements = target.statements ? await topStatements(url, tally.ok) : undefined;
    if (load.count < options.entries) log(`pg ${spec.label}: time limit of ${options.maxSeconds} s reached after ${load.count} requests`);
    if (tally.samples.length > 0 || warm.samples.length > 0) {
      log(`pg ${spec.label}: answers other than 201: ${[...warm.samples, ...tally.samples].join(' | ')}`);
    }

    // The books through the API: the trial balance is balanced and holds exactly what the 201s posted.
    const expected = (warm.sum + tally.sum).toString();
    const tb = await clients[0]!.json<{ data: { is_balanced: boolean; totals: { debit_total: string; credit_total: string }[] } }>(
      'GET', '/api/v1/reports/trial-balance', undefined, 200);
    if (!tb.data.is_balanced) fail(`${spec.label}: trial balance not balanced`);
    const [total] = tb.data.totals;
    if (tb.data.totals.length !== 1 || total!.debit_total !== expected || total!.credit_total !== expected) {
      fail(`${spec.label}: trial balance totals ${JSON.stringify(tb.data.totals)}, expected ${expected} on both sides`);
    }
    for (const client of clients) client.close();
    clients.length = 0;
    for (const server of servers) await stopServer(server);
    // ... and in SQL: entries = 201 answers, every maintained total equals the sum of its lines.
    const books = await checkTotals(url);
    const answered201 = warm.ok + tally.ok;
    if (books.entries !== answered201) fail(`${spec.label}: ${books.entries} entries in the database, ${answered201} answers 201`);
    if (books.lines !== 2 * answered201) fail(`${spec.label}: ${books.lines} lines for ${answered201} entries`);
    if (books.balance_mismatches + books.period_mismatches + books.daily_mismatches !== 0) {
      fail(`${spec.label}: totals differ from the lines: ${JSON.stringify(books)}`);
    }
    if (books.currency_total !== expected || books.line_debits !== expected || books.line_credits !== expected) {
      fail(`${spec.label}: currency total ${books.currency_total}, lines ${books.line_debits}/${books.line_credits}, expected ${expected}`);
    }
    const verified = `ok: trial balance balanced (${expected} minor units each side); ${fmt(books.entries)} entries in the database `
      + `= ${fmt(answered201)} answers 201 (${fmt(warm.ok)} warm-up + ${fmt(tally.ok)} measured); account, period, daily and `
      + 'currency totals all equal the sums of the lines';
    log(`pg ${spec.label}: ${tally.ok} entries in ${load.seconds.toFixed(2)} s; ${verified}`);
    result = {
      spec, concurrency: options.concurrency, entries: tally.ok, requests: load.count, statuses: tally.statuses,
      seconds: load.seconds, entriesPerSecond: tally.ok / load.seconds, latency: summarize(load.latenciesMs), cpu,
      entryCount: books.entries, answered201, verified, waits, statements,
    };
  } catch (error) {
    for (const server of servers) log(`pg ${spec.label}: server ${server.pid} output:\n${server.output().slice(-3000)}`);
    throw error;
  } finally {
    for (const client of clients) client.close();
    for (const server of servers) await stopServer(server);
    await dropDatabase(target.adminUrl, name).catch((error: unknown) => log(`could not drop ${name}: ${String(error)}`));
  }
  if (spec.profile) result.profile = summarizeProfile(profileDir, result.entryCount);
  return result;
}

const REFERENCE_SCRIPT = join(ROOT, 'bench', 'bare-pg-server.mjs');

/**
 * The reference of issue 25's PostgreSQL posting goal: bench/bare-pg-server.mjs on a fresh
 * database of the same cluster, pinned to CPU 0 as `ledger serve` is, loaded as runPgPosting loads
 * one server (the same generator, seed, bodies, warm-up, count and concurrency, accounts drawn
 * among as many ids), its CPU measured the same way. Then checked in SQL: entries = 201 answers,
 * two lines each, debits = credits = what the 201s posted.
 */
export async function runPgReference(options: BenchOptions, target: PgTarget): Promise<PgPostingResult> {
  const spec: PgPostingSpec = { label: 'reference: bare node:http on pg, groups of up to 64 in one statement', servers: 1, hot: false,
    reference: true };
  const name = databaseName('reference');
  const url = await createDatabase(target.adminUrl, name);
  let server: Server | undefined;
  let client: Client | undefined;
  try {
    server = await startNodeServer('bare node:http on pg', [REFERENCE_SCRIPT], { BENCH_PG_URL: url }, 0,
      /bare node:http on pg listening on (http:\/\/127\.0\.0\.1:\d+)/);
    log(`pg reference: pid ${server.pid} at ${server.baseUrl}`);
    // Any key: the server only checks that the header is there.
    client = new Client(server.baseUrl, options.concurrency, 'tsk_bench');
    const accounts = Array.from({ length: ACCOUNTS }, () => randomUUID());
    const [warmDebit, warmCredit] = [randomUUID(), randomUUID()];
    const next = random(11);
    const warm: Tally = { ok: 0, sum: 0n, statuses: {}, samples: [] };
    const to = client;
    if (options.warmup > 0) {
      await closedLoop(options.warmup, options.concurrency, options.maxSeconds, (i) => {
        const amount = BigInt(1 + Math.floor(next() * 1_000_000));
        return post(to, warm, entry(warmDebit, warmCredit, amount, dateIn2026(next), i), amount);
      });
    }
    const tally: Tally = { ok: 0, sum: 0n, statuses: {}, samples: [] };
    const postmaster = target.cluster?.postmasterPid;
    const sampler = await WaitSampler.start(url);
    const start = cpuSnapshot([server.pid], postmaster, 0);
    const load = await closedLoop(options.entries, options.concurrency, options.maxSeconds, (i) => {
      const a = Math.floor(next() * ACCOUNTS);
      const b = (a + 1 + Math.floor(next() * (ACCOUNTS - 1))) % ACCOUNTS;
      const amount = BigInt(1 + Math.floor(next() * 1_000_000));
      return post(to, tally, entry(accounts[a]!, accounts[b]!, amount, dateIn2026(next), i), amount);
    });
    const cpu = cpuSince(start, [server.pid], postmaster, 0);
    const waits = await sampler.stop();
    if (load.count < options.entries) log(`pg reference: time limit of ${options.maxSeconds} s reached after ${load.count} requests`);
    if (tally.samples.length > 0 || warm.samples.length > 0) {
      log(`pg reference: answers other than 201: ${[...warm.samples, ...tally.samples].join(' | ')}`);
    }
    const stats = await client.json<{ groups: number; entries: number }>('GET', '/stats', undefined, 200);
    client.close();
    client = undefined;
    await stopServer(server);
    const books = await withClient(url, async (db) => (await db.query<{ entries: string; lines: string; debits: string; credits: string }>(
      `SELECT (SELECT count(*) FROM bare_entries)::text AS entries, (SELECT count(*) FROM bare_lines)::text AS lines,
        (SELECT coalesce(sum(debit_amount), 0) FROM bare_lines)::text AS debits,
        (SELECT coalesce(sum(credit_amount), 0) FROM bare_lines)::text AS credits`)).rows[0]!);
    const answered201 = warm.ok + tally.ok;
    const expected = (warm.sum + tally.sum).toString();
    if (Number(books.entries) !== answered201 || Number(books.lines) !== 2 * answered201 || books.debits !== expected
      || books.credits !== expected) {
      fail(`${spec.label}: ${JSON.stringify(books)}, expected ${answered201} entries, ${2 * answered201} lines, ${expected} each side`);
    }
    const verified = `ok: ${fmt(answered201)} entries in the database = answers 201 (${fmt(warm.ok)} warm-up + ${fmt(tally.ok)} `
      + `measured), two lines each, ${expected} minor units each side`;
    log(`pg reference: ${tally.ok} entries in ${load.seconds.toFixed(2)} s; ${verified}`);
    return {
      spec, concurrency: options.concurrency, entries: tally.ok, requests: load.count, statuses: tally.statuses,
      seconds: load.seconds, entriesPerSecond: tally.ok / load.seconds, latency: summarize(load.latenciesMs), cpu,
      entryCount: Number(books.entries), answered201, verified, waits, groupSize: stats.entries / Math.max(1, stats.groups),
    };
  } catch (error) {
    if (server) log(`pg reference: server ${server.pid} output:\n${server.output().slice(-3000)}`);
    throw error;
  } finally {
    client?.close();
    if (server) await stopServer(server);
    await dropDatabase(target.adminUrl, name).catch((error: unknown) => log(`could not drop ${name}: ${String(error)}`));
  }
}

/**
 * The bulk-loading runs (bench/bulk.ts) on PostgreSQL: a fresh database of the target per run,
 * dropped after it; the check counts in SQL and compares every maintained total with the lines.
 */
export function postgresBulkStore(target: PgTarget, pinned: boolean): BulkStore {
  const postmaster = target.cluster?.postmasterPid;
  return {
    name: 'PostgreSQL',
    create: async (tag) => {
      const name = databaseName(`bulk_${tag}`);
      const db = await createDatabase(target.adminUrl, name);
      return {
        db,
        drop: () => dropDatabase(target.adminUrl, name).catch((error: unknown) => log(`could not drop ${name}: ${String(error)}`)),
      };
    },
    check: async (url, where, entries, debits) => {
      const books = await checkTotals(url);
      if (books.entries !== entries) fail(`${where}: ${fmt(books.entries)} journal entries in the database, expected ${fmt(entries)}`);
      if (books.lines !== 2 * entries) fail(`${where}: ${fmt(books.lines)} journal lines in the database, expected ${fmt(2 * entries)}`);
      if (books.balance_mismatches + books.period_mismatches + books.daily_mismatches !== 0) {
        fail(`${where}: totals differ from the lines: ${JSON.stringify(books)}`);
      }
      const sum = String(debits);
      if (books.line_debits !== sum || books.line_credits !== sum || books.currency_total !== sum) {
        fail(`${where}: currency total ${books.currency_total}, lines ${books.line_debits}/${books.line_credits}, expected ${sum}`);
      }
      return `${fmt(entries)} entries, ${fmt(entries * 2)} lines (SQL); account, period, daily and currency totals equal the lines`;
    },
    ...(postmaster === undefined ? {} : { serverCpuSeconds: () => clusterCpuSeconds(postmaster) }),
    placement: !pinned ? 'NOT pinned (no taskset): every process may run on either core.'
      : `the import's CLI and every \`ledger serve\` on CPU 0, the load generator on CPU 1; ${target.cluster === undefined
        ? 'the PostgreSQL server of --db is not ours: not pinned, its CPU not measured'
        : `every PostgreSQL process on CPU ${target.cpu ?? 'any (not pinned)'} (--pg-cpu)`}.`,
  };
}

export function postingSpecs(options: BenchOptions): PgPostingSpec[] {
  const specs: PgPostingSpec[] = [
    { label: '1 server, random accounts', servers: 1, hot: false },
    { label: '2 servers, random accounts', servers: 2, hot: false },
    { label: '1 server, hot account', servers: 1, hot: true },
    { label: '2 servers, hot account', servers: 2, hot: true },
  ];
  if (options.profile) specs.push({ label: '1 server, random accounts (under --cpu-prof)', servers: 1, hot: false, profile: true });
  return specs;
}

// ---------------------------------------------------------------------------------------------
// Bare PostgreSQL through `pg`

/*
 * The statements the adapter made for one two-line entry when these references were first
 * measured (618c682: insertEntry's currency upsert and one statement for the entry, its lines and
 * every account total; the two reads postWithin makes: getAccounts, findPeriodContaining FOR
 * SHARE). The adapter has since moved the totals to one statement per job and added the hash
 * chain; these references measure the first shape and are to be brought in step when posting on
 * PostgreSQL is measured again (docs/benchmarks.md says which code the figures are from).
 */
const READ_ACCOUNTS = 'SELECT * FROM accounts WHERE id = ANY($1::text[])';
const READ_PERIOD = 'SELECT * FROM periods WHERE start_date <= $1 ORDER BY start_date DESC LIMIT 1 FOR SHARE';
const ADD_CURRENCY_TOTAL = `INSERT INTO currency_totals (currency_id, debit_total) VALUES ($1, $2)
  ON CONFLICT (currency_id) DO UPDATE SET debit_total = currency_totals.debit_total + excluded.debit_total`;
const INSERT_ENTRY = `WITH entry AS (
  INSERT INTO journal_entries (id, entry_date, description, reference, metadata, period_id, entry_type, reverses_id,
    created_by, posted_at, currency_id, entry_number, event_seq, previous_hash, hash, debit_total, hash_version, credential_type,
    credential_id, request_id)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $20, $20, $21, $22, $25::numeric, 2, 'api_key', $23, $24)
  RETURNING seq
), lines AS (
  INSERT INTO journal_lines (id, entry_seq, account_id, parent_account_id, entry_date, debit_amount, credit_amount, description)
  SELECT line.id, entry.seq, line.account_id, account.parent_id, $2, line.debit_amount, line.credit_amount, line.description
  FROM entry
  CROSS JOIN unnest($12::text[], $13::text[], $14::numeric[], $15::numeric[], $16::text[])
    WITH ORDINALITY AS line(id, account_id, debit_amount, credit_amount, description, position)
  JOIN accounts account ON account.id = line.account_id
  ORDER BY line.position
), sums AS (
  SELECT * FROM unnest($17::text[], $18::numeric[], $19::numeric[]) AS sums(account_id, debit_total, credit_total)
), balances AS (
  INSERT INTO account_balances (account_id, debit_total, credit_total)
  SELECT account_id, debit_total, credit_total FROM sums
  ON CONFLICT (account_id) DO UPDATE SET debit_total = account_balances.debit_total + excluded.debit_total,
    credit_total = account_balances.credit_total + excluded.credit_total
), period_totals AS (
  INSERT INTO account_period_totals (account_id, period_id, debit_total, credit_total)
  SELECT account_id, $6, debit_total, credit_total FROM sums
  ON CONFLICT (account_id, period_id) DO UPDATE SET debit_total = account_period_totals.debit_total + excluded.debit_total,
    credit_total = account_period_totals.credit_total + excluded.credit_total
), daily_totals AS (
  INSERT INTO account_daily_totals (account_id, entry_date, debit_total, credit_total)
  SELECT account_id, $2, debit_total, credit_total FROM sums
  ON CONFLICT (account_id, entry_date) DO UPDATE SET debit_total = account_daily_totals.debit_total + excluded.debit_total,
    credit_total = account_daily_totals.credit_total + excluded.credit_total
)
SELECT seq FROM entry`;

export interface PgBaselineCase {
  label: string;
  /** The two reads the adapter makes in the transaction before writing. */
  reads: boolean;
  /** The currency_totals upsert: one row every entry of the currency updates. */
  currencyTotal: boolean;
  /** Entries per transaction (each under its own savepoint when > 1, as the adapter's group commit). */
  batch: number;
  /** Concurrent connections, each running one transaction after another. */
  connections: number;
}

export interface PgBaselineResult {
  spec: PgBaselineCase;
  entries: number;
  seconds: number;
  entriesPerSecond: number;
  commitsPerSecond: number;
  /** Latency of one transaction. */
  latency: LatencySummary;
  cpu: CpuUse;
  waits: Awaited<ReturnType<WaitSampler['stop']>> | undefined;
}

export function pgBaselineCases(options: BenchOptions): PgBaselineCase[] {
  const c = options.concurrency;
  return [
    { label: `(a) as the adapter: 2 reads + currency total + entry, 1 entry / tx, ${c} connections`,
      reads: true, currencyTotal: true, batch: 1, connections: c },
    { label: `(b) writes only (currency total + entry), 1 entry / tx, ${c} connections`,
      reads: false, currencyTotal: true, batch: 1, connections: c },
    { label: `(c) as (a) without the currency total (totals upserted in account order), 1 entry / tx, ${c} connections`,
      reads: true, currencyTotal: false, batch: 1, connections: c },
    { label: `(d) as (a), ${options.batch} entries / tx + savepoint each, 1 connection (one server's group commit)`,
      reads: true, currencyTotal: true, batch: options.batch, connections: 1 },
  ];
}

const nextId = (() => {
  let n = 0;
  const prefix = `${process.pid.toString(16)}-${Date.now().toString(16)}`;
  return () => `bench-${prefix}-${(n++).toString(36)}`;
})();

export async function runPgBaseline(options: BenchOptions, target: PgTarget, spec: PgBaselineCase, index: number): Promise<PgBaselineResult> {
  const name = databaseName(`baseline_${index}`);
  const url = await createDatabase(target.adminUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: spec.connections });
  // The DROP DATABASE ... WITH (FORCE) at the end ends any connection left; that is no error here.
  pool.on('error', () => {});
  try {
    ledgerCli(url, ['init']);
    const now = new Date().toISOString();
    const currencyId = nextId();
    const periodId = nextId();
    const accounts = Array.from({ length: ACCOUNTS }, () => nextId());
    await pool.query(`INSERT INTO currencies (id, code, name, symbol, asset_scale, asset_type, caip19_id, created_at)
      VALUES ($1, 'USD', 'US dollar', '$', 2, 'fiat', 'swift:0/iso4217:USD', $2)`, [currencyId, now]);
    await pool.query(`INSERT INTO accounts (id, account_number, name, currency_id, account_type, normal_balance, has_subledger, parent_id,
      entity_id, xbrl_tag, is_active, created_at)
      SELECT id, lpad(n::text, 5, '0'), 'Account ' || n, $2, 'asset', 'debit', false, NULL, NULL, NULL, true, $3
      FROM unnest($1::text[]) WITH ORDINALITY AS a(id, n)`, [accounts, currencyId, now]);
    await pool.query(`INSERT INTO periods (id, name, start_date, end_date, status, closed_at, closed_by, closing_entry_id, created_at)
      VALUES ($1, 'FY2026', '2026-01-01', '2026-12-31', 'open', NULL, NULL, NULL, $2)`, [periodId, now]);
    // Open every connection before measuring.
    const held = await Promise.all(Array.from({ length: spec.connections }, () => pool.connect()));
    for (const connection of held) connection.release();

    const next = random(23);
    let written = 0n;
    let number = 0;
    let chainHead = '0'.repeat(64);
    const poster = nextId();
    const credential = nextId();
    const writeOne = async (connection: pg.PoolClient, i: number) => {
      const a = Math.floor(next() * ACCOUNTS);
      const b = (a + 1 + Math.floor(next() * (ACCOUNTS - 1))) % ACCOUNTS;
      const debit = accounts[a]!;
      const credit = accounts[b]!;
      const amount = String(1 + Math.floor(next() * 1_000_000));
      const date = dateIn2026(next);
      if (spec.reads) {
        await connection.query({ name: 'read_accounts', text: READ_ACCOUNTS, values: [[debit, credit]] });
        await connection.query({ name: 'read_period', text: READ_PERIOD, values: [date] });
      }
      if (spec.currencyTotal) await connection.query({ name: 'add_currency_total', text: ADD_CURRENCY_TOTAL, values: [currencyId, amount] });
      // Without the currency total, which every entry locks first, two entries that touch the same two
      // accounts in opposite orders deadlock: the totals are then upserted in account-id order.
      const sums: [string, string, string][] = [[debit, amount, '0'], [credit, '0', amount]];
      if (!spec.currencyTotal) sums.sort((x, y) => (x[0] < y[0] ? -1 : 1));
      // The columns the adapter fills as well: a number and an event number (unique, from this
      // process's counter; the adapter takes them from the locked entry_numbers row), the chain's two
      // hashes (SHA-256 in this process, not a verified chain: concurrent entries may share a
      // previous hash), who posted it with which credential in which request.
      number += 1;
      const id = nextId();
      const hash = createHash('sha256').update(`${chainHead}|${id}|${amount}`).digest('hex');
      await connection.query({ name: 'insert_entry', text: INSERT_ENTRY, values: [
        id, date, `bench sale ${i}`, null, null, periodId, 'standard', null, poster, new Date().toISOString(), currencyId,
        [nextId(), nextId()], [debit, credit], [amount, '0'], ['0', amount], [null, null],
        sums.map((x) => x[0]), sums.map((x) => x[1]), sums.map((x) => x[2]), number, chainHead, hash, credential, nextId(), amount,
      ] });
      chainHead = hash;
      written += BigInt(amount);
    };
    const transactions = Math.ceil(options.entries / spec.batch);
    const sampler = await WaitSampler.start(url);
    const start = cpuSnapshot([], target.cluster?.postmasterPid, 0);
    const load = await closedLoop(transactions, spec.connections, options.maxSeconds, async (t) => {
      const connection = await pool.connect();
      try {
        await connection.query('BEGIN');
        const first = t * spec.batch;
        const last = Math.min(options.entries, first + spec.batch);
        for (let i = first; i < last; i += 1) {
          if (spec.batch > 1) await connection.query('SAVEPOINT job');
          await writeOne(connection, i);
          if (spec.batch > 1) await connection.query('RELEASE job');
        }
        await connection.query('COMMIT');
      } catch (error) {
        await connection.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        connection.release();
      }
    });
    const cpu = cpuSince(start, [], target.cluster?.postmasterPid, 0);
    const waits = await sampler.stop();
    const books = await checkTotals(url);
    const entries = Math.min(options.entries, load.count * spec.batch);
    if (books.entries !== entries || books.lines !== 2 * entries || books.line_debits !== written.toString()
      || books.balance_mismatches + books.period_mismatches + books.daily_mismatches !== 0
      || books.currency_total !== (spec.currencyTotal ? written.toString() : '0')) {
      fail(`bare PostgreSQL ${spec.label}: ${JSON.stringify(books)}, expected ${entries} entries, debits ${written}`);
    }
    log(`bare PostgreSQL ${spec.label}: ${entries} entries in ${load.seconds.toFixed(2)} s`);
    return {
      spec, entries, seconds: load.seconds, entriesPerSecond: entries / load.seconds, commitsPerSecond: load.count / load.seconds,
      latency: summarize(load.latenciesMs), cpu, waits,
    };
  } finally {
    await pool.end();
    await dropDatabase(target.adminUrl, name).catch((error: unknown) => log(`could not drop ${name}: ${String(error)}`));
  }
}

/** pg_database_size of the database in the URL. */
export async function databaseBytes(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ size: string }>('SELECT pg_database_size(current_database())::text AS size')).rows[0]!.size);
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Output

const pct = (value: number | undefined) => (value === undefined ? 'n/a' : `${fmt(value * 100)}%`);
const ms = (value: number) => fmt(value, 1);

export function placementText(target: PgTarget, pinned: boolean): string {
  if (!pinned) return 'NOT pinned (no taskset): every process may run on either core.';
  if (target.cluster === undefined) {
    return 'every `ledger serve` process pinned to CPU 0 and the load generator to CPU 1 (taskset); the PostgreSQL server '
      + 'of --db is not ours and not pinned.';
  }
  const where = `every PostgreSQL process (postmaster ${target.cluster.postmasterPid}, ${target.cluster.affinity}, inherited by its `
    + 'backends, WAL writer and checkpointer)';
  if (target.cpu === 0) {
    return `every \`ledger serve\` process AND ${where} pinned to CPU 0; the load generator (and the bare-pg client) on CPU 1. `
      + 'So the whole server side, ledger and database, shares ONE core; with two servers, both processes and PostgreSQL share it.';
  }
  return `every \`ledger serve\` process on CPU 0; ${where} on CPU ${target.cpu}, the load generator's core (--pg-cpu): the database `
    + 'shares its core with the load generator, the ledger servers have theirs alone.';
}

/** What else ran on the servers' core: CPU 0 busy minus the ledger servers and (when pinned there) PostgreSQL. */
function othersOnServerCore(cpu: CpuUse, postgresOnServerCore: boolean): number | undefined {
  if (cpu.serverCore === undefined || (postgresOnServerCore && cpu.postgres === undefined)) return undefined;
  const ours = cpu.servers.reduce<number>((sum, value) => sum + (value ?? 0), 0) + (postgresOnServerCore ? cpu.postgres! : 0);
  return Math.max(0, cpu.serverCore - ours);
}

export function pgPostingTable(results: PgPostingResult[], postgresOnServerCore: boolean): string {
  return table(
    ['run', 'entries', 'seconds', 'entries/s', 'p50 ms', 'p99 ms', 'max ms', 'ledger CPU', 'PostgreSQL CPU', 'CPU 0 busy',
      'others on CPU 0', 'client CPU', 'other CPU', 'non-201'],
    results.map((r) => [
      r.spec.label, fmt(r.entries), r.seconds.toFixed(2), fmt(r.entriesPerSecond), ms(r.latency.p50), ms(r.latency.p99),
      ms(r.latency.max), r.cpu.servers.map(pct).join(' + '), pct(r.cpu.postgres), pct(r.cpu.serverCore),
      pct(othersOnServerCore(r.cpu, postgresOnServerCore)), pct(r.cpu.client), pct(r.cpu.other), fmt(r.requests - r.entries),
    ]));
}

export function statementsTable(statements: StatementCost[]): string {
  return table(['statement (pg_stat_statements, track=all: nested ones too)', 'calls / entry', 'mean exec ms', 'mean plan ms', 'µs / entry'],
    statements.map((s) => [`\`${s.query.replace(/\|/g, '\\|')}\``, s.callsPerEntry.toFixed(2), s.meanExecMs.toFixed(3), s.meanPlanMs.toFixed(3),
      fmt(s.usPerEntry)]));
}

export function pgBaselineTable(results: PgBaselineResult[]): string {
  return table(['case', 'entries', 'seconds', 'entries/s', 'commits/s', 'p50 ms / tx', 'p99 ms / tx', 'PostgreSQL CPU', 'client CPU',
    'other CPU'],
  results.map((b) => [b.spec.label, fmt(b.entries), b.seconds.toFixed(2), fmt(b.entriesPerSecond), fmt(b.commitsPerSecond),
    ms(b.latency.p50), ms(b.latency.p99), pct(b.cpu.postgres), pct(b.cpu.client), pct(b.cpu.other)]));
}
