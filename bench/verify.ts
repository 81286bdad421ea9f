/**
 * `ledger verify` and `ledger backup` at scale: builds the reports benchmark's ledger (default
 * 1,000,000 lines: 500,000 two-line entries over ~200 accounts and 24 monthly periods, the first
 * 12 closed, see bench/reports.ts), reverses some entries of the open months, then
 *   1. runs the verification in this process, timing the scan of the entries and each check's
 *      final pass, with CPU time and memory,
 *   2. runs `ledger verify --json` as a user does (a child process), wall time and peak memory,
 *   3. runs `ledger backup` of the same file, and `ledger verify` on the copy,
 *   4. with --postgres: copies the ledger into a throw-away PostgreSQL cluster (the tests' one, see
 *      test/helpers/postgres.ts: needs the server programs, `apt-get install postgresql`) and
 *      verifies it there, in this process and with `ledger verify`.
 * Prints Markdown on stdout (progress on stderr), for docs/benchmarks.md.
 *
 * Run: `npx tsx bench/verify.ts [--lines N] [--reversals R] [--db FILE] [--dir D] [--keep] [--skip-build] [--postgres] [--write FILE]`.
 * With --db, a ledger already at FILE is reused (building one takes a minute or two); a missing
 * FILE is built there and kept.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { initLedger, openLedger, openStore } from '../src/app/open-ledger.js';
import { copyLedger } from '../src/service/copy-ledger.js';
import { verifyReads } from '../src/service/verify-ledger.js';
import type { CheckDefinition } from '../src/service/verify/check.js';
import { LEDGER_CHECKS } from '../src/service/verify/checks.js';
import { buildDist, fmt, generatedHeader, LEDGER_BIN, log, makeTempDir, OtherCpu, removeDir, ROOT, table } from './lib.js';
import { buildLedger } from './reports.js';

interface VerifyBenchOptions {
  lines: number;
  reversals: number;
  db: string | undefined;
  dir: string;
  keep: boolean;
  skipBuild: boolean;
  postgres: boolean;
  /** Also write the Markdown output to this file, headed by the command and the commit. */
  write: string | undefined;
}

interface ChildRun {
  seconds: number;
  maxRssMb: number | undefined;
  stdout: string;
  status: number | null;
}

function parseArgs(argv: string[]): VerifyBenchOptions {
  const options: VerifyBenchOptions = {
    lines: 1_000_000, reversals: 1000, db: undefined, dir: process.env.BENCH_DIR ?? tmpdir(), keep: false, skipBuild: false,
    postgres: false, write: undefined,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--lines') options.lines = Number(argv[++i]);
    else if (arg === '--reversals') options.reversals = Number(argv[++i]);
    else if (arg === '--db') options.db = argv[++i]!;
    else if (arg === '--dir') options.dir = argv[++i]!;
    else if (arg === '--keep') options.keep = true;
    else if (arg === '--skip-build') options.skipBuild = true;
    else if (arg === '--postgres') options.postgres = true;
    else if (arg === '--write') options.write = argv[++i]!;
    else throw new Error(`unknown option ${arg}`);
  }
  return options;
}

/** Builds the ledger, then reverses `reversals` entries spread over the open months (one write each). */
async function buildWithReversals(dbPath: string, lines: number, reversals: number): Promise<number> {
  const started = performance.now();
  process.env.LEDGER_SQLITE_SYNCHRONOUS = 'NORMAL';
  const built = await buildLedger(dbPath, lines);
  const service = await openLedger(dbPath);
  try {
    const actor = await service.authenticate(built.apiKey);
    const openPeriods = built.periods.slice(12);
    const perPeriod = Math.ceil(reversals / openPeriods.length);
    let reversed = 0;
    for (const periodId of openPeriods) {
      const page = await service.listJournalEntries({ period_id: periodId, limit: Math.min(200, perPeriod) });
      for (const entry of page.data) {
        if (reversed >= reversals) break;
        await service.reverseJournalEntry(actor, entry.id, {});
        reversed += 1;
      }
    }
    log(`reversed ${fmt(reversed)} entries`);
  } finally {
    await service.ctx.store.close();
    delete process.env.LEDGER_SQLITE_SYNCHRONOUS;
  }
  return (performance.now() - started) / 1000;
}

/** Each check's final pass, timed. */
function timedChecks(finishMs: Map<string, number>): CheckDefinition[] {
  return LEDGER_CHECKS.map((definition) => ({
    ...definition,
    create: (context) => {
      const check = definition.create(context);
      const finish = check.finish?.bind(check);
      if (finish === undefined) return check;
      return {
        ...check,
        finish: async () => {
          const started = performance.now();
          await finish();
          finishMs.set(definition.name, performance.now() - started);
        },
      };
    },
  }));
}

async function verifyInProcess(location: string) {
  const service = await openLedger(location);
  try {
    const finishMs = new Map<string, number>();
    let scanEndedMs = 0;
    let peakRssMb = process.memoryUsage().rss / 1048576;
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    const result = await service.ctx.store.read((reads) => verifyReads(reads, timedChecks(finishMs), (checked, total) => {
      peakRssMb = Math.max(peakRssMb, process.memoryUsage().rss / 1048576);
      if (checked === total) scanEndedMs = performance.now() - started;
      if (checked % 100_000 === 0) log(`verified ${fmt(checked)} of ${fmt(total)} entries`);
    }));
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpu0);
    peakRssMb = Math.max(peakRssMb, process.memoryUsage().rss / 1048576);
    return { result, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, scanSeconds: scanEndedMs / 1000, finishMs, peakRssMb };
  } finally {
    await service.ctx.store.close();
  }
}

const HAS_GNU_TIME = existsSync('/usr/bin/time');

/** Runs the compiled CLI as a child process; peak memory from GNU time when it is installed. */
function runCli(args: string[]): ChildRun {
  const command = HAS_GNU_TIME ? '/usr/bin/time' : process.execPath;
  const commandArgs = HAS_GNU_TIME ? ['-f', 'maxrss=%M', process.execPath, LEDGER_BIN, ...args] : [LEDGER_BIN, ...args];
  const started = performance.now();
  const child = spawnSync(command, commandArgs, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = (performance.now() - started) / 1000;
  const rss = /maxrss=(\d+)/.exec(child.stderr ?? '')?.[1];
  return { seconds, maxRssMb: rss === undefined ? undefined : Number(rss) / 1024, stdout: child.stdout, status: child.status };
}

/** The same ledger copied into a fresh PostgreSQL database, verified there. */
async function verifyOnPostgres(dbPath: string): Promise<string[][]> {
  const { startTestCluster, createTestDatabase } = await import('../test/helpers/postgres.js');
  const cluster = await startTestCluster();
  try {
    process.env.LEDGER_TEST_PG_URL ??= cluster.adminUrl;
    const database = await createTestDatabase();
    try {
      log('copying the ledger into PostgreSQL');
      const copyStarted = performance.now();
      await initLedger(database.url);
      const [source, target] = [await openStore(dbPath), await openStore(database.url)];
      try {
        await copyLedger(source, target);
      } finally {
        await source.close();
        await target.close();
      }
      const copySeconds = (performance.now() - copyStarted) / 1000;
      log(`copied in ${copySeconds.toFixed(0)} s; verifying on PostgreSQL`);
      const inProcess = await verifyInProcess(database.url);
      if (!inProcess.result.ok) throw new Error(`problems on PostgreSQL: ${JSON.stringify(inProcess.result.problems.slice(0, 3))}`);
      const cli = runCli(['--db', database.url, '--json', 'verify']);
      if (cli.status !== 0) throw new Error(`ledger verify on PostgreSQL exited ${cli.status}`);
      return [
        ['PostgreSQL: first verification after the copy, in-process', inProcess.seconds.toFixed(1),
          `CPU of this process ${inProcess.cpuSeconds.toFixed(1)} s (the server's not counted); copied in with \`ledger copy\` in ${copySeconds.toFixed(0)} s`],
        ['  scan of every entry', inProcess.scanSeconds.toFixed(1), ''],
        ['  daily_totals (final pass)', ((inProcess.finishMs.get('daily_totals') ?? 0) / 1000).toFixed(1), ''],
        ['PostgreSQL: `ledger verify --json` (the second run)', cli.seconds.toFixed(1), cli.maxRssMb === undefined ? '' : `peak RSS ${fmt(cli.maxRssMb)} MiB`],
      ];
    } finally {
      await database.drop();
    }
  } finally {
    await cluster.stop();
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (!options.skipBuild) await buildDist();
  const dir = makeTempDir(options.dir);
  const dbPath = options.db ?? join(dir, 'verify.db');
  try {
    let buildSeconds: number | undefined;
    if (!existsSync(dbPath)) {
      log(`building a ledger of ${fmt(options.lines)} lines in ${dbPath}`);
      buildSeconds = await buildWithReversals(dbPath, options.lines, options.reversals);
    }
    const other = new OtherCpu([]);
    log('verifying in this process');
    const inProcess = await verifyInProcess(dbPath);
    // Read now: the runs after this one are this benchmark's own child processes.
    const background = other.cores();
    if (!inProcess.result.ok) throw new Error(`the benchmark ledger has problems: ${JSON.stringify(inProcess.result.problems.slice(0, 3))}`);
    log(`verified in ${inProcess.seconds.toFixed(1)} s; now ledger verify --json`);
    const cli = runCli(['--db', dbPath, '--json', 'verify']);
    if (cli.status !== 0) throw new Error(`ledger verify exited ${cli.status}`);
    const backupPath = join(dir, 'backup.db');
    log('ledger backup');
    const backup = runCli(['--db', dbPath, '--json', 'backup', backupPath]);
    if (backup.status !== 0) throw new Error(`ledger backup exited ${backup.status}`);
    const backupSummary = JSON.parse(backup.stdout).data as { entries: number; bytes: number };
    const verifyCopy = runCli(['--db', backupPath, 'verify']);
    rmSync(backupPath, { force: true });
    const postgresRows = options.postgres ? await verifyOnPostgres(dbPath) : [];

    const { checked } = inProcess.result;
    const out: string[] = [];
    out.push(`### verify and backup on ${fmt(checked.lines)} journal lines`);
    out.push('');
    out.push(`${fmt(checked.entries)} entries (${fmt(options.reversals)} of them reversals) over ${checked.accounts} accounts and `
      + `${checked.periods} monthly periods, the first 12 closed; database ${fmt(statSync(dbPath).size / 1048576, 1)} MiB`
      + `${buildSeconds === undefined ? '' : `, built in ${buildSeconds.toFixed(0)} s`}. Other processes used `
      + `${background === undefined ? 'n/a' : `${fmt(background * 100)}% of a core`} on average during the in-process verification.`);
    out.push('');
    out.push(table(['run', 'seconds', 'notes'], [
      ['verification in-process (one snapshot)', inProcess.seconds.toFixed(1),
        `CPU ${inProcess.cpuSeconds.toFixed(1)} s; peak RSS ${fmt(inProcess.peakRssMb)} MiB`],
      ['  scan of every entry (entry checks, tally)', inProcess.scanSeconds.toFixed(1), 'listEntriesInPostingOrder, pages of 1,000'],
      ...[...inProcess.finishMs].map(([name, ms]) => [`  ${name} (final pass)`, (ms / 1000).toFixed(1), '']),
      ['`ledger verify --json` (child process)', cli.seconds.toFixed(1),
        cli.maxRssMb === undefined ? '' : `peak RSS ${fmt(cli.maxRssMb)} MiB; includes start-up`],
      ['`ledger backup` of the same file', backup.seconds.toFixed(1), `${fmt(backupSummary.bytes / 1048576, 1)} MiB, ${fmt(backupSummary.entries)} entries`],
      ['`ledger verify` on the backup', verifyCopy.seconds.toFixed(1), verifyCopy.status === 0 ? 'no problems' : `exit ${verifyCopy.status}`],
      ...postgresRows,
    ]));
    process.stdout.write(`${out.join('\n')}\n`);
    if (options.write) writeFileSync(options.write, `${generatedHeader(process.argv.slice(2), 'npx tsx bench/verify.ts')}\n${out.join('\n')}\n`);
  } finally {
    // With --db the ledger lives outside `dir`, which then holds only the backup.
    if (options.db !== undefined || !options.keep) removeDir(dir);
  }
}

await main();
