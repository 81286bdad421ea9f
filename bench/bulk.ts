/**
 * Bulk loading, on fresh SQLite ledgers (a currency, four accounts, one open period, made through
 * the CLI), of the same deterministic two-line entries (dates across the period, seeded amounts):
 *   a. `ledger journal-entries import FILE` of a JSON-lines file, the CLI pinned to CPU 0 under
 *      /usr/bin/time (wall time, peak RSS, CPU);
 *   b. `POST /api/v1/journal-entries/batch` to `ledger serve`, by one client and by four.
 * Each run then checks the entry and line counts and every account's totals against what was
 * generated, and throws on any difference.
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import {
  type BenchOptions, Client, closedLoop, fmt, type LatencySummary, LEDGER_BIN, ledgerCli, log, OtherCpu, pct, pinned, processCpuSeconds,
  random, ROOT, startServer, stopServer, summarize, table,
} from './lib.js';
import { prepareDatabase } from './posting.js';

export interface BulkImportResult {
  lines: number;
  entries: number;
  fileBytes: number;
  seconds: number;
  linesPerSecond: number;
  /** Peak RSS of the CLI process, from /usr/bin/time; undefined without it. */
  peakRssBytes: number | undefined;
  /** CPU seconds (user + system) of the CLI process, from /usr/bin/time. */
  cpuSeconds: number | undefined;
  /** CPU used by other processes during the import, in cores (needs the CLI's own CPU from /usr/bin/time). */
  otherCpu: number | undefined;
  verified: string;
}

export interface BatchRunResult {
  clients: number;
  batch: number;
  requests: number;
  lines: number;
  seconds: number;
  linesPerSecond: number;
  /** Latency of one request (one batch). */
  latency: LatencySummary;
  serverCpu: number | undefined;
  otherCpu: number | undefined;
  verified: string;
}

export interface BulkResult {
  import: BulkImportResult;
  batches: BatchRunResult[];
}

const ACCOUNTS = [
  { number: '1000', name: 'Cash', type: 'asset', normal: 'debit' },
  { number: '1100', name: 'Bank', type: 'asset', normal: 'debit' },
  { number: '4000', name: 'Sales', type: 'revenue', normal: 'credit' },
  { number: '6000', name: 'Expenses', type: 'expense', normal: 'debit' },
];
const PERIOD = { name: 'FY2026', start: '2026-01-01', end: '2026-12-31', days: 365 };
const SEED = 20261112;
const TIME = '/usr/bin/time';
const HAS_TIME = existsSync(TIME);

interface BulkLedger {
  db: string;
  apiKey: string;
  accountIds: string[];
}

/** A fresh ledger with an admin API key, USD, the accounts and the open period, all through the CLI. */
function makeLedger(db: string): BulkLedger {
  const apiKey = prepareDatabase(db);
  ledgerCli(db, ['currencies', 'create-fiat', 'USD']);
  const accountIds = ACCOUNTS.map((a) => (JSON.parse(ledgerCli(db, ['--json', 'accounts', 'create', '--number', a.number,
    '--name', a.name, '--currency', 'USD', '--type', a.type, '--normal-balance', a.normal])) as { data: { id: string } }).data.id);
  ledgerCli(db, ['periods', 'create', '--name', PERIOD.name, '--start', PERIOD.start, '--end', PERIOD.end]);
  return { db, apiKey, accountIds };
}

/** Debits and credits per account (index in ACCOUNTS), in minor units; exact as numbers (< 2^53 at any size run here). */
interface Totals {
  debit: number[];
  credit: number[];
}

function noTotals(): Totals {
  return { debit: ACCOUNTS.map(() => 0), credit: ACCOUNTS.map(() => 0) };
}

function addTotals(into: Totals, from: Totals): void {
  for (let i = 0; i < ACCOUNTS.length; i++) {
    into.debit[i]! += from.debit[i]!;
    into.credit[i]! += from.credit[i]!;
  }
}

/**
 * The `count` entries every run posts, the same each run (two different accounts, a day of the
 * period, 0.01 to 10,000.00), each with the indexes of its accounts and its amount.
 */
function* bulkEntries(accountIds: string[], count: number) {
  const next = random(SEED);
  const start = Date.parse(`${PERIOD.start}T00:00:00Z`);
  for (let n = 1; n <= count; n++) {
    const debit = Math.floor(next() * accountIds.length);
    let credit = Math.floor(next() * (accountIds.length - 1));
    if (credit >= debit) credit += 1;
    const amount = 1 + Math.floor(next() * 1_000_000);
    const day = Math.floor(next() * PERIOD.days);
    const entry = {
      entry_date: new Date(start + day * 86_400_000).toISOString().slice(0, 10),
      description: `Bulk entry ${n}`,
      lines: [
        { account_id: accountIds[debit]!, debit_amount: String(amount) },
        { account_id: accountIds[credit]!, credit_amount: String(amount) },
      ],
    };
    yield { entry, debit, credit, amount };
  }
}

function addEntry(totals: Totals, item: { debit: number; credit: number; amount: number }): void {
  totals.debit[item.debit]! += item.amount;
  totals.credit[item.credit]! += item.amount;
}

/** Writes the entries as JSON lines, in large writes; returns their totals. */
function writeImportFile(path: string, accountIds: string[], entries: number): Totals {
  const totals = noTotals();
  const fd = openSync(path, 'w');
  try {
    let chunk: string[] = [];
    for (const item of bulkEntries(accountIds, entries)) {
      addEntry(totals, item);
      chunk.push(JSON.stringify(item.entry));
      if (chunk.length === 5000) {
        writeSync(fd, `${chunk.join('\n')}\n`);
        chunk = [];
      }
    }
    if (chunk.length > 0) writeSync(fd, `${chunk.join('\n')}\n`);
  } finally {
    closeSync(fd);
  }
  return totals;
}

function expectEqual(what: string, actual: unknown, expected: unknown): void {
  if (actual !== expected) throw new Error(`VERIFICATION FAILED: ${what}: expected ${String(expected)}, got ${String(actual)}`);
}

interface TrialBalance {
  rows: { account_id: string; debit_total: string; credit_total: string }[];
  totals: { debit_total: string; credit_total: string }[];
}

/** Every account's debit and credit totals and the ledger's totals, against what was posted. */
function checkTrialBalance(where: string, tb: TrialBalance, accountIds: string[], expected: Totals): string {
  accountIds.forEach((id, i) => {
    const row = tb.rows.find((r) => r.account_id === id);
    expectEqual(`${where}: debits of ${ACCOUNTS[i]!.name}`, row?.debit_total ?? '0', String(expected.debit[i]));
    expectEqual(`${where}: credits of ${ACCOUNTS[i]!.name}`, row?.credit_total ?? '0', String(expected.credit[i]));
  });
  const sum = String(expected.debit.reduce((a, b) => a + b, 0));
  expectEqual(`${where}: currencies in the totals`, tb.totals.length, 1);
  expectEqual(`${where}: total debits`, tb.totals[0]!.debit_total, sum);
  expectEqual(`${where}: total credits`, tb.totals[0]!.credit_total, sum);
  return `${sum} minor units on both sides, every account as generated`;
}

/** Entries and lines in the file, read-only (also while a server has it open: WAL). */
function checkCounts(where: string, db: string, entries: number): string {
  const reader = new Database(db, { readonly: true, fileMustExist: true });
  try {
    const rows = (name: string) => (reader.prepare(`SELECT COUNT(*) AS n FROM ${name}`).get() as { n: number }).n;
    expectEqual(`${where}: journal entries`, rows('journal_entries'), entries);
    expectEqual(`${where}: journal lines`, rows('journal_lines'), entries * 2);
  } finally {
    reader.close();
  }
  return `${fmt(entries)} entries, ${fmt(entries * 2)} lines`;
}

/** Run a: the CLI import of a JSON-lines file. */
async function runImport(options: BenchOptions, dir: string): Promise<BulkImportResult> {
  const entries = options.bulkLines / 2;
  const ledger = makeLedger(join(dir, 'bulk-import.db'));
  const file = join(dir, 'bulk-import.jsonl');
  log(`bulk: writing ${fmt(entries)} entries to ${file}`);
  const expected = writeImportFile(file, ledger.accountIds, entries);
  const fileBytes = statSync(file).size;
  const timeFile = join(dir, 'bulk-import.time');
  const cli = pinned(0, process.execPath, [LEDGER_BIN, '--db', ledger.db, '--json', 'journal-entries', 'import', file]);
  // %e wall seconds, %M peak RSS in KiB, %U + %S CPU seconds; -o keeps them apart from the CLI's own stderr.
  const [command, args] = HAS_TIME ? [TIME, ['-f', '%e %M %U %S', '-o', timeFile, ...cli.flat()]] : cli;
  if (!HAS_TIME) log(`bulk: ${TIME} not found: wall time measured here, no peak RSS`);
  log(`bulk: ledger journal-entries import of ${fmt(options.bulkLines)} lines`);
  const others = new OtherCpu([]);
  const t0 = performance.now();
  const run = spawnSync(command, args, {
    cwd: ROOT, env: { ...process.env, LEDGER_API_KEY: ledger.apiKey }, encoding: 'utf8', maxBuffer: 16 << 20, timeout: 3_600_000,
  });
  const elapsed = (performance.now() - t0) / 1000;
  const otherAndCli = others.cores();
  if (run.status !== 0) {
    throw new Error(`ledger journal-entries import failed (${run.error?.message ?? `exit ${run.status}`}):\n${run.stderr.slice(-3000)}`);
  }
  expectEqual('import: entries it reports', (JSON.parse(run.stdout) as { data: { imported: number } }).data.imported, entries);
  // The last line: on a failure GNU time writes "Command exited with non-zero status" before it.
  const timed = HAS_TIME ? readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number) : [];
  const [wall, rssKiB, user, system] = timed.length === 4 && timed.every(Number.isFinite) ? timed : [];
  const seconds = wall ?? elapsed;
  const cpuSeconds = user !== undefined && system !== undefined ? user + system : undefined;
  const verified = `${checkCounts('import', ledger.db, entries)}; trial balance (CLI): `
    + checkTrialBalance('import', (JSON.parse(ledgerCli(ledger.db, ['--json', 'reports', 'trial-balance'])) as { data: TrialBalance }).data,
      ledger.accountIds, expected);
  log(`bulk: imported in ${seconds.toFixed(2)} s; verified ${verified}`);
  return {
    lines: options.bulkLines, entries, fileBytes, seconds, linesPerSecond: options.bulkLines / seconds,
    peakRssBytes: rssKiB === undefined ? undefined : rssKiB * 1024, cpuSeconds,
    otherCpu: otherAndCli !== undefined && cpuSeconds !== undefined ? Math.max(0, otherAndCli - cpuSeconds / elapsed) : undefined,
    verified,
  };
}

/** Run b: the entries in batches of --bulk-batch through the HTTP batch route, by `clients` concurrent clients. */
async function runBatch(options: BenchOptions, dir: string, clients: number): Promise<BatchRunResult> {
  const entries = options.bulkLines / 2;
  const ledger = makeLedger(join(dir, `bulk-batch-${clients}.db`));
  // Every body is serialized before the loop, so that building them does not pace the requests;
  // each request's totals are kept to check what the requests posted when the time limit stops early.
  const payloads: string[] = [];
  const perRequest: Totals[] = [];
  const sizes: number[] = [];
  let totals = noTotals();
  let batch: unknown[] = [];
  const flush = () => {
    payloads.push(JSON.stringify({ entries: batch }));
    perRequest.push(totals);
    sizes.push(batch.length);
    totals = noTotals();
    batch = [];
  };
  for (const item of bulkEntries(ledger.accountIds, entries)) {
    addEntry(totals, item);
    batch.push(item.entry);
    if (batch.length === options.bulkBatch) flush();
  }
  if (batch.length > 0) flush();
  const server = await startServer(ledger.db, {}, 0);
  log(`bulk: batch route, ${clients} client(s): ledger serve pid ${server.pid} at ${server.baseUrl}`);
  const client = new Client(server.baseUrl, clients, ledger.apiKey);
  try {
    const cpu0 = processCpuSeconds(server.pid);
    const others = new OtherCpu([server.pid]);
    const load = await closedLoop(payloads.length, clients, options.maxSeconds, async (i) => {
      const response = await client.send('POST', '/api/v1/journal-entries/batch', payloads[i]);
      if (response.status !== 201) throw new Error(`batch #${i}: expected 201, got ${response.status}: ${response.body.slice(0, 500)}`);
    });
    const cpu1 = processCpuSeconds(server.pid);
    const otherCpu = others.cores();
    if (load.count < payloads.length) log(`bulk: time limit of ${options.maxSeconds} s reached after ${load.count} of ${payloads.length} requests`);
    // closedLoop hands out the indexes in order and every request it starts ends before it returns: the first load.count were posted.
    const expected = noTotals();
    perRequest.slice(0, load.count).forEach((t) => addTotals(expected, t));
    const posted = sizes.slice(0, load.count).reduce((a, b) => a + b, 0);
    const where = `batch, ${clients} client(s)`;
    const balances = await Promise.all(ledger.accountIds.map((id) =>
      client.json<{ data: { total_debits: string; total_credits: string } }>('GET', `/api/v1/accounts/${id}/balance`, undefined, 200)));
    balances.forEach(({ data }, i) => {
      expectEqual(`${where}: balance debits of ${ACCOUNTS[i]!.name}`, data.total_debits, String(expected.debit[i]));
      expectEqual(`${where}: balance credits of ${ACCOUNTS[i]!.name}`, data.total_credits, String(expected.credit[i]));
    });
    const tb = await client.json<{ data: TrialBalance }>('GET', '/api/v1/reports/trial-balance', undefined, 200);
    const verified = `${checkCounts(where, ledger.db, posted)}; balances and trial balance (API): `
      + checkTrialBalance(where, tb.data, ledger.accountIds, expected);
    log(`bulk: ${where}: ${load.count} requests in ${load.seconds.toFixed(2)} s; verified ${verified}`);
    return {
      clients, batch: options.bulkBatch, requests: load.count, lines: posted * 2, seconds: load.seconds,
      linesPerSecond: (posted * 2) / load.seconds, latency: summarize(load.latenciesMs),
      serverCpu: cpu0 !== undefined && cpu1 !== undefined ? (cpu1 - cpu0) / load.seconds : undefined, otherCpu, verified,
    };
  } catch (error) {
    log(`bulk: server output:\n${server.output().slice(-3000)}`);
    throw error;
  } finally {
    client.close();
    await stopServer(server);
  }
}

export async function runBulk(options: BenchOptions, dir: string): Promise<BulkResult> {
  const imported = await runImport(options, dir);
  const batches: BatchRunResult[] = [];
  for (const clients of [1, 4]) batches.push(await runBatch(options, dir, clients));
  return { import: imported, batches };
}

const MIB = 1024 * 1024;

export function bulkMarkdown(r: BulkResult): string {
  const i = r.import;
  const out: string[] = [];
  out.push(`### Bulk loading, SQLite: ${fmt(i.lines)} journal lines (${fmt(i.entries)} two-line entries over ${ACCOUNTS.length} accounts)`);
  out.push('');
  out.push(table(['run', 'lines', 'seconds', 'lines/s', 'peak RSS MiB', 'CPU s', 'file MiB', 'other CPU'],
    [[`ledger journal-entries import (CLI, one transaction)`, fmt(i.lines), i.seconds.toFixed(2), fmt(i.linesPerSecond),
      i.peakRssBytes === undefined ? 'n/a' : fmt(i.peakRssBytes / MIB), i.cpuSeconds === undefined ? 'n/a' : i.cpuSeconds.toFixed(2),
      fmt(i.fileBytes / MIB, 1), pct(i.otherCpu)]]));
  out.push('');
  out.push('The whole CLI process, from start to exit, pinned to CPU 0 (wall time, peak RSS and CPU from /usr/bin/time when present).');
  out.push('');
  out.push(table(['run', 'requests', 'lines', 'seconds', 'lines/s', 'p50 ms', 'p99 ms', 'server CPU', 'other CPU'],
    r.batches.map((b) => [`POST /journal-entries/batch, ${fmt(b.batch)} entries each, ${b.clients} client${b.clients > 1 ? 's' : ''}`,
      fmt(b.requests), fmt(b.lines), b.seconds.toFixed(2), fmt(b.linesPerSecond), fmt(b.latency.p50, 1), fmt(b.latency.p99, 1),
      pct(b.serverCpu), pct(b.otherCpu)])));
  out.push('');
  out.push('Latency: of one request (one batch). Each run on a fresh ledger, until every line is posted or the time limit.');
  out.push('');
  out.push(`- import: verification ok: ${i.verified}`);
  for (const b of r.batches) out.push(`- batch, ${b.clients} client${b.clients > 1 ? 's' : ''}: verification ok: ${b.verified}`);
  return out.join('\n');
}
