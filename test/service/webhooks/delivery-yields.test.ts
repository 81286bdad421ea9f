/**
 * Webhook delivery gives way to writes (src/service/webhooks/delivery.ts, "Posting first"): while
 * callers keep this process's write queue full, an endpoint gets an attempt only every YIELD_MS
 * (100 ms), and once the queue empties it catches up at full speed, in order, losing nothing. On
 * the backend under test, through the service and a real store; the sender is the test's own (no
 * traffic), and the writes that fill the queue are ordinary jobs of four callers that each queue
 * the next as soon as the last committed (as 64 clients posting do, the benchmark's load).
 */
import { uuidv7 } from 'uuidv7';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_OPERATOR } from '../../../src/service/actor.js';
import { LedgerService } from '../../../src/service/ledger-service.js';
import { USE_CASES } from '../../../src/service/use-cases.js';
import type { Sender } from '../../../src/service/webhooks/delivery.js';
import { openTestStore, type TestStore } from '../../helpers/test-store.js';

const EVENTS = 200;
const PRESSURE_MS = 1_500;

let opened: TestStore;
let service: LedgerService;

beforeAll(async () => {
  opened = await openTestStore();
  service = await LedgerService.create(opened.store, { clock: { now: () => new Date() }, newId: uuidv7 },
    { scryptCost: 2 ** 10, webhooks: { allowPrivate: true, retryDelaysMs: [1_000] } });
  const usd = await service.createFiatCurrency(LOCAL_OPERATOR, 'USD');
  await service.createPeriod(LOCAL_OPERATOR, { name: '2026', start_date: '2026-01-01', end_date: '2026-12-31' });
  const account = async (account_number: string, account_type: 'asset' | 'revenue') => (await service.createAccount(LOCAL_OPERATOR, {
    account_number, name: account_number, currency_id: usd.id, account_type, normal_balance: account_type === 'asset' ? 'debit' : 'credit',
  })).id;
  const [cash, sales] = [await account('1000', 'asset'), await account('4000', 'revenue')];
  await service.execute(USE_CASES.create_webhook_endpoint, {
    actor: LOCAL_OPERATOR, input: { url: 'http://127.0.0.1:9/hook', event_types: ['entry.posted'] },
  });
  await Promise.all(Array.from({ length: EVENTS }, (_, i) => service.postJournalEntry(LOCAL_OPERATOR, {
    entry_date: '2026-03-01', description: `Sale ${i + 1}`,
    lines: [{ account_id: cash, debit_amount: String(i + 1) }, { account_id: sales, credit_amount: String(i + 1) }],
  })));
});
afterAll(async () => { await opened?.close(); });

describe('webhook delivery beside a full write queue', () => {
  it('makes an attempt only every 100 ms while writes keep the queue full, then catches up in order', async () => {
    const attempts: { at: number; description: string }[] = [];
    const send: Sender = async (_url, body) => {
      attempts.push({ at: Date.now(), description: (JSON.parse(body) as { data: { description: string } }).data.description });
      return { status_code: 200, error: null };
    };
    // Four callers, each queueing its next write as soon as its last one committed.
    let pressing = true;
    let written = 0;
    const callers = Array.from({ length: 4 }, async (_, caller) => {
      while (pressing) {
        await opened.store.write(async (tx) => {
          await tx.setSetting(`pressure-${caller}`, String(written += 1));
          await new Promise((resolve) => { setTimeout(resolve, 1); });
        });
      }
    });
    const deliverer = service.startWebhookDelivery({ owner: 'yield test', pollMs: 20, send });
    try {
      await new Promise((resolve) => { setTimeout(resolve, PRESSURE_MS); });
      const duringPressure = attempts.length;
      pressing = false;
      await Promise.all(callers);
      // The queue was full all along (the callers wrote), and delivery went on, an attempt per
      // 100 ms at most: 15 in 1.5 s, with room for a slow machine's late timers but far below what
      // it delivers unhindered (all 200 in a fraction of that time).
      expect(written).toBeGreaterThan(100);
      expect(duringPressure).toBeGreaterThan(0);
      expect(duringPressure).toBeLessThanOrEqual(PRESSURE_MS / 100 + 5);
      const caughtUpBy = Date.now() + 20_000;
      while (attempts.length < EVENTS && Date.now() < caughtUpBy) await new Promise((resolve) => { setTimeout(resolve, 20); });
      expect(attempts.map((attempt) => attempt.description)).toEqual(Array.from({ length: EVENTS }, (_, i) => `Sale ${i + 1}`));
    } finally {
      pressing = false;
      await deliverer.stop();
    }
  });
});
