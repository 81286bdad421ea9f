/**
 * Storage contract: journal entries as posted and read back (getEntry, getEntries, listEntries with its
 * filters, listAccountLines, listSideAmounts, listEntriesInPostingOrder, countEntries), reversals, and that a posted
 * entry reads back exactly as it was inserted. The port has no method that changes or deletes a
 * posted entry; these tests pin what every reader sees instead.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { JournalEntry, JournalEntryView } from '../../../src/domain/types.js';
import type { AccountLine, ChainLink, EntryFilter, LineScope, SortOrder } from '../../../src/service/ports/ledger-store.js';
import {
  accountLinesOf, ChainModel, credit, debit, type EntryFixtures, entryView,
} from './fixtures.js';
import { expectLedgerError, freshBooksPerTest, rejectionOf, walkPages } from './support.js';

const ids = (entries: readonly { id: string }[]) => entries.map((entry) => entry.id);

describe('storage contract: journal entries', () => {
  const { context, books, fixtures } = freshBooksPerTest();

  let chain = new ChainModel();
  beforeEach(() => { chain = new ChainModel(); });

  /** Posts the entries in one job; each answer is the hash the chain model expects. */
  const post = async (...entries: JournalEntry[]) => {
    const hashes = await context.store.write(async (tx) => {
      const answered: ChainLink[] = [];
      for (const entry of entries) answered.push(await tx.insertEntry(entry));
      return answered;
    });
    expect(hashes).toEqual(entries.map((entry) => chain.post(entry)));
    return entries;
  };

  /** What getEntry answers for a posted entry, hash included. */
  const view = (entry: JournalEntry, reversedById: string | null = null): JournalEntryView =>
    ({ ...entryView(entry, books.accounts, reversedById), ...chain.linkOf(entry.id) });

  /** A simple sale: cash debited, sales credited. */
  const sale = (date: string, value: number, overrides: Partial<Parameters<EntryFixtures['entry']>[0]> = {}) =>
    fixtures.entry({ date, period: periodOf(date), lines: [debit(books.cash, value), credit(books.sales, value)], ...overrides });

  const periodOf = (date: string) => {
    const period = books.periods.find((candidate) => candidate.start_date <= date && date <= candidate.end_date);
    if (!period) throw new Error(`no fixture period contains ${date}`);
    return period;
  };

  describe('reading back what was posted', () => {
    it('returns a posted entry exactly as inserted: every field, metadata, and the lines in the order given', async () => {
      const entry = fixtures.entry({
        id: 'entry-with-everything',
        date: '2026-02-14',
        period: books.february,
        description: 'Quarterly rent, split — «Miete» ✓',
        reference: 'INV-2026/0042',
        metadata: {
          customer: 'ACME GmbH', tags: ['q1', 'ünïcødé ✓', ''], nested: { count: 3, ratio: 0.25, ok: true, none: null, deep: { list: [1, [2, 3]] } },
          emptyList: [], emptyObject: {}, quote: 'say "hi"\\n', large: 9_007_199_254_740_991,
        },
        created_by: 'user-alice',
        posted_at: '2026-02-14T17:45:12.345Z',
        // Line ids that sort against the posting order, and accounts out of number order: the
        // lines must come back in the order they were given, not sorted by id or account.
        lines: [
          { ...credit(books.sales, 70_000, 'Rent income, north'), id: 'line-z' },
          { ...debit(books.rent, 30_000), id: 'line-m' },
          { ...debit(books.bankSouth, 25_000, ''), id: 'line-c' },
          { ...debit(books.bankNorth, 15_000, 'North part'), id: 'line-a' },
        ],
      });
      await post(entry);
      expect(await context.store.getEntry(entry.id)).toEqual(view(entry));
      expect((await context.store.getEntry(entry.id))!.lines.map((line) => line.id)).toEqual(['line-z', 'line-m', 'line-c', 'line-a']);
      expect(await context.store.getEntry('entry-unknown')).toBeUndefined();
    });

    it('reads several entries at once in the order asked, leaving out unknown ids', async () => {
      const entries = await post(sale('2026-01-05', 100), sale('2026-02-05', 200), sale('2026-03-05', 300));
      const asked = [entries[2]!.id, 'entry-unknown', entries[0]!.id, entries[1]!.id];
      expect(await context.store.getEntries(asked)).toEqual([view(entries[2]!), view(entries[0]!), view(entries[1]!)]);
      expect(await context.store.getEntries([])).toEqual([]);
      // More ids than one statement binds on SQLite.
      const many = await post(...Array.from({ length: 700 }, (_, index) => sale('2026-01-10', index + 1)));
      expect(ids(await context.store.getEntries(ids(many).reverse()))).toEqual(ids(many).reverse());
    });

    it('returns absent reference, metadata, creator and line descriptions as null', async () => {
      const [entry] = await post(sale('2026-01-05', 100));
      const stored = await context.store.getEntry(entry!.id);
      expect(stored).toEqual(view(entry!));
      expect(stored).toMatchObject({ reference: null, metadata: null, created_by: null, reverses_id: null, reversed_by_id: null });
      expect(stored!.lines.map((line) => line.description)).toEqual([null, null]);
    });

    it('keeps a posted entry exactly as it was while other entries, reversals and failed posts come after it', async () => {
      const [original] = await post(sale('2026-01-05', 500, { metadata: { batch: 7 } }));
      const expected = view(original!);
      await post(sale('2026-01-05', 1), sale('2026-03-01', 2));
      await rejectionOf(context.store.write((tx) => tx.insertEntry({ ...sale('2026-01-06', 9), id: original!.id })));
      expect(await context.store.getEntry(original!.id)).toEqual(expected);
      const reversal = fixtures.reversal(original!, books.accounts, '2026-02-01', books.february);
      await post(reversal);
      expect(await context.store.getEntry(original!.id)).toEqual({ ...expected, reversed_by_id: reversal.id });
    });

    it('stores an entry of a closing type and a reversal with their types', async () => {
      const closing = fixtures.entry({
        date: '2026-01-31', period: books.january, entry_type: 'closing',
        lines: [debit(books.sales, 900), credit(books.rent, 400), credit(books.retained, 500)],
      });
      const [original] = await post(sale('2026-01-10', 900), closing);
      const reversal = fixtures.reversal(original!, books.accounts, '2026-01-11', books.january);
      await post(reversal);
      expect((await context.store.getEntry(closing.id))?.entry_type).toBe('closing');
      expect(await context.store.getEntry(reversal.id)).toEqual(view(reversal));
      expect((await context.store.getEntry(reversal.id))?.entry_type).toBe('reversal');
    });
  });

  describe('the hash chain', () => {
    it('chains each currency\'s entries in posting order, answers each hash, and keeps each currency\'s head', async () => {
      expect(await context.store.currencyChainHeads()).toEqual(new Map());
      const euro = (date: string, value: number) => fixtures.entry({ date, period: books.january, lines: [debit(books.till, value), credit(books.euroSales, value)] });
      // Interleaved currencies, several entries in one job: `post` checks every answered hash against the model.
      await post(sale('2026-01-05', 100), euro('2026-01-05', 7), sale('2026-01-03', 200));
      await post(euro('2026-01-02', 9));
      await post(sale('2026-01-09', 300, { metadata: { invoice: 'A-1', lines: [1, 2] }, reference: 'R-1' }));
      expect(await context.store.currencyChainHeads()).toEqual(chain.heads);
      const stored = (await context.store.listEntriesInPostingOrder({ limit: 10 })).items;
      expect(stored.map((entry) => ({ previous_hash: entry.previous_hash, hash: entry.hash, entry_number: entry.entry_number }))).toEqual(stored.map((entry) => chain.linkOf(entry.id)));
      expect(new Set(stored.map((entry) => entry.hash)).size).toBe(stored.length);
    });

    it('does not move a chain for an entry that is refused or rolled back', async () => {
      await post(sale('2026-01-05', 100));
      const heads = await context.store.currencyChainHeads();
      await expect(context.store.write(async (tx) => {
        await tx.insertEntry(sale('2026-01-06', 5));
        throw new Error('changed my mind');
      })).rejects.toThrow('changed my mind');
      expect(await context.store.currencyChainHeads()).toEqual(heads);
      await post(sale('2026-01-07', 6));
      expect(await context.store.currencyChainHeads()).toEqual(chain.heads);
    });
  });

  describe('reversals', () => {
    it('derives reversed_by_id from the reversal that names the entry, in every read of it', async () => {
      const [original, other] = await post(sale('2026-01-05', 500), sale('2026-01-06', 7));
      expect((await context.store.getEntry(original!.id))?.reversed_by_id).toBeNull();
      const reversal = fixtures.reversal(original!, books.accounts, '2026-02-03', books.february);
      await post(reversal);
      expect(await context.store.getEntry(original!.id)).toEqual(view(original!, reversal.id));
      expect(await context.store.getEntry(reversal.id)).toEqual(view(reversal, null));
      expect(await context.store.getEntry(other!.id)).toEqual(view(other!, null));
      const listed = (await context.store.listEntries({}, 'asc', { limit: 10 })).items;
      expect(listed.map((entry) => [entry.id, entry.reverses_id, entry.reversed_by_id])).toEqual([
        [original!.id, null, reversal.id], [other!.id, null, null], [reversal.id, original!.id, null],
      ]);
      const inPostingOrder = (await context.store.listEntriesInPostingOrder({ limit: 10 })).items;
      expect(inPostingOrder.find((entry) => entry.id === original!.id)?.reversed_by_id).toBe(reversal.id);
    });

    it('refuses a second reversal of the same entry as REVERSAL_NOT_ALLOWED and writes nothing of it', async () => {
      const [original] = await post(sale('2026-01-05', 500));
      const first = fixtures.reversal(original!, books.accounts, '2026-01-20', books.january);
      await post(first);
      const totalsBefore = await context.store.accountTotals({});
      const second = fixtures.reversal(original!, books.accounts, '2026-02-20', books.february);
      await expectLedgerError(context.store.write((tx) => tx.insertEntry(second)), 'REVERSAL_NOT_ALLOWED');
      expect(await context.store.getEntry(second.id)).toBeUndefined();
      expect(await context.store.countEntries()).toBe(2);
      expect(await context.store.accountTotals({})).toEqual(totalsBefore);
      expect(await context.store.accountTotals({ period_id: books.february.id })).toEqual(new Map());
      expect(await context.store.currencyDebitTotal(books.usd.id)).toBe(1000n);
      expect((await context.store.getEntry(original!.id))?.reversed_by_id).toBe(first.id);
    });

    it('lets exactly one of two concurrent reversals of the same entry through', async () => {
      const [original] = await post(sale('2026-01-05', 500));
      const reversals = [
        fixtures.reversal(original!, books.accounts, '2026-01-20', books.january),
        fixtures.reversal(original!, books.accounts, '2026-02-20', books.february),
      ];
      const outcomes = await Promise.allSettled(reversals.map((reversal) => context.store.write((tx) => tx.insertEntry(reversal))));
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ code: 'REVERSAL_NOT_ALLOWED' });
      const winner = reversals[outcomes.findIndex((outcome) => outcome.status === 'fulfilled')]!;
      expect((await context.store.getEntry(original!.id))?.reversed_by_id).toBe(winner.id);
      expect(await context.store.countEntries()).toBe(2);
    });
  });

  describe('listing entries', () => {
    /**
     * Posted in this order, with ids that sort against it, three of them on one day:
     * by date then posting order they are jan02, jan10a, jan10b, jan10c, feb01, mar05.
     */
    const postUnordered = async () => {
      const entries = {
        mar05: sale('2026-03-05', 1, { id: 'entry-9' }),
        jan10a: sale('2026-01-10', 2, { id: 'entry-8' }),
        jan10b: sale('2026-01-10', 3, { id: 'entry-7' }),
        feb01: sale('2026-02-01', 4, { id: 'entry-6' }),
        jan10c: sale('2026-01-10', 5, { id: 'entry-5' }),
        jan02: sale('2026-01-02', 6, { id: 'entry-4' }),
      };
      for (const entry of Object.values(entries)) await post(entry);
      return entries;
    };

    it('lists entries by date then posting order, oldest or newest first, walking keyset pages to the end', async () => {
      const e = await postUnordered();
      const ascending = [e.jan02, e.jan10a, e.jan10b, e.jan10c, e.feb01, e.mar05].map((entry) => entry.id);
      for (const limit of [1, 2, 4, 6, 50]) {
        const up = await walkPages((request) => context.store.listEntries({}, 'asc', request), limit);
        expect(ids(up.items), `asc, limit ${limit}`).toEqual(ascending);
        const down = await walkPages((request) => context.store.listEntries({}, 'desc', request), limit);
        expect(ids(down.items), `desc, limit ${limit}`).toEqual([...ascending].reverse());
      }
      const firstPage = await context.store.listEntries({}, 'asc', { limit: 3 });
      expect(firstPage.next).toHaveLength(2);
      expect(firstPage.next?.[0]).toBe('2026-01-10');
    });

    it('lists entries with their lines, equal to what getEntry answers', async () => {
      const e = await postUnordered();
      const listed = (await context.store.listEntries({}, 'desc', { limit: 50 })).items;
      for (const entry of Object.values(e)) {
        expect(listed.find((item) => item.id === entry.id)).toEqual(view(entry));
      }
    });

    it('filters entries by period and by inclusive dates', async () => {
      const e = await postUnordered();
      const list = async (filter: EntryFilter, order: SortOrder = 'asc') =>
        ids((await walkPages((request) => context.store.listEntries(filter, order, request), 2)).items);
      expect(await list({ period_id: books.january.id })).toEqual(ids([e.jan02, e.jan10a, e.jan10b, e.jan10c]));
      expect(await list({ period_id: books.january.id }, 'desc')).toEqual(ids([e.jan10c, e.jan10b, e.jan10a, e.jan02]));
      expect(await list({ period_id: books.february.id })).toEqual(ids([e.feb01]));
      expect(await list({ start_date: '2026-01-10' })).toEqual(ids([e.jan10a, e.jan10b, e.jan10c, e.feb01, e.mar05]));
      expect(await list({ end_date: '2026-01-10' })).toEqual(ids([e.jan02, e.jan10a, e.jan10b, e.jan10c]));
      expect(await list({ start_date: '2026-01-10', end_date: '2026-02-01' })).toEqual(ids([e.jan10a, e.jan10b, e.jan10c, e.feb01]));
      expect(await list({ start_date: '2026-01-10', end_date: '2026-01-10' }, 'desc')).toEqual(ids([e.jan10c, e.jan10b, e.jan10a]));
      expect(await list({ start_date: '2026-01-03', end_date: '2026-01-09' })).toEqual([]);
      expect(await list({ period_id: books.march.id, end_date: '2026-03-04' })).toEqual([]);
    });

    it('filters entries by the lines of one account, or of every sub-account of a control account, each entry once', async () => {
      const toNorth = fixtures.entry({ date: '2026-01-03', period: books.january, lines: [debit(books.bankNorth, 10), credit(books.sales, 10)] });
      const cashTwice = fixtures.entry({
        date: '2026-01-04', period: books.january, lines: [debit(books.cash, 4), debit(books.cash, 6), credit(books.sales, 10)],
      });
      const bothBanks = fixtures.entry({
        date: '2026-01-05', period: books.january, lines: [debit(books.bankNorth, 1), debit(books.bankSouth, 2), credit(books.sales, 3)],
      });
      const toSouth = fixtures.entry({ date: '2026-02-03', period: books.february, lines: [debit(books.bankSouth, 5), credit(books.cash, 5)] });
      const euro = fixtures.entry({ date: '2026-01-04', period: books.january, lines: [debit(books.till, 8), credit(books.euroSales, 8)] });
      await post(toNorth, cashTwice, bothBanks, toSouth, euro);
      const list = async (filter: EntryFilter, order: SortOrder = 'asc') =>
        ids((await walkPages((request) => context.store.listEntries(filter, order, request), 1)).items);
      expect(await list({ lines: { account_id: books.cash.id } })).toEqual(ids([cashTwice, toSouth]));
      expect(await list({ lines: { account_id: books.bankNorth.id } })).toEqual(ids([toNorth, bothBanks]));
      expect(await list({ lines: { account_id: books.sales.id } }, 'desc')).toEqual(ids([bothBanks, cashTwice, toNorth]));
      expect(await list({ lines: { parent_id: books.bank.id } })).toEqual(ids([toNorth, bothBanks, toSouth]));
      expect(await list({ lines: { parent_id: books.bank.id }, period_id: books.january.id }, 'desc')).toEqual(ids([bothBanks, toNorth]));
      expect(await list({ lines: { parent_id: books.bank.id }, start_date: '2026-01-05' })).toEqual(ids([bothBanks, toSouth]));
      expect(await list({ lines: { account_id: books.bank.id } })).toEqual([]);
      expect(await list({ lines: { parent_id: books.cash.id } })).toEqual([]);
      expect(await list({ lines: { account_id: books.rent.id } })).toEqual([]);
    });

    it('lists entries in posting order whatever their dates, walking keyset pages to the end, and counts them', async () => {
      expect(await context.store.countEntries()).toBe(0);
      expect(await context.store.listEntriesInPostingOrder({ limit: 5 })).toEqual({ items: [], next: undefined });
      const e = await postUnordered();
      const postingOrder = Object.values(e);
      for (const limit of [1, 2, 5, 6, 10]) {
        const walked = await walkPages((request) => context.store.listEntriesInPostingOrder(request), limit);
        expect(walked.items, `limit ${limit}`).toEqual(postingOrder.map((entry) => view(entry)));
      }
      expect(await context.store.countEntries()).toBe(6);
    });

    it('walks the posting order without skipping or repeating while entries are posted between pages', async () => {
      const before = await postUnordered();
      const seen: string[] = [];
      const postedMeanwhile: string[] = [];
      let after: readonly (string | number)[] | undefined;
      for (let round = 0; ; round += 1) {
        const page = await context.store.listEntriesInPostingOrder({ limit: 2, after });
        seen.push(...ids(page.items));
        if (page.next === undefined) break;
        after = page.next;
        if (round < 3) {
          const [meanwhile] = await post(sale(round % 2 === 0 ? '2026-01-01' : '2026-03-31', 100 + round));
          postedMeanwhile.push(meanwhile!.id);
        }
      }
      expect(seen).toEqual([...ids(Object.values(before)), ...postedMeanwhile]);
    });

    it('walks entries by date without skipping or repeating earlier rows while entries are posted between pages', async () => {
      const before = await postUnordered();
      for (const order of ['asc', 'desc'] as const) {
        const seen: JournalEntryView[] = [];
        let after: readonly (string | number)[] | undefined;
        for (let round = 0; ; round += 1) {
          const page = await context.store.listEntries({}, order, { limit: 2, after });
          seen.push(...page.items);
          if (page.next === undefined) break;
          after = page.next;
          await post(sale(round % 2 === 0 ? '2026-01-10' : '2026-02-15', 1000 + round));
        }
        const seenIds = ids(seen);
        expect(new Set(seenIds).size, `${order}: no entry twice`).toBe(seenIds.length);
        for (const entry of Object.values(before)) expect(seenIds, `${order}: ${entry.id} seen`).toContain(entry.id);
        const dates = seen.map((entry) => entry.entry_date);
        expect(dates, `${order}: dates in order`).toEqual([...dates].sort((a, b) => (order === 'asc' ? a.localeCompare(b) : b.localeCompare(a))));
      }
    });
  });

  describe('account lines', () => {
    it('lists the lines of an account in date then posting order with their entry facts, walking pages both ways', async () => {
      const late = fixtures.entry({ date: '2026-03-02', period: books.march, reference: 'R-1', lines: [debit(books.cash, 1), credit(books.sales, 1)] });
      const twice = fixtures.entry({
        date: '2026-01-15', period: books.january, description: 'Two cash lines',
        lines: [debit(books.cash, 20, 'first'), credit(books.sales, 50), debit(books.cash, 30, 'second')],
      });
      const sameDay = fixtures.entry({ date: '2026-01-15', period: books.january, lines: [credit(books.cash, 5), debit(books.rent, 5)] });
      const early = fixtures.entry({ date: '2026-01-02', period: books.january, lines: [debit(books.cash, 7), credit(books.sales, 7)] });
      const unrelated = fixtures.entry({ date: '2026-01-15', period: books.january, lines: [debit(books.rent, 3), credit(books.sales, 3)] });
      await post(late, twice, sameDay, early, unrelated);
      const onCash = (entry: JournalEntry) => accountLinesOf(entry, books.accounts, (id) => id === books.cash.id, chain.linkOf(entry.id).entry_number);
      const ascending: AccountLine[] = [...onCash(early), ...onCash(twice), ...onCash(sameDay), ...onCash(late)];
      expect(ascending.map((line) => line.description)).toEqual([null, 'first', 'second', null, null]);
      const walk = (order: SortOrder, limit: number, range = {}) =>
        walkPages((request) => context.store.listAccountLines({ account_id: books.cash.id }, range, order, request), limit);
      for (const limit of [1, 2, 3, 5, 20]) {
        expect((await walk('asc', limit)).items, `asc, limit ${limit}`).toEqual(ascending);
        expect((await walk('desc', limit)).items, `desc, limit ${limit}`).toEqual([...ascending].reverse());
      }
      expect((await context.store.listAccountLines({ account_id: books.cash.id }, {}, 'asc', { limit: 2 })).next?.[0]).toBe('2026-01-15');
      expect((await walk('asc', 2, { start_date: '2026-01-15', end_date: '2026-01-15' })).items).toEqual([...onCash(twice), ...onCash(sameDay)]);
      expect((await walk('desc', 2, { start_date: '2026-01-15' })).items).toEqual([...onCash(twice), ...onCash(sameDay), ...onCash(late)].reverse());
      expect((await walk('asc', 2, { end_date: '2026-01-14' })).items).toEqual(onCash(early));
      expect((await walk('asc', 2, { start_date: '2026-03-03' })).items).toEqual([]);
      expect((await walk('asc', 2, { start_date: '2026-01-16', end_date: '2026-03-01' })).items).toEqual([]);
    });

    it('lists the lines of every sub-account of a control account, and none for an account without lines', async () => {
      const first = fixtures.entry({
        date: '2026-02-10', period: books.february, lines: [debit(books.bankSouth, 4), debit(books.bankNorth, 6), credit(books.sales, 10)],
      });
      const second = fixtures.entry({ date: '2026-01-10', period: books.january, lines: [debit(books.bankNorth, 9), credit(books.cash, 9)] });
      const noise = fixtures.entry({ date: '2026-01-11', period: books.january, lines: [debit(books.cash, 1), credit(books.sales, 1)] });
      await post(first, second, noise);
      const onBanks = (entry: JournalEntry) =>
        accountLinesOf(entry, books.accounts, (id) => id === books.bankNorth.id || id === books.bankSouth.id, chain.linkOf(entry.id).entry_number);
      const walk = (scope: LineScope, order: SortOrder) =>
        walkPages((request) => context.store.listAccountLines(scope, {}, order, request), 2);
      expect((await walk({ parent_id: books.bank.id }, 'asc')).items).toEqual([...onBanks(second), ...onBanks(first)]);
      expect((await walk({ parent_id: books.bank.id }, 'desc')).items).toEqual([...onBanks(second), ...onBanks(first)].reverse());
      expect((await context.store.listAccountLines({ parent_id: books.bank.id }, { start_date: '2026-02-01' }, 'asc', { limit: 10 })).items)
        .toEqual(onBanks(first));
      expect((await walk({ account_id: books.bankSouth.id }, 'asc')).items)
        .toEqual(accountLinesOf(first, books.accounts, (id) => id === books.bankSouth.id, chain.linkOf(first.id).entry_number));
      expect(await context.store.listAccountLines({ account_id: books.rent.id }, {}, 'asc', { limit: 10 })).toEqual({ items: [], next: undefined });
      expect(await context.store.listAccountLines({ account_id: books.bank.id }, {}, 'asc', { limit: 10 })).toEqual({ items: [], next: undefined });
      expect(await context.store.listAccountLines({ parent_id: books.cash.id }, {}, 'desc', { limit: 10 })).toEqual({ items: [], next: undefined });
    });
  });

  describe('amounts on one side (for aging balances)', () => {
    it('lists one account\'s debit or credit amounts newest first up to a date, leaving out reversed pairs dated by then', async () => {
      const { bankNorth, bankSouth, cash } = books;
      const accounts = books.accounts;
      const opening = fixtures.entry({ date: '2026-01-05', period: books.january, lines: [debit(bankNorth, 100), credit(cash, 100)] });
      const twoLines = fixtures.entry({
        date: '2026-01-20', period: books.january, lines: [debit(bankNorth, 7), credit(cash, 15), debit(bankNorth, 8)],
      });
      const withdrawal = fixtures.entry({ date: '2026-02-03', period: books.february, lines: [debit(cash, 30), credit(bankNorth, 30)] });
      const mistake = fixtures.entry({ date: '2026-02-10', period: books.february, lines: [debit(bankNorth, 500), credit(cash, 500)] });
      const mistakeUndone = fixtures.reversal(mistake, accounts, '2026-02-12', books.february);
      const later = fixtures.entry({ date: '2026-03-01', period: books.march, lines: [debit(bankNorth, 9), credit(cash, 9)] });
      const laterUndone = fixtures.reversal(later, accounts, '2026-03-20', books.march);
      const elsewhere = fixtures.entry({ date: '2026-03-25', period: books.march, lines: [debit(bankSouth, 1000), credit(cash, 1000)] });
      const last = fixtures.entry({ date: '2026-03-31', period: books.march, lines: [debit(bankNorth, 60), credit(cash, 60)] });
      await post(opening, twoLines, withdrawal, mistake, mistakeUndone, later, laterUndone, elsewhere, last);

      const walk = async (side: 'debit' | 'credit', through: string, limit: number) =>
        (await walkPages((request) => context.store.listSideAmounts(bankNorth.id, side, through, request), limit)).items
          .map((item) => [item.entry_date, item.amount]);
      const cases: [side: 'debit' | 'credit', through: string, expected: [string, bigint][]][] = [
        // Both reversed pairs are dated by the end of March: neither shows.
        ['debit', '2026-03-31', [['2026-03-31', 60n], ['2026-01-20', 8n], ['2026-01-20', 7n], ['2026-01-05', 100n]]],
        ['credit', '2026-03-31', [['2026-02-03', 30n]]],
        // On 03-10 the March entry is not reversed yet, and the line dated 03-31 is in the future.
        ['debit', '2026-03-10', [['2026-03-01', 9n], ['2026-01-20', 8n], ['2026-01-20', 7n], ['2026-01-05', 100n]]],
        ['credit', '2026-03-10', [['2026-02-03', 30n]]],
        // On 02-11 the mistake is not reversed yet.
        ['debit', '2026-02-11', [['2026-02-10', 500n], ['2026-01-20', 8n], ['2026-01-20', 7n], ['2026-01-05', 100n]]],
        ['credit', '2026-02-11', [['2026-02-03', 30n]]],
        ['debit', '2026-01-20', [['2026-01-20', 8n], ['2026-01-20', 7n], ['2026-01-05', 100n]]],
        ['credit', '2026-02-02', []],
        ['debit', '2026-01-04', []],
      ];
      for (const [side, through, expected] of cases) {
        for (const limit of [1, 2, 3, 10]) expect(await walk(side, through, limit), `${side} through ${through}, limit ${limit}`).toEqual(expected);
      }
      expect((await context.store.listSideAmounts(bankNorth.id, 'debit', '2026-03-31', { limit: 2 })).next?.[0]).toBe('2026-01-20');
      expect(await context.store.listSideAmounts(books.rent.id, 'debit', '2026-12-31', { limit: 10 })).toEqual({ items: [], next: undefined });
      // A control account has no lines of its own.
      expect(await context.store.listSideAmounts(books.bank.id, 'debit', '2026-12-31', { limit: 10 })).toEqual({ items: [], next: undefined });
    });
  });
});
