/**
 * The ceiling of HTTP on this machine: bench/bare-http-server.mjs (node:http only; reads and
 * parses the body, checks for the credential, answers 201 with an entry-sized JSON body) started
 * and pinned exactly as `ledger serve` is, and loaded exactly as the posting run loads it: the
 * same body, the same concurrency, warm-up and count, the same closed loop.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  type BenchOptions, Client, closedLoop, fmt, type LatencySummary, log, OtherCpu, pct, processCpuSeconds, ROOT, type Server, startNodeServer, stopServer,
  summarize, table,
} from './lib.js';
import { entryBody } from './posting.js';

export interface HttpBaselineResult {
  requests: number;
  concurrency: number;
  seconds: number;
  requestsPerSecond: number;
  latency: LatencySummary;
  /** Server CPU time / wall time during the measured loop (1.0 = one core busy). */
  serverCpu: number | undefined;
  /** CPU used by other processes on the machine during the loop, in cores (should be ~0). */
  otherCpu: number | undefined;
  /** Size of one answer's body, to compare with the real API's. */
  responseBytes: number;
}

const SERVER_SCRIPT = join(ROOT, 'bench', 'bare-http-server.mjs');
const PATH = '/api/v1/journal-entries';

/** bench/bare-http-server.mjs, pinned to CPU 0 as `ledger serve` is. */
export function startBareHttpServer(): Promise<Server> {
  return startNodeServer('bare node:http server', [SERVER_SCRIPT], {}, 0, /bare node:http listening on (http:\/\/127\.0\.0\.1:\d+)/);
}

export async function runHttpBaseline(options: BenchOptions): Promise<HttpBaselineResult> {
  const server = await startBareHttpServer();
  log(`bare node:http: pid ${server.pid} at ${server.baseUrl}`);
  // Any key: the server only checks that the header is there.
  const client = new Client(server.baseUrl, options.concurrency, 'tsk_bench');
  // Ids of the same shape as the real accounts', so that the body is the same size.
  const debit = randomUUID();
  const credit = randomUUID();
  let responseBytes = 0;
  const post = async (i: number) => {
    const response = await client.request('POST', PATH, entryBody(debit, credit, i));
    if (response.status !== 201) throw new Error(`bare node:http #${i}: expected 201, got ${response.status}: ${response.body.slice(0, 300)}`);
    responseBytes = Buffer.byteLength(response.body);
  };
  try {
    if (options.warmup > 0) await closedLoop(options.warmup, options.concurrency, options.maxSeconds, post);
    const cpu0 = processCpuSeconds(server.pid);
    const others = new OtherCpu([server.pid]);
    const load = await closedLoop(options.entries, options.concurrency, options.maxSeconds, post);
    const cpu1 = processCpuSeconds(server.pid);
    const otherCpu = others.cores();
    log(`bare node:http: ${load.count} requests in ${load.seconds.toFixed(2)} s`);
    return {
      requests: load.count, concurrency: options.concurrency, seconds: load.seconds, requestsPerSecond: load.count / load.seconds,
      latency: summarize(load.latenciesMs),
      serverCpu: cpu0 !== undefined && cpu1 !== undefined ? (cpu1 - cpu0) / load.seconds : undefined,
      otherCpu, responseBytes,
    };
  } catch (error) {
    log(`bare node:http: server output:\n${server.output().slice(-3000)}`);
    throw error;
  } finally {
    client.close();
    await stopServer(server);
  }
}

export function httpBaselineMarkdown(r: HttpBaselineResult): string {
  return [
    `### Bare node:http, the same POST (${r.concurrency} concurrent keep-alive clients; the ceiling of HTTP here)`,
    '',
    table(['server', 'requests', 'seconds', 'requests/s', 'p50 ms', 'p99 ms', 'max ms', 'server CPU', 'other CPU'],
      [['node:http: read, JSON.parse, check authorization, answer 201', fmt(r.requests), r.seconds.toFixed(2), fmt(r.requestsPerSecond),
        fmt(r.latency.p50, 1), fmt(r.latency.p99, 1), fmt(r.latency.max, 1), pct(r.serverCpu), pct(r.otherCpu)]]),
    '',
    `Same body, load generator and warm-up as the posting runs; each answer is ${fmt(r.responseBytes)} bytes of JSON `
      + '(an id and the entry echoed with its two lines, shaped like the API\'s). No ledger code, no database.',
  ].join('\n');
}
