/**
 * /metrics (docs/operations.md, "Metrics"): a real `ledger serve` on the backend under test,
 * scraped as Prometheus would. Served only with LEDGER_METRICS_TOKEN set and only to that token
 * (else 404); the figures follow what the test did.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSalesBooks } from '../helpers/sales-books.js';
import { BIN, cliEnv, ROOT } from '../helpers/cli.js';
import { type ServeProcess, startServe } from '../helpers/serve-process.js';
import { createTestLocation, type TestLocation } from '../helpers/test-location.js';

const TOKEN = 'metrics-token-0123456789abcdef';

let place: TestLocation;
let adminKey: string;
let cash: string;
let sales: string;
const servers: ServeProcess[] = [];

beforeAll(async () => {
  place = await createTestLocation('ledger-metrics');
  ({ adminKey, cash, sales } = await seedSalesBooks(place.location));
}, 60_000);

afterAll(async () => {
  for (const server of servers) await server.stop();
  await place?.remove();
});

async function serve(env: Record<string, string>): Promise<ServeProcess> {
  const server = await startServe(place.location, env);
  servers.push(server);
  return server;
}

async function scrape(server: ServeProcess, authorization?: string): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(`${server.baseUrl}/metrics`, { headers: authorization === undefined ? {} : { authorization } });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

/** The value of one series (its name and exact label text as Prometheus prints them), or undefined. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function api(server: ServeProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method, headers: { authorization: `Bearer ${adminKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const entry = (amount: number, credit = amount) => ({
  entry_date: '2026-02-03', description: 'sale',
  lines: [{ account_id: cash, debit_amount: String(amount) }, { account_id: sales, credit_amount: String(credit) }],
});

describe('/metrics', () => {
  it('does not exist without LEDGER_METRICS_TOKEN, and a token too short stops the start', async () => {
    const server = await serve({});
    expect((await scrape(server, `Bearer ${TOKEN}`)).status).toBe(404);
    await server.stop();
    const refused = spawnSync(process.execPath, [BIN, '--db', place.location, 'serve', '--port', '0', '--host', '127.0.0.1'], {
      cwd: ROOT, env: cliEnv({ LEDGER_METRICS_TOKEN: 'short' }), encoding: 'utf8', timeout: 30_000,
    });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('LEDGER_METRICS_TOKEN must be at least 16 characters');
  });

  it('answers only its token, and counts requests, entries posted and refused, write groups, the feed and the webhook backlog', async () => {
    const server = await serve({ LEDGER_METRICS_TOKEN: TOKEN, LEDGER_WEBHOOK_ALLOW_PRIVATE: 'true', LEDGER_WEBHOOK_RETRY_DELAYS_MS: '600000' });
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', TOKEN, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`]) {
      const refused = await scrape(server, authorization);
      expect({ authorization, status: refused.status }).toEqual({ authorization, status: 404 });
      expect(JSON.parse(refused.text)).toMatchObject({ code: 'NOT_FOUND' });
    }
    // An endpoint nobody listens on: its deliveries fail, so the events after it wait (its backlog).
    const endpoint = await api(server, 'POST', '/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', event_types: ['*'] });
    expect(endpoint.status).toBe(201);

    for (const amount of [100, 200, 300]) expect((await api(server, 'POST', '/journal-entries', entry(amount))).status).toBe(201);
    expect((await api(server, 'POST', '/journal-entries', entry(100, 99))).body.code).toBe('UNBALANCED_ENTRY');
    expect((await api(server, 'POST', '/journal-entries/batch', { entries: [entry(1), entry(2)] })).status).toBe(201);
    // A dry run posts nothing and is not counted.
    expect((await api(server, 'POST', '/journal-entries?dry_run=true', entry(5))).status).toBe(200);
    const lastSeq = Number((await api(server, 'GET', '/events?limit=200')).body.data.at(-1).seq);

    const scraped = await scrape(server, `Bearer ${TOKEN}`);
    expect(scraped.status).toBe(200);
    expect(scraped.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = scraped.text;
    expect(valueOf(text, 'ledger_entries_posted_total')).toBe(5);
    expect(valueOf(text, 'ledger_entries_refused_total{code="UNBALANCED_ENTRY"}')).toBe(1);
    expect(valueOf(text, 'ledger_http_request_duration_seconds_count{method="POST",route="/api/v1/journal-entries",status="201"}')).toBe(3);
    expect(valueOf(text, 'ledger_http_request_duration_seconds_count{method="POST",route="/api/v1/journal-entries",status="400"}')).toBe(1);
    // The route's template, never the raw path with its id.
    expect(text).toContain('route="/api/v1/webhook-endpoints"');
    expect(text).not.toContain(endpoint.body.data.id.concat('"}'));
    expect(valueOf(text, 'ledger_write_group_jobs_count')).toBeGreaterThanOrEqual(5);
    expect(valueOf(text, 'ledger_write_group_seconds_count')).toBe(valueOf(text, 'ledger_write_group_jobs_count'));
    expect(valueOf(text, 'ledger_events_last_seq')).toBe(lastSeq);
    expect(valueOf(text, `ledger_webhook_backlog_events{endpoint_id="${endpoint.body.data.id}",active="true"}`)).toBe(lastSeq - Number(endpoint.body.data.last_seq));
    expect(valueOf(text, 'ledger_database_up')).toBe(1);
    expect(valueOf(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0);
    expect(valueOf(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    // The dashboard and the alert rules of docs/operations/ name only series the server exports.
    for (const file of ['docs/operations/grafana-dashboard.json', 'docs/operations/alerts.yml']) {
      const named = new Set(readFileSync(join(ROOT, file), 'utf8').match(/\b(?:ledger|nodejs|process)_[a-z0-9_]+/g) ?? []);
      expect(named.size).toBeGreaterThan(3);
      for (const series of named) {
        const family = series.replace(/_(bucket|sum|count)$/, '');
        expect({ file, series, exported: text.includes(`# TYPE ${family} `) }).toEqual({ file, series, exported: true });
      }
    }
    if (place.backend === 'postgres') {
      expect(valueOf(text, 'ledger_db_pool_connections{state="max"}')).toBe(10);
      expect(valueOf(text, 'ledger_db_pool_connections{state="total"}')).toBeGreaterThan(0);
      // Every write group checked a connection out.
      expect(valueOf(text, 'ledger_db_pool_wait_seconds_count')).toBeGreaterThanOrEqual(valueOf(text, 'ledger_write_group_jobs_count')!);
    } else {
      expect(text).not.toContain('ledger_db_pool_connections{');
    }
  });
});
