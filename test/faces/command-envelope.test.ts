/**
 * One command envelope behind every face: a dry run and an idempotent replay of a post behave the
 * same over HTTP (a real server), the command line (the real `ledger` program) and MCP (the SDK's
 * client over the server's /mcp), because all three hand the one executor the same command. One
 * table of cases, run once per face, on one SQLite file the three share.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiOnFile, ledger, seedBooks, serveFile, tempFolder } from '../helpers/cli.js';
import { connectHttp } from '../mcp/connect.js';
import { call, dataOfCall, errorOfCall } from '../mcp/mcp-scenarios.js';

const folder = tempFolder('command-envelope');
const db = join(folder.dir, 'books.db');
let books: Awaited<ReturnType<typeof seedBooks>>;
let api: ApiOnFile;
let mcp: Client;

beforeAll(async () => {
  books = await seedBooks(db);
  api = await serveFile(db);
  mcp = await connectHttp(api.baseUrl, books.adminKey);
});
afterAll(async () => {
  await mcp?.close();
  await api?.close();
  folder.remove();
});

interface PostOptions {
  dryRun?: boolean;
  idempotencyKey?: string;
}

/** What a face answered: the answer's data, or the error's code. */
type Answer = { data: any } | { code: string };

interface Face {
  name: string;
  post(entry: Record<string, unknown>, options?: PostOptions): Promise<Answer>;
}

let files = 0;

const FACES: Face[] = [
  {
    name: 'HTTP',
    async post(entry, { dryRun, idempotencyKey } = {}) {
      const response = await fetch(`${api.baseUrl}/api/v1/journal-entries${dryRun === true ? '?dry_run=true' : ''}`, {
        method: 'POST', body: JSON.stringify(entry),
        headers: { authorization: `Bearer ${books.adminKey}`, 'content-type': 'application/json',
          ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }) },
      });
      const body = await response.json() as { data?: unknown; code?: string };
      return response.ok ? { data: body.data } : { code: body.code! };
    },
  },
  {
    name: 'the command line',
    async post(entry, { dryRun, idempotencyKey } = {}) {
      files += 1;
      const file = join(folder.dir, `entry-${files}.json`);
      writeFileSync(file, JSON.stringify(entry));
      const run = ledger(['--json', 'journal-entries', 'create', '--file', file, ...(dryRun === true ? ['--dry-run'] : []),
        ...(idempotencyKey === undefined ? [] : ['--idempotency-key', idempotencyKey])], { db, apiKey: books.adminKey });
      if (run.status === 0) return { data: JSON.parse(run.stdout).data };
      return { code: JSON.parse(run.stderr).code };
    },
  },
  {
    name: 'MCP',
    async post(entry, { dryRun, idempotencyKey } = {}) {
      const result = await call(mcp, 'post_journal_entry', { ...entry, ...(dryRun === undefined ? {} : { dry_run: dryRun }),
        ...(idempotencyKey === undefined ? {} : { idempotency_key: idempotencyKey }) });
      return result.isError === true ? { code: errorOfCall(result).code as string } : { data: dataOfCall(result) };
    },
  },
];

const HTTP = FACES[0]!;

function sale(amount: string, description: string) {
  return {
    entry_date: '2026-03-01', description,
    lines: [{ account_id: books.cash.id, debit_amount: amount }, { account_id: books.sales.id, credit_amount: amount }],
  };
}

function dataOf(answer: Answer): any {
  if (!('data' in answer)) throw new Error(`refused with ${answer.code}`);
  return answer.data;
}

/** What a post can change: every entry and the balances of the accounts it touches. */
async function ledgerState() {
  const entries = (await api.get('/journal-entries?limit=200')).data;
  const balances = await Promise.all([books.cash.id, books.sales.id].map(async (id) => (await api.get(`/accounts/${id}/balance`)).data));
  return { entries, balances };
}

/** An entry without what a dry run can only make up: its ids, posting time and hash. */
function withoutIds(entry: any) {
  // Each request has its own id, and the entry records the one that posted it.
  return { ...entry, id: undefined, posted_at: undefined, hash: undefined, request_id: undefined, lines: entry.lines.map((line: any) => ({ ...line, id: undefined })) };
}

describe.each(FACES)('a post through $name', (face) => {
  const key = (what: string) => `${face.name}-${what}`;

  it('a dry run answers what the real post then does, and changes nothing', async () => {
    const entry = sale('1250', `Dry run over ${face.name}`);
    const before = await ledgerState();
    const dry = dataOf(await face.post(entry, { dryRun: true }));
    expect(dry.dry_run).toBe(true);
    expect(await ledgerState()).toEqual(before);
    expect((await api.request('GET', `/journal-entries/${dry.entry.id}`)).status).toBe(404);

    const posted = dataOf(await face.post(entry));
    expect(withoutIds(dry.entry)).toEqual(withoutIds(posted));
    const after = await ledgerState();
    expect(after.entries).toHaveLength(before.entries.length + 1);
    expect(dry.balances.map((change: any) => [change.account_id, change.before, change.after]))
      .toEqual([books.cash.id, books.sales.id].map((id, index) => [id, before.balances[index], after.balances[index]]));
  });

  it('an idempotent replay answers the first answer and posts once', async () => {
    const entry = sale('310', `Replay over ${face.name}`);
    const count = (await ledgerState()).entries.length;
    const first = dataOf(await face.post(entry, { idempotencyKey: key('replay') }));
    const again = dataOf(await face.post(entry, { idempotencyKey: key('replay') }));
    expect(again).toEqual(first);
    expect((await ledgerState()).entries).toHaveLength(count + 1);
  });

  it('the same key with another entry is refused with IDEMPOTENCY_CONFLICT and posts nothing', async () => {
    dataOf(await face.post(sale('45', `First over ${face.name}`), { idempotencyKey: key('conflict') }));
    const count = (await ledgerState()).entries.length;
    expect(await face.post(sale('46', `Second over ${face.name}`), { idempotencyKey: key('conflict') })).toEqual({ code: 'IDEMPOTENCY_CONFLICT' });
    expect((await ledgerState()).entries).toHaveLength(count);
  });

  it('a dry run neither keeps nor replays a key: the real post that follows with it posts', async () => {
    const entry = sale('77', `Checked first over ${face.name}`);
    const dry = dataOf(await face.post(entry, { dryRun: true, idempotencyKey: key('dry-first') }));
    const posted = dataOf(await face.post(entry, { idempotencyKey: key('dry-first') }));
    expect(posted.id).not.toBe(dry.entry.id);
    expect((await api.request('GET', `/journal-entries/${posted.id}`)).status).toBe(200);
    expect(dataOf(await face.post(entry, { dryRun: true, idempotencyKey: key('dry-first') })).dry_run).toBe(true);
  });

  it('a key names one request whichever face sent it: the same entry under a key used over HTTP is that post', async () => {
    const entry = sale('19', `Across faces to ${face.name}`);
    const overHttp = dataOf(await HTTP.post(entry, { idempotencyKey: key('across') }));
    const count = (await ledgerState()).entries.length;
    expect(dataOf(await face.post(entry, { idempotencyKey: key('across') }))).toEqual(overHttp);
    expect((await ledgerState()).entries).toHaveLength(count);
  });
});

describe('a replay over HTTP', () => {
  it('answers the first answer\'s very bytes and status, marked Idempotent-Replayed', async () => {
    const send = () => fetch(`${api.baseUrl}/api/v1/journal-entries`, {
      method: 'POST', body: JSON.stringify(sale('5', 'Bytes')),
      headers: { authorization: `Bearer ${books.adminKey}`, 'content-type': 'application/json', 'idempotency-key': 'http-bytes' },
    });
    const first = await send();
    const again = await send();
    expect([first.status, again.status]).toEqual([201, 201]);
    expect([first.headers.get('idempotent-replayed'), again.headers.get('idempotent-replayed')]).toEqual([null, 'true']);
    expect(await again.text()).toBe(await first.text());
  });
});
