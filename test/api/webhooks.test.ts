/**
 * Webhooks end to end (docs/events.md): real `ledger serve` processes on the backend under test,
 * and a real receiver process on 127.0.0.1 (test/helpers/webhook-receiver.mjs) that checks the
 * Standard Webhooks signatures with its own code, records the order, and fails on demand. The
 * servers allow private addresses (LEDGER_WEBHOOK_ALLOW_PRIVATE=true) and retry quickly
 * (LEDGER_WEBHOOK_RETRY_DELAYS_MS=150,300: three attempts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSalesBooks } from '../helpers/sales-books.js';
import { type ServeProcess, startServe } from '../helpers/serve-process.js';
import { createTestLocation, type TestLocation } from '../helpers/test-location.js';
import { type Received, Receiver } from '../helpers/webhook-receiver-process.js';

const SERVE_ENV = { LEDGER_WEBHOOK_ALLOW_PRIVATE: 'true', LEDGER_WEBHOOK_RETRY_DELAYS_MS: '150,300' };

let place: TestLocation;
let adminKey: string;
let cash: string;
let sales: string;
let receiver: Receiver;
const servers: ServeProcess[] = [];

beforeAll(async () => {
  place = await createTestLocation('ledger-webhooks');
  ({ adminKey, cash, sales } = await seedSalesBooks(place.location));
  receiver = await Receiver.start();
}, 60_000);

afterAll(async () => {
  for (const server of servers) await server.stop();
  receiver?.stop();
  await place?.remove();
});

async function serve(): Promise<ServeProcess> {
  const server = await startServe(place.location, SERVE_ENV);
  servers.push(server);
  return server;
}

async function call(server: ServeProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method, headers: { authorization: `Bearer ${adminKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

let amount = 0;
async function post(server: ServeProcess): Promise<string> {
  amount += 1;
  const answer = await call(server, 'POST', '/journal-entries', {
    entry_date: '2026-03-15', description: `sale ${amount}`,
    lines: [{ account_id: cash, debit_amount: String(amount) }, { account_id: sales, credit_amount: String(amount) }],
  });
  expect(answer.status).toBe(201);
  return answer.body.data.id as string;
}

/** Waits until `done` holds of what the receiver got (or fails after `ms`). */
async function until(done: (got: Received[]) => boolean, ms = 20_000): Promise<Received[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const { received } = await receiver.received();
    if (done(received)) return received;
    if (Date.now() > deadline) throw new Error(`the receiver did not get what was expected: ${JSON.stringify(received.map((r) => [r.event.seq, r.event.type, r.status]))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function createEndpoint(server: ServeProcess, types: string[] = ['entry.posted']): Promise<{ id: string; secret: string }> {
  const answer = await call(server, 'POST', '/webhook-endpoints', { url: `${receiver.url}/hook`, event_types: types, description: 'test' });
  expect(answer.status).toBe(201);
  expect(answer.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  return answer.body.data;
}

const since = (got: Received[], from: number) => got.slice(from);

/** Waits until the endpoint's stored state satisfies `done`; answers it. */
async function endpointWhen(server: ServeProcess, id: string, done: (shown: any) => boolean, ms = 20_000): Promise<any> {
  const deadline = Date.now() + ms;
  for (;;) {
    const shown = (await call(server, 'GET', `/webhook-endpoints/${id}`)).body.data;
    if (done(shown)) return shown;
    if (Date.now() > deadline) throw new Error(`the endpoint did not get there: ${JSON.stringify(shown)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `count` posts, one after the other; their ids. */
async function posts(server: ServeProcess, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await post(server));
  return ids;
}

describe('webhooks', () => {
  let server: ServeProcess;
  let endpoint: { id: string; secret: string };

  it('delivers each event once, in seq order, signed; the secret is shown only at creation', async () => {
    server = await serve();
    await post(server); // before the endpoint: not delivered
    endpoint = await createEndpoint(server);
    await receiver.secrets([endpoint.secret]);
    const ids = [await post(server), await post(server), await post(server)];
    const got = await until((r) => r.length >= 3);
    expect(got.map((r) => r.event.id)).toEqual(ids);
    expect(got.map((r) => r.id)).toEqual(ids);
    const seqs = got.map((r) => Number(r.event.seq));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    for (const r of got) expect({ valid: r.valid_with, status: r.status, type: r.event.type }).toEqual({ valid: [0], status: 200, type: 'entry.posted' });
    expect(got[0]!.event.data.lines).toHaveLength(2);
    const shown = await call(server, 'GET', `/webhook-endpoints/${endpoint.id}`);
    expect(JSON.stringify(shown.body)).not.toContain(endpoint.secret);
    expect(JSON.stringify((await call(server, 'GET', '/webhook-endpoints')).body)).not.toContain('whsec_');
  });

  it('records each success of a batch as its own attempt and moves the cursor past them, over a kept-alive connection', async () => {
    const { received: before, connections } = await receiver.received();
    const ids = await posts(server, 20);
    const got = since(await until((r) => r.length >= before.length + 20), before.length);
    expect(got.map((r) => [r.id, r.status])).toEqual(ids.map((id) => [id, 200]));
    const lastSeq = got.at(-1)!.event.seq as string;
    await endpointWhen(server, endpoint.id, (shown) => shown.last_seq === lastSeq);
    const deliveries = (await call(server, 'GET', `/webhook-endpoints/${endpoint.id}/deliveries?limit=20`)).body.data;
    expect(deliveries.map((d: any) => [d.event_id, d.event_seq, d.attempt, d.status_code, d.error, d.next_attempt_at]).reverse())
      .toEqual(got.map((r) => [r.id, r.event.seq, 1, 200, null, null]));
    // One connection carries them all (a second at most, should the receiver close an idle one).
    expect((await receiver.received()).connections - connections).toBeLessThanOrEqual(2);
  });

  it('retries a failed event with the same webhook-id, and holds later events until it succeeds', async () => {
    const from = (await receiver.received()).received.length;
    await receiver.respond([500, 503]);
    const first = await post(server);
    const second = await post(server);
    const got = since(await until((r) => r.length >= from + 4), from);
    expect(got.map((r) => [r.id, r.status])).toEqual([[first, 500], [first, 503], [first, 200], [second, 200]]);
    // Successes are recorded in batches, after the receiver has them (docs/events.md): the list
    // shows them once the endpoint's last_seq has moved past them.
    const lastSeq = got.at(-1)!.event.seq as string;
    await endpointWhen(server, endpoint.id, (shown) => shown.last_seq === lastSeq);
    const deliveries = (await call(server, 'GET', `/webhook-endpoints/${endpoint.id}/deliveries?limit=4`)).body.data;
    expect(deliveries.map((d: any) => [d.event_id, d.attempt, d.status_code])).toEqual([[second, 1, 200], [first, 3, 200], [first, 2, 503], [first, 1, 500]]);
    expect(deliveries[2].next_attempt_at).toEqual(expect.any(String));
    expect(deliveries[0].next_attempt_at).toBeNull();
  });

  it('signs with both secrets for a day after a rotation; each verifies', async () => {
    const rotated = (await call(server, 'POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`)).body.data;
    expect(rotated.secret).not.toBe(endpoint.secret);
    await receiver.secrets([endpoint.secret, rotated.secret]);
    const from = (await receiver.received()).received.length;
    await post(server);
    const [got] = since(await until((r) => r.length >= from + 1), from);
    expect(got!.signatures).toBe(2);
    expect(got!.valid_with).toEqual([0, 1]);
    endpoint = { ...endpoint, secret: rotated.secret };
  });

  it('replays from a seq: the events after it again, in order', async () => {
    const { received } = await receiver.received();
    const last3 = received.slice(-3).map((r) => r.event.seq);
    await call(server, 'POST', `/webhook-endpoints/${endpoint.id}/replay`, { after_seq: String(Number(last3[0]) - 1) });
    const again = since(await until((r) => r.length >= received.length + 3), received.length);
    expect(again.map((r) => r.event.seq)).toEqual(last3);
  });

  it('disables the endpoint on a 410 and says so as an event; re-enabled, it goes on from the failed event', async () => {
    const from = (await receiver.received()).received.length;
    await receiver.respond([410]);
    const gone = await post(server);
    await until((r) => r.length >= from + 1);
    let shown: any;
    for (let i = 0; i < 100; i++) {
      shown = (await call(server, 'GET', `/webhook-endpoints/${endpoint.id}`)).body.data;
      if (!shown.is_active) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(shown).toMatchObject({ is_active: false, disabled_reason: expect.stringContaining('410') });
    const listed = await call(server, 'GET', '/events?types=webhook_endpoint.disabled');
    const events = listed.body.data;
    expect(events.at(-1)).toMatchObject({ type: 'webhook_endpoint.disabled', data: { id: endpoint.id, is_active: false } });
    expect(JSON.stringify(events)).not.toContain('whsec_');
    await call(server, 'PATCH', `/webhook-endpoints/${endpoint.id}`, { is_active: true });
    const [again] = since(await until((r) => r.length >= from + 2), from + 1);
    expect([again!.id, again!.status]).toEqual([gone, 200]);
  });

  it('disables the endpoint when the schedule is exhausted (three attempts)', async () => {
    const from = (await receiver.received()).received.length;
    await receiver.respond([500, 500, 500]);
    const failing = await post(server);
    const got = since(await until((r) => r.length >= from + 3), from);
    expect(got.map((r) => [r.id, r.status])).toEqual([[failing, 500], [failing, 500], [failing, 500]]);
    let shown: any;
    for (let i = 0; i < 100; i++) {
      shown = (await call(server, 'GET', `/webhook-endpoints/${endpoint.id}`)).body.data;
      if (!shown.is_active) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(shown).toMatchObject({ is_active: false, disabled_reason: expect.stringContaining('3 attempts') });
    await call(server, 'PATCH', `/webhook-endpoints/${endpoint.id}`, { is_active: true });
    await until((r) => r.length >= from + 4);
  });

  it('loses no delivery when the server is killed with deliveries pending, then restarted', async () => {
    const from = (await receiver.received()).received.length;
    // Every attempt fails while the server runs: the events wait with their retries due.
    await receiver.respond(Array(1000).fill(500));
    const ids = [await post(server), await post(server), await post(server)];
    await until((r) => r.length >= from + 1);
    process.kill(server.child.pid!, 'SIGKILL');
    await new Promise((resolve) => server.child.once('exit', resolve));
    await receiver.respond([]);
    server = await serve();
    // The killed server's lease on the endpoint (30 s at most) expires first.
    const got = since(await until((r) => ids.every((id) => r.slice(from).some((x) => x.id === id && x.status === 200)), 60_000), from);
    const delivered = got.filter((r) => r.status === 200).map((r) => r.id);
    expect(delivered.slice(0, 3)).toEqual(ids);
  });

  it('delivers a batch again, losing nothing, when the server dies between the 2xx answers and their record', async () => {
    await call(server, 'PATCH', `/webhook-endpoints/${endpoint.id}`, { is_active: false });
    const ids = await posts(server, 10);
    const from = (await receiver.received()).received.length;
    // Re-enabled, the server delivers the ten back to back; it is killed right after the third 2xx,
    // long before the batch is due to be recorded.
    await receiver.killAfter(3, server.child.pid!);
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    await call(server, 'PATCH', `/webhook-endpoints/${endpoint.id}`, { is_active: true });
    await exited;
    const atKill = since((await receiver.received()).received, from);
    expect(atKill.slice(0, 3).map((r) => [r.id, r.status])).toEqual(ids.slice(0, 3).map((id) => [id, 200]));
    server = await serve();
    // The killed server's lease on the endpoint (30 s at most) expires first.
    const got = since(await until((r) => r.slice(from).filter((x) => x.id === ids.at(-1) && x.status === 200).length > 0, 60_000), from);
    const firsts = ids.map((id) => got.findIndex((r) => r.id === id && r.status === 200));
    expect(firsts.every((index) => index >= 0)).toBe(true);
    expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
    // The first event's 2xx was not recorded when the server died: it was delivered again.
    expect(got.filter((r) => r.id === ids[0]).length).toBeGreaterThanOrEqual(2);
    const lastSeq = got.find((r) => r.id === ids.at(-1))!.event.seq as string;
    await endpointWhen(server, endpoint.id, (shown) => shown.last_seq === lastSeq);
    const deliveries = (await call(server, 'GET', `/webhook-endpoints/${endpoint.id}/deliveries?limit=50`)).body.data;
    for (const id of ids) expect(deliveries.some((d: any) => d.event_id === id && d.status_code === 200), id).toBe(true);
  }, 90_000);

  it('honours a replay made while a batch of successes is not yet recorded: every event after the replay point again, in order', async () => {
    await receiver.delay(25);
    await call(server, 'PATCH', `/webhook-endpoints/${endpoint.id}`, { is_active: false });
    const ids = await posts(server, 20);
    const from = (await receiver.received()).received.length;
    await call(server, 'PATCH', `/webhook-endpoints/${endpoint.id}`, { is_active: true });
    const early = since(await until((r) => r.length >= from + 6), from);
    const afterSeq = String(Number(early[0]!.event.seq) - 1);
    expect((await call(server, 'POST', `/webhook-endpoints/${endpoint.id}/replay`, { after_seq: afterSeq })).status).toBe(200);
    const mark = (await receiver.received()).received.length;
    // Every event after the replay point arrives again after the replay, the last twenty in order.
    const got = since(await until((r) => ids.every((id) => r.slice(mark).some((x) => x.id === id)), 30_000), mark);
    await receiver.delay(0);
    expect(got.slice(-20).map((r) => r.id)).toEqual(ids);
    await endpointWhen(server, endpoint.id, (shown) => shown.last_seq === got.at(-1)!.event.seq);
  }, 60_000);

  it('honours a user disabling the endpoint while a batch is under way: delivery stops, and re-enabled goes on from the stored cursor', async () => {
    // 100 ms an answer: the thirty take three seconds at least, far longer than the pass takes to notice.
    await receiver.delay(100);
    const from = (await receiver.received()).received.length;
    const ids = await posts(server, 30);
    await until((r) => r.slice(from).filter((x) => ids.includes(x.id)).length >= 4);
    await call(server, 'PATCH', `/webhook-endpoints/${endpoint.id}`, { is_active: false });
    const mark = (await receiver.received()).received.length;
    // Until nothing has arrived for a second (a pass that went on would deliver all thirty meanwhile).
    let received = (await receiver.received()).received;
    for (let quietSince = Date.now(); Date.now() - quietSince < 1_000;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const now = (await receiver.received()).received;
      if (now.length !== received.length) quietSince = Date.now();
      received = now;
    }
    // The pass notices at its next record (within 250 ms of its oldest unrecorded success), long before the thirty are through.
    expect(received.length - mark).toBeLessThan(15);
    expect(received.some((r, index) => index >= from && r.id === ids.at(-1))).toBe(false);
    const stopped = (await call(server, 'GET', `/webhook-endpoints/${endpoint.id}`)).body.data;
    expect(stopped.is_active).toBe(false);
    await receiver.delay(0);
    await call(server, 'PATCH', `/webhook-endpoints/${endpoint.id}`, { is_active: true });
    const got = since(await until((r) => r.slice(received.length).some((x) => x.id === ids.at(-1))), received.length);
    // From the stored cursor: what was not recorded before the disable comes again, in order, up to the last.
    const next = ids.findIndex((id) => id === got[0]!.id);
    expect(next).toBeGreaterThanOrEqual(0);
    expect(Number(got[0]!.event.seq)).toBe(Number(stopped.last_seq) + 1);
    expect(got.map((r) => r.id)).toEqual(ids.slice(next));
  });

  it('with two servers on one database and one endpoint: every event delivered, in order, never two attempts at once', async () => {
    await call(server, 'DELETE', `/webhook-endpoints/${endpoint.id}`);
    const other = await serve();
    endpoint = await createEndpoint(other);
    await receiver.secrets([endpoint.secret]);
    await receiver.delay(20);
    const from = (await receiver.received()).received.length;
    const { overlaps: overlapsBefore } = await receiver.received();
    const ids = await Promise.all(Array.from({ length: 30 }, (_, index) => post(index % 2 === 0 ? server : other)));
    const got = since(await until((r) => r.length >= from + ids.length, 60_000), from);
    await receiver.delay(0);
    expect(got.map((r) => r.id).sort()).toEqual([...ids].sort());
    const seqs = got.map((r) => Number(r.event.seq));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(got.every((r) => r.status === 200 && r.valid_with.length === 1)).toBe(true);
    expect((await receiver.received()).overlaps).toBe(overlapsBefore);
  });

  it('refuses endpoints on private addresses unless allowed, after resolving, with VALIDATION_ERROR naming url', async () => {
    // This server allows private addresses; a second one without the setting must refuse them.
    const strict = await startServe(place.location, {});
    servers.push(strict);
    for (const url of ['http://127.0.0.1:9/hook', 'http://[::ffff:169.254.169.254]/', 'http://2130706433/', 'http://localhost/x', 'ftp://example.com/']) {
      const answer = await call(strict, 'POST', '/webhook-endpoints', { url, event_types: ['*'] });
      expect({ url, status: answer.status, code: answer.body.code, field: answer.body.field }).toEqual({ url, status: 400, code: 'VALIDATION_ERROR', field: 'url' });
    }
    await strict.stop();
  });
});
