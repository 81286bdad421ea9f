/**
 * Same file, two processes: `ledger serve` runs as a real child process on a database file while
 * several CLI processes write to the same file. Every write must land exactly once and no process
 * may fail with a busy database. Also: `serve` on a missing file creates it and says so.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, ledgerAsync, ledgerJson, seedBooks, tempFolder } from '../helpers/cli.js';
import { type ServeProcess, startServe } from '../helpers/serve-process.js';

const folder = tempFolder('same-file');
const db = join(folder.dir, 'books.db');
let books: Awaited<ReturnType<typeof seedBooks>>;
let server: ServeProcess;
let baseUrl: string;

const servers: ServeProcess[] = [];

/** Starts a server that afterAll stops. */
async function startServer(file: string): Promise<ServeProcess> {
  const serve = await startServe(file);
  servers.push(serve);
  return serve;
}

beforeAll(async () => {
  books = await seedBooks(db);
  server = await startServer(db);
  baseUrl = server.baseUrl;
}, 30_000);

afterAll(async () => {
  await Promise.all(servers.map((serve) => serve.stop()));
  folder.remove();
});

async function post(body: unknown): Promise<number> {
  const response = await fetch(`${baseUrl}/api/v1/journal-entries`, {
    method: 'POST', body: JSON.stringify(body),
    headers: { authorization: `Bearer ${books.adminKey}`, 'content-type': 'application/json' },
  });
  await response.text();
  return response.status;
}

async function balance(accountId: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1/accounts/${accountId}/balance`, { headers: { authorization: `Bearer ${books.adminKey}` } });
  return ((await response.json()) as { data: { net_balance: string } }).data.net_balance;
}

describe('ledger serve and CLI processes writing the same file at the same time', () => {
  const HTTP_ENTRIES = 200;
  const IMPORTS = 4;
  const PER_IMPORT = 48;
  const CREATES = 8;

  it('keeps every write, exactly once, and no process fails with a busy database', async () => {
    const importFiles = Array.from({ length: IMPORTS }, (_, run) => {
      const file = join(folder.dir, `import-${run}.jsonl`);
      writeFileSync(file, Array.from({ length: PER_IMPORT }, (_, index) =>
        JSON.stringify(entry(books.acme.id, books.sales.id, '7', '2026-05-01', `Import ${run}.${index}`))).join('\n'));
      return file;
    });
    const createBody = JSON.stringify(entry(books.rent.id, books.cash.id, '3', '2026-05-02', 'CLI create'));

    const httpPosts = (async () => {
      const statuses: number[] = [];
      const queue = Array.from({ length: HTTP_ENTRIES }, (_, index) => entry(books.cash.id, books.sales.id, '100', '2026-05-03', `HTTP ${index}`));
      await Promise.all(Array.from({ length: 8 }, async () => {
        for (let body = queue.shift(); body !== undefined; body = queue.shift()) statuses.push(await post(body));
      }));
      return statuses;
    })();
    const cliRuns = Promise.all([
      ...importFiles.map((file) => ledgerAsync(['journal-entries', 'import', file], { db, apiKey: books.adminKey })),
      ...Array.from({ length: CREATES }, () => ledgerAsync(['--json', 'journal-entries', 'create', '--file', '-'], {
        db, apiKey: books.adminKey, input: createBody,
      })),
    ]);
    const [statuses, runs] = await Promise.all([httpPosts, cliRuns]);

    expect(statuses).toEqual(new Array(HTTP_ENTRIES).fill(201));
    expect(runs.map((run) => ({ status: run.status, stderr: run.stderr })))
      .toEqual(new Array(IMPORTS + CREATES).fill({ status: 0, stderr: '' }));
    expect(runs.slice(0, IMPORTS).map((run) => run.stdout)).toEqual(new Array(IMPORTS).fill(`Imported ${PER_IMPORT} entries.\n`));

    const entries = ledgerJson(['journal-entries', 'list'], { db }).data as { description: string }[];
    expect(entries).toHaveLength(HTTP_ENTRIES + IMPORTS * PER_IMPORT + CREATES);
    expect(new Set(entries.map((e) => e.description)).size).toBe(HTTP_ENTRIES + IMPORTS * PER_IMPORT + 1);
    const expected = {
      cash: String(HTTP_ENTRIES * 100 - CREATES * 3),
      sales: String(HTTP_ENTRIES * 100 + IMPORTS * PER_IMPORT * 7),
      acme: String(IMPORTS * PER_IMPORT * 7),
      rent: String(CREATES * 3),
    };
    expect({ cash: await balance(books.cash.id), sales: await balance(books.sales.id), acme: await balance(books.acme.id),
      rent: await balance(books.rent.id) }).toEqual(expected);
    const viaCli = (id: string) => ledgerJson(['accounts', 'get', id], { db }).data.balance.net_balance;
    expect({ cash: viaCli(books.cash.id), sales: viaCli(books.sales.id), acme: viaCli(books.acme.id), rent: viaCli(books.rent.id) })
      .toEqual(expected);
    const trialBalance = ledgerJson(['reports', 'trial-balance'], { db }).data;
    expect(trialBalance.is_balanced).toBe(true);
    expect(server.output()).not.toMatch(/busy|SQLITE_/i);
  }, 90_000);
});

describe('ledger serve on a missing database file', () => {
  it('creates the file, says so, and serves it', async () => {
    const fresh = join(folder.dir, 'fresh.db');
    const serve = await startServer(fresh);
    const address = serve.baseUrl;
    expect(serve.output().split('\n')[0]).toBe(`Initialised a new ledger database at ${fresh}`);
    expect(existsSync(fresh)).toBe(true);
    const health = await fetch(`${address}/health`);
    expect({ status: health.status, body: await health.json() }).toEqual({ status: 200, body: { status: 'ok' } });
    await serve.stop();
    expect(ledgerJson(['currencies', 'list'], { db: fresh })).toEqual({ data: [], has_more: false, next_cursor: null });
  });
});
