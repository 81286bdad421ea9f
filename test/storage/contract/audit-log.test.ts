/**
 * Storage contract: the audit log. Records read back exactly as appended; they are listed in log
 * order, (occurred_at, id), newest or oldest first, keyset-paged and filtered by actor, action,
 * target and UTC calendar day; and a record commits or rolls back with the job that wrote it. A
 * post is its own record, read from its entry and merged into the log (docs/audit.md, "Posts").
 */
import { describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../../src/domain/audit.js';
import { LedgerError } from '../../../src/domain/errors.js';
import { auditRecordHash, GENESIS_HASH } from '../../../src/service/entry-hash.js';
import type { AuditLogFilter } from '../../../src/service/ports/ledger-store.js';
import type { JournalEntry } from '../../../src/domain/types.js';
import {
  auditRecordFixture, credit, currencyFixture, debit, EntryFixtures, FIXTURE_TIME, insertBooks, standardBooks,
} from './fixtures.js';
import { expectLedgerError, freshStorePerTest, rejectionOf, walkPages } from './support.js';

const ids = (records: readonly { id: string }[]) => records.map((record) => record.id);

/** Log order: occurred_at, then id. */
const byLogOrder = (a: AuditRecord, b: AuditRecord) =>
  a.occurred_at < b.occurred_at ? -1 : a.occurred_at > b.occurred_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

describe('storage contract: the audit log', () => {
  const context = freshStorePerTest();

  const append = async (...records: AuditRecord[]) => {
    await context.store.write(async (tx) => {
      for (const record of records) await tx.insertAuditRecord(record);
    });
    return records;
  };

  /** Every record of the listing; hashes (set when the records are sealed, right after commit) are checked apart. */
  const listAll = async (filter: AuditLogFilter, limit = 500) =>
    (await walkPages((page) => context.store.listAuditLog(filter, page), limit)).items.map((record) => ({ ...record, hash: null }));

  it('reads a record back exactly as appended, every field, nested changes and nulls included', async () => {
    const full = auditRecordFixture(1, {
      action: 'user.update', target_type: 'user', target_id: 'user-bob',
      changes: {
        name: { old: 'Bob', new: 'Bób «Ünïcødé» ✓ "quoted"\\n' },
        permissions: { old: { 'journals:create': true }, new: { 'journals:create': false, admin: true } },
        is_active: { old: true, new: false },
        xbrl_tag: { old: null, new: '' },
      },
    });
    const bare = auditRecordFixture(2, {
      actor_id: null, credential_type: null, credential_id: null, request_id: null, action: 'auth.login_failed',
      target_type: null, target_id: null, changes: null,
    });
    const session = auditRecordFixture(3, { credential_type: 'session', credential_id: 'family-1', changes: {} });
    await append(full, bare, session);
    expect(await listAll({ order: 'asc' })).toEqual([full, bare, session]);
  });

  it('answers an empty page for an empty log', async () => {
    expect(await context.store.listAuditLog({}, { limit: 5 })).toEqual({ items: [], next: undefined });
  });

  it('lists newest first by default and oldest first on request, ordering records of the same instant by id', async () => {
    const sameInstant = '2026-03-01T10:00:00.000Z';
    const records = [
      auditRecordFixture(5), auditRecordFixture(1),
      auditRecordFixture(30, { id: 'audit-b', occurred_at: sameInstant }),
      auditRecordFixture(31, { id: 'audit-a', occurred_at: sameInstant }),
      auditRecordFixture(32, { id: 'audit-c', occurred_at: sameInstant }),
      auditRecordFixture(3),
    ];
    // Appended out of log order, across several jobs.
    await append(...records.slice(0, 3));
    await append(...records.slice(3));
    const ascending = [...records].sort(byLogOrder);
    expect(ids(await listAll({ order: 'asc' }))).toEqual(ids(ascending));
    expect(ids(await listAll({}))).toEqual(ids(ascending).reverse());
    expect(ids(await listAll({ order: 'desc' }))).toEqual(ids(ascending).reverse());
  });

  it('walks keyset pages of every size to the end, each record exactly once, in both orders', async () => {
    const records = Array.from({ length: 23 }, (_, index) => auditRecordFixture(index + 1, {
      // Every third record shares its instant with the next, so pages also split ties.
      occurred_at: new Date(Date.parse('2026-02-01T00:00:00.000Z') + Math.floor(index / 3) * 1000).toISOString(),
    }));
    await append(...records);
    const ascending = ids([...records].sort(byLogOrder));
    for (const limit of [1, 2, 5, 22, 23, 24]) {
      expect(ids(await listAll({ order: 'asc' }, limit)), `asc, limit ${limit}`).toEqual(ascending);
      expect(ids(await listAll({ order: 'desc' }, limit)), `desc, limit ${limit}`).toEqual([...ascending].reverse());
    }
  });

  it('filters by actor, action and target, alone and together, paging within the filter', async () => {
    const records = [
      auditRecordFixture(1, { actor_id: 'user-ann', action: 'account.create', target_id: 'account-1000' }),
      auditRecordFixture(2, { actor_id: 'user-ann', action: 'account.update', target_id: 'account-1000' }),
      auditRecordFixture(3, { actor_id: 'user-bob', action: 'account.update', target_id: 'account-2000' }),
      auditRecordFixture(4, { actor_id: null, credential_type: null, credential_id: null, action: 'account.update', target_id: 'account-1000' }),
      auditRecordFixture(5, { actor_id: 'user-ann', action: 'auth.login', target_type: 'user', target_id: 'user-ann' }),
      auditRecordFixture(6, { actor_id: null, action: 'auth.login_failed', target_type: null, target_id: null, changes: null }),
      auditRecordFixture(7, { actor_id: 'user-ann', action: 'account.update', target_id: 'account-1000' }),
    ];
    await append(...records);
    const expectIds = async (filter: AuditLogFilter, expected: number[]) => {
      const want = expected.map((n) => records[n - 1]!.id);
      for (const limit of [1, 2, 50]) {
        expect(ids(await listAll({ ...filter, order: 'asc' }, limit)), JSON.stringify(filter)).toEqual(want);
        expect(ids(await listAll({ ...filter, order: 'desc' }, limit)), JSON.stringify(filter)).toEqual([...want].reverse());
      }
    };
    await expectIds({ actor_id: 'user-ann' }, [1, 2, 5, 7]);
    await expectIds({ action: 'account.update' }, [2, 3, 4, 7]);
    await expectIds({ target_id: 'account-1000' }, [1, 2, 4, 7]);
    await expectIds({ actor_id: 'user-ann', action: 'account.update', target_id: 'account-1000' }, [2, 7]);
    await expectIds({ action: 'auth.login_failed' }, [6]);
    await expectIds({ actor_id: 'user-nobody' }, []);
    await expectIds({ action: 'period.close' }, []);
  });

  it('filters by inclusive UTC calendar days of occurred_at, to the millisecond at both ends', async () => {
    const at = (n: number, occurred_at: string) => auditRecordFixture(n, { occurred_at });
    const records = [
      at(1, '2026-03-14T23:59:59.999Z'),
      at(2, '2026-03-15T00:00:00.000Z'),
      at(3, '2026-03-15T12:00:00.000Z'),
      at(4, '2026-03-16T23:59:59.999Z'),
      at(5, '2026-03-17T00:00:00.000Z'),
      at(6, '2026-12-31T23:59:59.999Z'),
      at(7, '2027-01-01T00:00:00.000Z'),
    ];
    await append(...records);
    const days = async (filter: AuditLogFilter) => ids(await listAll({ ...filter, order: 'asc' }, 2)).map((id) => Number(id.slice(-4)));
    expect(await days({ start_date: '2026-03-15' })).toEqual([2, 3, 4, 5, 6, 7]);
    expect(await days({ end_date: '2026-03-16' })).toEqual([1, 2, 3, 4]);
    expect(await days({ start_date: '2026-03-15', end_date: '2026-03-15' })).toEqual([2, 3]);
    expect(await days({ start_date: '2026-03-15', end_date: '2026-03-16' })).toEqual([2, 3, 4]);
    expect(await days({ start_date: '2026-12-31', end_date: '2026-12-31' })).toEqual([6]);
    expect(await days({ start_date: '2026-04-01', end_date: '2026-04-30' })).toEqual([]);
    expect(await days({ start_date: '2026-03-17', end_date: '2026-03-15' })).toEqual([]);
    expect(await days({ start_date: '2026-03-15', end_date: '2026-03-16', action: 'account.update', actor_id: 'user-admin' })).toEqual([2, 3, 4]);
  });

  it('shows a record to reads inside the job that appended it, and to everyone once committed', async () => {
    const record = auditRecordFixture(1);
    const seenInside = await context.store.write(async (tx) => {
      await tx.insertAuditRecord(record);
      return (await tx.listAuditLog({}, { limit: 5 })).items;
    });
    const withoutSeal = (records: AuditRecord[]) => records.map((listed) => ({ ...listed, hash: null }));
    expect(seenInside).toEqual([record]);
    expect(withoutSeal((await context.store.listAuditLog({}, { limit: 5 })).items)).toEqual([record]);
    expect(withoutSeal(await context.store.read(async (reads) => (await reads.listAuditLog({}, { limit: 5 })).items))).toEqual([record]);
  });

  it('keeps every record of a job that appends thousands', async () => {
    const records = Array.from({ length: 2_345 }, (_, index) => auditRecordFixture(index + 1));
    await append(...records);
    expect(ids(await listAll({ order: 'asc' }, 200))).toEqual(ids(records));
  });

  it('rolls a record back with a job that fails, and keeps the records of the jobs beside it', async () => {
    const kept = auditRecordFixture(1);
    const lost = auditRecordFixture(2);
    const alsoKept = auditRecordFixture(3);
    const results = await Promise.allSettled([
      append(kept),
      context.store.write(async (tx) => {
        await tx.insertAuditRecord(lost);
        throw new Error('the change failed');
      }),
      append(alsoKept),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(ids(await listAll({ order: 'asc' }))).toEqual(ids([kept, alsoKept]));
  });

  it('rolls a record back with the change it describes when that change is refused', async () => {
    const usd = currencyFixture('USD');
    await context.store.write((tx) => tx.insertCurrency(usd));
    await expectLedgerError(context.store.write(async (tx) => {
      await tx.insertAuditRecord(auditRecordFixture(1, { action: 'currency.create', target_type: 'currency', target_id: 'currency-usd-2' }));
      await tx.insertCurrency(currencyFixture('USD', { id: 'currency-usd-2', caip19_id: 'test:0/token:other' }));
    }), 'DUPLICATE', 'code');
    expect(await listAll({})).toEqual([]);
  });

  it('refuses a second record at the same place in the log, and keeps the first', async () => {
    const first = auditRecordFixture(1);
    await append(first);
    // Ids are UUIDv7, so this is a bug's doing; the store refuses it rather than keep two.
    expect((await rejectionOf(append(auditRecordFixture(1, { action: 'period.create' })))).code).toBe('DUPLICATE');
    expect(await listAll({})).toEqual([first]);
  });

  describe('the audit chain', () => {
    /** A write that does nothing: queued behind the seal that the last commit asked for. */
    const afterTheSeal = () => context.store.write(async () => {});

    it('seals every committed record right after its commit, in log order, each hash over the record and the previous hash', async () => {
      const first = await append(auditRecordFixture(1), auditRecordFixture(2, { changes: { name: { old: 'a', new: 'ü' } } }));
      const second = await append(auditRecordFixture(3, { actor_id: null, credential_type: null, credential_id: null }));
      await afterTheSeal();
      expect(await context.store.countAuditRecords()).toEqual({ records: 3, sealed: 3 });
      const chain = (await walkPages((page) => context.store.listAuditChain(page), 2)).items;
      expect(chain.map((link) => link.record.id)).toEqual(ids([...first, ...second]));
      let previous = GENESIS_HASH;
      chain.forEach((link, index) => {
        expect(link.position).toBe(index + 1);
        expect(link.previous_hash).toBe(previous);
        expect(link.hash).toBe(auditRecordHash(link.record, previous));
        previous = link.hash;
      });
      const listed = (await walkPages((page) => context.store.listAuditLog({ order: 'asc' }, page), 10)).items;
      expect(listed.map((record) => record.hash)).toEqual(chain.map((link) => link.hash));
    });

    it('keeps pace with jobs that append thousands of records each: the seal after each commit seals them all', async () => {
      // A batch of 10,000 entries writes 10,000 records; a seal of a thousand at a time fell behind
      // such writers for as long as they kept writing.
      for (let round = 0; round < 3; round += 1) {
        await append(...Array.from({ length: 2_500 }, (_, index) => auditRecordFixture(round * 2_500 + index + 1)));
      }
      await afterTheSeal();
      expect(await context.store.countAuditRecords()).toEqual({ records: 7_500, sealed: 7_500 });
    });

    it('seals nothing of a job that rolled back, and continues the chain for later records', async () => {
      await append(auditRecordFixture(1));
      await rejectionOf(context.store.write(async (tx) => {
        await tx.insertAuditRecord(auditRecordFixture(2));
        throw new LedgerError('VALIDATION_ERROR', 'refused');
      }));
      await append(auditRecordFixture(3));
      await afterTheSeal();
      const chain = (await walkPages((page) => context.store.listAuditChain(page), 10)).items;
      expect(chain.map((link) => link.record.id)).toEqual(ids([auditRecordFixture(1), auditRecordFixture(3)]));
      expect(chain[1]!.previous_hash).toBe(chain[0]!.hash);
      expect(await context.store.write((tx) => tx.sealAuditRecords(10))).toBe(0);
    });
  });

  describe('posts, read from their entries', () => {
    const books = standardBooks();
    const at = (seconds: number) => new Date(Date.parse(FIXTURE_TIME) + seconds * 1000).toISOString();

    /**
     * Records and entries interleaved in time: a post through an API key in a request, one by the
     * local operator on the lock date with a reason, the first one's reversal, a closing entry
     * (part of its close: no record of its own), and an entry posted before entries said who
     * posted them (hash version 1: its record, if any, is a row of the log).
     */
    const seed = async () => {
      const fixtures = new EntryFixtures();
      const sale = fixtures.entry({ date: '2026-01-10', period: books.january, posted_at: at(2), created_by: 'user-ann',
        credential_type: 'api_key', credential_id: 'key-ann', request_id: 'request-sale', lines: [debit(books.cash, 500), credit(books.sales, 500)] });
      const late = { ...fixtures.entry({ date: '2026-01-11', period: books.january, posted_at: at(4), created_by: 'local-operator',
        lines: [debit(books.rent, 70), credit(books.cash, 70)] }), override_reason: 'invoice found late' };
      const reversal = fixtures.entry({ date: '2026-01-12', period: books.january, posted_at: at(6), created_by: 'user-bob',
        reverses: sale, credential_type: 'session', credential_id: 'session-bob', request_id: 'request-undo',
        lines: [debit(books.sales, 500), credit(books.cash, 500)] });
      const closing = fixtures.entry({ date: '2026-01-31', period: books.january, posted_at: at(8), created_by: 'user-ann', entry_type: 'closing',
        credential_type: 'api_key', credential_id: 'key-ann', request_id: 'request-close', lines: [debit(books.sales, 0), credit(books.retained, 0)] });
      const legacy = fixtures.entry({ date: '2026-01-05', period: books.january, posted_at: at(1), created_by: 'user-ann', hash_version: 1,
        lines: [debit(books.cash, 9), credit(books.sales, 9)] });
      const records = [
        auditRecordFixture(1, { actor_id: 'user-ann', action: 'journal_entry.create', target_type: 'journal_entry', target_id: legacy.id, changes: null }),
        auditRecordFixture(3, { actor_id: 'user-bob' }),
        auditRecordFixture(5, { actor_id: 'user-ann', target_id: sale.id }),
        auditRecordFixture(8, { actor_id: 'user-ann', action: 'period.close', target_type: 'period', target_id: books.january.id }),
      ];
      const hashes = new Map<string, string>();
      await context.store.write(async (tx) => {
        await insertBooks(tx, books);
        for (const entry of [legacy, sale, late, reversal, closing]) hashes.set(entry.id, (await tx.insertEntry(entry)).hash);
        for (const record of records) await tx.insertAuditRecord(record);
      });
      const hashOf = (entry: JournalEntry) => hashes.get(entry.id)!;
      const posts = {
        sale: { id: sale.id, occurred_at: at(2), actor_id: 'user-ann', credential_type: 'api_key', credential_id: 'key-ann', request_id: 'request-sale',
          action: 'journal_entry.create', target_type: 'journal_entry', target_id: sale.id, changes: null, hash: hashOf(sale) },
        late: { id: late.id, occurred_at: at(4), actor_id: null, credential_type: null, credential_id: null, request_id: null,
          action: 'journal_entry.create', target_type: 'journal_entry', target_id: late.id,
          changes: { override_reason: { old: null, new: 'invoice found late' } }, hash: hashOf(late) },
        reversal: { id: reversal.id, occurred_at: at(6), actor_id: 'user-bob', credential_type: 'session', credential_id: 'session-bob',
          request_id: 'request-undo', action: 'journal_entry.reverse', target_type: 'journal_entry', target_id: sale.id,
          changes: { reversed_by_id: { old: null, new: reversal.id } }, hash: hashOf(reversal) },
      } satisfies Record<string, AuditRecord>;
      return { records, posts, sale, legacy, closing };
    };

    /** Every listed record: a post with its hash (its entry's), a record without (its seal's, set right after commit). */
    const listed = async (filter: AuditLogFilter, limit = 500) =>
      (await walkPages((page) => context.store.listAuditLog(filter, page), limit)).items
        .map((record) => (record.id.startsWith('audit-') ? { ...record, hash: null } : record));

    it('lists each post once, as the record it used to write, merged in log order with the records and paged across both', async () => {
      const { records, posts } = await seed();
      const inOrder = [records[0], posts.sale, records[1], posts.late, records[2], posts.reversal, records[3]];
      for (const limit of [1, 2, 3, 50]) {
        expect(await listed({ order: 'asc' }, limit), `limit ${limit}`).toEqual(inOrder);
        expect(await listed({ order: 'desc' }, limit), `limit ${limit}`).toEqual([...inOrder].reverse());
      }
    });

    it('filters posts by actor, action, target and day as it filters records', async () => {
      const { records, posts, sale, legacy, closing } = await seed();
      const ids = async (filter: AuditLogFilter) => {
        const asc = (await listed({ ...filter, order: 'asc' }, 2)).map((record) => record.id);
        expect((await listed({ ...filter, order: 'desc' }, 2)).map((record) => record.id), JSON.stringify(filter)).toEqual([...asc].reverse());
        return asc;
      };
      expect(await ids({ actor_id: 'user-ann' })).toEqual([records[0]!.id, posts.sale.id, records[2]!.id, records[3]!.id]);
      expect(await ids({ actor_id: 'user-bob' })).toEqual([records[1]!.id, posts.reversal.id]);
      // The local operator is no user: its posts name no actor.
      expect(await ids({ actor_id: 'local-operator' })).toEqual([]);
      expect(await ids({ action: 'journal_entry.create' })).toEqual([records[0]!.id, posts.sale.id, posts.late.id]);
      expect(await ids({ action: 'journal_entry.reverse' })).toEqual([posts.reversal.id]);
      expect(await ids({ action: 'account.update' })).toEqual([records[1]!.id, records[2]!.id]);
      expect(await ids({ target_id: sale.id })).toEqual([posts.sale.id, records[2]!.id, posts.reversal.id]);
      expect(await ids({ target_id: legacy.id })).toEqual([records[0]!.id]);
      expect(await ids({ target_id: closing.id })).toEqual([]);
      expect(await ids({ actor_id: 'user-ann', action: 'journal_entry.create', target_id: sale.id })).toEqual([posts.sale.id]);
      expect(await ids({ start_date: '2026-01-01', end_date: '2026-01-01' })).toHaveLength(7);
      expect(await ids({ start_date: '2026-01-02' })).toEqual([]);
    });

    it('lists only the records written as records when asked (what a copy of the ledger copies)', async () => {
      const { records } = await seed();
      expect(await listed({ order: 'asc', recorded_only: true }, 2)).toEqual(records);
      expect(await listed({ action: 'journal_entry.create', recorded_only: true })).toEqual([records[0]]);
    });
  });
});
