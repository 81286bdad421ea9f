/**
 * `npm run bench`: builds dist/, then runs in sequence, for SQLite (the default, `--backend sqlite`)
 *   1. posting through HTTP with synchronous=FULL (durable) and with NORMAL (bench/posting.ts),
 *   2. the cost of authentication (GET with an API key vs without),
 *   3. the bare better-sqlite3 baseline on the same machine (bench/sqlite-baseline.ts),
 *   4. a bare node:http server answering the same POST, the ceiling of HTTP (bench/http-baseline.ts),
 *   5. bulk loading: `ledger journal-entries import` of 1,000,000 lines, bare better-sqlite3
 *      importing the same file (the reference of the bulk ratios), and the batch route with one
 *      and four clients (bench/bulk.ts),
 *   6. start-up: `ledger accounts list` beside `node -e 0` (bench/startup.ts),
 *   7. every report on a ledger of 1,000,000 lines, against hledger (bench/reports.ts),
 * and for PostgreSQL (`--backend postgres`, or `both`; bench/postgres.ts), on a throw-away durable
 * cluster (bench/pg-cluster.ts) or the server of `--db postgres://...`:
 *   1. posting through HTTP with one and with two `ledger serve` processes on one database, random
 *      accounts and a hot account, each run followed by a check of the books; then the reference,
 *      a bare node:http server on `pg` (bench/bare-pg-server.mjs) loaded the same way,
 *   2. the cost of authentication,
 *   3. bare PostgreSQL through `pg` with the adapter's statements,
 *   4. bulk loading as for SQLite, and the batch route also with two servers (bench/bulk.ts),
 *   5. every report on a 1,000,000-line ledger;
 * then the goals with pass/fail, and issue 25's goals as ratios to the references of the same run.
 * Prints Markdown on stdout; progress goes to stderr.
 * Options: `npm run bench -- --help`.
 */
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { migrateSqlite } from '../src/storage/sqlite/sqlite-store.js';
import { cpus } from 'node:os';
import {
  abbaOrder, type BenchOptions, buildDist, fmt, fsyncProbe, HAS_TASKSET, type LatencySummary, killRunningServers, log, makeTempDir, OtherCpu, parseOptions,
  generatedHeader, median, pct, pinSelf, removeDir, sleep, summarize, table,
} from './lib.js';
import {
  ACCOUNTS, databaseBytes, openTarget, type PgBaselineResult, pgBaselineCases, pgBaselineTable, type PgPostingResult, pgPostingTable,
  type PgTarget, placementText, postgresBulkStore, postingSpecs, runPgBaseline, runPgPosting, runPgReference, statementsTable, waitText,
} from './postgres.js';
import { clusterPids, createDatabase, dropDatabase } from './pg-cluster.js';
import { type AuthResult, type OtherBuild, type PostingResult, type ProfileSummary, runAuth, runPosting, type WebhookRun } from './posting.js';
import { buildLedger, type BuiltLedger, describeBuiltLedger, type ReportsResult, reportsMarkdown, runReports } from './reports.js';
import { basename, join } from 'node:path';
import { type BaselineResult, baselineCases, runBaseline } from './sqlite-baseline.js';
import { batchLabel, type BulkResult, bulkMarkdown, runBulk, sqliteBulkStore } from './bulk.js';
import { type HttpBaselineResult, httpBaselineMarkdown, runHttpBaseline } from './http-baseline.js';
import { runStartup, type StartupResult, startupMarkdown } from './startup.js';
import { STALL_LIMIT_MS } from './webhooks.js';
import { type InterleavedResult, runInterleaved } from './webhooks-interleaved.js';

/**
 * Goals. Issue 9: durable posting through HTTP at 5,000 entries/s with p99 under 50 ms; every
 * report's p99 under 50 ms at 1M lines. Issue 12 (SQLite): posting at 15,000 entries/s with p99
 * under 20 ms; bulk loading at 150,000 lines/s by import (1,000,000 lines in under 7 s) and by the
 * batch route (on PostgreSQL too: the rate); `ledger accounts list` in under 120 ms.
 */
const GOAL_RATE = 5000;
const GOAL_P99_MS = 50;
const GOAL_REPORT_P99_MS = 50;
const GOAL12_RATE = 15_000;
const GOAL12_P99_MS = 20;
const GOAL_BULK_LINES_PER_S = 150_000;
const GOAL_IMPORT_LINES = 1_000_000;
const GOAL_IMPORT_SECONDS = 7;
const GOAL_STARTUP_MS = 120;
/** Issue 12 at scale: reports and general-ledger pages, an account's balance, and the server's memory. */
const GOAL12_SCALE_LINES = 10_000_000;
const GOAL12_REPORT_P99_MS = 20;
const GOAL12_BALANCE_P99_MS = 2;
const GOAL12_RSS_MB = 250;
/**
 * Issue 25: every goal a ratio to a reference measured in the same run, since this machine's
 * speed moves two to four times between days. SQLite posting (FULL) at least 0.3 of the bare
 * node:http POST server with p99 under 20 ms; the import and the batch route each at least 0.5 of
 * bare better-sqlite3 importing the same file; PostgreSQL posting, one server and two, at least 0.4
 * of the bare node:http server on `pg`.
 */
const GOAL25_POSTING_RATIO = 0.3;
const GOAL25_POSTING_P99_MS = 20;
const GOAL25_BULK_RATIO = 0.5;
const GOAL25_PG_RATIO = 0.4;
/**
 * Issue 26: delivery does not slow posting. SQLite posting (FULL) with three active webhook
 * endpoints at least 0.9 of the same posting without them, in the same run.
 */
const GOAL26_WEBHOOKS_RATIO = 0.9;

/** The plain FULL run, the first of the webhook comparison's runs without endpoints. */
function isPlainFull(r: PostingResult): boolean {
  return r.mode === 'FULL' && !r.profile && !r.build && !r.webhookRun;
}

/** A posting run's name in the tables. */
function postingLabel(r: PostingResult, comparisonRuns: number): string {
  const base = `HTTP, synchronous=${r.mode}${r.profile ? ' (under --cpu-prof)' : ''}${r.build ? ` (${r.build} build)` : ''}`;
  if (r.webhookRun) {
    const n = r.webhookRun.endpoints;
    if (r.profile) return `${base}, ${n} webhook endpoint${n > 1 ? 's' : ''}`;
    return `${base}, ${n === 0 ? 'no webhook endpoints' : `${n} webhook endpoint${n > 1 ? 's' : ''}`} (run ${r.webhookRun.order} of ${comparisonRuns})`;
  }
  return comparisonRuns > 0 && isPlainFull(r) ? `${base} (run 1 of ${comparisonRuns}, no webhook endpoints)` : base;
}

interface WebhookComparison {
  endpoints: number;
  without: PostingResult[];
  with: PostingResult[];
  withoutRate: number;
  withRate: number;
  ratio: number;
}

/** Issue 26's comparison from the posting runs: undefined when the run had no runs with endpoints. */
function webhookComparison(postings: PostingResult[]): WebhookComparison | undefined {
  const withRuns = postings.filter((r) => (r.webhookRun?.endpoints ?? 0) > 0 && !r.profile);
  if (withRuns.length === 0) return undefined;
  const without = postings.filter((r) => isPlainFull(r) || r.webhookRun?.endpoints === 0);
  const withoutRate = median(without.map((r) => r.entriesPerSecond));
  const withRate = median(withRuns.map((r) => r.entriesPerSecond));
  return { endpoints: withRuns[0]!.webhookRun!.endpoints, without, with: withRuns, withoutRate, withRate, ratio: withRate / withoutRate };
}

function webhookSection(c: WebhookComparison, comparisonRuns: number, catchUpLimitSeconds: number): string {
  const side = (runs: PostingResult[], name: string) => {
    const cpu = runs.map((r) => r.serverCpu).filter((v): v is number => v !== undefined);
    return [`${name} (run${runs.length > 1 ? 's' : ''} ${runs.map((r) => r.webhookRun?.order ?? 1).join(', ')})`, fmt(median(runs.map((r) => r.entriesPerSecond))),
      ms(median(runs.map((r) => r.latency.p50))), ms(median(runs.map((r) => r.latency.p99))), cpu.length > 0 ? pct(median(cpu)) : 'n/a',
      pct(median(runs.map((r) => r.clientCpu)))];
  };
  const out: string[] = [];
  out.push(`### Posting with ${c.endpoints} active webhook endpoints (issue 26; SQLite, synchronous=FULL, same run)`);
  out.push('');
  out.push(`The same posting run as above, ${comparisonRuns} times: without endpoints and with ${c.endpoints} endpoints for every `
    + 'event type (made through the API after the warm-up, right before the load; each on its own path of one receiver, '
    + 'bench/webhook-receiver.mjs, a process of its own pinned to CPU 1 beside the load generator, answering 200 at once), '
    + `in the order ${abbaOrder(c.endpoints, comparisonRuns).map((n) => (n === 0 ? 'without' : 'with')).join(', ')}. `
    + 'Every server of these runs allows receivers on 127.0.0.1 (LEDGER_WEBHOOK_ALLOW_PRIVATE=true). Medians of each side:');
  out.push('');
  out.push(table(['posting', 'entries/s', 'p50 ms', 'p99 ms', 'server CPU', 'client CPU'], [
    side(c.without, 'without endpoints'), side(c.with, `with ${c.endpoints} endpoints`),
    ['with / without', c.ratio.toFixed(2), '', '', '', ''],
  ]));
  out.push('');
  out.push('Delivery in each run with endpoints: how many events (the measured posts, each due to every endpoint) the endpoints had '
    + 'delivered when the load ended (their `last_seq`, slowest and fastest endpoint), how far the slowest was then behind, how long '
    + `after the load every endpoint had delivered the last event (the run fails past ${catchUpLimitSeconds} s, --webhook-catch-up, or when `
    + `no cursor moves for ${STALL_LIMIT_MS / 1000} s) and how fast the slowest endpoint delivered meanwhile, what the receiver counted, and the `
    + "server's CPU per delivery while it caught up (it did nothing else then but answer the benchmark's look at the cursors every 100 ms).");
  out.push('');
  out.push(table(['run', 'events', 'delivered at the end', 'behind at the end', 'caught up after s', 'received at the end / in all',
    'repeats', 'receiver CPU', 'server µs/delivery'], c.with.map((r) => {
    const w = r.webhooks!;
    return [`run ${r.webhookRun!.order}`, fmt(w.events), `${fmt(w.deliveredAtEndMin)}–${fmt(w.deliveredAtEndMax)}`, fmt(w.lagAtEnd),
      `${w.catchUpSeconds.toFixed(1)}${w.catchUpRate === undefined ? '' : ` (${fmt(w.catchUpRate)} events/s)`}`,
      `${fmt(w.receivedAtEnd)} / ${fmt(w.received)}`, fmt(w.repeats), pct(w.receiverCpu),
      w.serverCpuPerDeliveryMicros === undefined ? 'n/a' : fmt(w.serverCpuPerDeliveryMicros)];
  })));
  return out.join('\n');
}

/** Issue 26's interleaved comparison (bench/webhooks-interleaved.ts): every window, then the pairs. */
function interleavedSection(r: InterleavedResult, windowEntries: number, concurrency: number): string {
  const sorted = [...r.pairRatios].sort((a, b) => a - b);
  const out: string[] = [];
  out.push(`### Posting with ${r.endpoints} active webhook endpoints, interleaved in one server (issue 26's verdict)`);
  out.push('');
  out.push(`One \`ledger serve\` (SQLite, synchronous=FULL, CPU 0) and one receiver (CPU 1), warmed up, then ${r.windows.length} windows `
    + `of ${fmt(windowEntries)} posts each (${concurrency} clients) in the order `
    + `${abbaOrder(r.endpoints, 4).map((n) => (n === 0 ? 'without' : 'with')).join(', ')}, ...: a window with endpoints creates `
    + `${r.endpoints} for every event type right before its load and deletes them right after it (then waits until the receiver counts `
    + 'no more deliveries). Pairs are windows 1-2, 3-4, ...: each one with and one without, adjacent in time, so under the same '
    + 'state of the machine; the verdict is the median of the pairs\' ratios.');
  out.push('');
  out.push(table(['window', 'endpoints', 'entries/s', 'p50 ms', 'p99 ms', 'deliveries during the load'], r.windows.map((w) => {
    const latency = summarize(w.latenciesMs);
    return [String(w.index), String(w.endpoints), fmt(w.entriesPerSecond), ms(latency.p50), ms(latency.p99), fmt(w.delivered)];
  })));
  out.push('');
  out.push(table(['', 'without', `with ${r.endpoints}`, 'with / without'], [
    ['median entries/s of the windows', fmt(r.withoutRate), fmt(r.withRate), r.mediansRatio.toFixed(2)],
    ['p50 / p99 ms over all their posts', `${ms(r.withoutLatency.p50)} / ${ms(r.withoutLatency.p99)}`,
      `${ms(r.withLatency.p50)} / ${ms(r.withLatency.p99)}`, ''],
  ]));
  out.push('');
  out.push(`Pairs' ratios (with / without), in run order: ${r.pairRatios.map((x) => x.toFixed(2)).join(', ')}; `
    + `sorted: lowest ${sorted[0]!.toFixed(2)}, median **${r.ratio.toFixed(2)}**, highest ${sorted[sorted.length - 1]!.toFixed(2)}.`);
  return out.join('\n');
}

function ms(value: number): string {
  return fmt(value, 1);
}

function report(postings: PostingResult[], auth: AuthResult | undefined, baselines: BaselineResult[],
  bareHttp: HttpBaselineResult | undefined, pinned: boolean, startedAt: Date, totalSeconds: number, keep: boolean, probes: LatencySummary[],
  background: number | undefined, catchUpLimitSeconds: number): string {
  const options = postings[0];
  const out: string[] = [];
  out.push(`## ledger benchmark, ${startedAt.toISOString()}`);
  out.push('');
  out.push(`Machine: ${cpus().length} CPU(s) (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, `
    + `${pinned ? 'server pinned to CPU 0 and load generator to CPU 1 (taskset)' : 'NOT pinned (no taskset)'}; `
    + `total run ${totalSeconds.toFixed(1)} s.`);
  out.push('');
  out.push(`Background load before the run (1 s sample): ${pct(background)} of a core used by other processes.`
    + `${background !== undefined && background > 0.2 ? ' WARNING: the machine is not quiet; figures are not representative.' : ''}`);
  if (probes.length > 0) {
    out.push('');
    out.push(`Disk flush (write 4 KiB + fsync, 200 times, at start and at end): ${probes.map((p) =>
      `p50 ${ms(p.p50)} ms / p99 ${ms(p.p99)} ms`).join(', then ')}. Every FULL commit pays one such flush.`);
  }
  const hooks = webhookComparison(postings);
  const comparisonRuns = hooks ? hooks.with.length + hooks.without.length : 0;
  if (postings.length > 0) {
    out.push('');
    out.push(`### Posting two-line entries through HTTP, SQLite (${options!.concurrency} concurrent keep-alive clients)`);
    out.push('');
    out.push(table(
      ['run', 'entries', 'seconds', 'entries/s', 'p50 ms', 'p99 ms', 'max ms', 'rows/entry', 'server CPU', 'client CPU', 'other CPU'],
      postings.map((r) => [
        postingLabel(r, comparisonRuns),
        fmt(r.entries), r.seconds.toFixed(2),
        fmt(r.entriesPerSecond), ms(r.latency.p50), ms(r.latency.p99), ms(r.latency.max), r.rowsPerEntry.toFixed(1),
        r.serverCpu === undefined ? 'n/a' : `${fmt(r.serverCpu * 100)}%`, `${fmt(r.clientCpu * 100)}%`, pct(r.otherCpu),
      ])));
    out.push('');
    out.push('CPU columns: share of one core over the measured loop (server: all its threads; other: every other process '
      + 'on the machine, should be ~0%). rows/entry: rows the measured posts added per entry, outside the full-text index.');
    out.push('');
    for (const r of postings) out.push(`- ${postingLabel(r, comparisonRuns)}: verification ${r.verified}`);
    if (hooks) out.push('', webhookSection(hooks, comparisonRuns, catchUpLimitSeconds));
  }
  if (auth) out.push('', authSection(auth, 'SQLite'));
  if (baselines.length > 0) {
    out.push('');
    out.push('### Bare better-sqlite3, same rows as the adapter (no HTTP, no validation reads)');
    out.push('');
    out.push(table(['case', 'entries', 'seconds', 'entries/s', 'lines/s', 'commits/s', 'other CPU'],
      baselines.map((b) => [b.label, fmt(b.entries), b.seconds.toFixed(2), fmt(b.entriesPerSecond), fmt(b.linesPerSecond),
        fmt(b.commitsPerSecond), pct(b.otherCpu)])));
    out.push('');
    out.push('Every case writes every row the adapter writes for an entry (the entry with its chain link, amount key and who posted it, '
      + 'its lines, words, and the totals once per transaction; a post writes no audit record of its own), with no application work '
      + 'between the statements.');
  }
  if (bareHttp) out.push('', httpBaselineMarkdown(bareHttp));
  const rows: string[][] = [];
  for (const r of postings.filter((p) => !p.profile && !p.build && !p.webhookRun)) {
    for (const b of baselines.filter((x) => x.synchronous === r.mode && !x.bulk)) {
      rows.push([`HTTP ${r.mode} / ${b.label}`, `${fmt(r.entriesPerSecond)} / ${fmt(b.entriesPerSecond)}`,
        (r.entriesPerSecond / b.entriesPerSecond).toFixed(2)]);
    }
    if (bareHttp) {
      rows.push([`HTTP ${r.mode} / bare node:http`, `${fmt(r.entriesPerSecond)} / ${fmt(bareHttp.requestsPerSecond)}`,
        (r.entriesPerSecond / bareHttp.requestsPerSecond).toFixed(2)]);
    }
  }
  if (rows.length > 0) {
    out.push('');
    out.push(`### HTTP vs ${[baselines.length > 0 && 'bare SQLite', bareHttp && 'bare node:http'].filter(Boolean).join(' and ')} (same run)`);
    out.push('');
    out.push(table(['comparison', 'entries/s', 'ratio'], rows));
  }
  for (const r of postings) {
    if (r.profile) {
      const endpoints = r.webhookRun?.endpoints ?? 0;
      out.push('', profileSection(r.profile, `synchronous=${r.mode}${r.build ? `, ${r.build} build` : ''}`
        + `${endpoints > 0 ? `, ${endpoints} active webhook endpoints, deliveries' catch-up included` : ''}`, keep));
    }
  }
  const [after, before] = [postings.find((r) => r.profile && !r.build && !r.webhookRun)?.profile, postings.find((r) => r.profile && r.build)?.profile];
  if (after && before) out.push('', profileComparison(before, after));
  const profiledWith = postings.find((r) => r.profile && (r.webhookRun?.endpoints ?? 0) > 0);
  const profiledWithout = postings.find((r) => r.profile && !r.build && !r.webhookRun);
  if (profiledWith?.loadProfile && profiledWithout?.loadProfile) {
    out.push('', profileComparison(profiledWithout.loadProfile, profiledWith.loadProfile, webhookComparisonLabels(profiledWith.webhookRun!.endpoints)));
  }
  return `${out.join('\n')}\n`;
}

/** Microseconds of server CPU per entry posted, whole server life (start-up included) divided by the entries. */
function perEntry(selfMs: number, profile: ProfileSummary): string {
  return fmt((selfMs * 1000) / profile.entries, 1);
}

/**
 * The part of the code a profile module belongs to, for comparing two builds: the ledger's own
 * code by directory of src/ (each store under storage/ apart: storage/sqlite, storage/postgres,
 * storage/shared; else the first level: service, http, domain, ...), each npm package, the
 * garbage collector, and Node's own JavaScript and native code together ("node internals").
 */
function moduleGroup(name: string): string {
  if (name === 'ledger:bundle') return 'dist/bundle (no source map entry)';
  if (name.startsWith('ledger:')) {
    const parts = name.slice('ledger:'.length).split('/');
    return `src/${parts.slice(0, parts[0] === 'storage' ? 2 : 1).join('/')}`;
  }
  if (name.startsWith('npm:') || name === '(garbage collector)' || name === '(idle)' || name === '(program)') return name;
  if (name.startsWith('node:') || name === '(native)') return 'node internals';
  return 'other';
}

/** Parts of the code under this many µs per entry in both builds share one row of the comparison. */
const SMALL_US = 2;

/**
 * Where the microseconds of a post go in the two builds, part by part (moduleGroup): CPU only,
 * "(idle)" (the thread waiting) shown apart and left out of the total.
 */
function profileComparison(before: ProfileSummary, after: ProfileSummary, labels = BUILD_COMPARISON): string {
  const grouped = (profile: ProfileSummary) => {
    const groups = new Map<string, number>();
    for (const m of profile.allModules) groups.set(moduleGroup(m.name), (groups.get(moduleGroup(m.name)) ?? 0) + m.selfMs);
    return groups;
  };
  const [b, a] = [grouped(before), grouped(after)];
  const us = (profile: ProfileSummary, selfMs: number | undefined) => (selfMs === undefined ? undefined : (selfMs * 1000) / profile.entries);
  const cell = (value: number | undefined) => (value === undefined ? '-' : fmt(value, 1));
  const names = [...new Set([...b.keys(), ...a.keys()])].filter((name) => name !== '(idle)');
  const parts = names.map((name) => [name, us(before, b.get(name)), us(after, a.get(name))] as const)
    .sort((x, y) => (y[1] ?? 0) + (y[2] ?? 0) - (x[1] ?? 0) - (x[2] ?? 0));
  const small = parts.filter(([, x, y]) => (x ?? 0) < SMALL_US && (y ?? 0) < SMALL_US);
  const rows = parts.filter((part) => !small.includes(part))
    .map(([name, x, y]) => [name, cell(x), cell(y), x === undefined || y === undefined ? '' : fmt(y - x, 1)]);
  if (small.length > 0) {
    const [x, y] = [small.reduce((sum, p) => sum + (p[1] ?? 0), 0), small.reduce((sum, p) => sum + (p[2] ?? 0), 0)];
    rows.push([`${small.length} smaller parts together (each under ${SMALL_US} µs in both)`, cell(x), cell(y), fmt(y - x, 1)]);
  }
  const cpu = (profile: ProfileSummary) => ((profile.totalMs - profile.idleMs) * 1000) / profile.entries;
  rows.push(['CPU, all parts', cell(cpu(before)), cell(cpu(after)), fmt(cpu(after) - cpu(before), 1)]);
  rows.push(['(idle: waiting, not CPU)', cell(us(before, before.idleMs)), cell(us(after, after.idleMs)), '']);
  const out: string[] = [];
  out.push(`### Server CPU per entry posted, ${labels.title} (synchronous=FULL, µs per entry, self time by part of the code)`);
  out.push('');
  out.push(`${labels.covers(before, after)}; src/...: the ledger's own modules by directory, `
    + 'npm:...: each package, node internals: Node\'s own JavaScript and native code; "-" = no samples there.');
  out.push('');
  out.push(table(['part', `${labels.before} µs`, `${labels.after} µs`, `${labels.after} − ${labels.before} µs`], rows));
  return out.join('\n');
}

interface ComparisonLabels {
  title: string;
  before: string;
  after: string;
  covers: (before: ProfileSummary, after: ProfileSummary) => string;
}

/** Two builds (--before --profile): each profile's whole server life. */
const BUILD_COMPARISON: ComparisonLabels = {
  title: 'before and after', before: 'before', after: 'after',
  covers: (before, after) => `Each profile covers the whole server life (start-up, fixtures, warm-up and measured posts) divided by the `
    + `entries it posted (before ${fmt(before.entries)}, after ${fmt(after.entries)}; the start-up weighs more the fewer entries a run posts)`,
};

/** Issue 26 (--profile with --webhooks N): the measured load only, so that the catch-up after it is not counted. */
function webhookComparisonLabels(endpoints: number): ComparisonLabels {
  return {
    title: `without and with ${endpoints} active webhook endpoints`, before: 'without', after: 'with',
    covers: (before, after) => `Each profile's samples during the measured load only (not the warm-up, nor the deliveries' catch-up after `
      + `the load), divided by the load's entries (without ${fmt(before.entries)}, with ${fmt(after.entries)})`,
  };
}

function authSection(auth: AuthResult, store: string): string {
  const out: string[] = [];
  out.push(`### Cost of authentication, ${store} (${fmt(auth.measurements[0]!.requests)} requests per pattern and round, `
    + `${auth.rounds} rounds, median; ${auth.concurrency} clients; other processes used ${pct(auth.otherCpu)} of a core)`);
  out.push('');
  out.push(table(['request', 'req/s', 'server CPU µs/req', 'p50 ms', 'p99 ms'],
    auth.measurements.map((m) => [m.pattern.name, fmt(m.requestsPerSecond),
      m.serverCpuMicros === undefined ? 'n/a' : fmt(m.serverCpuMicros, 1), ms(m.latency.p50), ms(m.latency.p99)])));
  const [health, currencies, notFound, authNotFound] = auth.measurements;
  const diff = (a: typeof health, b: typeof health) => {
    const wall = (1e6 / b!.requestsPerSecond) - (1e6 / a!.requestsPerSecond);
    const cpu = a!.serverCpuMicros !== undefined && b!.serverCpuMicros !== undefined
      ? `${fmt(b!.serverCpuMicros - a!.serverCpuMicros, 1)} µs of server CPU` : 'server CPU n/a';
    return `${fmt(wall, 1)} µs of wall time per request (from req/s), ${cpu}`;
  };
  out.push('');
  out.push(`- /api/v1/currencies (key) minus /health: ${diff(health, currencies)} `
    + '(includes the list query and a larger response, not only authentication)');
  out.push(`- 404 under /api/v1 (key) minus 404 outside it: ${diff(notFound, authNotFound)} `
    + '(the same not-found handler; the difference is the authentication alone)');
  return out.join('\n');
}

function profileSection(profile: ProfileSummary, what: string, keep: boolean): string {
  const out: string[] = [];
  out.push(`### Server CPU profile (${what}, whole server life, ${fmt(profile.totalMs)} ms sampled)`);
  out.push(`Profile: ${profile.file}${keep ? '' : ' (deleted with the temporary directory; pass --keep to keep it)'}`);
  out.push('');
  out.push(`${fmt(profile.entries)} entries posted in the server's life: ${perEntry(profile.totalMs, profile)} µs of samples per entry, `
    + `${perEntry(profile.totalMs - profile.idleMs, profile)} µs of them CPU (the rest "(idle)", the thread waiting).`);
  out.push('');
  out.push(table(['module (self time)', 'ms', '%', 'µs per entry'],
    profile.modules.map((m) => [m.name, fmt(m.selfMs), fmt((m.selfMs / profile.totalMs) * 100, 1), perEntry(m.selfMs, profile)])));
  out.push('');
  out.push(table(['function (self time)', 'ms', '%', 'µs per entry'],
    profile.functions.map((f) => [f.name, fmt(f.selfMs), fmt((f.selfMs / profile.totalMs) * 100, 1), perEntry(f.selfMs, profile)])));
  return out.join('\n');
}

interface PgOutcome {
  target: PgTarget;
  postings: PgPostingResult[];
  /** The bare node:http server on `pg`, the reference of issue 25's PostgreSQL posting goal (with the posting runs). */
  reference?: PgPostingResult | undefined;
  auth: AuthResult | undefined;
  baselines: PgBaselineResult[];
  bulk?: BulkResult;
}

function pgReport(pg: PgOutcome, pinned: boolean, keep: boolean, concurrency: number): string {
  const { target, postings, baselines } = pg;
  const s = target.settings;
  const out: string[] = [];
  out.push(`## PostgreSQL ${s.server_version}`);
  out.push('');
  out.push(`${target.cluster ? `A throw-away cluster started for this run (initdb, 127.0.0.1:${target.cluster.port}; connections `
      + `${target.socket ? 'over its Unix-domain socket (--pg-socket)' : 'over TCP on 127.0.0.1'})`
    : 'The existing server of --db'}: fsync=${s.fsync}, synchronous_commit=${s.synchronous_commit}, `
    + `wal_sync_method=${s.wal_sync_method}, full_page_writes=${s.full_page_writes}, shared_buffers=${s.shared_buffers}, `
    + `max_connections=${s.max_connections}${s.shared_preload_libraries ? `, shared_preload_libraries=${s.shared_preload_libraries} (diagnostics)` : ''}; `
    + `${s.fsync === 'on' && s.synchronous_commit !== 'off' ? 'every COMMIT waits for its WAL flush'
      : 'WARNING: NOT DURABLE (a COMMIT does not wait for its WAL flush); figures are not comparable'}. Pool per \`ledger serve\`: `
    + `${process.env.LEDGER_PG_POOL_SIZE ?? '10 (default)'} connections.`);
  out.push('');
  out.push(`Placement: ${placementText(target, pinned)}`);
  if (postings.length > 0) {
    out.push('');
    out.push(`### Posting two-line entries through HTTP, PostgreSQL (${concurrency} concurrent keep-alive clients, `
      + `split evenly between the servers; random accounts among ${ACCOUNTS}, or every entry debiting the same account)`);
    out.push('');
    out.push(pgPostingTable(postings, target.cluster !== undefined && target.cpu === 0));
    out.push('');
    out.push('CPU columns: share of one core over the measured loop. ledger CPU: each `ledger serve` process; PostgreSQL CPU: '
      + 'the postmaster and all its children; CPU 0 busy: everything that ran on CPU 0 (where the servers are pinned); '
      + 'others on CPU 0: that minus the ledger servers and PostgreSQL, i.e. what other processes took from the servers\' core '
      + '(should be ~0%); client: the load generator; other: every other process on the machine (should be ~0%).');
    out.push('');
    out.push('Where the database\'s client backends were, sampled from pg_stat_activity every 50 ms during the loop (average '
      + 'number of backends in each state; "idle" waits for the ledger server, "idle in transaction" is a transaction open '
      + 'while the server works between statements, Lock:* waits for a row another transaction holds, IO:WALSync for the flush):');
    out.push('');
    for (const r of postings) out.push(`- ${r.spec.label}: ${waitText(r.waits)}`);
    out.push('');
    for (const r of postings) out.push(`- ${r.spec.label}: ${r.verified}`
      + `${Object.keys(r.statuses).some((k) => k !== '201') ? `; statuses ${JSON.stringify(r.statuses)}` : ''}`);
  }
  if (pg.reference) {
    const r = pg.reference;
    out.push('');
    out.push(`### The reference: a bare node:http server on \`pg\` (issue 25; ${concurrency} concurrent keep-alive clients, `
      + 'random accounts, one server)');
    out.push('');
    out.push(pgPostingTable([r], target.cluster !== undefined && target.cpu === 0));
    out.push('');
    out.push('bench/bare-pg-server.mjs: reads and parses the body, checks for the credential, and writes the entries that arrived '
      + 'while the previous group was written (at most 64) with ONE statement (a CTE inserting the entries and their lines from '
      + 'unnest arrays into two plain tables of its own) on one connection, each answer after that statement\'s COMMIT; '
      + `${r.groupSize === undefined ? '' : `${r.groupSize.toFixed(1)} entries per group on average over its life; `}`
      + 'on the same cluster, pinned and loaded as one `ledger serve` above.');
    out.push('');
    out.push(`- reference: ${waitText(r.waits)}`);
    out.push(`- reference: ${r.verified}${Object.keys(r.statuses).some((k) => k !== '201') ? `; statuses ${JSON.stringify(r.statuses)}` : ''}`);
  }
  if (pg.auth) out.push('', authSection(pg.auth, 'PostgreSQL'));
  if (baselines.length > 0) {
    out.push('');
    out.push('### Bare PostgreSQL through `pg`, the adapter\'s statements (no HTTP, no service)');
    out.push('');
    out.push(pgBaselineTable(baselines));
    out.push('');
    out.push('Backends (sampled as above):');
    out.push('');
    for (const b of baselines) out.push(`- ${b.spec.label.slice(0, 3)}: ${waitText(b.waits)}`);
  }
  const measured = postings.filter((r) => !r.spec.profile);
  if (measured.length > 0 && baselines.length > 0) {
    out.push('');
    out.push('### HTTP vs bare PostgreSQL (same run)');
    out.push('');
    const rows: string[][] = [];
    for (const r of measured.filter((p) => !p.spec.hot)) {
      for (const b of baselines) {
        rows.push([`${r.spec.label} / ${b.spec.label.slice(0, 3)}`, `${fmt(r.entriesPerSecond)} / ${fmt(b.entriesPerSecond)}`,
          (r.entriesPerSecond / b.entriesPerSecond).toFixed(2)]);
      }
    }
    out.push(table(['comparison', 'entries/s', 'ratio'], rows));
  }
  for (const r of postings) {
    if (r.statements) {
      out.push('', `### Costliest statements, PostgreSQL, ${r.spec.label} (--pg-statements; time inside PostgreSQL per entry posted)`);
      out.push('', statementsTable(r.statements));
    }
  }
  for (const r of postings) {
    if (r.profile) out.push('', profileSection(r.profile, `PostgreSQL, ${r.spec.label}`, keep));
  }
  return `${out.join('\n')}\n`;
}

/** PASS, or MISS with what fell short (each text given for a failed check). */
function verdict(misses: (string | false)[]): string {
  const texts = misses.filter((m): m is string => m !== false);
  return texts.length === 0 ? 'PASS' : `MISS (${texts.join(', ')})`;
}

function ofRate(rate: number, goal: number): string | false {
  return rate < goal && `${fmt((rate / goal) * 100)}% of the rate`;
}

/** What the ratio goals read beside the results goalsReport already takes: the references, and which stores ran. */
interface References {
  bareHttp: HttpBaselineResult | undefined;
  /** Undefined when the run did not touch PostgreSQL (--backend sqlite). */
  pg: PgOutcome | undefined;
  /** The run measured SQLite (--backend sqlite or both). */
  sqlite: boolean;
  /** Whether the run was pinned with taskset (else no CPU is said). */
  pinned: boolean;
  /** --webhooks: the endpoints of the webhook comparison's runs (0: none ran). */
  webhooks: number;
  /** The interleaved webhook comparison, when it ran (--webhook-windows). */
  interleaved: InterleavedResult | undefined;
}

/**
 * Issue 25's goals, each a ratio of a ledger figure to a reference figure of the same run; a row
 * whose figures this run did not measure says so instead of showing a number.
 */
function ratioGoals(postings: PostingResult[], bulk: BulkResult | undefined, refs: References): string {
  const rows: string[][] = [];
  const notMeasured = (goal: string, why: string) => rows.push([goal, `not measured (${why})`, 'not measured', '-', 'not measured']);
  const ratioRow = (goal: string, reference: string, ledger: string, ratio: number, misses: (string | false)[]) =>
    rows.push([goal, reference, ledger, ratio.toFixed(2), verdict(misses)]);

  const postingGoal = `SQLite posting, synchronous=FULL: ≥ ${GOAL25_POSTING_RATIO} of the bare node:http POST server, p99 < ${GOAL25_POSTING_P99_MS} ms`;
  const full = postings.find(isPlainFull);
  if (!refs.sqlite) notMeasured(postingGoal, '--backend postgres');
  else if (!full || !refs.bareHttp) {
    notMeasured(postingGoal, `--only without ${[!full && 'posting', !refs.bareHttp && 'http'].filter(Boolean).join(' and ')}`);
  } else {
    const ratio = full.entriesPerSecond / refs.bareHttp.requestsPerSecond;
    ratioRow(`${postingGoal} (${full.concurrency} clients)`, `${fmt(refs.bareHttp.requestsPerSecond)} requests/s, p99 ${ms(refs.bareHttp.latency.p99)} ms`,
      `${fmt(full.entriesPerSecond)} entries/s, p99 ${ms(full.latency.p99)} ms`, ratio,
      [ratio < GOAL25_POSTING_RATIO && `ratio below ${GOAL25_POSTING_RATIO}`, full.latency.p99 >= GOAL25_POSTING_P99_MS && 'p99 too high']);
  }

  const hooks = webhookComparison(postings);
  const hooksGoal = `SQLite posting, synchronous=FULL, with ${hooks?.endpoints ?? refs.webhooks} active webhook endpoints: `
    + `≥ ${GOAL26_WEBHOOKS_RATIO} of the same posting without them (issue 26)`;
  const withSide = (rate: number, p99: number, what: string) => `${fmt(rate)} entries/s, p99 ${ms(p99)} ms (${what})`;
  const { interleaved } = refs;
  if (!refs.sqlite) notMeasured(hooksGoal, '--backend postgres');
  else if (refs.webhooks === 0) notMeasured(hooksGoal, '--webhooks 0');
  else if (interleaved) {
    // The verdict: windows alternating in one server (bench/webhooks-interleaved.ts), each pair
    // under the same state of the machine; separate runs cannot resolve 10% on this machine.
    const n = interleaved.windows.length / 2;
    ratioRow(`${hooksGoal}, interleaved: median of ${n} pairs of windows in one server`,
      withSide(interleaved.withoutRate, interleaved.withoutLatency.p99, `median of ${n} windows`),
      withSide(interleaved.withRate, interleaved.withLatency.p99, `median of ${n} windows`), interleaved.ratio,
      [interleaved.ratio < GOAL26_WEBHOOKS_RATIO && `ratio below ${GOAL26_WEBHOOKS_RATIO}`]);
  } else notMeasured(hooksGoal, !full ? '--only without posting' : '--webhook-windows 0');
  if (refs.sqlite && hooks) {
    const side = (runs: PostingResult[]) => withSide(median(runs.map((r) => r.entriesPerSecond)),
      median(runs.map((r) => r.latency.p99)), `median of ${runs.length}`);
    rows.push([`(the same, in separate runs: shown, not the verdict; this machine's speed moves between runs by more than 10%)`,
      side(hooks.without), side(hooks.with), hooks.ratio.toFixed(2), 'see the interleaved row']);
  }

  const bulkGoal = (what: string) => `SQLite ${what}: ≥ ${GOAL25_BULK_RATIO} of bare better-sqlite3 importing the same file`;
  const bare = bulk?.bare;
  if (!refs.sqlite || !bulk || !bare) {
    const why = !refs.sqlite ? '--backend postgres' : '--only without bulk';
    notMeasured(bulkGoal('`ledger journal-entries import`'), why);
    notMeasured(bulkGoal('`POST /journal-entries/batch`'), why);
  } else {
    const reference = `${fmt(bare.linesPerSecond)} lines/s`;
    const bulkRow = (what: string, linesPerSecond: number) => {
      const ratio = linesPerSecond / bare.linesPerSecond;
      ratioRow(bulkGoal(what), reference, `${fmt(linesPerSecond)} lines/s`, ratio, [ratio < GOAL25_BULK_RATIO && `ratio below ${GOAL25_BULK_RATIO}`]);
    };
    bulkRow(`\`ledger journal-entries import\` (${fmt(bulk.import.lines)} lines)`, bulk.import.linesPerSecond);
    for (const b of bulk.batches) bulkRow(`\`POST /journal-entries/batch\`, ${fmt(b.batch)} entries/request, ${batchLabel(b)}`, b.linesPerSecond);
  }

  const pg = refs.pg;
  const where = pg === undefined ? '' : pg.target.cluster === undefined ? 'the server of --db, not pinned'
    : !refs.pinned || pg.target.cpu === undefined ? 'the throw-away cluster, not pinned'
      : `the cluster on CPU ${pg.target.cpu}, the servers on CPU 0${pg.target.cpu === 0 ? ' (one shared core)' : ''}`;
  for (const servers of [1, 2]) {
    const goal = `PostgreSQL posting, ${servers} server${servers > 1 ? 's' : ''}, random accounts: ≥ ${GOAL25_PG_RATIO} of a bare node:http `
      + `server on pg${pg ? ` (${where})` : ''}`;
    const run = pg?.postings.find((p) => p.spec.servers === servers && !p.spec.hot && !p.spec.profile);
    if (!pg) notMeasured(goal, '--backend sqlite');
    else if (!run || !pg.reference) notMeasured(goal, '--only without posting');
    else {
      const ratio = run.entriesPerSecond / pg.reference.entriesPerSecond;
      ratioRow(goal, `${fmt(pg.reference.entriesPerSecond)} entries/s, p99 ${ms(pg.reference.latency.p99)} ms`,
        `${fmt(run.entriesPerSecond)} entries/s, p99 ${ms(run.latency.p99)} ms`, ratio, [ratio < GOAL25_PG_RATIO && `ratio below ${GOAL25_PG_RATIO}`]);
    }
  }
  const out: string[] = [];
  out.push('### Ratios to the references of the same run (issues 25 and 26)');
  out.push('');
  out.push('Each ledger figure divided by its reference measured in this run on the same machine, pinned and loaded the same way '
    + '(bare node:http: bench/bare-http-server.mjs; bare import: bench/bulk.ts runBareImport; bare node:http on pg: '
    + 'bench/bare-pg-server.mjs; with webhook endpoints: the same posting runs without them, alternated with them).');
  out.push('');
  out.push(table(['goal', 'reference', 'ledger', 'ratio', 'result'], rows));
  return out.join('\n');
}

function goalsReport(postings: PostingResult[], pgPostings: PgPostingResult[], reports: ReportsResult[], bulk: BulkResult | undefined,
  pgBulk: BulkResult | undefined, startup: StartupResult | undefined, bareBulk: BaselineResult | undefined, refs: References): string {
  const out: string[] = [];
  out.push('## Goals');
  out.push('');
  const rows: string[][] = [];
  const posting = (name: string, rate: number, p99: number, goalRate = GOAL_RATE, goalP99 = GOAL_P99_MS) => {
    rows.push([name, `≥ ${fmt(goalRate)} entries/s, p99 < ${goalP99} ms`, `${fmt(rate)} entries/s, p99 ${ms(p99)} ms`,
      verdict([ofRate(rate, goalRate), p99 >= goalP99 && 'p99 too high'])]);
  };
  for (const r of postings.filter(isPlainFull)) {
    posting('SQLite, HTTP, synchronous=FULL', r.entriesPerSecond, r.latency.p99);
    posting('SQLite, HTTP, synchronous=FULL (issue 12)', r.entriesPerSecond, r.latency.p99, GOAL12_RATE, GOAL12_P99_MS);
  }
  if (bulk) {
    const i = bulk.import;
    // The time goal is for exactly 1,000,000 lines; a run of another size shows only the rate.
    const timed = i.lines === GOAL_IMPORT_LINES;
    const rate = verdict([ofRate(i.linesPerSecond, GOAL_BULK_LINES_PER_S),
      timed && i.seconds >= GOAL_IMPORT_SECONDS && `${i.seconds.toFixed(2)} s, ${fmt((i.seconds / GOAL_IMPORT_SECONDS) * 100)}% of the time allowed`]);
    rows.push(['SQLite, bulk import (`ledger journal-entries import`)',
      `≥ ${fmt(GOAL_BULK_LINES_PER_S)} lines/s and ${fmt(GOAL_IMPORT_LINES)} lines in < ${GOAL_IMPORT_SECONDS} s`,
      `${fmt(i.linesPerSecond)} lines/s, ${fmt(i.lines)} lines in ${i.seconds.toFixed(2)} s`
        + (bareBulk ? `; bare SQLite writing the same rows in one transaction: ${fmt(bareBulk.linesPerSecond)} lines/s `
          + `(import / bare ${(i.linesPerSecond / bareBulk.linesPerSecond).toFixed(2)})` : ''),
      timed ? rate : `${rate} on the rate; the time needs --bulk-lines ${GOAL_IMPORT_LINES}`]);
  }
  const batchRows = (r: BulkResult) => {
    for (const b of r.batches) {
      rows.push([`${r.store}, batch route, ${b.servers} server${b.servers > 1 ? 's' : ''}, ${b.clients} client${b.clients > 1 ? 's' : ''}, `
        + `${fmt(b.batch)} entries/request`,
        `≥ ${fmt(GOAL_BULK_LINES_PER_S)} lines/s`, `${fmt(b.linesPerSecond)} lines/s`, verdict([ofRate(b.linesPerSecond, GOAL_BULK_LINES_PER_S)])]);
    }
  };
  if (bulk) batchRows(bulk);
  const list = startup?.timings.find((t) => t.name === 'ledger accounts list');
  if (list) {
    rows.push(['SQLite, `ledger accounts list`', `< ${GOAL_STARTUP_MS} ms wall (p50 of ${list.runs})`,
      `p50 ${ms(list.latency.p50)} ms, max ${ms(list.latency.max)} ms`,
      verdict([list.latency.p50 >= GOAL_STARTUP_MS && `${fmt((list.latency.p50 / GOAL_STARTUP_MS) * 100)}% of the time allowed`])]);
  }
  for (const r of pgPostings.filter((p) => !p.spec.profile)) posting(`PostgreSQL, HTTP, ${r.spec.label}`, r.entriesPerSecond, r.latency.p99);
  if (pgBulk) {
    // Issue 12's time goal (1,000,000 lines in < 7 s) is SQLite's; PostgreSQL is held to the rate.
    const i = pgBulk.import;
    rows.push(['PostgreSQL, bulk import (`ledger journal-entries import`)', `≥ ${fmt(GOAL_BULK_LINES_PER_S)} lines/s`,
      `${fmt(i.linesPerSecond)} lines/s, ${fmt(i.lines)} lines in ${i.seconds.toFixed(2)} s`,
      verdict([ofRate(i.linesPerSecond, GOAL_BULK_LINES_PER_S)])]);
    batchRows(pgBulk);
  }
  for (const result of reports) {
    const worst = result.timings.reduce((a, b) => (b.latency.p99 > a.latency.p99 ? b : a));
    const misses = result.timings.filter((t) => t.latency.p99 >= GOAL_REPORT_P99_MS);
    rows.push([`${result.store}, every report at ${fmt(result.lines)} lines`, `p99 < ${GOAL_REPORT_P99_MS} ms`,
      `worst p99 ${ms(worst.latency.p99)} ms (${worst.name})`,
      misses.length === 0 ? 'PASS' : `MISS (${misses.map((t) => `${t.name} ${ms(t.latency.p99)} ms`).join('; ')})`]);
    // Issue 12's goals are stated for 10,000,000 lines; finding entries is not one of its reports.
    const at = `${result.store} at ${fmt(result.lines)} lines (issue 12${result.lines < GOAL12_SCALE_LINES ? `, stated for ${fmt(GOAL12_SCALE_LINES)}` : ''})`;
    const pages = result.timings.filter((t) => !t.name.startsWith('find entries'));
    const worstPage = pages.reduce((a, b) => (b.latency.p99 > a.latency.p99 ? b : a));
    const slowPages = pages.filter((t) => t.latency.p99 >= GOAL12_REPORT_P99_MS);
    rows.push([`${at}: every report and general-ledger page`, `p99 < ${GOAL12_REPORT_P99_MS} ms`,
      `worst p99 ${ms(worstPage.latency.p99)} ms (${worstPage.name})`,
      verdict(slowPages.map((t) => `${t.name} ${ms(t.latency.p99)} ms`))]);
    const balance = result.timings.find((t) => t.name.startsWith('account balance'));
    if (balance) {
      rows.push([`${at}: account balance`, `p99 < ${GOAL12_BALANCE_P99_MS} ms`, `p50 ${ms(balance.latency.p50)} ms, p99 ${ms(balance.latency.p99)} ms; `
        + `the bare node:http GET of the same loop p50 ${ms(result.floor.latency.p50)} ms, p99 ${ms(result.floor.latency.p99)} ms`,
        verdict([balance.latency.p99 >= GOAL12_BALANCE_P99_MS && `p99 ${ms(balance.latency.p99)} ms`])]);
    }
    rows.push([`${at}: server memory`, `RSS < ${GOAL12_RSS_MB} MB`, `${fmt(result.rssBeforeMb)} MiB before the calls, ${fmt(result.rssAfterMb)} MiB after`,
      verdict([Math.max(result.rssBeforeMb, result.rssAfterMb) * 1.048576 >= GOAL12_RSS_MB && 'RSS too high'])]);
  }
  out.push(table(['what', 'goal', 'measured', 'result'], rows));
  out.push('', ratioGoals(postings, bulk, refs));
  return `${out.join('\n')}\n`;
}

/** The same ledger's reports served by another build (--before) and by this one. */
interface ReportsComparison {
  before: ReportsResult;
  after: ReportsResult;
  beforeLabel: string;
  /** This build's migrations of the other build's ledger, in seconds. */
  migrateSeconds: number;
}

/**
 * Issue 25's "nothing else slower": the other build (its bench/reports.ts, imported from its
 * checkout) builds the ledger; a copy is migrated to this build's schema (timed); each build then
 * serves the same calls on its own file, one after the other, in this run.
 */
async function reportsBeforeAfter(beforeDir: string, lines: number, repeat: number, dir: string, keep: boolean): Promise<ReportsComparison> {
  const beforeBench = await import(pathToFileURL(join(beforeDir, 'bench', 'reports.ts')).href) as { buildLedger: typeof buildLedger };
  const beforeDb = join(dir, 'reports-before.db');
  const afterDb = join(dir, 'reports-after.db');
  const built = await beforeBench.buildLedger(beforeDb, lines);
  log(`the other build built it in ${built.seconds.toFixed(1)} s`);
  for (const suffix of ['', '-wal']) {
    if (existsSync(beforeDb + suffix)) copyFileSync(beforeDb + suffix, afterDb + suffix);
  }
  const started = performance.now();
  migrateSqlite(afterDb);
  const migrateSeconds = (performance.now() - started) / 1000;
  log(`this build migrated a copy in ${migrateSeconds.toFixed(1)} s`);
  const beforeLabel = `before (${basename(beforeDir)})`;
  const before = await runReports({ lines, repeat, dir, keep, existing: beforeDb, bin: join(beforeDir, 'bin', 'ledger.js'),
    existingHow: `built through the service of ${beforeLabel} in this run, served by it` });
  const after = await runReports({ lines, repeat, dir, keep, existing: afterDb,
    existingHow: `built through the service of ${beforeLabel} in this run, migrated to this build's schema (${migrateSeconds.toFixed(1)} s), served by this build` });
  return { before, after, beforeLabel, migrateSeconds };
}

function reportsComparisonMarkdown(compared: ReportsComparison): string {
  const { before, after } = compared;
  const rows = after.timings.map((timing) => {
    const other = before.timings.find((t) => t.name === timing.name);
    return [timing.name, other ? ms(other.latency.p50) : '-', other ? ms(other.latency.p99) : '-', ms(timing.latency.p50), ms(timing.latency.p99),
      other ? `${fmt(timing.latency.p50 / other.latency.p50, 2)}` : '-'];
  });
  return ['### Reports on the same ledger, before and after (SQLite, one run)', '',
    `The ledger (${fmt(after.lines)} lines) was built by ${compared.beforeLabel}; a copy was migrated to this build's schema in `
    + `${compared.migrateSeconds.toFixed(1)} s. Each build served the same calls of each case on its own copy, `
    + 'one build after the other, on the same core. Server memory: before '
    + `${fmt(before.rssBeforeMb)} -> ${fmt(before.rssAfterMb)} MiB, after ${fmt(after.rssBeforeMb)} -> ${fmt(after.rssAfterMb)} MiB.`, '',
    table(['call', 'before p50 ms', 'before p99 ms', 'after p50 ms', 'after p99 ms', 'after / before (p50)'], rows)].join('\n');
}

/** The two stores' reports side by side, and whether their trial balances agree (same seed, same ledger). */
function reportsComparison(sqlite: ReportsResult, postgres: ReportsResult): string {
  const out: string[] = [];
  out.push(`### Reports at ${fmt(sqlite.lines)} lines: SQLite beside PostgreSQL (same run, same ledger)`);
  out.push('');
  out.push(table(['request', 'SQLite p50 ms', 'SQLite p99 ms', 'PostgreSQL p50 ms', 'PostgreSQL p99 ms'],
    sqlite.timings.map((t) => {
      const other = postgres.timings.find((u) => u.name === t.name);
      return [t.name, ms(t.latency.p50), ms(t.latency.p99), other ? ms(other.latency.p50) : 'n/a', other ? ms(other.latency.p99) : 'n/a'];
    })));
  const key = (rows: ReportsResult['trialBalanceRows']) => rows.map((r) => `${r.account_number}:${r.debit_total}:${r.credit_total}`).join(',');
  const same = sqlite.lines === postgres.lines && key(sqlite.trialBalanceRows) === key(postgres.trialBalanceRows);
  out.push('');
  out.push(`SQLite: ${sqlite.buildHow} ${sqlite.buildSeconds.toFixed(1)} s, ${fmt(sqlite.dbBytes / 1024 / 1024, 1)} MiB. PostgreSQL: `
    + `${postgres.buildHow} ${postgres.buildSeconds.toFixed(1)} s, ${fmt(postgres.dbBytes / 1024 / 1024, 1)} MiB. The all-time `
    + `trial balances the two servers answered ${same ? `are identical (all ${sqlite.trialBalanceRows.length} accounts)` : 'DIFFER'}.`);
  return `${out.join('\n')}\n`;
}

async function runPostgres(options: BenchOptions, dir: string, pinned: boolean, sqliteReports: ReportsResult | undefined):
  Promise<PgOutcome & { reports?: ReportsResult }> {
  const target = await openTarget(options, pinned ? options.pgCpu : undefined);
  const outcome: PgOutcome & { reports?: ReportsResult } = { target, postings: [], auth: undefined, baselines: [] };
  try {
    if (options.only.has('posting')) {
      for (const spec of postingSpecs(options)) {
        log(`PostgreSQL: posting ${options.entries} entries over HTTP, ${spec.label}, ${options.concurrency} clients`);
        outcome.postings.push(await runPgPosting(options, target, dir, spec));
      }
      log(`PostgreSQL: the reference, bare node:http on pg, ${options.entries} entries, ${options.concurrency} clients`);
      outcome.reference = await runPgReference(options, target);
    }
    if (options.only.has('auth')) {
      log(`PostgreSQL: authentication cost, ${options.authRequests} requests per pattern`);
      const name = `ledger_bench_${process.pid}_auth`;
      const url = await createDatabase(target.adminUrl, name);
      try {
        outcome.auth = await runAuth(options, dir, url);
      } finally {
        await dropDatabase(target.adminUrl, name);
      }
    }
    if (options.only.has('baseline')) {
      for (const [index, spec] of pgBaselineCases(options).entries()) {
        log(`bare PostgreSQL ${spec.label}`);
        outcome.baselines.push(await runPgBaseline(options, target, spec, index));
      }
    }
    if (options.only.has('bulk')) {
      log(`PostgreSQL: bulk loading: ${options.bulkLines} journal lines by import, then through the batch route`);
      outcome.bulk = await runBulk(options, dir, postgresBulkStore(target, pinned), true);
    }
    if (options.only.has('reports')) {
      log(`PostgreSQL: reports on a ledger of ${options.lines} journal lines`);
      let copyFrom: { path: string; built: BuiltLedger; existing?: boolean } | undefined = sqliteReports?.kept;
      if (options.pgBuild === 'copy' && copyFrom === undefined && options.reportsDb !== undefined) {
        // The ledger of --reports-db (the ten-million-line runs), copied as it is.
        copyFrom = { path: options.reportsDb, built: describeBuiltLedger(options.reportsDb), existing: true };
      } else if (options.pgBuild === 'copy' && copyFrom === undefined) {
        const path = join(dir, 'pg-source.db');
        log(`building the SQLite ledger to copy (${options.lines} lines, through the service)`);
        copyFrom = { path, built: await buildLedger(path, options.lines) };
      }
      const name = `ledger_bench_${process.pid}_reports`;
      const url = await createDatabase(target.adminUrl, name);
      try {
        outcome.reports = await runReports({ lines: options.lines, repeat: options.repeat, dir, keep: options.keep, postgresUrl: url,
          databaseBytes, copyFrom: options.pgBuild === 'copy' ? copyFrom : undefined,
          ownPids: () => (target.cluster ? clusterPids(target.cluster.postmasterPid) : []) });
      } finally {
        await dropDatabase(target.adminUrl, name);
      }
    }
  } finally {
    killRunningServers();
    if (options.keep && target.cluster) log('--keep: the PostgreSQL cluster is stopped and deleted all the same');
    await target.stop();
  }
  return outcome;
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date();
  const t0 = performance.now();
  const pinned = HAS_TASKSET && pinSelf(1);
  if (!pinned) log('taskset not found: server and load generator are not pinned; figures vary more');
  if (options.skipBuild) log('--skip-build: using dist/ as it is');
  else {
    log('building dist/ (tsc -p tsconfig.build.json)');
    await buildDist();
  }
  const idle = new OtherCpu([]);
  await sleep(1000);
  const background = idle.cores();
  if (background !== undefined && background > 0.2) {
    log(`WARNING: other processes use ${pct(background)} of a core; figures will not be representative`);
  }
  const dir = makeTempDir(options.dir);
  log(`temporary databases in ${dir}`);
  const onSignal = (signal: NodeJS.Signals) => {
    killRunningServers();
    if (!options.keep) removeDir(dir);
    process.stderr.write(`[bench] interrupted by ${signal}\n`);
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const postings: PostingResult[] = [];
  let bareHttp: HttpBaselineResult | undefined;
  let bulk: BulkResult | undefined;
  let startup: StartupResult | undefined;
  let auth: AuthResult | undefined;
  const baselines: BaselineResult[] = [];
  const probes: LatencySummary[] = [];
  let reports: ReportsResult | undefined;
  let interleaved: InterleavedResult | undefined;
  let reportsBefore: ReportsComparison | undefined;
  let pg: (PgOutcome & { reports?: ReportsResult }) | undefined;
  const sqlite = options.backend !== 'postgres';
  try {
    probes.push(fsyncProbe(dir));
    if (sqlite && options.only.has('posting')) {
      for (const mode of ['FULL', 'NORMAL'] as const) {
        log(`posting ${options.entries} entries over HTTP, synchronous=${mode}, ${options.concurrency} clients`);
        postings.push(await runPosting(options, dir, mode));
        if (mode !== 'FULL' || options.webhooks === 0) continue;
        // Issue 26's comparison: the plain FULL run above is its first run without endpoints.
        // Endpoints per run, ABBA; the first is the plain FULL run above.
        const order = abbaOrder(options.webhooks, 2 * options.webhookRuns);
        for (const [index, endpoints] of order.entries()) {
          if (index === 0) continue;
          const run: WebhookRun = { endpoints, order: index + 1 };
          log(`posting ${options.entries} entries over HTTP, synchronous=FULL, ${endpoints === 0 ? 'no webhook endpoints'
            : `${endpoints} active webhook endpoints`} (run ${run.order} of ${order.length})`);
          postings.push(await runPosting(options, dir, 'FULL', false, undefined, run));
        }
      }
      if (options.webhooks > 0 && options.webhookWindows > 0) {
        log(`issue 26, interleaved: ${options.webhookWindows} windows of ${options.webhookWindowEntries} posts in one server, `
          + `alternating without and with ${options.webhooks} webhook endpoints`);
        interleaved = await runInterleaved(options, dir);
      }
      if (options.profile) {
        log('posting again under node --cpu-prof (synchronous=FULL)');
        postings.push(await runPosting(options, dir, 'FULL', true));
        if (options.webhooks > 0) {
          log(`posting again under node --cpu-prof with ${options.webhooks} active webhook endpoints (synchronous=FULL)`);
          postings.push(await runPosting(options, dir, 'FULL', true, undefined, { endpoints: options.webhooks, order: 0 }));
        }
      }
      if (options.before) {
        const build: OtherBuild = { label: `before (${basename(options.before)})`, bin: join(options.before, 'bin', 'ledger.js') };
        log(`posting through the other build at ${options.before} (synchronous=FULL${options.profile ? ', then profiled' : ''})`);
        postings.push(await runPosting(options, dir, 'FULL', false, build));
        if (options.profile) postings.push(await runPosting(options, dir, 'FULL', true, build));
      }
    }
    if (sqlite && options.only.has('auth')) {
      log(`authentication cost, ${options.authRequests} requests per pattern`);
      auth = await runAuth(options, dir);
    }
    if (sqlite && options.only.has('sqlite')) {
      for (const [index, spec] of baselineCases(options).entries()) {
        log(`bare SQLite ${spec.label}`);
        baselines.push(runBaseline(options, dir, spec, index));
      }
    }
    if (sqlite && options.only.has('http')) {
      log(`bare node:http: ${options.entries} requests, ${options.concurrency} clients`);
      bareHttp = await runHttpBaseline(options);
    }
    if (sqlite && options.only.has('bulk')) {
      log(`bulk loading: ${options.bulkLines} journal lines by import, then through the batch route`);
      bulk = await runBulk(options, dir, sqliteBulkStore(dir));
    }
    if (sqlite && options.only.has('startup')) startup = runStartup(dir);
    if (sqlite && options.only.has('reports') && options.before !== undefined && options.reportsDb === undefined) {
      log(`reports on a ledger of ${options.lines} journal lines, built by the build at ${options.before}, served by it and by this one`);
      const compared = await reportsBeforeAfter(options.before, options.lines, options.repeat, dir, options.keep);
      reports = compared.after;
      reportsBefore = compared;
    } else if (sqlite && options.only.has('reports')) {
      log(`reports on a ledger of ${options.lines} journal lines`);
      reports = await runReports({ lines: options.lines, repeat: options.repeat, dir, keep: options.keep,
        keepDatabase: options.backend === 'both' && options.pgBuild === 'copy', existing: options.reportsDb });
    }
    if (options.backend !== 'sqlite') pg = await runPostgres(options, dir, pinned, reports);
    probes.push(fsyncProbe(dir));
  } finally {
    killRunningServers();
    if (options.keep) log(`kept ${dir}`);
    else removeDir(dir);
  }
  const output: string[] = [];
  const emit = (text: string) => {
    process.stdout.write(text);
    output.push(text);
  };
  emit(report(postings, auth, baselines, bareHttp, pinned, startedAt, (performance.now() - t0) / 1000, options.keep, probes, background, options.webhookCatchUpSeconds));
  if (interleaved) emit(`\n${interleavedSection(interleaved, options.webhookWindowEntries, options.concurrency)}\n`);
  if (bulk) emit(`\n${bulkMarkdown(bulk)}\n`);
  if (startup) emit(`\n${startupMarkdown(startup)}\n`);
  if (reports) emit(`\n${reportsMarkdown(reports)}\n`);
  if (reportsBefore) emit(`\n${reportsComparisonMarkdown(reportsBefore)}\n`);
  if (pg) {
    emit(`\n${pgReport(pg, pinned, options.keep, options.concurrency)}`);
    if (pg.bulk) emit(`\n${bulkMarkdown(pg.bulk)}\n`);
    if (pg.reports) emit(`\n${reportsMarkdown(pg.reports)}\n`);
    if (reports && pg.reports) emit(`\n${reportsComparison(reports, pg.reports)}`);
  }
  const allReports = [reports, pg?.reports].filter((r): r is ReportsResult => r !== undefined);
  if (postings.length > 0 || (pg?.postings.length ?? 0) > 0 || allReports.length > 0 || bulk || pg?.bulk || startup || bareHttp) {
    emit(`\n${goalsReport(postings, pg?.postings ?? [], allReports, bulk, pg?.bulk, startup,
      baselines.find((b) => b.bulk), { bareHttp, pg, sqlite, pinned, webhooks: options.webhooks, interleaved })}`);
  }
  if (options.write) {
    writeFileSync(options.write, `${generatedHeader(process.argv.slice(2))}\n${output.join('')}`);
    log(`wrote ${options.write}`);
  }
  return allReports.some((r) => r.mismatches.length > 0) ? 1 : 0;
}

main().then((code) => { process.exitCode = code; }, (error: unknown) => {
  process.stderr.write(`[bench] FAILED: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exitCode = 1;
});
