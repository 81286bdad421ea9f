/**
 * A PostgreSQL failover under two running servers (docs/operations.md, "Failover"): a primary and
 * a synchronous streaming standby (an acknowledged commit is on both), two `ledger serve`
 * processes on a URL naming both hosts with target_session_attrs=read-write, writers posting with
 * idempotency keys. The primary is stopped as a crash would stop it and the standby promoted: both
 * servers find the new primary by themselves within 30 s, every acknowledged entry is there once,
 * and the books verify.
 *
 * Runs once (in the sqlite project's list, whatever the backend): it needs clusters it may stop.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSalesBooks } from '../helpers/sales-books.js';
import { type Cluster, createDatabase, startCluster } from '../helpers/postgres-cluster.js';
import { type ServeProcess, startServe } from '../helpers/serve-process.js';

/** fsync off: the servers are stopped as processes crash, never as a machine loses power. */
const SETTINGS = ['fsync=off', 'max_connections=60', 'wal_level=replica', 'max_wal_senders=4', 'hot_standby=on'];

let primary: Cluster;
let standby: Cluster;
let url: string;
const servers: ServeProcess[] = [];
let adminKey: string;
let cash: string;
let sales: string;

beforeAll(async () => {
  // Every commit waits until the standby has it: an acknowledged entry survives the primary's loss.
  primary = await startCluster({ settings: [...SETTINGS, "synchronous_standby_names='*'"] });
  standby = await startCluster({ settings: SETTINGS, standbyOf: primary.port });
  await createDatabase(primary.adminUrl, 'ledger');
  url = `postgres://postgres@127.0.0.1:${primary.port},127.0.0.1:${standby.port}/ledger?target_session_attrs=read-write`;
  ({ adminKey, cash, sales } = await seedSalesBooks(url));
  servers.push(await startServe(url), await startServe(url));
}, 180_000);

afterAll(async () => {
  for (const server of servers) await server.stop();
  await standby?.stop();
  await primary?.stop();
});

interface Answer { status: number; body: any }

async function call(server: ServeProcess, method: string, path: string, body?: unknown, key?: string): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${adminKey}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (key !== undefined) headers['idempotency-key'] = key;
  const response = await fetch(server.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

describe('a PostgreSQL failover', () => {
  it('moves both servers to the promoted standby within 30 s, with every acknowledged entry there once', async () => {
    const acknowledged = new Map<string, string>();
    const statuses = new Map<number, number>();
    const unexpected: string[] = [];
    const firstSuccessAfterPromotion = new Map<ServeProcess, number>();
    const successesAfterPromotion = new Map<ServeProcess, number>();
    let promotedAt: number | undefined;
    let stop = false;

    const writer = async (server: ServeProcess) => {
      while (!stop) {
        const reference = randomUUID();
        const key = randomUUID();
        const body = {
          entry_date: '2026-06-01', description: `sale ${reference}`, reference,
          lines: [{ account_id: cash, debit_amount: '250' }, { account_id: sales, credit_amount: '250' }],
        };
        // The same request with the same key until it is acknowledged: never a second entry.
        while (!stop || !acknowledged.has(reference)) {
          const answer = await call(server, 'POST', '/api/v1/journal-entries', body, key).catch((error: Error) => {
            unexpected.push(`network: ${error.message}`);
            return undefined;
          });
          if (answer === undefined) break;
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.status === 201) {
            acknowledged.set(reference, answer.body.data.id);
            if (promotedAt !== undefined) {
              if (!firstSuccessAfterPromotion.has(server)) firstSuccessAfterPromotion.set(server, Date.now() - promotedAt);
              successesAfterPromotion.set(server, (successesAfterPromotion.get(server) ?? 0) + 1);
            }
            break;
          }
          if (answer.status === 503 && answer.body?.code === 'UNAVAILABLE') {
            await new Promise((resolve) => setTimeout(resolve, 50));
            continue;
          }
          unexpected.push(`${answer.status} ${JSON.stringify(answer.body)}`);
          break;
        }
      }
    };
    const waitFor = async (done: () => boolean, what: string, ms = 60_000) => {
      const deadline = Date.now() + ms;
      while (!done()) {
        if (Date.now() > deadline) {
          throw new Error(`${what}: timed out; statuses ${JSON.stringify([...statuses])}; unexpected ${unexpected.slice(0, 5).join('; ')}\n`
            + servers.map((server) => server.output().slice(-2000)).join('\n---\n'));
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };

    const work = servers.flatMap((server) => [writer(server), writer(server), writer(server)]);
    try {
      await waitFor(() => acknowledged.size >= 30, 'posting before the failover');
      await primary.halt('immediate');
      await standby.promote();
      promotedAt = Date.now();
      await waitFor(() => servers.every((server) => (successesAfterPromotion.get(server) ?? 0) >= 10), 'posting on the new primary');
    } finally {
      stop = true;
      await Promise.all(work);
    }

    expect(unexpected).toEqual([]);
    expect(statuses.get(500) ?? 0).toBe(0);
    for (const server of servers) {
      expect(server.child.exitCode).toBeNull();
      expect(firstSuccessAfterPromotion.get(server)).toBeLessThan(30_000);
    }
    const references: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Answer = await call(servers[0]!, 'GET', `/api/v1/journal-entries?limit=200${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      references.push(...page.body.data.map((entry: { reference: string }) => entry.reference));
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    expect(new Set(references).size).toBe(references.length);
    expect(references.length).toBe(acknowledged.size);
    for (const reference of acknowledged.keys()) expect(references).toContain(reference);
    const verified = await call(servers[1]!, 'GET', '/api/v1/verify');
    expect(verified.body.data.ok).toBe(true);
  });
});
