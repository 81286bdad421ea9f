/**
 * One read-only key cannot freeze the server (docs/security.md, "Heavy reads"): while one client
 * asks for the heaviest report it may (aging a sub-ledger of 80,000 open invoices) in a loop over
 * HTTP and over MCP, `/health` and a post from another client answer in under 200 ms at p99. And
 * one user's reports run two at a time, eight more waiting: the rest are refused with 429.
 * A real `ledger serve` process on a real SQLite file, the synchronous store where this matters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServeProcess, startServe } from '../helpers/serve-process.js';
import { tempFolder } from '../helpers/cli.js';
import { type LoadBooks, percentile, seedLoadBooks } from './load-books.js';

const OPEN_INVOICES = 80_000;
const SAMPLES = 100;

const folder = tempFolder('heavy-reads');
let server: ServeProcess;
let books: LoadBooks;

beforeAll(async () => {
  const location = `${folder.dir}/ledger.db`;
  books = await seedLoadBooks(location, OPEN_INVOICES);
  server = await startServe(location);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  folder.remove();
});

const agedUrl = () => `${server.baseUrl}/api/v1/reports/aged-balances?account_id=${books.receivables}&as_of_date=2026-12-31`;

async function agedOverHttp(key: string): Promise<Response> {
  const response = await fetch(agedUrl(), { headers: { authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  return response;
}

async function agedOverMcp(key: string): Promise<void> {
  const response = await fetch(`${server.baseUrl}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call',
      params: { name: 'aged_balances', arguments: { account_id: books.receivables, as_of_date: '2026-12-31' } } }),
  });
  await response.arrayBuffer();
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

describe('heavy reads', () => {
  it('answers /health and a post of another client within 200 ms at p99 while one client loops the heaviest report', async () => {
    const oneReport = await timed(() => agedOverHttp(books.readerKey));
    let looping = true;
    const loops = [
      (async () => { while (looping) await agedOverHttp(books.readerKey); })(),
      (async () => { while (looping) await agedOverMcp(books.readerKey); })(),
    ];
    const health: number[] = [];
    const posts: number[] = [];
    try {
      for (let index = 0; index < SAMPLES; index += 1) {
        health.push(await timed(async () => expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200)));
        posts.push(await timed(async () => {
          const response = await fetch(`${server.baseUrl}/api/v1/journal-entries`, {
            method: 'POST', headers: { authorization: `Bearer ${books.posterKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ entry_date: '2026-06-01', description: `Cash sale ${index}`,
              lines: [{ account_id: books.cash, debit_amount: '100' }, { account_id: books.sales, credit_amount: '100' }] }),
          });
          expect(response.status).toBe(201);
        }));
      }
    } finally {
      looping = false;
      await Promise.all(loops);
    }
    const figures = { oneReportMs: Math.round(oneReport), healthP99Ms: Math.round(percentile(health, 99)),
      postP99Ms: Math.round(percentile(posts, 99)) };
    console.log(`heavy reads: ${JSON.stringify(figures)}`);
    // The report must be heavy enough for the test to mean something.
    expect(oneReport).toBeGreaterThan(300);
    expect(figures.healthP99Ms).toBeLessThan(200);
    expect(figures.postP99Ms).toBeLessThan(200);
  }, 180_000);

  it('runs two reports of one user at a time, lets eight wait, refuses the rest with 429, and serves another user meanwhile', async () => {
    const answers = Promise.all(Array.from({ length: 12 }, () => agedOverHttp(books.readerKey)));
    const other = await agedOverHttp(books.otherReaderKey);
    expect(other.status).toBe(200);
    const statuses = (await answers).map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    const refused = (await answers).filter((response) => response.status === 429);
    expect(refused).toHaveLength(2);
    expect(refused.every((response) => response.headers.get('retry-after') === '1')).toBe(true);
  }, 120_000);
});
