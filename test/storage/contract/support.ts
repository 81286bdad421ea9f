/**
 * What every file of the storage contract suite shares: a fresh store per test, a pager that walks
 * keyset pages to the end, and a check for the LedgerError a failed call must reject with.
 *
 * The suite talks to the store only through the LedgerStore port, so the same files prove every
 * adapter; `openStoreForTest` is the one place that chooses which.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { type ErrorCode, LedgerError } from '../../../src/domain/errors.js';
import type { Keyset, LedgerStore, PageRequest, StorePage } from '../../../src/service/ports/ledger-store.js';
import { EntryFixtures, insertBooks, standardBooks } from './fixtures.js';
// The one line that chooses the store: the backend under test (LEDGER_TEST_BACKEND), so the
// suite runs in both the sqlite and the postgres vitest projects.
import { openTestStore as openStoreForTest } from '../../helpers/test-store.js';

export { openStoreForTest };

/** An open store for one test: `{ store, location, close() }`. */
export type TestStore = Awaited<ReturnType<typeof openStoreForTest>>;

/** Opens a fresh store before each test of the calling file and closes it after; call at the top of a describe. */
export function freshStorePerTest(): { readonly store: LedgerStore; readonly location: string } {
  let current: TestStore | undefined;
  beforeEach(async () => {
    current = await openStoreForTest();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    get store(): LedgerStore {
      if (!current) throw new Error('the store is open only while a test runs');
      return current.store;
    },
    /** Where the store's database is: another store opened on it is another process's view. */
    get location(): string {
      if (!current) throw new Error('the store is open only while a test runs');
      return current.location;
    },
  };
}

/**
 * A fresh store per test holding the standard books (currencies, accounts, periods), and entry
 * fixtures numbered from the start for each test; call at the top of a describe.
 */
export function freshBooksPerTest() {
  const context = freshStorePerTest();
  const books = standardBooks();
  const fixtures = new EntryFixtures();
  beforeEach(async () => {
    fixtures.reset();
    await context.store.write((tx) => insertBooks(tx, books));
  });
  return { context, books, fixtures };
}

export interface WalkedPages<T> {
  items: T[];
  pages: StorePage<T>[];
}

/**
 * Follows `next` from the first page until a page says no rows follow. Every page but the last
 * must be full, and the last must not be empty unless it is the only one: `next` is set exactly
 * when more rows follow.
 */
export async function walkPages<T>(fetch: (request: PageRequest) => Promise<StorePage<T>>, limit: number): Promise<WalkedPages<T>> {
  const pages: StorePage<T>[] = [];
  let after: Keyset | undefined;
  for (;;) {
    const page = await fetch({ limit, after });
    pages.push(page);
    if (pages.length > 10_000) throw new Error('paging does not end');
    if (page.next === undefined) {
      expect(page.items.length).toBeLessThanOrEqual(limit);
      if (pages.length > 1) expect(page.items.length).toBeGreaterThan(0);
      break;
    }
    expect(page.items).toHaveLength(limit);
    after = page.next;
  }
  return { items: pages.flatMap((page) => page.items), pages };
}

/** Awaits `promise`, requires it to reject with a LedgerError, and returns that error. */
export async function rejectionOf(promise: Promise<unknown>): Promise<LedgerError> {
  let failure: unknown;
  try {
    await promise;
  } catch (error) {
    failure = error;
  }
  if (failure === undefined) throw new Error('expected a LedgerError, but the call succeeded');
  expect(failure).toBeInstanceOf(LedgerError);
  return failure as LedgerError;
}

export async function expectLedgerError(promise: Promise<unknown>, code: ErrorCode, field?: string): Promise<LedgerError> {
  const error = await rejectionOf(promise);
  expect({ code: error.code, field: error.field }).toEqual({ code, field });
  return error;
}

/**
 * The seed of a randomised test: CONTRACT_SEED when given (to repeat a failing run), else a new
 * one. It is printed so that any run can be repeated.
 */
export function contractSeed(testName: string): number {
  const given = process.env.CONTRACT_SEED;
  const seed = given === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(given);
  console.info(`${testName}: seed ${seed} (repeat with CONTRACT_SEED=${seed})`);
  return seed;
}
