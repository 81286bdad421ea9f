/**
 * What one request can make the server hold is bounded (docs/security.md, "Memory"): under the
 * load shape of the security probe (batch dry runs at the body limit, all at once; JSON-RPC
 * batches of report calls to /mcp; bodies over the limit) the server's peak resident memory stays
 * under 512 MiB. Measured as the process's high-water mark (VmHWM), so no peak is missed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BATCH_BODY_LIMIT_BYTES } from '../../src/http/build-app.js';
import { type ServeProcess, startServe } from '../helpers/serve-process.js';
import { tempFolder } from '../helpers/cli.js';
import { type LoadBooks, peakRssMiB, seedLoadBooks } from './load-books.js';

const CONCURRENT = 8;
const folder = tempFolder('memory-load');
let server: ServeProcess;
let books: LoadBooks;

beforeAll(async () => {
  const location = `${folder.dir}/ledger.db`;
  books = await seedLoadBooks(location, 2000);
  server = await startServe(location);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  folder.remove();
});

/** A batch of 10,000 entries whose JSON is just under `limitBytes`, with long descriptions. */
function batchBody(limitBytes: number): string {
  const entry = (index: number, text: string) => ({ entry_date: '2026-03-01', description: text, reference: `R-${index}`,
    lines: [{ account_id: books.cash, debit_amount: String(index + 1), description: text },
      { account_id: books.sales, credit_amount: String(index + 1), description: text }] });
  const overhead = JSON.stringify({ entries: Array.from({ length: 10_000 }, (_, index) => entry(index, '')) }).length;
  const text = 'x'.repeat(Math.floor((limitBytes - overhead - 1024) / 30_000));
  return JSON.stringify({ entries: Array.from({ length: 10_000 }, (_, index) => entry(index, text)) });
}

async function post(path: string, key: string, body: string): Promise<number> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST', body,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  }).catch(() => undefined);
  await response?.arrayBuffer().catch(() => undefined);
  return response?.status ?? 0;
}

describe('memory under load', () => {
  it(`keeps the server under 512 MiB while ${CONCURRENT} clients send batch dry runs at the limit, MCP batches and oversized bodies`, async () => {
    const atLimit = batchBody(DEFAULT_BATCH_BODY_LIMIT_BYTES);
    expect(atLimit.length).toBeLessThanOrEqual(DEFAULT_BATCH_BODY_LIMIT_BYTES);
    expect(atLimit.length).toBeGreaterThan(DEFAULT_BATCH_BODY_LIMIT_BYTES * 0.9);
    const oversized = batchBody(4 * DEFAULT_BATCH_BODY_LIMIT_BYTES);
    const mcpBatch = JSON.stringify(Array.from({ length: 100 }, (_, index) => ({ jsonrpc: '2.0', id: index + 1, method: 'tools/call',
      params: { name: 'aged_balances', arguments: { account_id: books.receivables, as_of_date: '2026-12-31' } } })));
    const mcpCall = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call',
      params: { name: 'aged_balances', arguments: { account_id: books.receivables, as_of_date: '2026-12-31' } } });
    const before = await peakRssMiB(server.child.pid!);
    const statuses = await Promise.all([
      ...Array.from({ length: CONCURRENT }, () => post('/api/v1/journal-entries/batch?dry_run=true', books.posterKey, atLimit)),
      ...Array.from({ length: CONCURRENT }, () => post('/mcp', books.readerKey, mcpBatch)),
      ...Array.from({ length: CONCURRENT }, () => post('/mcp', books.readerKey, mcpCall)),
      ...Array.from({ length: 2 }, () => post('/api/v1/journal-entries/batch?dry_run=true', books.posterKey, oversized)),
    ]);
    const peak = await peakRssMiB(server.child.pid!);
    console.log(`memory under load: peak RSS ${peak.toFixed(0)} MiB (${before.toFixed(0)} MiB before); statuses ${JSON.stringify(statuses)}`);
    expect(statuses.slice(0, CONCURRENT).every((status) => status === 200 || status === 429)).toBe(true);
    expect(statuses.slice(0, CONCURRENT).filter((status) => status === 200).length).toBeGreaterThanOrEqual(CONCURRENT - 1);
    expect(statuses.slice(CONCURRENT, 2 * CONCURRENT).every((status) => status === 400)).toBe(true);
    expect(statuses.slice(2 * CONCURRENT, 3 * CONCURRENT).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(3 * CONCURRENT).every((status) => status === 413 || status === 0)).toBe(true);
    expect(peak).toBeLessThan(512);
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
  }, 300_000);
});
