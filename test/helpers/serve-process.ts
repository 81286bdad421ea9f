/**
 * `ledger serve` as a real child process (the compiled program, as a user runs it) on a free port
 * of 127.0.0.1, for tests where several processes share one database. Started servers are stopped
 * by their own process id.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { BIN, cliEnv, ROOT } from './cli.js';

export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  /** http://127.0.0.1:PORT */
  baseUrl: string;
  /** Everything the server printed so far, stdout and stderr. */
  output(): string;
  /** Stops the server by its process id and waits until it has exited. */
  stop(): Promise<void>;
}

/** Starts `ledger serve --db <location>` and resolves once it listens; `env` adds variables. */
export function startServe(location: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, '--db', location, 'serve', '--port', '0', '--host', '127.0.0.1'], {
      cwd: ROOT, env: cliEnv({ LEDGER_LOG_LEVEL: 'warn', ...env }),
    });
    let printed = '';
    const timer = setTimeout(() => reject(new Error(`ledger serve did not start: ${printed}`)), 30_000);
    const onData = (chunk: Buffer) => {
      printed += chunk.toString('utf8');
      const baseUrl = /ledger listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(printed)?.[1];
      if (baseUrl) {
        clearTimeout(timer);
        resolve({ child, baseUrl, output: () => printed, stop: () => stopServe(child) });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`ledger serve exited ${code}: ${printed}`)));
  });
}

async function stopServe(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(child.pid!, 'SIGTERM');
  await exited;
}
