/**
 * Webhook delivery under a load that does not saturate the server (issue 26; docs/benchmarks.md,
 * "Issue 26's goal"): posts at a fixed rate (an open loop, not 64 clients as fast as they can), three
 * endpoints for every event on a receiver of the bench's, and once a second how far each endpoint
 * has delivered; at the end the lag and the time to catch up. Where the posting benchmark shows
 * what delivery costs a saturated server, this shows whether delivery keeps up with a busy one.
 *
 *   npm run build && npx tsx bench/webhooks-paced.ts [posts per second, 300] [seconds, 8] [endpoints, 3]
 *
 * SQLite, synchronous=FULL, server pinned to CPU 0, receiver and this process on CPU 1 (as the
 * posting benchmark). Runs the `dist/` that is there.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, log, pinSelf, removeDir, sleep, startServer, stopServer } from './lib.js';
import { createFixtures, postOne, prepareDatabase } from './posting.js';
import { WEBHOOK_SERVER_ENV, WebhookCase } from './webhooks.js';

const [rate, seconds, endpoints] = [Number(process.argv[2] ?? 300), Number(process.argv[3] ?? 8), Number(process.argv[4] ?? 3)];
if (![rate, seconds, endpoints].every((n) => Number.isInteger(n) && n > 0)) {
  throw new Error('usage: npx tsx bench/webhooks-paced.ts [posts per second] [seconds] [endpoints] (positive integers)');
}
pinSelf(1);
const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-paced-'));
const db = join(dir, 'ledger.db');
const apiKey = prepareDatabase(db);
const server = await startServer(db, { LEDGER_SQLITE_SYNCHRONOUS: 'FULL', ...WEBHOOK_SERVER_ENV }, 0);
let hooks: WebhookCase | undefined;
const client = new Client(server.baseUrl, 64, apiKey);
try {
  const setup = await createFixtures(client);
  hooks = await WebhookCase.start(client, endpoints, 1);
  const total = rate * seconds;
  const started = performance.now();
  const posts: Promise<string>[] = [];
  const rows: string[] = [];
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    posts.push(postOne(client, setup.debitAccount, setup.creditAccount, i));
    if ((i + 1) % rate === 0) {
      const page = await client.json<{ data: { id: string; last_seq: string }[] }>('GET', '/api/v1/webhook-endpoints', undefined, 200);
      const delivered = hooks.endpointIds.map((id) => Number(page.data.find((e) => e.id === id)!.last_seq) - hooks!.seqAtStart);
      rows.push(`| ${((performance.now() - started) / 1000).toFixed(1)} | ${i + 1} | ${delivered.join(', ')} |`);
    }
  }
  await Promise.all(posts);
  const result = await hooks.finish(total, 300, undefined, () => undefined);
  process.stdout.write(`\n${rate} posts/s for ${seconds} s, ${endpoints} endpoints\n\n| s | posted | delivered per endpoint |\n|---:|---:|---|\n`
    + `${rows.join('\n')}\n\nBehind at the end: ${result.lagAtEnd} events; caught up ${result.catchUpSeconds.toFixed(1)} s later; `
    + `the receiver got ${result.received} deliveries (${result.repeats} repeats).\n`);
} finally {
  client.close();
  await hooks?.stop();
  await stopServer(server);
  removeDir(dir);
  log('paced webhook run done');
}
