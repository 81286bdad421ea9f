/**
 * PostgreSQL going away under a running `ledger serve` (docs/operations.md, "Database outages"):
 * on a cluster of this file's own, which it stops (as a crash would) and starts again. While the
 * database is down every request answers 503 UNAVAILABLE with Retry-After, never a 500, and the
 * process stays up; once it is back the same process serves again. Writes sent with an
 * Idempotency-Key and retried after a 503 land exactly once. A write whose connection is lost
 * during COMMIT (held there by a synchronous standby that never answers) is answered 503 with an
 * outcome that is unknown, and a retry with its key learns it.
 *
 * Runs once (in the sqlite project's list, whatever the backend): it needs a cluster it may stop.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSalesBooks } from '../helpers/sales-books.js';
import { type Cluster, createDatabase, startCluster } from '../helpers/postgres-cluster.js';
import { type ServeProcess, startServe } from '../helpers/serve-process.js';

let cluster: Cluster;
let url: string;
let server: ServeProcess;
let adminKey: string;
let cash: string;
let sales: string;

beforeAll(async () => {
  // fsync off: the cluster is stopped as a process crash would stop it, never as a machine would
  // lose power, and what a crashed server wrote is still in the page cache. Commits wait for
  // their WAL (synchronous_commit stays on), so an acknowledged entry survives the crash.
  cluster = await startCluster({ settings: ['fsync=off', 'max_connections=40'] });
  url = await createDatabase(cluster.adminUrl, 'ledger');
  ({ adminKey, cash, sales } = await seedSalesBooks(url));
  server = await startServe(url);
}, 120_000);

afterAll(async () => {
  if (process.env.DEBUG_OUTAGE) console.log(server?.output());
  await server?.stop();
  await cluster?.stop();
});

interface Answer { status: number; retryAfter: string | null; body: any }

async function call(method: string, path: string, body?: unknown, key?: string): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${adminKey}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (key !== undefined) headers['idempotency-key'] = key;
  const response = await fetch(server.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: text === '' ? null : JSON.parse(text) };
}

function entryBody(reference: string) {
  return {
    entry_date: '2026-05-04', description: `sale ${reference}`, reference,
    lines: [{ account_id: cash, debit_amount: '125' }, { account_id: sales, credit_amount: '125' }],
  };
}

/** Every entry's reference, read page by page. */
async function postedReferences(): Promise<string[]> {
  const references: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Answer = await call('GET', `/api/v1/journal-entries?limit=200${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.status).toBe(200);
    references.push(...page.body.data.map((entry: { reference: string }) => entry.reference));
    cursor = page.body.next_cursor;
  } while (cursor !== null);
  return references;
}

function expectUnavailable(answer: Answer, what: string): void {
  expect({ what, status: answer.status, code: answer.body?.code }).toEqual({ what, status: 503, code: 'UNAVAILABLE' });
  expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  expect(answer.body.suggestion).toEqual(expect.any(String));
}

describe('a PostgreSQL outage under a running server', () => {
  it('answers /livez always, and /readyz only while the database answers, recovering without a restart', async () => {
    expect((await call('GET', '/livez')).status).toBe(200);
    const ready = await call('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', schema_version: expect.any(Number) });

    await cluster.halt('fast');
    try {
      expect((await call('GET', '/livez')).status).toBe(200);
      expectUnavailable(await call('GET', '/readyz'), '/readyz');
      expect((await call('GET', '/health')).status).toBe(503);
    } finally {
      await cluster.resume();
    }
    // The pool reconnects on its own: the same process is ready again at once.
    expect((await call('GET', '/readyz')).status).toBe(200);
  });

  it('answers only 503s while PostgreSQL is down, serves again when it returns, and loses or doubles nothing written with keys', async () => {
    const acknowledged = new Map<string, string>(); // reference -> entry id
    const statuses = new Map<number, number>();
    const unexpected: string[] = [];
    let down = false;
    let unavailableWhileDown = 0;
    let stop = false;
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);

    /** Posts entries one after another, each retried with its key until it is acknowledged. */
    const writer = async () => {
      while (!stop) {
        const reference = randomUUID();
        const key = randomUUID();
        for (;;) {
          const answer = await call('POST', '/api/v1/journal-entries', entryBody(reference), key).catch((error: Error) => {
            unexpected.push(`network: ${error.message}`);
            return undefined;
          });
          if (answer === undefined) break;
          count(answer.status);
          if (answer.status === 201) {
            acknowledged.set(reference, answer.body.data.id);
            break;
          }
          if (answer.status === 503 && answer.body?.code === 'UNAVAILABLE' && Number(answer.retryAfter) > 0) {
            if (down) unavailableWhileDown += 1;
            await new Promise((resolve) => setTimeout(resolve, 50));
            continue;
          }
          unexpected.push(`POST ${answer.status} ${JSON.stringify(answer.body)}`);
          break;
        }
      }
    };
    /** Reads while it all happens: a read answers 200 or 503, nothing else. */
    const reader = async () => {
      while (!stop) {
        const answer = await call('GET', '/api/v1/reports/trial-balance');
        count(answer.status);
        if (answer.status === 503) expectUnavailable(answer, 'a report while down');
        else if (answer.status !== 200) unexpected.push(`GET ${answer.status} ${JSON.stringify(answer.body)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };

    const work = [...Array.from({ length: 6 }, writer), reader()];
    const waitFor = async (done: () => boolean) => {
      const deadline = Date.now() + 60_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`timed out; statuses ${JSON.stringify([...statuses])}, unexpected ${unexpected.join('; ')}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    try {
      await waitFor(() => acknowledged.size >= 20);
      down = true;
      await cluster.halt('immediate');
      await waitFor(() => unavailableWhileDown >= 20);
      down = false;
      await cluster.resume();
      const before = acknowledged.size;
      await waitFor(() => acknowledged.size >= before + 20);
    } finally {
      stop = true;
      await Promise.all(work);
    }

    expect(unexpected).toEqual([]);
    expect(statuses.get(500) ?? 0).toBe(0);
    expect(server.child.exitCode).toBeNull();
    const references = await postedReferences();
    // Every acknowledged entry is there, once; nothing was posted twice under one key.
    expect(new Set(references).size).toBe(references.length);
    for (const reference of acknowledged.keys()) expect(references).toContain(reference);
    expect(references.length).toBe(acknowledged.size);
    const verified = await call('GET', '/api/v1/verify');
    expect(verified.body.data.ok).toBe(true);
  });

  it('says a write\'s outcome is unknown when its connection is lost during COMMIT, and its key then answers the first outcome', async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    /** Sets the server's synchronous_standby_names and makes the ledger's connections start anew with it. */
    const syncStandby = async (names: string) => {
      await admin.query(`ALTER SYSTEM SET synchronous_standby_names = ${pg.escapeLiteral(names)}`);
      await admin.query('SELECT pg_reload_conf()');
      // A new session starts with what the postmaster has read: once one shows the value, so will the ledger's next ones.
      for (;;) {
        const fresh = new pg.Client({ connectionString: url });
        await fresh.connect();
        const shown = (await fresh.query('SHOW synchronous_standby_names')).rows[0].synchronous_standby_names;
        await fresh.end();
        if (shown === names) break;
      }
      await cutLedgerConnections();
    };
    /** Ends every session of the ledger's server and waits until they are gone. */
    const cutLedgerConnections = async () => {
      const others = "datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'";
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE ${others}`);
      while ((await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE ${others}`)).rows[0].n > 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    /** Sends a post, waits until its COMMIT waits for the standby that never answers, and cuts the connection. */
    const postCutAtCommit = async (reference: string, key?: string) => {
      const answer = call('POST', '/api/v1/journal-entries', entryBody(reference), key);
      const deadline = Date.now() + 30_000;
      while ((await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event = 'SyncRep'")).rows[0].n === 0) {
        if (Date.now() > deadline) throw new Error('no COMMIT waited for the standby');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await cutLedgerConnections();
      return answer;
    };
    try {
      // Every COMMIT now waits for a synchronous standby that does not exist.
      await syncStandby('nobody');
      const withKey = { reference: randomUUID(), key: randomUUID() };
      const withoutKey = randomUUID();
      for (const answer of [await postCutAtCommit(withKey.reference, withKey.key), await postCutAtCommit(withoutKey)]) {
        expectUnavailable(answer, 'a COMMIT cut off');
        expect(answer.body.message).toMatch(/may or may not have been saved/);
        expect(answer.body.suggestion).toMatch(/Idempotency-Key/);
      }
      await syncStandby('');
      // Both had committed (locally, before the wait for the standby). The retry with the key answers that first outcome.
      const retried = await call('POST', '/api/v1/journal-entries', entryBody(withKey.reference), withKey.key);
      expect(retried.status).toBe(201);
      expect(retried.body.data.reference).toBe(withKey.reference);
      const references = await postedReferences();
      expect(references.filter((posted) => posted === withKey.reference)).toHaveLength(1);
      expect(references.filter((posted) => posted === withoutKey)).toHaveLength(1);
    } finally {
      await admin.query('ALTER SYSTEM RESET synchronous_standby_names').catch(() => {});
      await admin.query('SELECT pg_reload_conf()').catch(() => {});
      await admin.end();
    }
  });
});
