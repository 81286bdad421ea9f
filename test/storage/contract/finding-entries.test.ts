/**
 * Storage contract: finding entries (listEntries with words, reference, entry type and amount
 * bounds). The words are made by the one domain function (queryWords), so the stores must agree
 * on what a query finds: every word of the query begins some word of the entry's description,
 * reference or line descriptions, whatever the case and accents.
 */
import { describe, expect, it } from 'vitest';
import { queryWords } from '../../../src/domain/journal/search-words.js';
import { MAX_AMOUNT } from '../../../src/domain/money/amount.js';
import type { JournalEntry } from '../../../src/domain/types.js';
import type { EntryFilter, SortOrder } from '../../../src/service/ports/ledger-store.js';
import { credit, debit } from './fixtures.js';
import { freshBooksPerTest, walkPages } from './support.js';

const ids = (entries: readonly { id: string }[]) => entries.map((entry) => entry.id);

describe('storage contract: finding entries', () => {
  const { context, books, fixtures } = freshBooksPerTest();

  const post = async (...entries: JournalEntry[]) => {
    await context.store.write(async (tx) => {
      for (const entry of entries) await tx.insertEntry(entry);
    });
  };

  const list = async (filter: EntryFilter, order: SortOrder = 'asc', limit = 1) =>
    ids((await walkPages((request) => context.store.listEntries(filter, order, request), limit)).items);

  const search = (query: string, filter: EntryFilter = {}) => list({ ...filter, words: queryWords(query) });

  /** Four January entries posted in one job and one in February, each with words of its own. */
  const postBooks = async () => {
    const e = {
      rent: fixtures.entry({
        date: '2026-01-05', period: books.january, description: 'Office rent January', reference: 'INV-2026/0042',
        lines: [debit(books.rent, 120_000, 'Büro Müller'), credit(books.cash, 120_000)],
      }),
      sale: fixtures.entry({
        date: '2026-01-07', period: books.january, description: 'Sale to ACME', reference: 'INV-2026/0043',
        lines: [debit(books.cash, 5_000), credit(books.sales, 5_000, 'Widgets, blue')],
      }),
      cafe: fixtures.entry({
        date: '2026-01-09', period: books.january, description: 'CAFÉ supplies', reference: null,
        lines: [debit(books.rent, 300), credit(books.cash, 300)],
      }),
      split: fixtures.entry({
        date: '2026-01-09', period: books.january, description: 'Rent split', reference: 'inv-2026/0042',
        lines: [debit(books.rent, 40), debit(books.rent, 60), credit(books.cash, 100, 'office')],
      }),
      february: fixtures.entry({
        date: '2026-02-02', period: books.february, description: 'Office rent February', reference: 'INV-2026/0044',
        lines: [debit(books.rent, 120_000), credit(books.cash, 120_000)],
      }),
    };
    await post(...Object.values(e));
    return e;
  };

  it('finds entries by words of their description, reference and line descriptions, every word as a prefix', async () => {
    const e = await postBooks();
    expect(await search('rent')).toEqual(ids([e.rent, e.split, e.february]));
    expect(await search('office')).toEqual(ids([e.rent, e.split, e.february]));
    expect(await search('office rent jan')).toEqual(ids([e.rent]));
    expect(await search('off ren')).toEqual(ids([e.rent, e.split, e.february]));
    expect(await search('widget')).toEqual(ids([e.sale]));
    expect(await search('0043')).toEqual(ids([e.sale]));
    expect(await search('INV-2026/0042')).toEqual(ids([e.rent, e.split]));
    expect(await search('acme blue')).toEqual(ids([e.sale]));
    expect(await search('acme rent')).toEqual([]);
    expect(await search('ent')).toEqual([]);
    expect(await search('offices')).toEqual([]);
  });

  it('ignores case and accents on both sides', async () => {
    const e = await postBooks();
    expect(await search('cafe')).toEqual(ids([e.cafe]));
    expect(await search('Café')).toEqual(ids([e.cafe]));
    expect(await search('MULLER buro')).toEqual(ids([e.rent]));
    expect(await search('müll')).toEqual(ids([e.rent]));
  });

  it('posts an entry without any word, found by the other filters only', async () => {
    const wordless = fixtures.entry({
      date: '2026-01-03', period: books.january, description: '— / —', reference: '#',
      lines: [debit(books.rent, 7), credit(books.cash, 7, '...')],
    });
    await post(wordless);
    expect(await list({ max_amount: 7n })).toEqual(ids([wordless]));
    expect(await list({ reference: '#' })).toEqual(ids([wordless]));
    expect(await search('a')).toEqual([]);
  });

  it('finds entries by their exact reference', async () => {
    const e = await postBooks();
    expect(await list({ reference: 'INV-2026/0042' })).toEqual(ids([e.rent]));
    expect(await list({ reference: 'inv-2026/0042' })).toEqual(ids([e.split]));
    expect(await list({ reference: 'INV-2026' })).toEqual([]);
  });

  it('finds entries by type', async () => {
    const e = await postBooks();
    const reversal = fixtures.reversal(e.sale, books.accounts, '2026-02-03', books.february);
    await post(reversal);
    expect(await list({ entry_type: 'reversal' })).toEqual(ids([reversal]));
    expect(await list({ entry_type: 'standard' }, 'desc')).toEqual(ids([e.february, e.split, e.cafe, e.sale, e.rent]));
    expect(await list({ entry_type: 'closing' })).toEqual([]);
  });

  it('finds entries whose debit total lies within inclusive bounds, beyond 64 bits too', async () => {
    const e = await postBooks();
    const huge = fixtures.entry({
      date: '2026-01-20', period: books.january, lines: [debit(books.till, MAX_AMOUNT - 1n), credit(books.euroSales, MAX_AMOUNT - 1n)],
    });
    await post(huge);
    expect(await list({ min_amount: 120_000n })).toEqual(ids([e.rent, huge, e.february]));
    expect(await list({ max_amount: 300n })).toEqual(ids([e.cafe, e.split]));
    expect(await list({ min_amount: 100n, max_amount: 100n })).toEqual(ids([e.split]));
    expect(await list({ min_amount: 101n, max_amount: 299n })).toEqual([]);
    expect(await list({ min_amount: 2n ** 64n })).toEqual(ids([huge]));
    expect(await list({ min_amount: MAX_AMOUNT })).toEqual([]);
    expect(await list({ max_amount: MAX_AMOUNT }, 'asc', 50)).toHaveLength(6);
  });

  it('combines every filter and walks pages both ways', async () => {
    const e = await postBooks();
    const filter: EntryFilter = { words: queryWords('rent'), period_id: books.january.id, lines: { account_id: books.cash.id } };
    expect(await list(filter)).toEqual(ids([e.rent, e.split]));
    expect(await list(filter, 'desc')).toEqual(ids([e.split, e.rent]));
    expect(await list({ ...filter, min_amount: 1_000n })).toEqual(ids([e.rent]));
    expect(await list({ ...filter, reference: 'inv-2026/0042', entry_type: 'standard' })).toEqual(ids([e.split]));
    expect(await list({ words: queryWords('rent'), start_date: '2026-01-06' }, 'desc', 2)).toEqual(ids([e.february, e.split]));
  });
});
