/**
 * The end-to-end fixture: a real `ledger serve` child process on a temp database, a real Chromium
 * driven through playwright-core, and per-test bookkeeping of browser errors.
 *
 * It builds nothing: test/global-setup.ts compiles dist/ (server and web UI) once per run, and this
 * file only checks that the build is there, so a missing build fails with a message that says so.
 *
 * Every test fails when the page logged a console error or threw. The one exception is the
 * "Failed to load resource" line Chromium logs for a 4xx answer, which a test that provokes such
 * an answer on purpose declares with `e2e.expectHttpErrors(400)`.
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

export const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/ledger.js');
const BUILT_FILES = ['dist/web/index.html', 'dist/bundle/main.js'];
export const SCREENSHOT_DIR = join(ROOT, 'test-results/screenshots');
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run', '--disable-quic',
];
/** How long a locator action or an expectation waits; generous because `npm test` runs other suites alongside. */
export const WAIT_MS = 15_000;

export function assertBuilt(): void {
  const missing = BUILT_FILES.filter((file) => !existsSync(join(ROOT, file)));
  if (missing.length > 0) {
    throw new Error(`The e2e tests need the built app, but ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} missing. `
      + 'test/global-setup.ts builds it before the tests (see its output above for a build error); by hand: npm run build.');
  }
}

// ---------------------------------------------------------------------------------------------
// The server

export interface LedgerServer {
  baseUrl: string;
  dbPath: string;
  pid: number;
  /** Everything the server printed so far, stdout and stderr, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

/** The child's environment without ledger variables from the caller's shell. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of ['LEDGER_DB', 'LEDGER_API_KEY', 'LEDGER_JWT_SECRET', 'LEDGER_WEB_ROOT', 'PORT', 'LEDGER_HOST']) delete env[name];
  return { ...env, ...extra };
}

export interface LedgerServerOptions {
  /**
   * More environment for the server, for a test that needs a setting the others must not get
   * (the webhooks journey: `LEDGER_WEBHOOK_ALLOW_PRIVATE=true` for a receiver on 127.0.0.1).
   */
  env?: Record<string, string>;
}

/**
 * Starts `ledger serve` on 127.0.0.1. Port 0 lets the operating system pick a free port, which
 * the server prints once it listens; picking a port here and passing it on could race with
 * another process taking it in between.
 */
export function startLedgerServer(options: LedgerServerOptions = {}): Promise<LedgerServer> {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-e2e-'));
  const dbPath = join(dir, 'ledger.db');
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath,
    [BIN, '--db', dbPath, 'serve', '--port', '0', '--host', '127.0.0.1'],
    { cwd: ROOT, env: childEnv({ LEDGER_LOG_LEVEL: 'warn', ...options.env }) });
  let printed = '';
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(child.pid, 'SIGTERM');
      const killTimer = setTimeout(() => { if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL'); }, 5_000);
      await exited;
      clearTimeout(killTimer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`ledger serve did not start within 20 s:\n${printed}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      printed += chunk.toString('utf8');
      const address = /ledger listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(printed)?.[1];
      if (address && child.pid !== undefined) {
        clearTimeout(timer);
        resolveStart({ baseUrl: address, dbPath, pid: child.pid, output: () => printed, stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`ledger serve exited (${code ?? signal}) before listening:\n${printed}`));
    });
  });
}

/** Runs the `ledger` command line on the server's database file (the way an operator would). */
export function runCli(server: LedgerServer, args: readonly string[]): string {
  const result = spawnSync(process.execPath, [BIN, '--db', server.dbPath, ...args], { cwd: ROOT, env: childEnv(), encoding: 'utf8', timeout: 30_000 });
  if (result.status !== 0) throw new Error(`ledger ${args.join(' ')} failed (${result.status}):\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

// ---------------------------------------------------------------------------------------------
// The month the journeys keep their books in

/**
 * Last calendar month (in UTC, the browser's time zone here): it has ended, so it can be closed,
 * and it comes before today, so reports as of today include it, whenever the suite runs.
 */
export const MONTH = (() => {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  const iso = (date: Date) => date.toISOString().slice(0, 10);
  return {
    name: first.toLocaleDateString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
    start: iso(first),
    end: iso(last),
    /** The ISO date of a day in the month (1 to 28). */
    day: (day: number) => `${iso(first).slice(0, 8)}${String(day).padStart(2, '0')}`,
  };
})();

// ---------------------------------------------------------------------------------------------
// Seeding through the HTTP API, for journeys that start from existing books

export interface SeededBooks {
  admin: { email: string; password: string };
  currencyId: string;
  accounts: { cash: string; sales: string; retainedEarnings: string };
  periodId: string;
}

export const ADMIN = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct-horse-battery' };

/** A bearer-token client for the API; the browser never sees it. */
export async function apiClient(server: LedgerServer, token?: string) {
  const call = async <T>(method: string, path: string, body?: unknown, bearer = token): Promise<T> => {
    const response = await fetch(server.baseUrl + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return (JSON.parse(text) as { data: T }).data;
  };
  return { call };
}

/**
 * Sets the ledger up through the API: the administrator, USD, cash, sales and retained earnings
 * accounts, last month as a period, the retained earnings setting, and `entries` sales of 10.00 upwards.
 */
export async function seedBooks(server: LedgerServer, options: { entries?: number } = {}): Promise<SeededBooks> {
  const anonymous = await apiClient(server);
  const tokens = await anonymous.call<{ access_token: string }>('POST', '/auth/setup', ADMIN);
  const { call } = await apiClient(server, tokens.access_token);
  const usd = await call<{ id: string }>('POST', '/api/v1/currencies', {
    code: 'USD', name: 'US Dollar', symbol: '$', asset_scale: 2, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:USD',
  });
  const account = (account_number: string, name: string, account_type: string, normal_balance: string) =>
    call<{ id: string }>('POST', '/api/v1/accounts', { account_number, name, account_type, normal_balance, currency_id: usd.id });
  const cash = await account('1000', 'Cash', 'asset', 'debit');
  const sales = await account('4000', 'Sales', 'revenue', 'credit');
  const retained = await account('3000', 'Retained earnings', 'equity', 'credit');
  const period = await call<{ id: string }>('POST', '/api/v1/periods', { name: MONTH.name, start_date: MONTH.start, end_date: MONTH.end });
  await call('PATCH', '/api/v1/settings', { retained_earnings_account_id: retained.id });
  for (let index = 0; index < (options.entries ?? 0); index += 1) {
    const amount = String(1000 + index * 100);
    await call('POST', '/api/v1/journal-entries', {
      entry_date: MONTH.day(1 + (index % 28)), description: `Counter sale ${index + 1}`, reference: `R-${index + 1}`,
      lines: [{ account_id: cash.id, debit_amount: amount }, { account_id: sales.id, credit_amount: amount }],
    });
  }
  return {
    admin: { email: ADMIN.email, password: ADMIN.password }, currencyId: usd.id,
    accounts: { cash: cash.id, sales: sales.id, retainedEarnings: retained.id }, periodId: period.id,
  };
}

// ---------------------------------------------------------------------------------------------
// The browser

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

/** Launches Chromium; a missing binary is an error, not a reason to skip: the UI would go untested. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath)) {
    throw new Error(`Chromium is missing: no executable at ${executablePath}. The e2e tests need it. Install Debian's package `
      + '(apt-get install chromium) or point CHROMIUM_PATH at a Chromium binary. (npx playwright install cannot download here.)');
  }
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
}

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

interface PageProblem {
  kind: 'console' | 'pageerror';
  text: string;
}

export interface E2E {
  readonly server: LedgerServer;
  readonly browser: Browser;
  /** A fresh browser context (no session) and a page in it, watched for errors. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** Declares that this test provokes these 4xx answers, so Chromium's log line for them is not an error. */
  expectHttpErrors(...statuses: (400 | 403 | 409)[]): void;
  /**
   * Saves a screenshot to test-results/screenshots/<name>.png: the full page unless `fullPage` is
   * false, without the confirmations of earlier steps ("Entry posted") unless `toasts` is true.
   */
  screenshot(page: Page, name: string, options?: { fullPage?: boolean; toasts?: boolean }): Promise<void>;
}

/**
 * Registers the hooks of one test file: a server and Chromium for the file, an error check after
 * every test, and cleanup (the server killed by its pid, the browser closed) after the last.
 * `serverOptions.env` reaches this file's server only.
 */
export function useE2E(serverOptions: LedgerServerOptions = {}): E2E {
  let server: LedgerServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  let problems: PageProblem[] = [];
  let allowedStatuses = new Set<number>();

  const expectedLoadFailure = (text: string) => {
    const status = /^Failed to load resource: the server responded with a status of (\d{3})/.exec(text)?.[1];
    return status !== undefined && allowedStatuses.has(Number(status));
  };

  beforeAll(async () => {
    assertBuilt();
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const [startedServer, launchedBrowser] = await Promise.allSettled([startLedgerServer(serverOptions), launchChromium()]);
    if (startedServer.status === 'fulfilled') server = startedServer.value;
    if (launchedBrowser.status === 'fulfilled') browser = launchedBrowser.value;
    if (startedServer.status === 'rejected') throw startedServer.reason;
    if (launchedBrowser.status === 'rejected') throw launchedBrowser.reason;
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(contexts.map((context) => context.close()));
    await browser?.close();
    await server?.stop();
  }, 30_000);

  const failOnProblems = (when: string) => {
    const unexpected = problems.filter((problem) => !(problem.kind === 'console' && expectedLoadFailure(problem.text)));
    problems = [];
    if (unexpected.length > 0) {
      throw new Error(`The page reported ${unexpected.length} error(s) ${when}:\n${unexpected.map((problem) => `  [${problem.kind}] ${problem.text}`).join('\n')}`);
    }
  };

  beforeEach(() => {
    // Whatever a beforeAll hook did in the browser (signing in, say) is checked too: by the next test.
    allowedStatuses = new Set();
    failOnProblems('before this test, in a setup hook');
  });

  afterEach(() => {
    failOnProblems('during this test');
  });

  return {
    get server() {
      if (!server) throw new Error('the ledger server is not running (beforeAll failed)');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('Chromium is not running (beforeAll failed)');
      return browser;
    },
    async newPage(options = {}) {
      if (!browser || !server) throw new Error('the e2e fixture did not start');
      const context = await browser.newContext({
        baseURL: server.baseUrl, viewport: DESKTOP, locale: 'en-US', timezoneId: 'UTC', reducedMotion: 'reduce', ...options,
      });
      contexts.push(context);
      context.setDefaultTimeout(WAIT_MS);
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push({ kind: 'console', text: message.text() });
      });
      page.on('pageerror', (error) => problems.push({ kind: 'pageerror', text: error.stack ?? error.message }));
      return page;
    },
    expectHttpErrors(...statuses) {
      for (const status of statuses) allowedStatuses.add(status);
    },
    async screenshot(page, name, options = {}) {
      // Toasts are hidden through the CSSOM: Playwright's `style` option injects a <style> element,
      // which the UI's content security policy (no inline styles) rightly refuses.
      // (A string, because this project's TypeScript has no DOM types outside web/.)
      const setToastDisplay = (display: string) =>
        page.evaluate(`for (const element of document.querySelectorAll('.toasts')) element.style.display = ${JSON.stringify(display)};`);
      if (!options.toasts) await setToastDisplay('none');
      try {
        await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: options.fullPage ?? true, animations: 'disabled' });
      } finally {
        if (!options.toasts) await setToastDisplay('');
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Waiting assertions (playwright-core has no `expect`; these poll with vitest's)

export async function expectText(locator: Locator, expected: string | RegExp, timeoutMs = WAIT_MS): Promise<void> {
  await expect.poll(() => locator.innerText({ timeout: 1_000 }).catch(() => ''), { timeout: timeoutMs, interval: 100 })
    .toMatch(expected);
}

export async function expectCount(locator: Locator, count: number, timeoutMs = WAIT_MS): Promise<void> {
  await expect.poll(() => locator.count(), { timeout: timeoutMs, interval: 100 }).toBe(count);
}

export async function expectVisible(locator: Locator, timeoutMs = WAIT_MS): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout: timeoutMs });
}

export async function expectHidden(locator: Locator, timeoutMs = WAIT_MS): Promise<void> {
  await locator.waitFor({ state: 'hidden', timeout: timeoutMs });
}

export async function expectAttribute(locator: Locator, name: string, expected: string | RegExp, timeoutMs = WAIT_MS): Promise<void> {
  await expect.poll(() => locator.getAttribute(name, { timeout: 1_000 }).catch(() => null).then((value) => value ?? ''),
    { timeout: timeoutMs, interval: 100 }).toMatch(expected);
}
