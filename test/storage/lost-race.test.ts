/**
 * A write that loses a race with another process is run again inside the store, never handed to
 * the caller. Two stores on one database (as two servers would be) each post an entry and change a
 * setting, in opposite orders, and wait for each other after their first step: on PostgreSQL that is a real
 * deadlock, which the server breaks by failing one transaction; the adapter runs that job again
 * and both writes succeed. SQLite has no such race (one writer holds the file's write lock at a
 * time), so this runs on PostgreSQL; ledger serve processes sharing a SQLite file are covered by
 * test/api/multi-server.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/app/open-ledger.js';
import type { LedgerStore, LedgerTx } from '../../src/service/ports/ledger-store.js';
import { credit, debit, EntryFixtures, insertBooks, standardBooks, totalsOf } from './contract/fixtures.js';
import { testBackend } from '../helpers/test-location.js';
import { openTestStore, type TestStore } from '../helpers/test-store.js';

const books = standardBooks();
const fixtures = new EntryFixtures('race');
let first: TestStore;
let second: LedgerStore;

beforeEach(async () => {
  if (testBackend() !== 'postgres') return;
  first = await openTestStore();
  second = await openStore(first.location);
  await first.store.write((tx) => insertBooks(tx, books));
});

afterEach(async () => {
  if (testBackend() !== 'postgres') return;
  await second.close();
  await first.close();
});

/** Resolves when `signal` does, or after `waitMs` (once the other writer was failed, it cannot signal until we commit). */
function eitherOr(signal: Promise<void>, waitMs: number): Promise<void> {
  return Promise.race([signal, new Promise<void>((resolve) => setTimeout(resolve, waitMs))]);
}

describe.runIf(testBackend() === 'postgres')('a write that loses a race with another process', () => {
  it('is run again by the store, so both of two deadlocking writers succeed', async () => {
    // Every post first locks the ledger's entry numbers, so two posts queue rather than deadlock;
    // a post and a settings change taken in opposite orders still do.
    const dollars = fixtures.entry({ date: '2026-02-01', period: books.february, lines: [debit(books.cash, 100), credit(books.sales, 100)] });
    const euros = fixtures.entry({ date: '2026-02-01', period: books.february, lines: [debit(books.till, 7), credit(books.euroSales, 7)] });
    let firstStarted!: () => void;
    let secondStarted!: () => void;
    const firstHasOne = new Promise<void>((resolve) => { firstStarted = resolve; });
    const secondHasOne = new Promise<void>((resolve) => { secondStarted = resolve; });
    const attempts = { first: 0, second: 0 };
    type Step = (tx: LedgerTx) => Promise<unknown>;
    const writer = (name: 'first' | 'second', own: () => void, other: Promise<void>, steps: [Step, Step]) =>
      async (tx: LedgerTx) => {
        attempts[name] += 1;
        await steps[0](tx);
        own();
        await eitherOr(other, 5000);
        await steps[1](tx);
      };
    const outcomes = await Promise.allSettled([
      first.store.write(writer('first', firstStarted, secondHasOne,
        [(tx) => tx.setSetting('race', 'first'), (tx) => tx.insertEntry(dollars)])),
      second.write(writer('second', secondStarted, firstHasOne,
        [(tx) => tx.insertEntry(euros), (tx) => tx.setSetting('race', 'second')])),
    ]);
    expect(outcomes.map((outcome) => outcome.status === 'rejected' ? String(outcome.reason) : 'fulfilled')).toEqual(['fulfilled', 'fulfilled']);
    const all = [dollars, euros];
    expect(await first.store.countEntries()).toBe(2);
    expect(await first.store.accountTotals({})).toEqual(totalsOf(all));
    expect(await first.store.allCurrencyDebitTotals()).toEqual(new Map([[books.usd.id, 100n], [books.eur.id, 7n]]));
    expect(['first', 'second']).toContain(await first.store.getSetting('race'));
    // The database broke the deadlock by failing one of them, which the store ran again. On a busy
    // machine the retry can meet the other writer once more.
    expect(attempts.first + attempts.second).toBeGreaterThanOrEqual(3);
  });
});
