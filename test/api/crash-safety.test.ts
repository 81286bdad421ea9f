/**
 * Crash safety: `ledger serve` killed with SIGKILL while clients post with Idempotency-Keys, then
 * restarted on the same database (a SQLite file, or a PostgreSQL database in the postgres project).
 * Every acknowledged entry is there with its lines, nothing is half written, the totals equal the
 * sums of the lines, and every request whose answer was lost, retried with the same key and body,
 * gets its first answer or acts exactly once: never a lasting 409 (issue 11, finding 11).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exitOf, expectConsistentBooks, type LoadBooks, postLoadEntry, postUntilStopped, seedLoadBooks,
} from '../helpers/posting-load.js';
import { type ServeProcess, startServe } from '../helpers/serve-process.js';
import { createTestLocation, type TestLocation } from '../helpers/test-location.js';

const CLIENTS = 8;
/** Answers received before the kill: enough that the server is busy with many requests in flight. */
const ANSWERS_BEFORE_KILL = 60;

let place: TestLocation;
let books: LoadBooks;
const started: ServeProcess[] = [];

beforeAll(async () => {
  place = await createTestLocation('ledger-crash');
  books = await seedLoadBooks(place.location);
}, 60_000);

afterAll(async () => {
  for (const server of started) await server.stop();
  await place?.remove();
});

describe('ledger serve killed with SIGKILL under concurrent posting', () => {
  it('keeps every acknowledged entry, half writes nothing, and answers every retried request once, never a lasting 409', async () => {
    const first = await startServe(place.location);
    started.push(first);
    let killed = false;
    const load = postUntilStopped(first.baseUrl, books, CLIENTS, (answered) => {
      if (answered >= ANSWERS_BEFORE_KILL && !killed) {
        killed = true;
        process.kill(first.child.pid!, 'SIGKILL');
      }
    });
    const outcomes = await load.done;
    expect((await exitOf(first.child)).signal).toBe('SIGKILL');

    const acknowledged = [...outcomes].filter(([, outcome]) => 'status' in outcome && outcome.status === 201);
    const lost = [...outcomes].filter(([, outcome]) => 'error' in outcome).map(([index]) => index);
    for (const [, outcome] of outcomes) if ('status' in outcome) expect(outcome.status).toBe(201);
    expect(acknowledged.length).toBeGreaterThanOrEqual(ANSWERS_BEFORE_KILL);
    expect(lost.length).toBeGreaterThan(0);

    const second = await startServe(place.location);
    started.push(second);
    // Each request whose answer was lost, retried with its key and body: posted now or replayed, once.
    const retried = await Promise.all(lost.map(async (index) => [index, await postLoadEntry(second.baseUrl, books, index)] as const));
    for (const [index, outcome] of retried) {
      expect({ index, status: 'status' in outcome ? outcome.status : outcome.error, code: 'status' in outcome ? outcome.body?.code : undefined })
        .toEqual({ index, status: 201, code: undefined });
    }
    // An acknowledged request retried is a replay of its first answer.
    for (const [index, outcome] of acknowledged.slice(0, 10)) {
      const again = await postLoadEntry(second.baseUrl, books, index);
      expect(again).toEqual(outcome);
    }
    await second.stop();

    const answers: any[] = [...acknowledged.map(([, outcome]) => (outcome as { body: any }).body.data),
      ...retried.map(([, outcome]) => (outcome as { body: any }).body.data)];
    const entries = await expectConsistentBooks(place.location, answers);
    // Acting exactly once: one entry per request (each request's amount and description are its own).
    expect(new Set(answers.map((entry) => entry.description)).size).toBe(answers.length);
    // Every request sent was answered before the kill or retried after it: nothing else was posted.
    expect(entries).toBe(answers.length);
  });
});

