/**
 * Runs the real `ledger` program (node bin/ledger.js over the compiled dist/, built once per run by
 * test/global-setup.ts) as a child process, the way a user does, and returns what it printed and
 * its exit code. Also: temp databases seeded through the service (fast setup, the CLI is what is
 * tested) and an HTTP server on the same file for comparing the CLI's JSON with the API's.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { initLedger, openLedger } from '../../src/app/open-ledger.js';
import { packageVersion } from '../../src/app/package-files.js';
import { buildApp } from '../../src/http/build-app.js';
import { LOCAL_OPERATOR } from '../../src/service/actor.js';
import type { LedgerService } from '../../src/service/ledger-service.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin/ledger.js');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Passed as `--db <path>` before the arguments. */
  db?: string;
  /** Passed as `--api-key <key>` before the arguments. */
  apiKey?: string;
  /** Added to the environment; `undefined` removes a variable (NO_COLOR is set unless removed). */
  env?: Record<string, string | undefined>;
  /** Written to standard input. */
  input?: string;
  /** Options for node itself, before the script (e.g. `--import` of a preload). */
  nodeArgs?: string[];
  timeoutMs?: number;
}

/** The child's environment: NO_COLOR set and no ledger variables leaking in from the caller's shell. */
export function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of ['LEDGER_DB', 'LEDGER_API_KEY', 'LEDGER_JWT_SECRET', 'LEDGER_SQLITE_SYNCHRONOUS', 'FORCE_COLOR', 'PORT', 'LEDGER_HOST']) {
    delete env[name];
  }
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

function argv(args: readonly string[], options: CliOptions): string[] {
  return [
    ...(options.nodeArgs ?? []), BIN,
    ...(options.db === undefined ? [] : ['--db', options.db]),
    ...(options.apiKey === undefined ? [] : ['--api-key', options.apiKey]),
    ...args,
  ];
}

/** Runs `ledger <args>` and waits for it. */
export function ledger(args: readonly string[], options: CliOptions = {}): CliRun {
  const result = spawnSync(process.execPath, argv(args, options), {
    cwd: ROOT, encoding: 'utf8', env: cliEnv(options.env), input: options.input ?? '',
    timeout: options.timeoutMs ?? 30_000, maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs `ledger <args>` without blocking, so that several runs can overlap. */
export function ledgerAsync(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, argv(args, options), { cwd: ROOT, env: cliEnv(options.env) });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolvePromise({ status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Runs a command that must succeed under --json, with nothing on stderr, and returns the parsed stdout. */
export function ledgerJson(args: readonly string[], options: CliOptions = {}): any {
  return parseSuccess(args, ledger(['--json', ...args], options));
}

export async function ledgerJsonAsync(args: readonly string[], options: CliOptions = {}): Promise<any> {
  return parseSuccess(args, await ledgerAsync(['--json', ...args], options));
}

function parseSuccess(args: readonly string[], run: CliRun): any {
  if (run.status !== 0 || run.stderr !== '') {
    throw new Error(`ledger --json ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  }
  return JSON.parse(run.stdout);
}

/** Runs jobs with at most `concurrency` at a time (two cores: more only queues). */
export async function inParallel<T>(jobs: readonly (() => Promise<T>)[], concurrency = 4): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next;
      next += 1;
      results[index] = await jobs[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  return results;
}

/** A temp folder for one test file; `remove` deletes it. */
export function tempFolder(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `ledger-cli-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Opens the service on a database file (created when missing), runs `work`, and closes it. Setup
 * writes skip the fsync of every commit (synchronous=NORMAL); the CLI under test keeps its default.
 */
export async function withLedger<T>(db: string, work: (service: LedgerService) => Promise<T>): Promise<T> {
  await initLedger(db);
  const service = await withoutFsync(() => openLedger(db, undefined, { scryptCost: 2 ** 10 }));
  try {
    return await work(service);
  } finally {
    await service.ctx.store.close();
  }
}

async function withoutFsync<T>(open: () => Promise<T>): Promise<T> {
  const before = process.env.LEDGER_SQLITE_SYNCHRONOUS;
  process.env.LEDGER_SQLITE_SYNCHRONOUS = 'NORMAL';
  try {
    return await open();
  } finally {
    if (before === undefined) delete process.env.LEDGER_SQLITE_SYNCHRONOUS;
    else process.env.LEDGER_SQLITE_SYNCHRONOUS = before;
  }
}

export const operator = LOCAL_OPERATOR;

/**
 * The usual books, written through the service: USD, a period for 2026 (unless withPeriod is false), cash, a receivables
 * control account with one customer sub-account, sales, rent, retained earnings (set as the
 * setting), and an admin API key.
 */
export async function seedBooks(db: string, options: { withPeriod?: boolean } = {}) {
  return withLedger(db, async (service) => {
    const usd = await service.createFiatCurrency(operator, 'USD');
    const period = options.withPeriod === false ? undefined
      : await service.createPeriod(operator, { name: 'FY2026', start_date: '2026-01-01', end_date: '2026-12-31' });
    const account = (account_number: string, name: string, account_type: 'asset' | 'liability' | 'equity' | 'revenue' | 'expense',
      extra: Record<string, unknown> = {}) => service.createAccount(operator, {
      account_number, name, currency_id: usd.id, account_type,
      normal_balance: account_type === 'asset' || account_type === 'expense' ? 'debit' : 'credit', ...extra,
    });
    const cash = await account('1000', 'Cash', 'asset');
    const receivables = await account('1200', 'Receivables', 'asset', { has_subledger: true });
    const acme = await service.createAccount(operator, { account_number: '1200-001', name: 'Acme Ltd', parent_id: receivables.id, entity_id: 'acme' });
    const equity = await account('3000', 'Retained Earnings', 'equity');
    const sales = await account('4000', 'Sales', 'revenue');
    const rent = await account('6000', 'Rent', 'expense');
    await service.updateSettings(operator, { retained_earnings_account_id: equity.id });
    const admin = await service.createServiceAccount(null, { name: 'admin agent' });
    return { usd, period: period!, cash, receivables, acme, equity, sales, rent, adminKey: admin.api_key, adminId: admin.id };
  });
}

export function entry(debitAccount: string, creditAccount: string, amount: string, entryDate = '2026-03-01', description = 'entry') {
  return {
    entry_date: entryDate, description,
    lines: [{ account_id: debitAccount, debit_amount: amount }, { account_id: creditAccount, credit_amount: amount }],
  };
}

export interface ApiOnFile {
  baseUrl: string;
  apiKey: string;
  /** GET with the API key; fails the test unless the answer is 200, and returns the parsed body. */
  get(path: string): Promise<any>;
  /** Any request with the API key; returns the status and the parsed body. */
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** The real HTTP API on an existing database file (in this process), with an admin API key. */
export async function serveFile(db: string): Promise<ApiOnFile> {
  const service = await openLedger(db, undefined, { scryptCost: 2 ** 10 });
  const app = await buildApp({ service, logLevel: 'silent', version: packageVersion() });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const { api_key: apiKey } = await service.createServiceAccount(null, { name: 'http reader' });
  return {
    baseUrl, apiKey,
    async get(path: string) {
      const response = await fetch(`${baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
      const body = await response.json();
      if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${JSON.stringify(body)}`);
      return body;
    },
    async request(method: string, path: string, body?: unknown) {
      const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${baseUrl}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: response.status, body: await response.json() };
    },
    async close() {
      await app.close();
      await service.ctx.store.close();
    },
  };
}

/** The lines of a table printed by the CLI, split into cells on runs of two or more spaces. */
export function tableCells(stdout: string): string[][] {
  return stdout.trimEnd().split('\n').map((line) => line.trim().split(/\s{2,}/));
}
