/**
 * Posting through HTTP: `ledger serve` runs as a child process (pinned to CPU 0), this process
 * is the load generator (pinned to CPU 1 by run.ts). N two-line entries are posted by C
 * concurrent keep-alive clients; the result is then checked through the API (balances, entry
 * count and the exact set of entry ids) and the benchmark fails loudly on any mismatch.
 *
 * Also measures the cost of authentication (an API-key lookup per request).
 */
import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload, type SourceMapping } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type BenchOptions, Client, closedLoop, fmt, type LatencySummary, ledgerCli, log, median, OtherCpu, processCpuSeconds, type Server,
  startServer, stopServer, summarize, summarizeAll,
} from './lib.js';
import { WEBHOOK_SERVER_ENV, WebhookCase, type WebhookDelivery } from './webhooks.js';

export type SyncMode = 'FULL' | 'NORMAL';

export interface PostingResult {
  mode: SyncMode;
  entries: number;
  concurrency: number;
  seconds: number;
  entriesPerSecond: number;
  latency: LatencySummary;
  /** Server CPU time / wall time during the measured loop (1.0 = one core busy). */
  serverCpu: number | undefined;
  /** Load generator CPU time / wall time during the measured loop. */
  clientCpu: number;
  /** CPU used by other processes on the machine during the loop, in cores (should be ~0). */
  otherCpu: number | undefined;
  verified: string;
  /** Rows the measured posts added to the database per entry, outside the full-text index (entry_words*). */
  rowsPerEntry: number;
  profile?: ProfileSummary | undefined;
  /** Set for the server of another build (--before): its label. */
  build?: string | undefined;
  /** Set for the runs of the webhook comparison after the first (the plain FULL run is its first run without endpoints). */
  webhookRun?: WebhookRun | undefined;
  /** With endpoints: how delivery kept up (bench/webhooks.ts). */
  webhooks?: WebhookDelivery | undefined;
  /** Profiled: the same profile's samples taken during the measured load only (per measured entry). */
  loadProfile?: ProfileSummary | undefined;
}

/**
 * A run of issue 26's comparison, posting with `endpoints` active webhook endpoints (0: without),
 * `order` its place in the comparison's sequence of runs (1 is the plain FULL run).
 */
export interface WebhookRun {
  endpoints: number;
  order: number;
}

/** Another build's `ledger` program to run instead of this checkout's (--before). */
export interface OtherBuild {
  label: string;
  bin: string;
}

const AMOUNT = 12_345n; // minor units per entry
const ENTRY_DATE = '2026-03-15';

interface Setup {
  currencyId: string;
  debitAccount: string;
  creditAccount: string;
  warmDebitAccount: string;
  warmCreditAccount: string;
  periodId: string;
}

/**
 * Creates the database, an admin service account, and returns its API key; with `bin`, by
 * another build's program, so that the database has that build's schema.
 */
export function prepareDatabase(db: string, bin?: string): string {
  ledgerCli(db, ['init'], bin);
  const out = ledgerCli(db, ['--json', 'users', 'create-service-account', '--name', 'bench'], bin);
  const key = (JSON.parse(out) as { data: { api_key?: string } }).data.api_key;
  if (!key) throw new Error(`create-service-account printed no api_key: ${out}`);
  return key;
}

export async function createFixtures(client: Client): Promise<Setup> {
  const currency = await client.json<{ data: { id: string } }>('POST', '/api/v1/currencies', {
    code: 'USD', name: 'US dollar', symbol: '$', asset_scale: 2, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:USD',
  }, 201);
  const currencyId = currency.data.id;
  const account = async (number: string, name: string, type: string, normal: string) =>
    (await client.json<{ data: { id: string } }>('POST', '/api/v1/accounts', {
      account_number: number, name, currency_id: currencyId, account_type: type, normal_balance: normal,
    }, 201)).data.id;
  const debitAccount = await account('1000', 'Cash', 'asset', 'debit');
  const creditAccount = await account('4000', 'Sales', 'revenue', 'credit');
  const warmDebitAccount = await account('1900', 'Warm-up cash', 'asset', 'debit');
  const warmCreditAccount = await account('4900', 'Warm-up sales', 'revenue', 'credit');
  const period = await client.json<{ data: { id: string } }>('POST', '/api/v1/periods', {
    name: 'FY2026', start_date: '2026-01-01', end_date: '2026-12-31',
  }, 201);
  return { currencyId, debitAccount, creditAccount, warmDebitAccount, warmCreditAccount, periodId: period.data.id };
}

/** The body of every posting request (also sent to the bare node:http server of bench/http-baseline.ts). */
export function entryBody(debit: string, credit: string, index: number) {
  return {
    entry_date: ENTRY_DATE,
    description: `bench sale ${index}`,
    lines: [
      { account_id: debit, debit_amount: AMOUNT.toString() },
      { account_id: credit, credit_amount: AMOUNT.toString() },
    ],
  };
}

export async function postOne(client: Client, debit: string, credit: string, index: number): Promise<string> {
  const response = await client.request('POST', '/api/v1/journal-entries', entryBody(debit, credit, index));
  if (response.status !== 201) {
    throw new Error(`POST /api/v1/journal-entries #${index}: expected 201, got ${response.status}: ${response.body.slice(0, 500)}`);
  }
  return (JSON.parse(response.body) as { data: { id: string } }).data.id;
}

interface Balance {
  total_debits: string;
  total_credits: string;
  net_balance: string;
}

async function balanceOf(client: Client, accountId: string): Promise<Balance> {
  return (await client.json<{ data: Balance }>('GET', `/api/v1/accounts/${accountId}/balance`, undefined, 200)).data;
}

function expectEqual(what: string, actual: unknown, expected: unknown): void {
  if (actual !== expected) throw new Error(`VERIFICATION FAILED: ${what}: expected ${String(expected)}, got ${String(actual)}`);
}

/**
 * Checks through the API: both measured accounts hold exactly posted × AMOUNT, the warm-up
 * accounts warmup × AMOUNT, and paging through every entry finds exactly the posted ids.
 */
async function verify(client: Client, setup: Setup, postedIds: string[], warmup: number): Promise<string> {
  const total = (BigInt(postedIds.length) * AMOUNT).toString();
  const debit = await balanceOf(client, setup.debitAccount);
  expectEqual('Cash total_debits', debit.total_debits, total);
  expectEqual('Cash total_credits', debit.total_credits, '0');
  expectEqual('Cash net_balance', debit.net_balance, total);
  const credit = await balanceOf(client, setup.creditAccount);
  expectEqual('Sales total_credits', credit.total_credits, total);
  expectEqual('Sales total_debits', credit.total_debits, '0');
  expectEqual('Sales net_balance', credit.net_balance, total);
  const warm = await balanceOf(client, setup.warmDebitAccount);
  expectEqual('warm-up account total_debits', warm.total_debits, (BigInt(warmup) * AMOUNT).toString());

  const expected = new Set(postedIds);
  expectEqual('distinct ids returned by POST', expected.size, postedIds.length);
  let measured = 0;
  let warmEntries = 0;
  let cursor: string | undefined;
  for (let pages = 0; pages < 10_000; pages++) {
    const query = `limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await client.json<{ data: { id: string; lines: { account_id: string; debit_amount: string }[] }[];
      next_cursor: string | null }>('GET', `/api/v1/journal-entries?${query}`, undefined, 200);
    for (const entry of page.data) {
      if (entry.lines[0]?.account_id === setup.debitAccount) {
        if (!expected.has(entry.id)) throw new Error(`VERIFICATION FAILED: unexpected entry ${entry.id}`);
        expectEqual(`lines of ${entry.id}`, entry.lines.length, 2);
        measured++;
      } else {
        warmEntries++;
      }
    }
    if (page.next_cursor === null) break;
    cursor = page.next_cursor;
  }
  expectEqual('entries found on the measured accounts', measured, postedIds.length);
  expectEqual('warm-up entries found', warmEntries, warmup);
  return `ok: ${measured} entries + ${warmEntries} warm-up, balance ${total} on both sides`;
}

/**
 * Every row of the ledger's tables but the full-text index's (FTS5 keeps its words in shadow
 * tables of its own layout) and the webhooks' (a delivery's record is not a row the post wrote;
 * the webhook case counts deliveries apart), read through a connection of its own while the
 * server runs (WAL).
 */
function storedRows(path: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
      AND name NOT LIKE 'entry_words%' AND name NOT LIKE 'webhook_%'`).pluck().all() as string[];
    return tables.reduce((sum, table) => sum + (db.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number), 0);
  } finally {
    db.close();
  }
}

/**
 * One posting run against a fresh database with the given synchronous mode. With `webhookRun` of
 * N endpoints, N webhook endpoints for every event, on a receiver of their own (bench/webhooks.ts),
 * are made after the warm-up, right before the measured load; everything else is as without them
 * (every run's server allows receivers on 127.0.0.1).
 */
export async function runPosting(options: BenchOptions, dir: string, mode: SyncMode, profile = false,
  build?: OtherBuild, webhookRun?: WebhookRun): Promise<PostingResult> {
  const tag = `${mode}${profile ? '-profiled' : ''}${build ? '-before' : ''}`
    + `${webhookRun ? `-webhooks${webhookRun.endpoints}-run${webhookRun.order}` : ''}`;
  const db = join(dir, `http-${tag}.db`);
  const apiKey = prepareDatabase(db, build?.bin);
  const profileDir = join(dir, `profile-${tag}`);
  const nodeArgs = profile ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  // BENCH_GROUP_METRICS=1 (a diagnostic: the metrics' hook costs every request a little): the
  // server's /metrics read before and after the load, to log how many requests each write group
  // committed during it.
  const metricsToken = process.env.BENCH_GROUP_METRICS === '1' ? 'bench-metrics-token-0123456789' : undefined;
  const server = await startServer(db, { LEDGER_SQLITE_SYNCHRONOUS: mode, ...WEBHOOK_SERVER_ENV,
    ...(metricsToken ? { LEDGER_METRICS_TOKEN: metricsToken } : {}) }, 0, nodeArgs, build?.bin);
  log(`${tag}: ledger serve pid ${server.pid} at ${server.baseUrl}`);
  const client = new Client(server.baseUrl, options.concurrency, apiKey);
  let hooks: WebhookCase | undefined;
  let result: PostingResult;
  const loadWindow = { from: 0, to: 0 };
  try {
    const setup = await createFixtures(client);
    if (options.warmup > 0) {
      await closedLoop(options.warmup, options.concurrency, options.maxSeconds,
        async (i) => { await postOne(client, setup.warmDebitAccount, setup.warmCreditAccount, i); });
    }
    if (webhookRun !== undefined && webhookRun.endpoints > 0) {
      // The receiver beside the load generator: never on the server's core.
      hooks = await WebhookCase.start(client, webhookRun.endpoints, 1);
      log(`${tag}: ${webhookRun.endpoints} webhook endpoints on the receiver pid ${hooks.receiver.pid} at ${hooks.receiver.baseUrl}`);
    }
    const ids: string[] = new Array<string>(options.entries);
    const rows0 = storedRows(db);
    const cpu0 = processCpuSeconds(server.pid);
    const receiver0 = hooks && processCpuSeconds(hooks.receiver.pid);
    const client0 = process.cpuUsage();
    const others = new OtherCpu(hooks ? [server.pid, hooks.receiver.pid] : [server.pid]);
    const groups0 = metricsToken && await writeGroups(server.baseUrl, metricsToken);
    loadWindow.from = monotonicMicros();
    const load = await closedLoop(options.entries, options.concurrency, options.maxSeconds,
      async (i) => { ids[i] = await postOne(client, setup.debitAccount, setup.creditAccount, i); });
    loadWindow.to = monotonicMicros();
    if (metricsToken && groups0) {
      const groups1 = await writeGroups(server.baseUrl, metricsToken);
      const count = groups1.count - groups0.count;
      log(`${tag}: ${fmt(count)} write groups during the load, ${(count > 0 ? (groups1.jobs - groups0.jobs) / count : 0).toFixed(1)} jobs each, `
        + `${(count > 0 ? ((groups1.seconds - groups0.seconds) / count) * 1000 : 0).toFixed(2)} ms each`);
    }
    const cpu1 = processCpuSeconds(server.pid);
    const receiver1 = hooks && processCpuSeconds(hooks.receiver.pid);
    const clientUsage = process.cpuUsage(client0);
    const otherCpu = others.cores();
    const posted = ids.filter((id) => id !== undefined);
    if (load.count < options.entries) {
      log(`${tag}: time limit of ${options.maxSeconds} s reached after ${load.count} of ${options.entries} entries`);
    }
    const webhooks = hooks && await hooks.finish(load.count, options.webhookCatchUpSeconds,
      receiver0 !== undefined && receiver1 !== undefined ? (receiver1 - receiver0) / load.seconds : undefined,
      () => processCpuSeconds(server.pid));
    if (webhooks) {
      log(`${tag}: webhooks: ${webhooks.lagAtEnd} events behind at the load's end, caught up ${webhooks.catchUpSeconds.toFixed(1)} s later; `
        + `the receiver got ${webhooks.received} deliveries`);
    }
    const verified = await verify(client, setup, posted, options.warmup);
    log(`${tag}: ${load.count} entries in ${load.seconds.toFixed(2)} s; verified ${verified}`);
    result = {
      mode, entries: load.count, concurrency: options.concurrency, seconds: load.seconds,
      entriesPerSecond: load.count / load.seconds, latency: summarize(load.latenciesMs),
      serverCpu: cpu0 !== undefined && cpu1 !== undefined ? (cpu1 - cpu0) / load.seconds : undefined,
      clientCpu: (clientUsage.user + clientUsage.system) / 1e6 / load.seconds,
      otherCpu,
      verified,
      rowsPerEntry: (storedRows(db) - rows0) / load.count,
      build: build?.label,
      webhookRun,
      webhooks,
    };
  } catch (error) {
    log(`${tag}: server output:\n${server.output().slice(-3000)}`);
    throw error;
  } finally {
    client.close();
    await hooks?.stop();
    await stopServer(server);
  }
  if (profile) {
    result.profile = summarizeProfile(profileDir, options.warmup + result.entries);
    result.loadProfile = summarizeProfile(profileDir, result.entries, loadWindow);
  }
  return result;
}

/** The write queue's totals from /metrics: groups committed, their jobs, and their seconds. */
async function writeGroups(baseUrl: string, token: string): Promise<{ count: number; jobs: number; seconds: number }> {
  const text = await (await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return { count: value('ledger_write_group_jobs_count'), jobs: value('ledger_write_group_jobs_sum'), seconds: value('ledger_write_group_seconds_sum') };
}

// ---------------------------------------------------------------------------------------------
// Authentication cost

export interface AuthPattern {
  name: string;
  path: string;
  authenticated: boolean;
  expected: number;
}

export interface AuthMeasurement {
  pattern: AuthPattern;
  requests: number;
  /** Median over the rounds. */
  requestsPerSecond: number;
  /** Server CPU microseconds per request (median over the rounds). */
  serverCpuMicros: number | undefined;
  latency: LatencySummary;
}

export interface AuthResult {
  rounds: number;
  concurrency: number;
  measurements: AuthMeasurement[];
  /** CPU used by other processes during the measurements, in cores. */
  otherCpu: number | undefined;
}

export const AUTH_PATTERNS: AuthPattern[] = [
  { name: 'GET /health (no auth)', path: '/health', authenticated: false, expected: 200 },
  { name: 'GET /api/v1/currencies (API key)', path: '/api/v1/currencies', authenticated: true, expected: 200 },
  { name: 'GET /no-such-path, 404 (no auth)', path: '/no-such-path', authenticated: false, expected: 404 },
  { name: 'GET /api/v1/no-such-path, 404 (API key)', path: '/api/v1/no-such-path', authenticated: true, expected: 404 },
];

async function measureAuthOn(server: Server, client: Client, options: BenchOptions): Promise<AuthResult> {
  const rounds = 3;
  const perPattern = AUTH_PATTERNS.map(() => ({ rates: [] as number[], cpu: [] as number[], latencies: [] as Float64Array[] }));
  const call = (pattern: AuthPattern) => async () => {
    const response = await client.request('GET', pattern.path, undefined, pattern.authenticated);
    if (response.status !== pattern.expected) {
      throw new Error(`${pattern.name}: expected ${pattern.expected}, got ${response.status}: ${response.body.slice(0, 300)}`);
    }
  };
  for (const pattern of AUTH_PATTERNS) {
    await closedLoop(Math.min(1000, options.authRequests), options.concurrency, options.maxSeconds, call(pattern));
  }
  const others = new OtherCpu([server.pid]);
  for (let round = 0; round < rounds; round++) {
    for (const [index, pattern] of AUTH_PATTERNS.entries()) {
      const cpu0 = processCpuSeconds(server.pid);
      const load = await closedLoop(options.authRequests, options.concurrency, options.maxSeconds, call(pattern));
      const cpu1 = processCpuSeconds(server.pid);
      const slot = perPattern[index]!;
      slot.rates.push(load.count / load.seconds);
      if (cpu0 !== undefined && cpu1 !== undefined) slot.cpu.push(((cpu1 - cpu0) / load.count) * 1e6);
      slot.latencies.push(load.latenciesMs);
    }
  }
  const otherCpu = others.cores();
  return {
    rounds,
    otherCpu,
    concurrency: options.concurrency,
    measurements: AUTH_PATTERNS.map((pattern, index) => {
      const slot = perPattern[index]!;
      return {
        pattern, requests: options.authRequests, requestsPerSecond: median(slot.rates),
        serverCpuMicros: slot.cpu.length > 0 ? median(slot.cpu) : undefined, latency: summarizeAll(slot.latencies),
      };
    }),
  };
}

/**
 * Times authenticated and unauthenticated GETs against a fresh server (FULL, no writes); `db` is
 * a SQLite file (by default) or the URL of an empty PostgreSQL database.
 */
export async function runAuth(options: BenchOptions, dir: string, db = join(dir, 'http-auth.db')): Promise<AuthResult> {
  const apiKey = prepareDatabase(db);
  const server = await startServer(db, {}, 0);
  log(`auth: ledger serve pid ${server.pid} at ${server.baseUrl}`);
  const client = new Client(server.baseUrl, options.concurrency, apiKey);
  try {
    await createFixtures(client);
    return await measureAuthOn(server, client, options);
  } catch (error) {
    log(`auth: server output:\n${server.output().slice(-3000)}`);
    throw error;
  } finally {
    client.close();
    await stopServer(server);
  }
}

// ---------------------------------------------------------------------------------------------
// CPU profile summary (node --cpu-prof)

export interface ProfileSummary {
  file: string;
  totalMs: number;
  /** Entries the server posted in its life (warm-up and measured), to show time per entry. */
  entries: number;
  functions: { name: string; selfMs: number }[];
  modules: { name: string; selfMs: number }[];
  /** Every module's self time (not only the costliest), for the per-module comparison of two builds. */
  allModules: { name: string; selfMs: number }[];
  /** Samples of "(idle)": the thread waiting for work (a flush, the next request), not CPU. */
  idleMs: number;
}

interface CallFrame { functionName: string; url: string; lineNumber: number; columnNumber: number }

interface CpuProfile {
  startTime: number;
  nodes: { id: number; callFrame: CallFrame }[];
  samples: number[];
  timeDeltas: number[];
}

function moduleOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return `npm:${rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  // dist/ for an unbundled build; src/ through the bundle's source maps (tsc's maps lead there).
  const own = /\/(dist|src)\//.exec(url);
  if (own) return `ledger:${url.slice(own.index + own[0].length).split('/').slice(0, -1).join('/') || '.'}`;
  return url;
}

/**
 * The frame where its code was written: bin/ledger.js runs the bundle in dist/bundle/
 * (scripts/bundle-cli.mjs), whose source maps (through tsc's) name the module in src/ each
 * function came from, so that the summary names modules as it does for an unbundled build
 * (--before, whose frames are in dist/).
 */
function unbundled(frame: CallFrame, maps: Map<string, SourceMap | undefined>): CallFrame {
  if (!frame.url.includes('/dist/bundle/')) return frame;
  let map = maps.get(frame.url);
  if (!maps.has(frame.url)) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(frame.url)}.map`, 'utf8')) as SourceMapPayload);
    } catch {
      map = undefined;
    }
    maps.set(frame.url, map);
  }
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber) as Partial<SourceMapping> | undefined;
  if (entry?.originalSource === undefined || entry.originalLine === undefined) return frame;
  return { ...frame, url: new URL(entry.originalSource, frame.url).href, lineNumber: entry.originalLine, columnNumber: entry.originalColumn ?? 0 };
}

/**
 * Microseconds on the clock V8's CPU profiles use for their timestamps (the monotonic clock, as
 * process.hrtime), so that a window measured here selects a profile's samples.
 */
function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** `window`: only the samples taken within it (monotonicMicros() values), e.g. the measured load. */
export function summarizeProfile(profileDir: string, entries: number, window?: { from: number; to: number }): ProfileSummary | undefined {
  let files: string[];
  try {
    files = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
  } catch {
    return undefined;
  }
  if (files.length === 0) return undefined;
  const file = join(profileDir, files[0]!);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const maps = new Map<string, SourceMap | undefined>();
  const frames = new Map(profile.nodes.map((node) => [node.id, unbundled(node.callFrame, maps)]));
  const functions = new Map<string, number>();
  const modules = new Map<string, number>();
  let totalUs = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (window !== undefined && (at < window.from || at > window.to)) return;
    const frame = frames.get(id);
    if (!frame) return;
    totalUs += delta;
    const where = frame.url ? ` ${frame.url.replace(/^.*\/(node_modules|dist|src)\//, '$1/')}:${frame.lineNumber + 1}` : '';
    const name = `${frame.functionName || '(anonymous)'}${where}`;
    functions.set(name, (functions.get(name) ?? 0) + delta);
    const module = moduleOf(frame.url, frame.functionName);
    modules.set(module, (modules.get(module) ?? 0) + delta);
  });
  const top = (map: Map<string, number>, n: number) => [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n)
    .map(([name, us]) => ({ name, selfMs: us / 1000 }));
  return {
    file, totalMs: totalUs / 1000, entries, functions: top(functions, 25), modules: top(modules, 15), allModules: top(modules, Infinity),
    idleMs: (modules.get('(idle)') ?? 0) / 1000,
  };
}
