/**
 * `ledger health`: asks a running `ledger serve` whether it is ready (GET /readyz) and exits 0 when
 * it is. The container image's HEALTHCHECK runs it (no curl in a slim image), and so can any
 * supervisor; `ledger doctor` checks a configuration and a database without a server.
 */
import type { Command } from 'commander';
import { CommandExit } from '../command-exit.js';
import { EXIT } from '../exit-codes.js';
import { globals } from '../global-options.js';
import { printJson } from '../output.js';

const TIMEOUT_MS = 5_000;

export function registerHealthCommand(program: Command): void {
  program.command('health')
    .description('Ask a running ledger serve whether it is ready (GET /readyz); exit 0 when it is, 6 when not')
    .option('--url <url>', 'the server (default: http://127.0.0.1:$PORT, PORT defaulting to 3000)')
    .addHelpText('after', '\nExamples:\n  $ ledger health\n  $ ledger health --url http://10.0.0.5:3000 --json')
    .action(async (options: { url?: string }, command: Command) => {
      const { json } = globals(command);
      const base = (options.url ?? `http://127.0.0.1:${process.env.PORT || '3000'}`).replace(/\/+$/, '');
      let status: number | undefined;
      let body: unknown;
      let problem: string | undefined;
      try {
        const response = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
        status = response.status;
        body = await response.json().catch(() => undefined);
      } catch (error) {
        problem = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      }
      const ready = status === 200;
      if (json) printJson({ data: { url: base, ready, status: status ?? null, answer: body ?? null, error: problem ?? null } });
      else if (ready) process.stdout.write(`ready: ${base}\n`);
      else {
        const why = problem ?? ((body as { message?: string } | undefined)?.message ?? `HTTP ${String(status)}`);
        process.stdout.write(`not ready: ${base}: ${why}\n`);
      }
      if (!ready) throw new CommandExit(EXIT.unavailable);
    });
}
