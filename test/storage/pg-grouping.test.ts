/**
 * The PostgreSQL adapter's group commit writes a group's posts together, in one transaction and
 * without a savepoint per job. PostgreSQL shows which transaction wrote a row (`xmin`): rows written
 * under a savepoint carry the savepoint's own transaction id, so entries posted at once must carry
 * one or two ids between them (the first job may start a group of its own), not one each. With
 * grouping switched off, or a savepoint per job, this test fails.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { credit, debit, EntryFixtures, insertBooks, standardBooks } from './contract/fixtures.js';
import { rawQuery } from '../helpers/raw-sql.js';
import { testBackend } from '../helpers/test-location.js';
import { openTestStore, type TestStore } from '../helpers/test-store.js';

const books = standardBooks();
const fixtures = new EntryFixtures('grouped');
let opened: TestStore;

beforeEach(async () => {
  if (testBackend() !== 'postgres') return;
  opened = await openTestStore();
  await opened.store.write((tx) => insertBooks(tx, books));
});

afterEach(async () => {
  if (testBackend() !== 'postgres') return;
  await opened.close();
});

describe.runIf(testBackend() === 'postgres')('PostgreSQL group commit', () => {
  it('writes posts queued together in one transaction, without a savepoint each', async () => {
    const entries = Array.from({ length: 48 }, (_, index) =>
      fixtures.entry({ date: '2026-02-10', period: books.february, lines: [debit(books.cash, index + 1), credit(books.sales, index + 1)] }));
    await Promise.all(entries.map((entry) => opened.store.write((tx) => tx.insertEntry(entry))));
    const [row] = await rawQuery<{ transactions: string; entries: string }>(opened.location,
      'SELECT count(DISTINCT xmin::text) AS transactions, count(*) AS entries FROM journal_entries');
    expect(Number(row!.entries)).toBe(entries.length);
    expect(Number(row!.transactions)).toBeLessThanOrEqual(2);
  });
});
