/**
 * `ledger events tail` on a SQLite file (the real `ledger` program): the feed from a seq as JSON
 * lines equal to the API's events, the type filter, the last events by default, and --follow
 * printing a post made by another process while it waits.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliEnv, entry, ledger, ledgerJson, seedBooks, serveFile, tempFolder } from '../helpers/cli.js';

const folder = tempFolder('events');
const db = join(folder.dir, 'books.db');
let books: Awaited<ReturnType<typeof seedBooks>>;

const lines = (stdout: string) => stdout.trim().split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
const post = (amount: string, description: string) =>
  ledgerJson(['journal-entries', 'create', '--file', '-'], { db, apiKey: books.adminKey, input: JSON.stringify(entry(books.cash.id, books.sales.id, amount, '2026-03-01', description)) });

beforeAll(async () => {
  expect(ledger(['init'], { db }).status).toBe(0);
  books = await seedBooks(db);
  post('100', 'first sale');
  post('200', 'second sale');
}, 120_000);
afterAll(() => folder.remove());

describe('ledger events tail', () => {
  it('prints every event from a seq as JSON lines, the same as the API answers', async () => {
    const run = ledger(['--json', 'events', 'tail', '--after', '0'], { db });
    expect(run.status).toBe(0);
    const events = lines(run.stdout);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => String(index + 1)));
    expect(events.map((event) => event.type)).toEqual(['currency.created', 'period.created', ...Array(6).fill('account.created'),
      'settings.updated', 'user.created', 'entry.posted', 'entry.posted']);
    const api = await serveFile(db);
    try {
      // Serving the file created its reader's key (one event more, after these).
      const answer = await api.get('/events?after=0&limit=1000');
      expect(answer.data.slice(0, events.length)).toEqual(events);
    } finally {
      await api.close();
    }
    const posts = lines(ledger(['--json', 'events', 'tail', '--after', '0', '--type', 'entry.posted'], { db }).stdout);
    expect(posts.map((event) => event.data.description)).toEqual(['first sale', 'second sale']);
    expect(posts[1].data.lines[1].credit_amount).toBe('200');
  });

  it('starts with the last ten events without --after, and prints a line per event as text', () => {
    const all = lines(ledger(['--json', 'events', 'tail', '--after', '0'], { db }).stdout);
    const last = lines(ledger(['--json', 'events', 'tail'], { db }).stdout);
    expect(last).toEqual(all.slice(-10));
    const post = [...all].reverse().find((event: { type: string }) => event.type === 'entry.posted');
    const text = ledger(['events', 'tail', '--after', String(Number(post.seq) - 1), '--type', 'entry.posted'], { db }).stdout.trim();
    expect(text).toBe(`${post.seq}  ${post.occurred_at}  entry.posted  ${post.id}  #${post.data.entry_number} ${post.data.description}`);
  });

  it('follows: prints a post made by another process while it waits, then stops on SIGINT', async () => {
    const before = lines(ledger(['--json', 'events', 'tail', '--after', '0'], { db }).stdout).length;
    const child = spawn(process.execPath, [BIN, '--db', db, '--json', 'events', 'tail', '--after', String(before), '--follow'], { env: cliEnv() });
    let stdout = '';
    const arrived = new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('followed sale')) resolve();
    }));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    post('300', 'followed sale');
    await arrived;
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    const followed = lines(stdout);
    expect(followed).toHaveLength(1);
    expect(followed[0]).toMatchObject({ seq: String(before + 1), type: 'entry.posted' });
  });
});
