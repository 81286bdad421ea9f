/**
 * Issue 26's goal measured in one server (docs/benchmarks.md, "Issue 26's goal, interleaved"):
 * posting with N active webhook endpoints against posting without them, in short windows that
 * alternate inside one run of one server on one database, instead of in separate runs.
 *
 * Why: this machine moves between two speed states from one run to the next (about 2,000-2,400
 * against 2,950-3,300 entries/s for the same build), a step larger than the goal's 10%, so two
 * separate runs a side cannot show the goal either way. Windows of a few seconds, in the order
 * without, with, with, without, ... (so that a drift during the run weighs on both sides alike),
 * put each window with endpoints next to one without them under the same state of the machine.
 *
 * A window with endpoints creates them right before its load (they start at the feed's end, as in
 * the separate runs) and deletes them right after it, then waits until the receiver counts no
 * more deliveries, so that no delivery of one window runs into the next. The receiver runs
 * throughout, on the load generator's core. The windows with endpoints must have delivered
 * something during their load, and those without nothing, or the run fails: a comparison in which
 * no delivery ran would show nothing.
 *
 * The verdict is the median of the pairs' ratios (windows 1-2, 3-4, ...: each pair one of each,
 * adjacent in time), printed with their spread and the ratio of the two sides' medians.
 */
import { join } from 'node:path';
import { abbaOrder, type BenchOptions, Client, closedLoop, log, type LatencySummary, median, type Server, sleep, startServer, stopServer, summarize, summarizeAll } from './lib.js';
import { createFixtures, postOne, prepareDatabase } from './posting.js';
import { createEndpoints, receiverCounts, startReceiver, stopReceiver, WEBHOOK_SERVER_ENV } from './webhooks.js';

/** Windows run before the counted ones, in the same order (a multiple of four keeps the order). */
const WARM_UP_WINDOWS = 4;
/** After the endpoints of a window are deleted, the receiver's count must hold still this long. */
const SETTLE_MS = 200;
/** ... within this long, or the run fails. */
const SETTLE_LIMIT_MS = 10_000;

export interface InterleavedWindow {
  /** 1-based, in run order. */
  index: number;
  /** Active endpoints during the window (0: without). */
  endpoints: number;
  entries: number;
  seconds: number;
  entriesPerSecond: number;
  /** Every post's latency (a window's summary, and each side's over all of its windows' posts). */
  latenciesMs: Float64Array;
  /** Deliveries the receiver counted during the window's load. */
  delivered: number;
}

export interface InterleavedResult {
  endpoints: number;
  windows: InterleavedWindow[];
  /** with / without of each pair of windows (1-2, 3-4, ...), in run order. */
  pairRatios: number[];
  /** The verdict's figure: the median of pairRatios. */
  ratio: number;
  /** Each side's median entries/s over its windows, and their ratio. */
  withoutRate: number;
  withRate: number;
  mediansRatio: number;
  /** Each side's latency over all of its windows' requests. */
  withoutLatency: LatencySummary;
  withLatency: LatencySummary;
}

/** The comparison from the windows' figures (pure: tested apart from a run). */
export function compareWindows(endpoints: number, windows: InterleavedWindow[]): InterleavedResult {
  const pairRatios: number[] = [];
  for (let i = 0; i + 1 < windows.length; i += 2) {
    const [a, b] = [windows[i]!, windows[i + 1]!];
    const [withWindow, without] = a.endpoints > 0 ? [a, b] : [b, a];
    if (withWindow.endpoints === 0 || without.endpoints !== 0) throw new Error(`windows ${a.index} and ${b.index} are not one with endpoints and one without`);
    pairRatios.push(withWindow.entriesPerSecond / without.entriesPerSecond);
  }
  const rates = (withEndpoints: boolean) => windows.filter((w) => (w.endpoints > 0) === withEndpoints).map((w) => w.entriesPerSecond);
  const joined = (withEndpoints: boolean) => summarizeAll(windows.filter((w) => (w.endpoints > 0) === withEndpoints).map((w) => w.latenciesMs));
  const withoutRate = median(rates(false));
  const withRate = median(rates(true));
  return {
    endpoints, windows, pairRatios, ratio: median(pairRatios), withoutRate, withRate, mediansRatio: withRate / withoutRate,
    withoutLatency: joined(false), withLatency: joined(true),
  };
}

/**
 * One server (SQLite, synchronous=FULL, pinned to CPU 0), warmed up (the warm-up posts, then
 * WARM_UP_WINDOWS windows not counted), then `options.webhookWindows` windows of `options.webhookWindowEntries` posts each, alternating without and with
 * `options.webhooks` endpoints.
 */
export async function runInterleaved(options: BenchOptions, dir: string): Promise<InterleavedResult> {
  const db = join(dir, 'http-FULL-webhooks-interleaved.db');
  const apiKey = prepareDatabase(db);
  const server = await startServer(db, { LEDGER_SQLITE_SYNCHRONOUS: 'FULL', ...WEBHOOK_SERVER_ENV }, 0);
  log(`interleaved: ledger serve pid ${server.pid} at ${server.baseUrl}`);
  const client = new Client(server.baseUrl, options.concurrency, apiKey);
  const receiver = await startReceiver(1);
  try {
    const setup = await createFixtures(client);
    if (options.warmup > 0) {
      await closedLoop(options.warmup, options.concurrency, options.maxSeconds,
        async (i) => { await postOne(client, setup.warmDebitAccount, setup.warmCreditAccount, i); });
    }
    // The first WARM_UP_WINDOWS (without, with, with, without) are not counted: the server's code,
    // the delivery's among it, is still being compiled and its rate still climbing through them.
    const order = abbaOrder(options.webhooks, WARM_UP_WINDOWS + options.webhookWindows);
    const windows: InterleavedWindow[] = [];
    let posted = 0;
    for (const [i, endpoints] of order.entries()) {
      const index = i + 1 - WARM_UP_WINDOWS;
      const name = index > 0 ? `window ${index} of ${options.webhookWindows}` : `warm-up window ${i + 1} of ${WARM_UP_WINDOWS}`;
      const ids = endpoints > 0 ? await createEndpoints(client, receiver.baseUrl, endpoints, `window-${i + 1}`) : [];
      const before = (await receiverCounts(receiver)).total;
      const load = await closedLoop(options.webhookWindowEntries, options.concurrency, options.maxSeconds,
        async (n) => { await postOne(client, setup.debitAccount, setup.creditAccount, posted + n); });
      const delivered = (await receiverCounts(receiver)).total - before;
      posted += load.count;
      for (const id of ids) await client.json('DELETE', `/api/v1/webhook-endpoints/${id}`, undefined, 200);
      if (ids.length > 0) await settle(receiver);
      if (load.count < options.webhookWindowEntries) {
        throw new Error(`interleaved ${name}: time limit of ${options.maxSeconds} s reached after ${load.count} of ${options.webhookWindowEntries} entries`);
      }
      if (endpoints > 0 && delivered === 0) {
        throw new Error(`interleaved ${name}: ${endpoints} endpoints delivered nothing during the load; the comparison would show nothing`);
      }
      if (endpoints === 0 && delivered !== 0) {
        throw new Error(`interleaved ${name}: ${delivered} deliveries during a window without endpoints`);
      }
      const window: InterleavedWindow = {
        index, endpoints, entries: load.count, seconds: load.seconds, entriesPerSecond: load.count / load.seconds,
        latenciesMs: load.latenciesMs, delivered,
      };
      log(`interleaved ${name}, ${endpoints} endpoints: ${Math.round(window.entriesPerSecond)} entries/s, `
        + `p50 ${summarize(load.latenciesMs).p50.toFixed(1)} ms, ${delivered} deliveries`);
      if (index <= 0) continue;
      windows.push(window);
    }
    return compareWindows(options.webhooks, windows);
  } catch (error) {
    log(`interleaved: server output:\n${server.output().slice(-3000)}`);
    throw error;
  } finally {
    client.close();
    await stopReceiver(receiver);
    await stopServer(server);
  }
}

/** Waits until the receiver's count holds still for SETTLE_MS (an attempt under way when its endpoint was deleted ends). */
async function settle(receiver: Server): Promise<void> {
  const deadline = performance.now() + SETTLE_LIMIT_MS;
  let last = (await receiverCounts(receiver)).total;
  for (;;) {
    await sleep(SETTLE_MS);
    const now = (await receiverCounts(receiver)).total;
    if (now === last) return;
    if (performance.now() > deadline) throw new Error(`interleaved: deliveries still arriving ${SETTLE_LIMIT_MS / 1000} s after the endpoints were deleted`);
    last = now;
  }
}
