/**
 * Start-up: the wall time of a short CLI command on a small ledger (init, a currency, three
 * accounts), `ledger accounts list`, beside that of `node -e 0` (Node's own start-up, the floor),
 * each run 10 times pinned to CPU 0 and timed from spawn to exit.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fmt, type LatencySummary, LEDGER_BIN, ledgerCli, log, pinned, ROOT, summarize, table } from './lib.js';

export interface StartupTiming {
  name: string;
  runs: number;
  latency: LatencySummary;
}

export interface StartupResult {
  timings: StartupTiming[];
}

const RUNS = 10;

function timeRuns(name: string, args: string[], check: (stdout: string) => void): StartupTiming {
  const [command, commandArgs] = pinned(0, process.execPath, args);
  const times = new Float64Array(RUNS);
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const run = spawnSync(command, commandArgs, { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    times[i] = performance.now() - t0;
    if (run.status !== 0) throw new Error(`${name} failed (${run.error?.message ?? `exit ${run.status}`}):\n${run.stderr}`);
    check(run.stdout);
  }
  return { name, runs: RUNS, latency: summarize(times) };
}

export function runStartup(dir: string): StartupResult {
  const db = join(dir, 'startup.db');
  ledgerCli(db, ['init']);
  ledgerCli(db, ['currencies', 'create-fiat', 'USD']);
  for (const [number, name, type, normal] of [['1000', 'Cash', 'asset', 'debit'], ['2000', 'Payables', 'liability', 'credit'],
    ['4000', 'Sales', 'revenue', 'credit']] as const) {
    ledgerCli(db, ['accounts', 'create', '--number', number, '--name', name, '--currency', 'USD', '--type', type, '--normal-balance', normal]);
  }
  log(`start-up: ledger accounts list and node -e 0, ${RUNS} times each`);
  return {
    timings: [
      timeRuns('ledger accounts list', [LEDGER_BIN, 'accounts', 'list', '--db', db], (stdout) => {
        // A header and the three accounts: the command did its work, not only start.
        const lines = stdout.trim().split('\n').length;
        if (lines !== 4) throw new Error(`ledger accounts list printed ${lines} lines, expected 4:\n${stdout}`);
      }),
      timeRuns('node -e 0', ['-e', '0'], () => {}),
    ],
  };
}

export function startupMarkdown(r: StartupResult): string {
  return [
    '### Start-up (wall time from spawn to exit, pinned to CPU 0; a ledger of three accounts)',
    '',
    table(['command', 'runs', 'p50 ms', 'max ms'],
      r.timings.map((t) => [t.name, fmt(t.runs), fmt(t.latency.p50, 1), fmt(t.latency.max, 1)])),
  ].join('\n');
}
