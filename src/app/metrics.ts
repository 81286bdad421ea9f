/**
 * The operator's metrics in the Prometheus text format (prom-client), served at /metrics when
 * LEDGER_METRICS_TOKEN is set (docs/operations.md, "Metrics"). The core reports through the
 * LedgerObserver port; the HTTP face through `requestFinished`; the gauges that need the database
 * (the pool, the feed, the webhook backlog) are read at each scrape.
 *
 * Each process keeps its own registry: with several servers, Prometheus scrapes each one and the
 * queries sum over `instance`.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { HttpMetrics } from '../http/build-app.js';
import type { LedgerObserver } from '../service/ports/observer.js';
import type { ServiceGauges } from '../service/ledger-service.js';

/** The least a token must hold: it guards figures about the business (entries posted, endpoints). */
export const MIN_METRICS_TOKEN_LENGTH = 16;

export interface Metrics extends HttpMetrics {
  readonly observer: LedgerObserver;
  /** Where the scrape-time gauges come from (set once the service is open). */
  readGaugesFrom(read: () => Promise<ServiceGauges>): void;
}

export function createMetrics(token: string): Metrics {
  const registry = new Registry();
  // Process and Node figures: CPU, memory, open handles, event-loop lag (p50/p90/p99), GC.
  collectDefaultMetrics({ register: registry });

  const requests = new Histogram({
    name: 'ledger_http_request_duration_seconds', help: 'HTTP requests by route template, method and status, and how long they took',
    labelNames: ['method', 'route', 'status'] as const, buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  const posted = new Counter({ name: 'ledger_entries_posted_total', help: 'Journal entries committed (posts, batches, imports, reversals)', registers: [registry] });
  const refused = new Counter({
    name: 'ledger_entries_refused_total', help: 'Posts, batches, imports and reversals refused, by error code', labelNames: ['code'] as const,
    registers: [registry],
  });
  const groupJobs = new Histogram({
    name: 'ledger_write_group_jobs', help: 'Jobs (requests) committed together in one transaction of the write queue',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256], registers: [registry],
  });
  const groupSeconds = new Histogram({
    name: 'ledger_write_group_seconds', help: 'Time of one write-queue transaction, BEGIN to COMMIT (the commit\'s fsync included)',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5], registers: [registry],
  });
  const poolWaits = new Histogram({
    name: 'ledger_db_pool_wait_seconds', help: 'How long a write group or a snapshot read waited for a PostgreSQL connection of the pool',
    buckets: [0.0001, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5], registers: [registry],
  });
  const attempts = new Counter({
    name: 'ledger_webhook_attempts_total', help: 'Webhook delivery attempts by outcome (delivered: a 2xx; failed: anything else)',
    labelNames: ['outcome'] as const, registers: [registry],
  });

  let readGauges: (() => Promise<ServiceGauges>) | undefined;
  let scrape: Promise<ServiceGauges | undefined> | undefined;
  /** One read of the database per scrape, shared by the gauges below; undefined when the database does not answer. */
  const gauges = () => {
    scrape ??= (readGauges?.() ?? Promise.resolve(undefined)).catch(() => undefined).finally(() => {
      setImmediate(() => { scrape = undefined; });
    });
    return scrape;
  };
  new Gauge({
    name: 'ledger_db_pool_connections', help: 'Connections of the PostgreSQL pool: open, idle, requests waiting for one, and the most it opens',
    labelNames: ['state'] as const, registers: [registry],
    async collect() {
      const pool = (await gauges())?.pool;
      if (pool === undefined) return;
      this.set({ state: 'total' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
      this.set({ state: 'max' }, pool.max);
    },
  });
  new Gauge({
    name: 'ledger_events_last_seq', help: 'The seq of the newest event of the change feed', registers: [registry],
    async collect() {
      const read = await gauges();
      if (read !== undefined) this.set(read.lastEventSeq);
    },
  });
  new Gauge({
    name: 'ledger_webhook_backlog_events', help: 'Events of the feed after an endpoint\'s cursor (not yet delivered or skipped), by endpoint',
    labelNames: ['endpoint_id', 'active'] as const, registers: [registry],
    async collect() {
      const read = await gauges();
      if (read === undefined) return;
      this.reset();
      for (const endpoint of read.webhooks) this.set({ endpoint_id: endpoint.id, active: String(endpoint.active) }, endpoint.backlog);
    },
  });
  new Gauge({
    name: 'ledger_database_up', help: '1 when the database answered this scrape\'s reads, else 0', registers: [registry],
    async collect() {
      this.set((await gauges()) === undefined ? 0 : 1);
    },
  });

  return {
    token,
    observer: {
      groupCommitted(jobs, seconds) {
        groupJobs.observe(jobs);
        groupSeconds.observe(seconds);
      },
      entriesPosted(count) { posted.inc(count); },
      entriesRefused(code) { refused.inc({ code }); },
      webhookAttempted(delivered) { attempts.inc({ outcome: delivered ? 'delivered' : 'failed' }); },
      connectionAcquired(seconds) { poolWaits.observe(seconds); },
    },
    requestFinished(method, route, status, seconds) {
      requests.observe({ method, route, status: String(status) }, seconds);
    },
    readGaugesFrom(read) {
      readGauges = read;
    },
    async render() {
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}

/** LEDGER_METRICS_TOKEN: unset (no /metrics), or a token long enough to guard it. */
export function metricsTokenFrom(env: NodeJS.ProcessEnv): string | undefined {
  const token = env.LEDGER_METRICS_TOKEN;
  if (token === undefined || token === '') return undefined;
  if (token.length < MIN_METRICS_TOKEN_LENGTH || /\s/.test(token)) {
    throw new Error(`LEDGER_METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters without spaces (e.g. openssl rand -hex 24)`);
  }
  return token;
}
