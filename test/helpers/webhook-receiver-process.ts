/**
 * Starts and drives the webhook receiver (test/helpers/webhook-receiver.mjs), its own process on
 * 127.0.0.1, for the API tests and the browser journey: which secrets it checks signatures with,
 * which statuses it answers next, and what it received.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './cli.js';

export interface Received { id: string; timestamp: string; status: number; signatures: number; valid_with: number[]; event: any }

export class Receiver {
  private constructor(readonly child: ChildProcessWithoutNullStreams, readonly url: string) {}

  static start(): Promise<Receiver> {
    const child = spawn(process.execPath, [join(ROOT, 'test/helpers/webhook-receiver.mjs')]);
    return new Promise((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => {
        const port = /listening (\d+)/.exec(chunk.toString())?.[1];
        if (port) resolve(new Receiver(child, `http://127.0.0.1:${port}`));
        else reject(new Error(`receiver: ${chunk.toString()}`));
      });
    });
  }

  private async control(path: string, body: unknown): Promise<void> {
    await fetch(this.url + path, { method: 'POST', body: JSON.stringify(body) });
  }

  /** The secrets it checks each delivery's signatures with; `valid_with` names their indexes. */
  secrets(secrets: string[]) { return this.control('/_secrets', { secrets }); }
  /** The statuses of the next answers, in turn; 200 after them. */
  respond(codes: number[]) { return this.control('/_respond', { codes }); }
  delay(ms: number) { return this.control('/_delay', { ms }); }
  /** SIGKILLs `pid` right after answering the `count`-th delivery from now. */
  killAfter(count: number, pid: number) { return this.control('/_kill_after', { count, pid }); }
  /** What it received, how often two deliveries overlapped, and how many connections carried them. */
  async received(): Promise<{ received: Received[]; overlaps: number; connections: number }> {
    return (await fetch(`${this.url}/_received`)).json() as Promise<{ received: Received[]; overlaps: number; connections: number }>;
  }

  stop() {
    this.child.kill('SIGTERM');
  }
}
