/**
 * Graceful shutdown: `ledger serve` given SIGTERM (or SIGINT) while clients post stops accepting,
 * finishes the requests in flight, writes what is queued, closes the database and exits 0 (issue
 * 11, finding 14). Every request is answered (201, or 503 once the server is closing) or refused
 * at the connection; whatever was refused, retried with its key after a restart, posts once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exitOf, expectConsistentBooks, type LoadBooks, postLoadEntry, postUntilStopped, seedLoadBooks,
} from '../helpers/posting-load.js';
import { type ServeProcess, startServe } from '../helpers/serve-process.js';
import { createTestLocation, type TestLocation } from '../helpers/test-location.js';

const CLIENTS = 8;
const ANSWERS_BEFORE_SIGNAL = 60;

let place: TestLocation;
let books: LoadBooks;
const started: ServeProcess[] = [];

beforeAll(async () => {
  place = await createTestLocation('ledger-shutdown');
  books = await seedLoadBooks(place.location);
}, 60_000);

afterAll(async () => {
  // A server that did not stop on its signal is killed, so that the failure is reported, not a hang.
  for (const server of started) if (server.child.exitCode === null && server.child.signalCode === null) process.kill(server.child.pid!, 'SIGKILL');
  await place?.remove();
});

describe.each(['SIGTERM', 'SIGINT'] as const)('ledger serve given %s under concurrent posting', (signal) => {
  it('finishes what is in flight, refuses the rest cleanly, exits 0 and leaves the books consistent', async () => {
    const server = await startServe(place.location);
    started.push(server);
    let signalled = false;
    const load = postUntilStopped(server.baseUrl, books, CLIENTS, (answered) => {
      if (answered >= ANSWERS_BEFORE_SIGNAL && !signalled) {
        signalled = true;
        process.kill(server.child.pid!, signal);
      }
    });
    const exited = await exitOf(server.child);
    load.stop();
    const outcomes = await load.done;
    expect({ ...exited, output: server.output().split('\n').filter((line) => /error/i.test(line)) })
      .toEqual({ code: 0, signal: null, output: [] });

    const answered = [...outcomes].filter(([, outcome]) => 'status' in outcome);
    for (const [, outcome] of answered) expect([201, 503]).toContain((outcome as { status: number }).status);
    const acknowledged = answered.filter(([, outcome]) => (outcome as { status: number }).status === 201);
    expect(acknowledged.length).toBeGreaterThanOrEqual(ANSWERS_BEFORE_SIGNAL);

    // What was not acknowledged, retried with its key after a restart: posted once, or its first answer.
    const unanswered = [...outcomes].filter(([, outcome]) => !('status' in outcome) || outcome.status !== 201).map(([index]) => index);
    const again = await startServe(place.location);
    started.push(again);
    const retried = await Promise.all(unanswered.map(async (index) => postLoadEntry(again.baseUrl, books, index)));
    for (const outcome of retried) expect('status' in outcome && outcome.status).toBe(201);
    await again.stop();

    const answers = [...acknowledged.map(([, outcome]) => (outcome as { body: any }).body.data),
      ...retried.map((outcome) => (outcome as { body: any }).body.data)];
    expect(new Set(answers.map((entry) => entry.description)).size).toBe(answers.length);
    await expectConsistentBooks(place.location, answers);
  });
});
