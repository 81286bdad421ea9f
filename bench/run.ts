/**
 * `npm run bench`: builds dist/, then runs in sequence
 *   1. posting through HTTP with synchronous=FULL (durable) and with NORMAL (bench/posting.ts),
 *   2. the cost of authentication (GET with an API key vs without),
 *   3. the bare better-sqlite3 baseline on the same machine (bench/sqlite-baseline.ts),
 *   4. every report on a ledger of 1,000,000 lines, against hledger (bench/reports.ts),
 * and prints a summary table (Markdown) on stdout; progress goes to stderr.
 * Options: `npm run bench -- --help`.
 */
import { cpus } from 'node:os';
import {
  buildDist, fmt, fsyncProbe, HAS_TASKSET, type LatencySummary, killRunningServers, log, makeTempDir, OtherCpu, parseOptions,
  pinSelf, removeDir, sleep, table,
} from './lib.js';
import { type AuthResult, type PostingResult, runAuth, runPosting } from './posting.js';
import { type ReportsResult, reportsMarkdown, runReports } from './reports.js';
import { type BaselineResult, baselineCases, runBaseline } from './sqlite-baseline.js';

const TARGET = 3000;

function ms(value: number): string {
  return fmt(value, 1);
}

function pct(cores: number | undefined): string {
  return cores === undefined ? 'n/a' : `${fmt(cores * 100)}%`;
}

function report(postings: PostingResult[], auth: AuthResult | undefined, baselines: BaselineResult[],
  pinned: boolean, startedAt: Date, totalSeconds: number, keep: boolean, probes: LatencySummary[],
  background: number | undefined): string {
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
  if (postings.length > 0) {
    out.push('');
    out.push(`### Posting two-line entries through HTTP (${options!.concurrency} concurrent keep-alive clients)`);
    out.push('');
    out.push(table(
      ['run', 'entries', 'seconds', 'entries/s', 'p50 ms', 'p99 ms', 'max ms', 'server CPU', 'client CPU', 'other CPU'],
      postings.map((r) => [
        `HTTP, synchronous=${r.mode}${r.profile ? ' (under --cpu-prof)' : ''}`, fmt(r.entries), r.seconds.toFixed(2),
        fmt(r.entriesPerSecond), ms(r.latency.p50), ms(r.latency.p99), ms(r.latency.max),
        r.serverCpu === undefined ? 'n/a' : `${fmt(r.serverCpu * 100)}%`, `${fmt(r.clientCpu * 100)}%`, pct(r.otherCpu),
      ])));
    out.push('');
    out.push('CPU columns: share of one core over the measured loop (server: all its threads; other: every other process '
      + 'on the machine, should be ~0%).');
    out.push('');
    for (const r of postings) out.push(`- ${r.mode}${r.profile ? ' (profiled)' : ''}: verification ${r.verified}`);
    const full = postings.find((r) => r.mode === 'FULL' && !r.profile);
    if (full) {
      out.push(`- Target ${fmt(TARGET)} entries/s with durable commits (FULL, WAL): `
        + `${full.entriesPerSecond >= TARGET ? 'MET' : 'NOT MET'} (${fmt(full.entriesPerSecond)} entries/s)`);
    }
  }
  if (auth) {
    out.push('');
    out.push(`### Cost of authentication (${fmt(auth.measurements[0]!.requests)} requests per pattern and round, `
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
  }
  if (baselines.length > 0) {
    out.push('');
    out.push('### Bare better-sqlite3, same rows as the adapter (no HTTP, no validation reads)');
    out.push('');
    out.push(table(['case', 'entries', 'seconds', 'entries/s', 'commits/s', 'other CPU'],
      baselines.map((b) => [b.label, fmt(b.entries), b.seconds.toFixed(2), fmt(b.entriesPerSecond), fmt(b.commitsPerSecond),
        pct(b.otherCpu)])));
  }
  if (postings.length > 0 && baselines.length > 0) {
    out.push('');
    out.push('### HTTP vs bare SQLite (same run)');
    out.push('');
    const rows: string[][] = [];
    for (const r of postings.filter((p) => !p.profile)) {
      for (const b of baselines.filter((x) => x.synchronous === r.mode)) {
        rows.push([`HTTP ${r.mode} / ${b.label}`, `${fmt(r.entriesPerSecond)} / ${fmt(b.entriesPerSecond)}`,
          (r.entriesPerSecond / b.entriesPerSecond).toFixed(2)]);
      }
    }
    out.push(table(['comparison', 'entries/s', 'ratio'], rows));
  }
  for (const r of postings) {
    if (!r.profile) continue;
    out.push('');
    out.push(`### Server CPU profile (synchronous=${r.mode}, whole server life, ${fmt(r.profile.totalMs)} ms sampled)`);
    out.push(`Profile: ${r.profile.file}${keep ? '' : ' (deleted with the temporary directory; pass --keep to keep it)'}`);
    out.push('');
    out.push(table(['module (self time)', 'ms', '%'],
      r.profile.modules.map((m) => [m.name, fmt(m.selfMs), fmt((m.selfMs / r.profile!.totalMs) * 100, 1)])));
    out.push('');
    out.push(table(['function (self time)', 'ms', '%'],
      r.profile.functions.map((f) => [f.name, fmt(f.selfMs), fmt((f.selfMs / r.profile!.totalMs) * 100, 1)])));
  }
  return `${out.join('\n')}\n`;
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
  let auth: AuthResult | undefined;
  const baselines: BaselineResult[] = [];
  const probes: LatencySummary[] = [];
  let reports: ReportsResult | undefined;
  try {
    probes.push(fsyncProbe(dir));
    if (options.only.has('posting')) {
      for (const mode of ['FULL', 'NORMAL'] as const) {
        log(`posting ${options.entries} entries over HTTP, synchronous=${mode}, ${options.concurrency} clients`);
        postings.push(await runPosting(options, dir, mode));
      }
      if (options.profile) {
        log('posting again under node --cpu-prof (synchronous=FULL)');
        postings.push(await runPosting(options, dir, 'FULL', true));
      }
    }
    if (options.only.has('auth')) {
      log(`authentication cost, ${options.authRequests} requests per pattern`);
      auth = await runAuth(options, dir);
    }
    if (options.only.has('sqlite')) {
      for (const [index, spec] of baselineCases(options).entries()) {
        log(`bare SQLite ${spec.label}`);
        baselines.push(runBaseline(options, dir, spec, index));
      }
    }
    if (options.only.has('reports')) {
      log(`reports on a ledger of ${options.lines} journal lines`);
      reports = await runReports({ lines: options.lines, repeat: options.repeat, dir, keep: options.keep });
    }
    probes.push(fsyncProbe(dir));
  } finally {
    killRunningServers();
    if (options.keep) log(`kept ${dir}`);
    else removeDir(dir);
  }
  process.stdout.write(report(postings, auth, baselines, pinned, startedAt, (performance.now() - t0) / 1000, options.keep, probes, background));
  if (reports) process.stdout.write(`\n${reportsMarkdown(reports)}\n`);
  return reports !== undefined && reports.mismatches.length > 0 ? 1 : 0;
}

main().then((code) => { process.exitCode = code; }, (error: unknown) => {
  process.stderr.write(`[bench] FAILED: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exitCode = 1;
});
