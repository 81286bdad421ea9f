/**
 * Reports at scale: builds a ledger of LINES journal lines (default 1,000,000: 500,000 two-line
 * entries) over ~200 accounts and 24 monthly periods, closes the first 12 periods, then times every
 * report and general-ledger pages deep in the history through the real HTTP server (p50/p99 over
 * repeated calls), watches the server's memory, and compares with hledger computing the same
 * balances from the same data exported as a journal (`ledger export --format hledger`).
 *
 * Run alone: `npx tsx bench/reports.ts [--lines N] [--repeat R] [--dir D] [--keep]`; `npm run bench`
 * runs it last (`npm run bench -- --only reports --lines 200000` for a quicker look).
 */
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { initLedger, openLedger } from '../src/app/open-ledger.js';
import type { Actor } from '../src/service/actor.js';
import { LOCAL_OPERATOR } from '../src/service/actor.js';
import type { LedgerService } from '../src/service/ledger-service.js';
import type { CreateEntryInput } from '../src/schemas/journal-entry.js';
import { startBareHttpServer } from './http-baseline.js';
import { copySqliteLedger } from './pg-copy.js';
import {
  Client, DEFAULT_REPORT_CALLS, type LatencySummary, fmt, ledgerCli, log, makeTempDir, OtherCpu, removeDir, startServer, stopServer,
  random, summarize, table,
} from './lib.js';

export interface ReportsOptions {
  lines: number;
  repeat: number;
  dir: string;
  keep: boolean;
  /**
   * Where to build the ledger: undefined for a SQLite file in a temporary folder, or the URL of an
   * empty PostgreSQL database (its server should be pinned to the same CPU as `ledger serve`).
   */
  postgresUrl?: string | undefined;
  /** Measure the size of the PostgreSQL database (pg_database_size). */
  databaseBytes?: ((url: string) => Promise<number>) | undefined;
  /**
   * PostgreSQL only: instead of building through the service, copy this SQLite ledger (built by
   * buildLedger with the same number of lines) row for row (bench/pg-copy.ts).
   */
  copyFrom?: { path: string; built: BuiltLedger; existing?: boolean } | undefined;
  /** More processes of our own whose CPU is not "other" (the PostgreSQL cluster). */
  ownPids?: (() => number[]) | undefined;
  /** Leave the SQLite ledger on disk (under `dir`) and return its path, e.g. to copy it to PostgreSQL. */
  keepDatabase?: boolean | undefined;
  /**
   * An existing SQLite ledger made by buildLedger (bench/verify.ts --db FILE keeps one) to run the
   * reports on instead of building one; it is left in place, and hledger is not run over it.
   */
  existing?: string | undefined;
  /** Another build's `ledger` program (see --before): it serves the reports and makes their API key. */
  bin?: string | undefined;
  /** How `existing` was made, when not by buildLedger of this build (the --before comparison). */
  existingHow?: string | undefined;
}

export interface ReportTiming {
  name: string;
  latency: LatencySummary;
  bytes: number;
}

export interface ReportsResult {
  /** 'SQLite' or 'PostgreSQL'. */
  store: string;
  lines: number;
  entries: number;
  accounts: number;
  periods: number;
  buildSeconds: number;
  dbBytes: number;
  timings: ReportTiming[];
  rssBeforeMb: number;
  rssAfterMb: number;
  /** CPU used during the timed calls by processes other than the server, the benchmark (and `ownPids`), in cores. */
  otherCpu: number | undefined;
  exportSeconds: number;
  journalBytes: number;
  hledgerSeconds: number | undefined;
  hledgerAccounts: number;
  mismatches: string[];
  /** How the ledger was made, followed by its time in seconds ("built through the service in"). */
  buildHow: string;
  /** The SQLite ledger and what was built, when keepDatabase was asked. */
  kept?: { path: string; built: BuiltLedger } | undefined;
  /** The all-time trial balance's rows, for comparing two stores built from the same seed. */
  trialBalanceRows: TrialBalanceRow[];
  /** The reference: a bare node:http server's GET, timed the same way on the same core (the floor of one request). */
  floor: ReportTiming;
}

export interface TrialBalanceRow {
  account_number: string;
  debit_total: string;
  credit_total: string;
}


const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

interface Chart {
  debitSide: string[];
  creditSide: string[];
  busiest: string;
  control: string;
  all: number;
}

async function buildChart(service: LedgerService, actor: Actor, currencyId: string): Promise<Chart> {
  const open = async (number: string, name: string, account_type: 'asset' | 'liability' | 'equity' | 'revenue' | 'expense',
    normal_balance: 'debit' | 'credit', extra: object = {}) =>
    (await service.createAccount(actor, { account_number: number, name, currency_id: currencyId, account_type, normal_balance, ...extra })).id;
  const assets: string[] = [];
  for (let i = 0; i < 40; i += 1) assets.push(await open(`1${String(i).padStart(3, '0')}`, `Asset ${i}`, 'asset', 'debit'));
  const control = await open('1900', 'Receivables', 'asset', 'debit', { has_subledger: true });
  const customers: string[] = [];
  for (let i = 0; i < 20; i += 1) {
    customers.push((await service.createAccount(actor, {
      account_number: `1900-${String(i).padStart(2, '0')}`, name: `Customer ${i}`, parent_id: control, entity_id: `customer-${i}`,
    })).id);
  }
  const liabilities: string[] = [];
  for (let i = 0; i < 20; i += 1) liabilities.push(await open(`2${String(i).padStart(3, '0')}`, `Liability ${i}`, 'liability', 'credit'));
  const retained = await open('3000', 'Retained earnings', 'equity', 'credit');
  for (let i = 1; i < 10; i += 1) await open(`3${String(i).padStart(3, '0')}`, `Equity ${i}`, 'equity', 'credit');
  const revenue: string[] = [];
  for (let i = 0; i < 40; i += 1) revenue.push(await open(`4${String(i).padStart(3, '0')}`, `Revenue ${i}`, 'revenue', 'credit'));
  const expenses: string[] = [];
  for (let i = 0; i < 70; i += 1) expenses.push(await open(`6${String(i).padStart(3, '0')}`, `Expense ${i}`, 'expense', 'debit'));
  await service.updateSettings(actor, { retained_earnings_account_id: retained });
  return {
    debitSide: [...assets, ...customers, ...expenses],
    creditSide: [...revenue, ...liabilities],
    busiest: assets[0]!,
    control,
    all: 40 + 1 + 20 + 20 + 10 + 40 + 70,
  };
}

function monthBounds(index: number): { name: string; start: string; end: string } {
  const year = 2025 + Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const mm = String(month).padStart(2, '0');
  return { name: `${year}-${mm}`, start: `${year}-${mm}-01`, end: `${year}-${mm}-${String(last).padStart(2, '0')}` };
}

export interface BuiltLedger {
  entries: number;
  /** Journal lines, when not twice the entries (a ledger with reversals, read back by describeBuiltLedger). */
  lines?: number | undefined;
  chart: Chart;
  periods: string[];
  apiKey: string;
  seconds: number;
}

/** Builds the deterministic ledger through the service at a location (a SQLite path or a PostgreSQL URL). */
export async function buildLedger(dbPath: string, lines: number): Promise<BuiltLedger> {
  const started = performance.now();
  await initLedger(dbPath);
  const service = await openLedger(dbPath);
  try {
    const currency = await service.createFiatCurrency(LOCAL_OPERATOR, 'USD');
    const chart = await buildChart(service, LOCAL_OPERATOR, currency.id);
    const periods: string[] = [];
    for (let i = 0; i < 24; i += 1) {
      const month = monthBounds(i);
      periods.push((await service.createPeriod(LOCAL_OPERATOR, { name: month.name, start_date: month.start, end_date: month.end })).id);
    }
    const key = await service.createServiceAccount(null, { name: 'bench' });
    const actor = await service.authenticate(key.api_key);
    const next = random(20261122);
    const entries = Math.floor(lines / 2);
    const batch = 5000;
    // Entries are posted month by month so that the first 12 months can be closed in order.
    const perMonth = Math.ceil(entries / 24);
    let posted = 0;
    for (let month = 0; month < 24 && posted < entries; month += 1) {
      const bounds = monthBounds(month);
      const lastDay = Number(bounds.end.slice(8));
      let left = Math.min(perMonth, entries - posted);
      while (left > 0) {
        const size = Math.min(batch, left);
        const inputs: CreateEntryInput[] = [];
        for (let i = 0; i < size; i += 1) {
          const day = String(1 + Math.floor(next() * lastDay)).padStart(2, '0');
          const amount = String(1 + Math.floor(next() * 1_000_000));
          inputs.push({
            entry_date: `${bounds.start.slice(0, 8)}${day}`,
            description: `Bench entry ${posted + i}`,
            lines: [
              { account_id: next() < 0.2 ? chart.busiest : pick(next, chart.debitSide), debit_amount: amount },
              { account_id: pick(next, chart.creditSide), credit_amount: amount },
            ],
          });
        }
        await service.postJournalEntries(actor, inputs);
        posted += size;
        left -= size;
      }
      log(`built ${bounds.name}: ${fmt(posted)} entries`);
      if (month < 12) await service.closePeriod(actor, periods[month]!, false);
    }
    return { entries: posted, chart, periods, apiKey: key.api_key, seconds: (performance.now() - started) / 1000 };
  } finally {
    await service.ctx.store.close();
  }
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : NaN;
}

async function timeRequest(client: Client, path: string, repeat: number): Promise<{ latency: LatencySummary; bytes: number; body: any }> {
  const latencies = new Float64Array(repeat);
  let last = '';
  for (let i = 0; i < repeat + 3; i += 1) {
    const started = performance.now();
    const response = await client.request('GET', path);
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${response.body.slice(0, 300)}`);
    if (i >= 3) latencies[i - 3] = elapsed; // the first three warm caches and are not counted
    last = response.body;
  }
  return { latency: summarize(latencies), bytes: Buffer.byteLength(last), body: JSON.parse(last) };
}

/**
 * The same client and loop against bench/bare-http-server.mjs, started on the ledger server's core:
 * a GET answered at once with a body the size of an account balance. Its latency is what any
 * request costs here before the ledger does anything (the round trip across cores, the event
 * loops, the scheduler's pauses).
 */
async function timeFloor(repeat: number): Promise<ReportTiming> {
  const server = await startBareHttpServer();
  const client = new Client(server.baseUrl, 1, 'tsk_bench');
  try {
    const { latency, bytes } = await timeRequest(client, '/floor', repeat);
    return { name: 'reference: bare node:http GET, same client and core', latency, bytes };
  } finally {
    client.close();
    await stopServer(server);
  }
}

/** hledger's balance of every account, in minor units (its journal shows major units). */
const HAS_HLEDGER = spawnSync('which', ['hledger'], { stdio: 'ignore' }).status === 0;

function hledgerBalances(journal: string): { seconds: number; balances: Map<string, bigint> } | undefined {
  if (!HAS_HLEDGER) return undefined;
  const started = performance.now();
  const result = spawnSync('hledger', ['-f', journal, 'bal', '-O', 'csv', '--no-total', '-E'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`hledger failed: ${result.stderr}`);
  const balances = new Map<string, bigint>();
  for (const line of result.stdout.trim().split('\n').slice(1)) {
    const match = /^"(.*)","(.*)"$/.exec(line);
    if (!match) continue;
    const amount = match[2]!.replace(/[^0-9.-]/g, '');
    const [whole = '0', fraction = ''] = amount.replace('-', '').split('.');
    const minor = BigInt(whole + fraction.padEnd(2, '0')) * (amount.startsWith('-') ? -1n : 1n);
    balances.set(match[1]!.split(':').pop()!.split(' ')[0]!, minor);
  }
  return { seconds, balances };
}

/**
 * What the report calls need from a ledger buildLedger made earlier, read back from its file, and a
 * new API key for them (the chart's account numbers are buildChart's).
 */
export function describeBuiltLedger(dbPath: string, bin?: string): BuiltLedger {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const account = (number: string) =>
      (db.prepare('SELECT id FROM accounts WHERE account_number = ?').get(number) as { id: string } | undefined)?.id
      ?? fail(`${dbPath} has no account ${number}: not a ledger made by buildLedger`);
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const periods = (db.prepare('SELECT id FROM periods ORDER BY start_date').all() as { id: string }[]).map((row) => row.id);
    const out = ledgerCli(dbPath, ['--json', 'users', 'create-service-account', '--name', 'bench reports'], bin);
    return {
      entries: count('journal_entries'), lines: count('journal_lines'), periods, apiKey: JSON.parse(out).data.api_key, seconds: NaN,
      chart: { busiest: account('1000'), control: account('1900'), all: count('accounts'), debitSide: [], creditSide: [] },
    };
  } finally {
    db.close();
  }
}

function fail(message: string): never {
  throw new Error(message);
}

export async function runReports(options: ReportsOptions): Promise<ReportsResult> {
  const dir = makeTempDir(options.dir);
  const dbPath = options.postgresUrl ?? options.existing ?? join(dir, 'reports.db');
  const store = options.postgresUrl === undefined ? 'SQLite' : 'PostgreSQL';
  try {
    log(`building a ledger of ${fmt(options.lines)} lines in ${store === 'SQLite' ? dbPath : `PostgreSQL ${dbPath}`}`);
    let built: BuiltLedger;
    let buildHow = 'built through the service in';
    if (options.existing) {
      built = describeBuiltLedger(options.existing, options.bin);
      buildHow = options.existingHow ?? 'an existing ledger built through the service (--reports-db), not in this run';
    } else if (options.copyFrom && options.postgresUrl) {
      const copied = await copySqliteLedger(options.copyFrom.path, options.postgresUrl);
      built = { ...options.copyFrom.built, seconds: copied.seconds };
      buildHow = `copied row for row (${fmt(copied.rows)} rows, bench/pg-copy.ts) from the SQLite ledger built through the service`
        + `${options.copyFrom.existing ? ' earlier (--reports-db), not in this run' : ''}; the copy took`;
    } else {
      built = await buildLedger(dbPath, options.lines);
      log(`built in ${built.seconds.toFixed(1)} s`);
    }
    const server = await startServer(dbPath, { LEDGER_LOG_LEVEL: 'warn' }, 0, [], options.bin);
    const client = new Client(server.baseUrl, 1, built.apiKey);
    const timings: ReportTiming[] = [];
    let rssBeforeMb = NaN;
    let rssAfterMb = NaN;
    let otherCpu: number | undefined;
    let trialBalance: any;
    try {
      rssBeforeMb = rssMb(server.pid);
      const others = new OtherCpu([server.pid, ...(options.ownPids?.() ?? [])]);
      const midPeriod = built.periods[17]!;
      const closedPeriod = built.periods[5]!;
      const account = built.chart.busiest;
      const cases: [string, string][] = [
        ['trial balance, all time', '/api/v1/reports/trial-balance'],
        ['trial balance, one period', `/api/v1/reports/trial-balance?period_id=${midPeriod}`],
        ['balance sheet, as of a mid-period date', '/api/v1/reports/balance-sheet?as_of_date=2026-06-15'],
        ['balance sheet, through a period', `/api/v1/reports/balance-sheet?period_id=${midPeriod}`],
        ['income statement, closed period', `/api/v1/reports/income-statement?period_id=${closedPeriod}`],
        ['income statement, all time', '/api/v1/reports/income-statement'],
        ['income statement, one month by dates', '/api/v1/reports/income-statement?start_date=2026-03-01&end_date=2026-03-31'],
        ['income statement, days inside a period (5th-25th)', '/api/v1/reports/income-statement?start_date=2026-03-05&end_date=2026-03-25'],
        ['income statement, year to date by month', '/api/v1/reports/income-statement?start_date=2026-01-01&end_date=2026-06-20&columns=month'],
        ['account balance (busiest account)', `/api/v1/accounts/${account}/balance`],
        ['general ledger, first page (busiest, 50 lines)', `/api/v1/reports/general-ledger?account_id=${account}`],
        ['general ledger, page deep in history (from 2026-09-14)', `/api/v1/reports/general-ledger?account_id=${account}&start_date=2026-09-14`],
        ['general ledger, newest first', `/api/v1/reports/general-ledger?account_id=${account}&sort=desc&limit=200`],
        ['general ledger, control account (20 sub-accounts)', `/api/v1/reports/general-ledger?account_id=${built.chart.control}&start_date=2026-06-01`],
        // Finding entries (docs/api.md, "Finding entries"): a rare word, a word every entry has,
        // an amount range, and a reference no entry has.
        ['find entries, rare words (q=entry 123456)', '/api/v1/journal-entries?q=entry%20123456'],
        ['find entries, a word of every entry (q=bench), newest first', '/api/v1/journal-entries?q=bench&sort=desc'],
        ['find entries, amount range (min_amount=500000&max_amount=500100)', '/api/v1/journal-entries?min_amount=500000&max_amount=500100'],
        ['find entries, unknown reference', '/api/v1/journal-entries?reference=INV-0000'],
      ];
      for (const [name, path] of cases) {
        const { latency, bytes, body } = await timeRequest(client, path, options.repeat);
        if (name === 'trial balance, all time') trialBalance = body.data;
        if (name.startsWith('general ledger, page deep')) {
          // The next page through the cursor, which carries the running balance.
          const second = await timeRequest(client, `${path}&cursor=${encodeURIComponent(body.data.next_cursor)}`, options.repeat);
          timings.push({ name, latency, bytes }, { name: 'general ledger, the following page (cursor)', latency: second.latency, bytes: second.bytes });
          continue;
        }
        timings.push({ name, latency, bytes });
        log(`${name}: p50 ${latency.p50.toFixed(1)} ms`);
      }
      rssAfterMb = rssMb(server.pid);
      otherCpu = others.cores();
    } finally {
      client.close();
      await stopServer(server);
    }
    const floor = await timeFloor(options.repeat);
    log(`${floor.name}: p50 ${floor.latency.p50.toFixed(2)} ms, p99 ${floor.latency.p99.toFixed(2)} ms`);

    // The export only feeds hledger: skip both when hledger is not installed.
    const journal = join(dir, 'ledger.journal');
    let exportSeconds = NaN;
    let hledger: ReturnType<typeof hledgerBalances>;
    // Not over an existing ledger (or a copy of one): at ten million lines hledger alone takes many minutes.
    if (HAS_HLEDGER && !options.existing && !options.copyFrom?.existing) {
      log('exporting the ledger as an hledger journal');
      const exportStarted = performance.now();
      ledgerCli(dbPath, ['export', '--format', 'hledger', '--out', journal]);
      exportSeconds = (performance.now() - exportStarted) / 1000;
      log(`exported in ${exportSeconds.toFixed(1)} s; running hledger bal`);
      hledger = hledgerBalances(journal);
    }
    const mismatches: string[] = [];
    if (hledger) {
      for (const row of trialBalance.rows as { account_number: string; debit_total: string; credit_total: string }[]) {
        const ours = BigInt(row.debit_total) - BigInt(row.credit_total);
        const theirs = hledger.balances.get(row.account_number) ?? 0n;
        if (ours !== theirs) mismatches.push(`${row.account_number}: ledger ${ours}, hledger ${theirs}`);
      }
    }
    return {
      store,
      lines: built.lines ?? built.entries * 2,
      entries: built.entries,
      accounts: built.chart.all,
      periods: built.periods.length,
      buildSeconds: built.seconds,
      buildHow,
      kept: options.keepDatabase && options.postgresUrl === undefined ? { path: dbPath, built } : undefined,
      dbBytes: options.postgresUrl === undefined ? statSync(dbPath).size
        : await (options.databaseBytes?.(options.postgresUrl) ?? Promise.resolve(NaN)),
      timings,
      rssBeforeMb,
      rssAfterMb,
      otherCpu,
      exportSeconds,
      journalBytes: hledger ? statSync(journal).size : NaN,
      hledgerSeconds: hledger?.seconds,
      hledgerAccounts: hledger?.balances.size ?? 0,
      mismatches,
      trialBalanceRows: (trialBalance.rows as TrialBalanceRow[]).map(({ account_number, debit_total, credit_total }) =>
        ({ account_number, debit_total, credit_total })),
      floor,
    };
  } finally {
    if (!options.keep && !options.keepDatabase) removeDir(dir);
  }
}

export function reportsMarkdown(result: ReportsResult): string {
  const out: string[] = [];
  out.push(`### Reports on ${fmt(result.lines)} journal lines (${result.store})`);
  out.push('');
  out.push(`${fmt(result.entries)} entries (two lines each, closing entries more) over ${result.accounts} accounts (one control account with 20 sub-accounts) `
    + `and ${result.periods} monthly periods, the first 12 closed; ${result.buildHow}`
    + `${Number.isNaN(result.buildSeconds) ? '' : ` ${result.buildSeconds.toFixed(1)} s`} `
    + `(the service posts batches of 5,000 entries per transaction); ${result.store === 'SQLite' ? 'database' : 'PostgreSQL database'} `
    + `${fmt(result.dbBytes / 1024 / 1024, 1)} MiB. Each request is timed `
    + 'through HTTP by one keep-alive client, after three warm-up calls.');
  out.push('');
  out.push(table(['request', 'p50 ms', 'p99 ms', 'max ms', 'response KiB'], [...result.timings, result.floor].map((timing) => [
    timing.name, timing.latency.p50.toFixed(1), timing.latency.p99.toFixed(1), timing.latency.max.toFixed(1), fmt(timing.bytes / 1024, 1),
  ])));
  out.push('');
  out.push(`The reference row is a bare \`node:http\` server (bench/bare-http-server.mjs) on the ledger server's core, answering a GET `
    + 'at once with a body the size of an account balance, timed by the same client in the same loop: no request here can be faster.');
  out.push('');
  out.push(`Server memory (RSS): ${fmt(result.rssBeforeMb, 0)} MiB before the reports, ${fmt(result.rssAfterMb, 0)} MiB after. `
    + `Other processes used ${result.otherCpu === undefined ? 'n/a' : `${fmt(result.otherCpu * 100)}%`} of a core during the timed calls.`);
  out.push('');
  const slowest = Math.max(...result.timings.map((timing) => timing.latency.p50));
  if (result.hledgerSeconds === undefined) {
    out.push(HAS_HLEDGER ? 'hledger was not run over an existing ledger (--reports-db).'
      : 'hledger is not installed: no comparison (apt-get install hledger).');
  } else {
    out.push(`hledger: \`ledger export --format hledger\` wrote ${fmt(result.journalBytes / 1024 / 1024, 1)} MiB in `
      + `${result.exportSeconds.toFixed(1)} s; \`hledger bal\` over it took ${result.hledgerSeconds.toFixed(2)} s `
      + `(${fmt((result.hledgerSeconds * 1000) / slowest, 0)}× the slowest report's p50 here). `
      + (result.mismatches.length === 0
        ? `Its balances of all ${result.hledgerAccounts} accounts equal the trial balance's.`
        : `MISMATCHES: ${result.mismatches.slice(0, 5).join('; ')}`));
  }
  return out.join('\n');
}

function parseArgs(argv: string[]): ReportsOptions {
  const options: ReportsOptions = { lines: 1_000_000, repeat: DEFAULT_REPORT_CALLS, dir: process.env.BENCH_DIR ?? tmpdir(), keep: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--lines') options.lines = Number(argv[++i]);
    else if (arg === '--repeat') options.repeat = Number(argv[++i]);
    else if (arg === '--dir') options.dir = argv[++i]!;
    else if (arg === '--keep') options.keep = true;
    else throw new Error(`unknown option ${arg}`);
  }
  return options;
}

if (process.argv[1]?.endsWith('reports.ts')) {
  const result = await runReports(parseArgs(process.argv.slice(2)));
  process.stdout.write(`${reportsMarkdown(result)}\n`);
  if (result.mismatches.length > 0) process.exitCode = 1;
}

