/**
 * Bulk loading, on fresh ledgers (a currency, four accounts, one open period, made through the
 * CLI), of the same deterministic two-line entries (dates across the period, seeded amounts), on
 * SQLite (a file) or PostgreSQL (a database of the benchmark's cluster, bench/postgres.ts):
 *   a. `ledger journal-entries import FILE` of a JSON-lines file, the CLI pinned to CPU 0 under
 *      /usr/bin/time (wall time, peak RSS, CPU);
 *   b. `POST /api/v1/journal-entries/batch` to `ledger serve`, by one client and by four, and on
 *      PostgreSQL also by four clients split between two servers on the same database;
 *   c. on SQLite, the reference of issue 25's bulk goal: bare better-sqlite3 importing the very
 *      file of run a with the least a durable ledger does (runBareImport).
 * Each run then checks the entry and line counts (in the store, see BulkStore.check) and every
 * account's totals against what was generated, and throws on any difference.
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import {
  type BenchOptions, Client, closedLoop, fmt, type LatencySummary, LEDGER_BIN, ledgerCli, log, OtherCpu, pct, pinned, processCpuSeconds,
  pinSelf, random, ROOT, type Server, startServer, stopServer, summarize, table,
} from './lib.js';
import { prepareDatabase } from './posting.js';

/**
 * Where the bulk runs write: a store makes a fresh empty database per run and checks, in the store
 * itself, what a run left there.
 */
export interface BulkStore {
  /** 'SQLite' or 'PostgreSQL', for the output. */
  name: string;
  /** A fresh empty database (a file path or a postgres:// URL) for the run `tag`; drop() after the run. */
  create(tag: string): Promise<{ db: string; drop(): Promise<void> }>;
  /**
   * Throws unless the database holds exactly `entries` two-line entries whose debits sum to
   * `debits` (minor units); returns what was checked.
   */
  check(db: string, where: string, entries: number, debits: number): Promise<string>;
  /** CPU seconds used so far by the database server (PostgreSQL), or undefined (SQLite: in the ledger process). */
  serverCpuSeconds?(): number | undefined;
  /** Where the database server runs, for the output. */
  placement?: string;
}

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
  /** The database server's CPU during the import, in cores (PostgreSQL only). */
  databaseCpu: number | undefined;
  /** CPU used by other processes during the import, in cores (needs the CLI's own CPU from /usr/bin/time). */
  otherCpu: number | undefined;
  verified: string;
}

export interface BatchRunResult {
  servers: number;
  clients: number;
  batch: number;
  requests: number;
  lines: number;
  seconds: number;
  linesPerSecond: number;
  /** Latency of one request (one batch). */
  latency: LatencySummary;
  /** Each `ledger serve` process's CPU, in cores. */
  serverCpu: (number | undefined)[];
  /** The database server's CPU, in cores (PostgreSQL only). */
  databaseCpu: number | undefined;
  otherCpu: number | undefined;
  verified: string;
}

/** The bare better-sqlite3 import of the same file (runBareImport). */
export interface BareImportResult {
  lines: number;
  entries: number;
  seconds: number;
  linesPerSecond: number;
  /** CPU used by other processes during the import, in cores. */
  otherCpu: number | undefined;
  verified: string;
}

export interface BulkResult {
  store: string;
  /** SQLite only: the bare import of the same file, the reference of the bulk ratios. */
  bare?: BareImportResult | undefined;
  placement: string | undefined;
  /** The store has a database server of its own, whose CPU is reported (PostgreSQL). */
  databaseServer: boolean;
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
  /** A file path or a postgres:// URL, as `--db` takes it. */
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

/** The debits of every account together (= the credits). */
function sum(totals: Totals): number {
  return totals.debit.reduce((a, b) => a + b, 0);
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
  const total = String(sum(expected));
  expectEqual(`${where}: currencies in the totals`, tb.totals.length, 1);
  expectEqual(`${where}: total debits`, tb.totals[0]!.debit_total, total);
  expectEqual(`${where}: total credits`, tb.totals[0]!.credit_total, total);
  return `${total} minor units on both sides, every account as generated`;
}

/** Entries and lines in the file, read-only (also while a server has it open: WAL). */
function countSqlite(db: string): { entries: number; lines: number } {
  const reader = new Database(db, { readonly: true, fileMustExist: true });
  try {
    const rows = (name: string) => (reader.prepare(`SELECT COUNT(*) AS n FROM ${name}`).get() as { n: number }).n;
    return { entries: rows('journal_entries'), lines: rows('journal_lines') };
  } finally {
    reader.close();
  }
}

/** SQLite: one file per run in `dir` (deleted with it). */
export function sqliteBulkStore(dir: string): BulkStore {
  return {
    name: 'SQLite',
    create: async (tag) => ({ db: join(dir, `bulk-${tag}.db`), drop: async () => {} }),
    check: async (db, where, entries) => {
      const counted = countSqlite(db);
      expectEqual(`${where}: journal entries`, counted.entries, entries);
      expectEqual(`${where}: journal lines`, counted.lines, entries * 2);
      return `${fmt(entries)} entries, ${fmt(entries * 2)} lines`;
    },
  };
}

/** CPU seconds of the database server since `before` (a reading of serverCpuSeconds), in cores over `seconds`. */
function databaseCores(store: BulkStore, before: number | undefined, seconds: number): number | undefined {
  const after = store.serverCpuSeconds?.();
  return before === undefined || after === undefined ? undefined : (after - before) / seconds;
}

/** Run a: the CLI import of a JSON-lines file; also returns the file, its accounts and its totals, for run c. */
async function runImport(options: BenchOptions, dir: string, store: BulkStore):
  Promise<{ imported: BulkImportResult; file: string; accountIds: string[]; expected: Totals }> {
  const entries = options.bulkLines / 2;
  const fresh = await store.create('import');
  try {
    const ledger = makeLedger(fresh.db);
    // The file names the ledger's account ids, which each fresh ledger draws anew: one file per store.
    const tag = store.name.toLowerCase();
    const file = join(dir, `bulk-import-${tag}.jsonl`);
    log(`bulk, ${store.name}: writing ${fmt(entries)} entries to ${file}`);
    const expected = writeImportFile(file, ledger.accountIds, entries);
    const fileBytes = statSync(file).size;
    const timeFile = join(dir, `bulk-import-${tag}.time`);
    const cli = pinned(0, process.execPath, [LEDGER_BIN, '--db', ledger.db, '--json', 'journal-entries', 'import', file]);
    // %e wall seconds, %M peak RSS in KiB, %U + %S CPU seconds; -o keeps them apart from the CLI's own stderr.
    const [command, args] = HAS_TIME ? [TIME, ['-f', '%e %M %U %S', '-o', timeFile, ...cli.flat()]] : cli;
    if (!HAS_TIME) log(`bulk: ${TIME} not found: wall time measured here, no peak RSS`);
    log(`bulk, ${store.name}: ledger journal-entries import of ${fmt(options.bulkLines)} lines`);
    const others = new OtherCpu([]);
    const database0 = store.serverCpuSeconds?.();
    const t0 = performance.now();
    const run = spawnSync(command, args, {
      cwd: ROOT, env: { ...process.env, LEDGER_API_KEY: ledger.apiKey }, encoding: 'utf8', maxBuffer: 16 << 20, timeout: 3_600_000,
    });
    const elapsed = (performance.now() - t0) / 1000;
    const databaseCpu = databaseCores(store, database0, elapsed);
    const otherAndOurs = others.cores();
    if (run.status !== 0) {
      throw new Error(`ledger journal-entries import failed (${run.error?.message ?? `exit ${run.status}`}):\n${run.stderr.slice(-3000)}`);
    }
    expectEqual('import: entries it reports', (JSON.parse(run.stdout) as { data: { imported: number } }).data.imported, entries);
    // The last line: on a failure GNU time writes "Command exited with non-zero status" before it.
    const timed = HAS_TIME ? readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number) : [];
    const [wall, rssKiB, user, system] = timed.length === 4 && timed.every(Number.isFinite) ? timed : [];
    const seconds = wall ?? elapsed;
    const cpuSeconds = user !== undefined && system !== undefined ? user + system : undefined;
    const where = `${store.name}, import`;
    const verified = `${await store.check(ledger.db, where, entries, sum(expected))}; trial balance (CLI): `
      + checkTrialBalance(where, (JSON.parse(ledgerCli(ledger.db, ['--json', 'reports', 'trial-balance'])) as { data: TrialBalance }).data,
        ledger.accountIds, expected);
    log(`bulk, ${store.name}: imported in ${seconds.toFixed(2)} s; verified ${verified}`);
    const imported = {
      lines: options.bulkLines, entries, fileBytes, seconds, linesPerSecond: options.bulkLines / seconds,
      peakRssBytes: rssKiB === undefined ? undefined : rssKiB * 1024, cpuSeconds, databaseCpu,
      otherCpu: otherAndOurs !== undefined && cpuSeconds !== undefined
        ? Math.max(0, otherAndOurs - cpuSeconds / elapsed - (databaseCpu ?? 0)) : undefined,
      verified,
    };
    return { imported, file, accountIds: ledger.accountIds, expected };
  } finally {
    await fresh.drop();
  }
}

/** The JSON lines of a file, read in large synchronous chunks (no stream, no readline: the least work). */
function* fileLines(path: string): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    let rest = '';
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      const lines = (rest + buffer.toString('utf8', 0, read)).split('\n');
      rest = lines.pop()!;
      for (const line of lines) if (line !== '') yield line;
    }
    if (rest !== '') yield rest;
  } finally {
    closeSync(fd);
  }
}

interface ImportedLine {
  account_id: string;
  debit_amount?: string;
  credit_amount?: string;
  description?: string;
}

/**
 * Run c, the reference of issue 25's bulk goal: bare better-sqlite3 importing the very file of
 * run a, doing the least a durable ledger does, in this process with nothing else between the
 * statements. It reads and parses each JSON line, checks the entry balances (integer minor units,
 * at least two lines, known accounts, no negative or two-sided line), chains it with SHA-256 (the
 * previous hash, then the entry's date, description and lines), and inserts the entry (its hash
 * and the previous one as columns) and its lines (stored with their entry, WITHOUT ROWID, and an
 * index by account and date, which every balance and ledger page needs). Daily totals per account
 * and day are summed in memory and written once before COMMIT (cheaper than an upsert per line,
 * and what a single-writer import can do honestly). One transaction, WAL, synchronous=FULL, on a
 * fresh file with tables of its own (the ledger's schema would add its other columns and indexes,
 * which is what the ratio measures). Timed from opening the file to after COMMIT; Node's start-up
 * and opening the database are not in it (the CLI's time includes its start-up, about 0.1-0.2 s).
 * runBulk moves this process to CPU 0, where the CLI ran, for the time of it.
 */
export function runBareImport(dir: string, file: string, accountIds: string[], expected: Totals, entries: number): BareImportResult {
  const path = join(dir, 'bulk-bare-import.db');
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec(`CREATE TABLE entries (seq INTEGER PRIMARY KEY, entry_date TEXT NOT NULL, description TEXT NOT NULL,
        previous_hash TEXT NOT NULL, hash TEXT NOT NULL);
      CREATE TABLE lines (entry_seq INTEGER NOT NULL, line INTEGER NOT NULL, account_id TEXT NOT NULL, entry_date TEXT NOT NULL,
        debit INTEGER NOT NULL, credit INTEGER NOT NULL, PRIMARY KEY (entry_seq, line)) WITHOUT ROWID;
      CREATE INDEX lines_account_date ON lines (account_id, entry_date);
      CREATE TABLE daily_totals (account_id TEXT NOT NULL, day TEXT NOT NULL, debit INTEGER NOT NULL, credit INTEGER NOT NULL,
        PRIMARY KEY (account_id, day)) WITHOUT ROWID;`);
    const insertEntry = db.prepare('INSERT INTO entries (seq, entry_date, description, previous_hash, hash) VALUES (?, ?, ?, ?, ?)');
    const insertLine = db.prepare('INSERT INTO lines (entry_seq, line, account_id, entry_date, debit, credit) VALUES (?, ?, ?, ?, ?, ?)');
    const insertDaily = db.prepare('INSERT INTO daily_totals (account_id, day, debit, credit) VALUES (?, ?, ?, ?)');
    const known = new Set(accountIds);
    const amount = (text: string | undefined, where: string): bigint => {
      if (text === undefined) return 0n;
      if (!/^\d{1,30}$/.test(text)) throw new Error(`bare import: ${where}: amount ${text} is not a whole number of minor units`);
      return BigInt(text);
    };
    const others = new OtherCpu([]);
    const start = performance.now();
    const written = db.transaction(() => {
      const daily = new Map<string, { account: string; day: string; debit: bigint; credit: bigint }>();
      let previous = '0'.repeat(64);
      let seq = 0;
      for (const text of fileLines(file)) {
        seq += 1;
        const entry = JSON.parse(text) as { entry_date: string; description: string; lines: ImportedLine[] };
        const where = `line ${seq}`;
        if (!/^\d{4}-\d{2}-\d{2}$/.test(entry.entry_date) || !Array.isArray(entry.lines) || entry.lines.length < 2) {
          throw new Error(`bare import: ${where}: not an entry`);
        }
        const hash = createHash('sha256').update(previous).update('\n').update(entry.entry_date).update('\n').update(entry.description);
        let balance = 0n;
        const amounts = entry.lines.map((line) => {
          if (!known.has(line.account_id)) throw new Error(`bare import: ${where}: unknown account ${line.account_id}`);
          const debit = amount(line.debit_amount, where);
          const credit = amount(line.credit_amount, where);
          if ((debit === 0n) === (credit === 0n)) throw new Error(`bare import: ${where}: a line is a debit or a credit`);
          balance += debit - credit;
          hash.update(`\n${line.account_id}:${debit}:${credit}`);
          return [debit, credit] as const;
        });
        if (balance !== 0n) throw new Error(`bare import: ${where}: debits and credits differ by ${balance}`);
        const digest = hash.digest('hex');
        insertEntry.run(seq, entry.entry_date, entry.description, previous, digest);
        entry.lines.forEach((line, i) => {
          const [debit, credit] = amounts[i]!;
          insertLine.run(seq, i + 1, line.account_id, entry.entry_date, debit, credit);
          const key = `${line.account_id}\u0000${entry.entry_date}`;
          const total = daily.get(key);
          if (total) {
            total.debit += debit;
            total.credit += credit;
          } else {
            daily.set(key, { account: line.account_id, day: entry.entry_date, debit, credit });
          }
        });
        previous = digest;
      }
      for (const total of daily.values()) insertDaily.run(total.account, total.day, total.debit, total.credit);
      return seq;
    }).immediate();
    const seconds = (performance.now() - start) / 1000;
    const otherCpu = others.cores();
    // Fail loudly unless the rows are the file's: counts, and every account's daily totals against what was generated.
    const count = (sql: string) => db.prepare(sql).pluck().get() as number;
    expectEqual('bare import: entries read', written, entries);
    expectEqual('bare import: entries stored', count('SELECT count(*) FROM entries'), entries);
    expectEqual('bare import: lines stored', count('SELECT count(*) FROM lines'), entries * 2);
    const sums = db.prepare('SELECT account_id, sum(debit) AS d, sum(credit) AS c FROM daily_totals GROUP BY account_id').all() as
      { account_id: string; d: number; c: number }[];
    accountIds.forEach((id, i) => {
      const row = sums.find((r) => r.account_id === id);
      expectEqual(`bare import: daily debits of ${ACCOUNTS[i]!.name}`, row?.d ?? 0, expected.debit[i]);
      expectEqual(`bare import: daily credits of ${ACCOUNTS[i]!.name}`, row?.c ?? 0, expected.credit[i]);
    });
    const verified = `${fmt(entries)} entries, ${fmt(entries * 2)} lines; every account's daily totals as generated`;
    log(`bulk, bare better-sqlite3 import: ${fmt(entries * 2)} lines in ${seconds.toFixed(2)} s; verified ${verified}`);
    return { lines: entries * 2, entries, seconds, linesPerSecond: (entries * 2) / seconds, otherCpu, verified };
  } finally {
    db.close();
  }
}

/**
 * Run b: the entries in batches of --bulk-batch through the HTTP batch route, by `clients`
 * concurrent clients split between `servers` `ledger serve` processes on the same database
 * (client w talks to server w mod servers, as the PostgreSQL posting runs do).
 */
async function runBatch(options: BenchOptions, store: BulkStore, servers: number, clients: number): Promise<BatchRunResult> {
  const entries = options.bulkLines / 2;
  const fresh = await store.create(`batch_${servers}srv_${clients}cl`);
  const started: Server[] = [];
  const connections: Client[] = [];
  const where = `${store.name}, batch, ${servers} server(s), ${clients} client(s)`;
  try {
    const ledger = makeLedger(fresh.db);
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
    for (let s = 0; s < servers; s++) started.push(await startServer(ledger.db, {}, 0));
    log(`bulk: ${where}: ledger serve pid ${started.map((s) => `${s.pid} at ${s.baseUrl}`).join(', ')}`);
    for (const server of started) connections.push(new Client(server.baseUrl, Math.ceil(clients / servers), ledger.apiKey));
    const pids = started.map((s) => s.pid);
    const cpu0 = pids.map((pid) => processCpuSeconds(pid));
    const database0 = store.serverCpuSeconds?.();
    const others = new OtherCpu(pids);
    const load = await closedLoop(payloads.length, clients, options.maxSeconds, async (i, w) => {
      const response = await connections[w % servers]!.send('POST', '/api/v1/journal-entries/batch', payloads[i]);
      if (response.status !== 201) throw new Error(`batch #${i}: expected 201, got ${response.status}: ${response.body.slice(0, 500)}`);
    });
    const serverCpu = pids.map((pid, s) => {
      const [before, after] = [cpu0[s], processCpuSeconds(pid)];
      return before === undefined || after === undefined ? undefined : (after - before) / load.seconds;
    });
    const databaseCpu = databaseCores(store, database0, load.seconds);
    const otherAndDatabase = others.cores();
    if (load.count < payloads.length) log(`bulk: time limit of ${options.maxSeconds} s reached after ${load.count} of ${payloads.length} requests`);
    // closedLoop hands out the indexes in order and every request it starts ends before it returns: the first load.count were posted.
    const expected = noTotals();
    perRequest.slice(0, load.count).forEach((t) => addTotals(expected, t));
    const posted = sizes.slice(0, load.count).reduce((a, b) => a + b, 0);
    const client = connections[0]!;
    const balances = await Promise.all(ledger.accountIds.map((id) =>
      client.json<{ data: { total_debits: string; total_credits: string } }>('GET', `/api/v1/accounts/${id}/balance`, undefined, 200)));
    balances.forEach(({ data }, i) => {
      expectEqual(`${where}: balance debits of ${ACCOUNTS[i]!.name}`, data.total_debits, String(expected.debit[i]));
      expectEqual(`${where}: balance credits of ${ACCOUNTS[i]!.name}`, data.total_credits, String(expected.credit[i]));
    });
    const tb = await client.json<{ data: TrialBalance }>('GET', '/api/v1/reports/trial-balance', undefined, 200);
    const verified = `${await store.check(ledger.db, where, posted, sum(expected))}; balances and trial balance (API): `
      + checkTrialBalance(where, tb.data, ledger.accountIds, expected);
    log(`bulk: ${where}: ${load.count} requests in ${load.seconds.toFixed(2)} s; verified ${verified}`);
    return {
      servers, clients, batch: options.bulkBatch, requests: load.count, lines: posted * 2, seconds: load.seconds,
      linesPerSecond: (posted * 2) / load.seconds, latency: summarize(load.latenciesMs), serverCpu, databaseCpu,
      otherCpu: otherAndDatabase === undefined ? undefined : Math.max(0, otherAndDatabase - (databaseCpu ?? 0)), verified,
    };
  } catch (error) {
    for (const server of started) log(`bulk: ${where}: server ${server.pid} output:\n${server.output().slice(-3000)}`);
    throw error;
  } finally {
    for (const connection of connections) connection.close();
    for (const server of started) await stopServer(server);
    await fresh.drop();
  }
}

/**
 * The import, on SQLite the bare import of the same file (the bulk ratios' reference), then the
 * batch route with one server and one, then four, clients; with `twoServers`
 * (PostgreSQL: several processes can share its database) also four clients split between two servers.
 */
export async function runBulk(options: BenchOptions, dir: string, store: BulkStore, twoServers = false): Promise<BulkResult> {
  const { imported, file, accountIds, expected } = await runImport(options, dir, store);
  let bare: BareImportResult | undefined;
  if (store.name === 'SQLite') {
    log(`bulk: bare better-sqlite3 importing the same file (${fmt(options.bulkLines)} lines)`);
    // On CPU 0, where the CLI imported, for the time of the reference; the load generator's CPU 1 after it.
    const moved = pinSelf(0);
    try {
      bare = runBareImport(dir, file, accountIds, expected, options.bulkLines / 2);
    } finally {
      if (moved) pinSelf(1);
    }
  }
  const batches: BatchRunResult[] = [];
  for (const clients of [1, 4]) batches.push(await runBatch(options, store, 1, clients));
  if (twoServers) batches.push(await runBatch(options, store, 2, 4));
  return {
    store: store.name, placement: store.placement, databaseServer: store.serverCpuSeconds !== undefined, import: imported, bare, batches,
  };
}

/** "4 clients, 2 servers", "1 client" (one server). */
export function batchLabel(b: BatchRunResult): string {
  return `${b.clients} client${b.clients > 1 ? 's' : ''}${b.servers > 1 ? ` split between ${b.servers} servers` : ''}`;
}

const MIB = 1024 * 1024;

export function bulkMarkdown(r: BulkResult): string {
  const i = r.import;
  const db = r.databaseServer ? [`${r.store} CPU`] : [];
  const out: string[] = [];
  out.push(`### Bulk loading, ${r.store}: ${fmt(i.lines)} journal lines (${fmt(i.entries)} two-line entries over ${ACCOUNTS.length} accounts)`);
  out.push('');
  out.push(table(['run', 'lines', 'seconds', 'lines/s', 'peak RSS MiB', 'CPU s', ...db, 'file MiB', 'other CPU'],
    [[`ledger journal-entries import (CLI, one transaction)`, fmt(i.lines), i.seconds.toFixed(2), fmt(i.linesPerSecond),
      i.peakRssBytes === undefined ? 'n/a' : fmt(i.peakRssBytes / MIB), i.cpuSeconds === undefined ? 'n/a' : i.cpuSeconds.toFixed(2),
      ...(r.databaseServer ? [pct(i.databaseCpu)] : []), fmt(i.fileBytes / MIB, 1), pct(i.otherCpu)]]));
  out.push('');
  out.push('The whole CLI process, from start to exit, pinned to CPU 0 (wall time, peak RSS and CPU from /usr/bin/time when present)'
    + `${r.databaseServer ? `; ${r.store} CPU: every process of the cluster over the import, in share of one core` : ''}.`);
  if (r.bare) {
    const b = r.bare;
    out.push('');
    out.push(table(['reference (issue 25)', 'lines', 'seconds', 'lines/s', 'import / reference', 'other CPU'],
      [['bare better-sqlite3 importing the same file', fmt(b.lines), b.seconds.toFixed(2), fmt(b.linesPerSecond),
        (i.linesPerSecond / b.linesPerSecond).toFixed(2), pct(b.otherCpu)]]));
    out.push('');
    out.push('The reference reads the same JSON-lines file, parses each entry, checks it balances, chains it with SHA-256, inserts '
      + 'the entry and its lines (lines WITHOUT ROWID with an account/date index) and writes the daily totals per account and day '
      + 'summed in memory, all in one transaction (WAL, synchronous=FULL), in the benchmark\'s own process moved to CPU 0 (the '
      + 'CLI\'s) for it, timed from opening the file to after COMMIT (no process start-up, which the CLI\'s time includes).');
    out.push('');
    out.push(`- reference: verification ok: ${b.verified}`);
  }
  if (r.placement) out.push('', `Placement: ${r.placement}`);
  out.push('');
  out.push(table(['run', 'requests', 'lines', 'seconds', 'lines/s', 'p50 ms', 'p99 ms', 'server CPU', ...db, 'other CPU'],
    r.batches.map((b) => [`POST /journal-entries/batch, ${fmt(b.batch)} entries each, ${batchLabel(b)}`,
      fmt(b.requests), fmt(b.lines), b.seconds.toFixed(2), fmt(b.linesPerSecond), fmt(b.latency.p50, 1), fmt(b.latency.p99, 1),
      b.serverCpu.map(pct).join(' + '), ...(r.databaseServer ? [pct(b.databaseCpu)] : []), pct(b.otherCpu)])));
  out.push('');
  out.push('Latency: of one request (one batch). Each run on a fresh ledger, until every line is posted or the time limit.');
  out.push('');
  out.push(`- import: verification ok: ${i.verified}`);
  for (const b of r.batches) out.push(`- batch, ${batchLabel(b)}: verification ok: ${b.verified}`);
  return out.join('\n');
}
