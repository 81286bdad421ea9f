/**
 * The posting benchmark's webhook case (issue 26: "delivery does not slow posting"): a receiver in
 * its own process (bench/webhook-receiver.mjs), N endpoints on it created through the API just
 * before the measured load, and after the load how far delivery had got, how long it took to
 * catch up, and what the receiver counted. Used by bench/posting.ts (SQLite) and bench/postgres.ts.
 *
 * Delivery that stopped or fell behind for good would make "posting with endpoints" the same as
 * posting without them, so the case fails loudly when, after the load, no lagging endpoint's cursor
 * moved for STALL_LIMIT_MS, when the endpoints have not delivered every event of the load within
 * --webhook-catch-up seconds after it, or when the receiver did not get them all.
 *
 * Delivery is one event at a time per endpoint (the order), over a kept-alive connection, with
 * its successes recorded in batches (src/service/webhooks/delivery.ts). During a posting load that
 * saturates the server each delivery waits for turns of a busy event loop, so it still falls far
 * behind and catches up afterwards (measured on this 2-core machine, not quiet: about 25 events/s
 * per endpoint during the load, about 700 events/s per endpoint after it at about 220 µs of server
 * CPU per delivery, with three endpoints); the catch-up limit is therefore minutes, not seconds,
 * and the stall limit is what notices a delivery that stopped.
 */
import { join } from 'node:path';
import { type Client, log, ROOT, type Server, sleep, startNodeServer, stopServer } from './lib.js';

/**
 * After the load, some lagging endpoint's cursor must move at least this often: longer than the
 * first retry delay (5 s), so that one failed attempt is not taken for a stop.
 */
export const STALL_LIMIT_MS = 15_000;
/** How often the endpoints' cursors are read while waiting for them to catch up. */
const POLL_MS = 100;
const RECEIVER_SCRIPT = join(ROOT, 'bench', 'webhook-receiver.mjs');

/** The server's environment for every posting run, with endpoints or without: 127.0.0.1 receivers are allowed. */
export const WEBHOOK_SERVER_ENV = { LEDGER_WEBHOOK_ALLOW_PRIVATE: 'true' };

export interface WebhookDelivery {
  endpoints: number;
  /** Events of the measured load (the posts), each to be delivered to every endpoint. */
  events: number;
  /** Events the slowest endpoint had delivered when the load ended, and the fastest. */
  deliveredAtEndMin: number;
  deliveredAtEndMax: number;
  /** Events the slowest endpoint was behind the last event when the load ended. */
  lagAtEnd: number;
  /** From the end of the load until every endpoint had delivered the last event. */
  catchUpSeconds: number;
  /** Events per second the slowest endpoint delivered while catching up. */
  catchUpRate: number | undefined;
  /** Deliveries the receiver had counted when the load ended, and in all. */
  receivedAtEnd: number;
  received: number;
  /** Deliveries of an event an endpoint had delivered already (at least once: retries may repeat). */
  repeats: number;
  /** The receiver's CPU over the measured loop, in cores (it shares the load generator's core). */
  receiverCpu: number | undefined;
  /**
   * The server's CPU per delivery while it caught up after the load (it did nothing else then),
   * in µs; undefined when it had caught up already or its CPU could not be read.
   */
  serverCpuPerDeliveryMicros: number | undefined;
}

export interface ReceiverCounts {
  total: number;
  paths: Record<string, number>;
  repeats: number;
}

interface EndpointView {
  id: string;
  url: string;
  is_active: boolean;
  disabled_reason: string | null;
  last_seq: string;
}

/** A running receiver and the endpoints created on it. */
export class WebhookCase {
  private constructor(readonly receiver: Server, private readonly client: Client, readonly endpointIds: string[],
    /** The feed's last seq when the endpoints were made: they deliver what comes after it. */
    readonly seqAtStart: number) {}

  /**
   * Starts the receiver on `cpu` and creates `count` endpoints for every event type on it, each on a
   * path of its own, through `client` (an admin's). Call it after the warm-up, right before the load.
   */
  static async start(client: Client, count: number, cpu: number): Promise<WebhookCase> {
    const receiver = await startReceiver(cpu);
    try {
      const ids = await createEndpoints(client, receiver.baseUrl, count, 'endpoint');
      const endpoints = await listEndpoints(client, ids);
      const seqs = new Set(endpoints.map((e) => e.last_seq));
      if (seqs.size !== 1) throw new Error(`webhook endpoints made one after the other start at different seqs: ${[...seqs].join(', ')}`);
      return new WebhookCase(receiver, client, ids, Number(endpoints[0]!.last_seq));
    } catch (error) {
      await stopReceiver(receiver);
      throw error;
    }
  }

  /**
   * After a load of `events` posts (and no other change): where delivery was at once, then waits
   * until every endpoint delivered the last event, and checks the receiver got every delivery.
   */
  async finish(events: number, catchUpLimitSeconds: number, receiverCpu: number | undefined,
    serverCpuSeconds: () => number | undefined): Promise<WebhookDelivery> {
    const ended = performance.now();
    const cpuAtEnd = serverCpuSeconds();
    const lastSeq = this.seqAtStart + events;
    const [atEnd, countsAtEnd] = await Promise.all([listEndpoints(this.client, this.endpointIds), this.counts()]);
    await this.expectLastEvent(lastSeq);
    const delivered = atEnd.map((e) => Number(e.last_seq) - this.seqAtStart);
    let endpoints = atEnd;
    let progressAt = ended;
    const where = () => `the endpoints had delivered up to seq ${endpoints.map((e) => e.last_seq).join(', ')} of ${lastSeq} (they started `
      + `at ${this.seqAtStart}; at the load's end: ${atEnd.map((e) => e.last_seq).join(', ')})`;
    while (endpoints.some((e) => Number(e.last_seq) < lastSeq)) {
      const stopped = endpoints.filter((e) => !e.is_active);
      if (stopped.length > 0) {
        throw new Error(`WEBHOOK DELIVERY FAILED: endpoint(s) disabled during the run: ${stopped.map((e) => `${e.url}: ${e.disabled_reason}`).join('; ')}`);
      }
      const now = performance.now();
      if (now - ended > catchUpLimitSeconds * 1000) {
        throw new Error(`WEBHOOK DELIVERY FAILED: ${catchUpLimitSeconds} s after the load (--webhook-catch-up) ${where()}`);
      }
      if (now - progressAt > STALL_LIMIT_MS) {
        throw new Error(`WEBHOOK DELIVERY FAILED: no endpoint's cursor moved for ${STALL_LIMIT_MS / 1000} s; ${where()}`);
      }
      await sleep(POLL_MS);
      const previous = endpoints;
      endpoints = await listEndpoints(this.client, this.endpointIds);
      if (endpoints.some((e, i) => e.last_seq !== previous[i]!.last_seq)) progressAt = performance.now();
    }
    const catchUpSeconds = (performance.now() - ended) / 1000;
    const cpuCaughtUp = serverCpuSeconds();
    const counts = await this.counts();
    const expected = this.endpointIds.length * events;
    if (counts.total - counts.repeats !== expected) {
      throw new Error(`WEBHOOK DELIVERY FAILED: the endpoints' cursors are at the last event, but the receiver counted `
        + `${counts.total} deliveries (${counts.repeats} repeats) where ${expected} were due: ${JSON.stringify(counts.paths)}`);
    }
    return {
      endpoints: this.endpointIds.length, events, deliveredAtEndMin: Math.min(...delivered), deliveredAtEndMax: Math.max(...delivered),
      lagAtEnd: events - Math.min(...delivered), catchUpSeconds,
      catchUpRate: catchUpSeconds > 0 && Math.min(...delivered) < events ? (events - Math.min(...delivered)) / catchUpSeconds : undefined, receivedAtEnd: countsAtEnd.total, received: counts.total,
      repeats: counts.repeats, receiverCpu,
      serverCpuPerDeliveryMicros: cpuAtEnd === undefined || cpuCaughtUp === undefined || counts.total <= countsAtEnd.total ? undefined
        : ((cpuCaughtUp - cpuAtEnd) / (counts.total - countsAtEnd.total)) * 1e6,
    };
  }

  async stop(): Promise<void> {
    await stopReceiver(this.receiver);
  }

  private counts(): Promise<ReceiverCounts> {
    return receiverCounts(this.receiver);
  }

  /** The feed ends at `lastSeq`: the load's posts were the only changes, so the endpoints' goal is known. */
  private async expectLastEvent(lastSeq: number): Promise<void> {
    const page = await this.client.json<{ data: { seq: string }[] }>('GET', `/api/v1/events?after=${lastSeq - 1}&limit=2`, undefined, 200);
    const seqs = page.data.map((e) => e.seq);
    if (seqs.length !== 1 || seqs[0] !== String(lastSeq)) {
      throw new Error(`webhook case: expected the feed to end at seq ${lastSeq} (${this.seqAtStart} + the load's posts), found ${seqs.join(', ') || 'nothing'} after ${lastSeq - 1}`);
    }
  }
}

/** The bench's receiver (bench/webhook-receiver.mjs), pinned to `cpu`. */
export function startReceiver(cpu: number): Promise<Server> {
  return startNodeServer('webhook receiver', [RECEIVER_SCRIPT], {}, cpu, /webhook receiver listening on (http:\/\/127\.0\.0\.1:\d+)/);
}

/** What the receiver has counted so far. */
export async function receiverCounts(receiver: Server): Promise<ReceiverCounts> {
  const response = await fetch(`${receiver.baseUrl}/_counts`);
  if (!response.ok) throw new Error(`webhook receiver /_counts answered ${response.status}`);
  return await response.json() as ReceiverCounts;
}

/** Creates `count` endpoints for every event type on the receiver, on the paths `/{prefix}-1`, `/{prefix}-2`, ...; their ids. */
export async function createEndpoints(client: Client, receiverUrl: string, count: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await client.json<{ data: EndpointView }>('POST', '/api/v1/webhook-endpoints', {
      url: `${receiverUrl}/${prefix}-${i + 1}`, event_types: ['*'], description: `bench ${prefix} ${i + 1}`,
    }, 201);
    ids.push(created.data.id);
  }
  return ids;
}

async function listEndpoints(client: Client, ids: string[]): Promise<EndpointView[]> {
  const page = await client.json<{ data: EndpointView[] }>('GET', '/api/v1/webhook-endpoints', undefined, 200);
  return ids.map((id) => {
    const endpoint = page.data.find((e) => e.id === id);
    if (endpoint === undefined) throw new Error(`webhook endpoint ${id} is not listed`);
    return endpoint;
  });
}

export async function stopReceiver(receiver: Server): Promise<void> {
  await stopServer(receiver);
  log(`webhook receiver ${receiver.pid} stopped`);
}
