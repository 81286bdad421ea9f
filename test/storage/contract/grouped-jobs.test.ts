/**
 * Storage contract: jobs that share one group commit. The adapters may hold a group's posts in
 * memory and write them together (PostgreSQL does), and may remember accounts and periods between
 * jobs; none of that may change what each job sees or is answered. Every test starts its jobs at
 * once, so that they are queued together into one transaction.
 */
import { describe, expect, it } from 'vitest';
import type { LedgerError } from '../../../src/domain/errors.js';
import type { JournalEntry } from '../../../src/domain/types.js';
import { entryHash, GENESIS_HASH } from '../../../src/service/entry-hash.js';
import { openStore } from '../../../src/app/open-ledger.js';
import { queryWords } from '../../../src/domain/journal/search-words.js';
import type { LedgerReads } from '../../../src/service/ports/ledger-store.js';
import { credit, debit, LARGEST_AMOUNT, totalsOf } from './fixtures.js';
import { freshBooksPerTest, walkPages } from './support.js';

describe('storage contract: jobs committed together', () => {
  const { context, books, fixtures } = freshBooksPerTest();

  const sale = (value: bigint | number, date = '2026-02-10') =>
    fixtures.entry({ date, period: books.february, lines: [debit(books.cash, value), credit(books.sales, value)] });

  const statusOf = (outcome: PromiseSettledResult<unknown>) =>
    outcome.status === 'fulfilled' ? 'ok' : (outcome.reason as LedgerError).code ?? 'thrown';

  /** Every stored entry chains after the one before it in its currency, as the hash says. */
  async function expectUnbrokenChain(): Promise<void> {
    const heads = new Map<string, string>();
    const { items } = await walkPages((page) => context.store.listEntriesInPostingOrder(page), 100);
    for (const entry of items) {
      const previous = heads.get(entry.currency_id) ?? GENESIS_HASH;
      expect(entry.previous_hash).toBe(previous);
      expect(entry.hash).toBe(entryHash(entry, previous));
      heads.set(entry.currency_id, entry.hash);
    }
  }

  it('answers each job on its own: the refused ones change nothing, the others are posted and chained', async () => {
    const kept = [sale(1), sale(2), sale(3), sale(4)];
    const dropped = [sale(5), sale(6)];
    const refusal = new Error('the job changed its mind after posting');
    const outcomes = await Promise.allSettled([
      context.store.write((tx) => tx.insertEntry(kept[0]!)),
      context.store.write(async (tx) => { await tx.insertEntry(dropped[0]!); throw refusal; }),
      context.store.write((tx) => tx.insertEntry(kept[1]!)),
      // Past the currency's bound together with everything else: refused inside its job.
      context.store.write((tx) => tx.insertEntry(sale(LARGEST_AMOUNT))),
      context.store.write(async (tx) => { await tx.insertEntry(kept[2]!); await tx.insertEntry(kept[3]!); }),
      context.store.write(async (tx) => { await tx.insertEntry(dropped[1]!); await tx.insertAuditRecord(auditOf(dropped[1]!)); throw refusal; }),
    ]);
    expect(outcomes.map(statusOf)).toEqual(['ok', 'thrown', 'ok', 'VALIDATION_ERROR', 'ok', 'thrown']);
    expect(await context.store.countEntries()).toBe(kept.length);
    for (const entry of dropped) expect(await context.store.getEntry(entry.id)).toBeUndefined();
    expect(await context.store.accountTotals({})).toEqual(totalsOf(kept));
    expect(await context.store.currencyDebitTotal(books.usd.id)).toBe(10n);
    expect((await context.store.countAuditRecords()).records).toBe(0);
    await expectUnbrokenChain();
  });

  it('leaves nothing of a job that fails alone in its group (no other job queued with it), and writes on after it', async () => {
    const dropped = [sale(1), sale(2), sale(3)];
    const refusal = new Error('the batch changed its mind at its last entry');
    await expect(context.store.write(async (tx) => {
      for (const entry of dropped) await tx.insertEntry(entry);
      await tx.insertAuditRecord(auditOf(dropped[0]!));
      throw refusal;
    })).rejects.toBe(refusal);
    expect(await context.store.countEntries()).toBe(0);
    expect(await context.store.accountTotals({})).toEqual(new Map());
    expect((await context.store.countAuditRecords()).records).toBe(0);
    const kept = sale(4);
    await context.store.write((tx) => tx.insertEntry(kept));
    expect(await context.store.countEntries()).toBe(1);
    expect(await context.store.accountTotals({})).toEqual(totalsOf([kept]));
    await expectUnbrokenChain();
  });

  it('answers jobs queued alone among others each on its own: a failed one leaves nothing, the rest are posted and chained', async () => {
    const kept = [sale(1), sale(2), sale(3), sale(4), sale(5)];
    const dropped = [sale(6), sale(7)];
    const refusal = new Error('the import changed its mind at its last entry');
    const outcomes = await Promise.allSettled([
      context.store.write((tx) => tx.insertEntry(kept[0]!)),
      context.store.write(async (tx) => { await tx.insertEntry(kept[1]!); await tx.insertEntry(kept[2]!); }, { alone: true }),
      context.store.write(async (tx) => { for (const entry of dropped) await tx.insertEntry(entry); throw refusal; }, { alone: true }),
      context.store.write((tx) => tx.insertEntry(kept[3]!)),
      context.store.write((tx) => tx.insertEntry(kept[4]!), { alone: true }),
    ]);
    expect(outcomes.map(statusOf)).toEqual(['ok', 'ok', 'thrown', 'ok', 'ok']);
    expect(await context.store.countEntries()).toBe(kept.length);
    for (const entry of dropped) expect(await context.store.getEntry(entry.id)).toBeUndefined();
    expect(await context.store.accountTotals({})).toEqual(totalsOf(kept));
    await expectUnbrokenChain();
  });

  it('shows totals read inside a job as the jobs before it and the job itself left them, and forgets a failed job\'s', async () => {
    const kept = [sale(1), sale(2), sale(4), sale(8), sale(16)];
    const dropped = sale(32);
    const seen: bigint[] = [];
    const readTotals = async (tx: Parameters<Parameters<typeof context.store.write>[0]>[0]) => {
      seen.push((await tx.accountTotals({ account_ids: [books.cash.id] })).get(books.cash.id)?.debit_total ?? 0n);
      seen.push(await tx.currencyDebitTotal(books.usd.id));
    };
    const refusal = new Error('the job changed its mind after reading');
    const outcomes = await Promise.allSettled([
      context.store.write((tx) => tx.insertEntry(kept[0]!)),
      context.store.write((tx) => tx.insertEntry(kept[1]!)),
      // Reads the totals after posting (so everything pending is written inside its savepoint), then fails.
      context.store.write(async (tx) => { await tx.insertEntry(dropped); await readTotals(tx); throw refusal; }),
      context.store.write((tx) => tx.insertEntry(kept[2]!)),
      context.store.write(async (tx) => { await tx.insertEntry(kept[3]!); await readTotals(tx); }),
      context.store.write((tx) => tx.insertEntry(kept[4]!)),
    ]);
    expect(outcomes.map(statusOf)).toEqual(['ok', 'ok', 'thrown', 'ok', 'ok', 'ok']);
    // Inside the failed job: 1 + 2 + 32; inside the later one: 1 + 2 + 4 + 8 (the failed job's 32 gone).
    expect(seen).toEqual([35n, 35n, 15n, 15n]);
    expect(await context.store.accountTotals({})).toEqual(totalsOf(kept));
    expect(await context.store.currencyDebitTotal(books.usd.id)).toBe(31n);
    await expectUnbrokenChain();
  });

  it('shows every read of the totals inside a job the posts before it, whichever totals it reads (daily, by period, all time)', async () => {
    const kept = [sale(1, '2026-02-10'), sale(2, '2026-02-11'), sale(4, '2026-02-11')];
    const seen: unknown[] = [];
    const outcomes = await Promise.allSettled([
      context.store.write((tx) => tx.insertEntry(kept[0]!)),
      context.store.write((tx) => tx.insertEntry(kept[1]!)),
      context.store.write(async (tx) => {
        await tx.insertEntry(kept[2]!);
        // Each read on its own, in this order: the first read must not be the one that makes the others right.
        const days = await tx.accountDailyTotals([books.cash.id], { start_date: '2026-02-01', end_date: '2026-02-28' });
        seen.push(days.map((day) => [day.entry_date, day.debit_total]));
        seen.push((await tx.accountTotals({ period_id: books.february.id, account_ids: [books.cash.id] })).get(books.cash.id)?.debit_total);
        seen.push((await tx.allCurrencyDebitTotals()).get(books.usd.id));
      }),
    ]);
    expect(outcomes.map(statusOf)).toEqual(['ok', 'ok', 'ok']);
    expect(seen).toEqual([[['2026-02-10', 1n], ['2026-02-11', 6n]], 7n, 7n]);
  });

  it('finds an earlier job\'s entries by their words inside a later job, and forgets a failed job\'s words', async () => {
    const find = async (tx: Pick<LedgerReads, 'listEntries'>, query: string) =>
      (await tx.listEntries({ words: queryWords(query) }, 'asc', { limit: 10 })).items.map((entry) => entry.id);
    const kept = { ...sale(1), description: 'Invoice alpha' };
    const dropped = { ...sale(2), description: 'Invoice beta' };
    const later = { ...sale(4), description: 'Invoice gamma' };
    const seen: Record<string, string[]> = {};
    const outcomes = await Promise.allSettled([
      context.store.write((tx) => tx.insertEntry(kept)),
      context.store.write(async (tx) => {
        await tx.insertEntry(dropped);
        // Searching writes what is pending first, the earlier job's words too, inside this job.
        seen.insideFailedJob = await find(tx, 'alpha beta');
        seen.alphaInsideFailedJob = await find(tx, 'alpha');
        throw new Error('rolled back');
      }),
      context.store.write(async (tx) => {
        await tx.insertEntry(later);
        seen.alphaAfter = await find(tx, 'alpha');
        seen.betaAfter = await find(tx, 'beta');
        seen.gammaInOwnJob = await find(tx, 'gamma');
      }),
    ]);
    expect(outcomes.map(statusOf)).toEqual(['ok', 'thrown', 'ok']);
    expect(seen).toEqual({
      insideFailedJob: [], alphaInsideFailedJob: [kept.id], alphaAfter: [kept.id], betaAfter: [], gammaInOwnJob: [later.id],
    });
    expect(await find(context.store, 'invoice')).toEqual([kept.id, later.id]);
    expect(await find(context.store, 'beta')).toEqual([]);
  });

  it('answers a job refused by the database on its own, even when its rows were to be written with others', async () => {
    const first = sale(1);
    const clash = { ...sale(2), id: first.id };
    const other = sale(3);
    const outcomes = await Promise.allSettled([
      context.store.write((tx) => tx.insertEntry(first)),
      context.store.write((tx) => tx.insertEntry(clash)),
      // Reading posted entries writes what is pending first: the clash is met inside this job.
      context.store.write(async (tx) => (await tx.getEntry(first.id))?.lines.map((line) => line.debit_amount)),
      context.store.write((tx) => tx.insertEntry(other)),
    ]);
    expect(outcomes.map(statusOf)).toEqual(['ok', 'DUPLICATE', 'ok', 'ok']);
    expect((outcomes[2] as PromiseFulfilledResult<unknown>).value).toEqual([1n, 0n]);
    expect((await context.store.getEntry(first.id))?.lines.map((line) => line.debit_amount)).toEqual([1n, 0n]);
    expect(await context.store.accountTotals({})).toEqual(totalsOf([first, other]));
    await expectUnbrokenChain();
  });

  it('answers a job refused by the database on its own when the clash is met only as the group commits', async () => {
    const first = sale(1);
    const clash = { ...sale(2), id: first.id };
    const other = sale(3);
    const outcomes = await Promise.allSettled([
      context.store.write((tx) => tx.insertEntry(first)),
      context.store.write((tx) => tx.insertEntry(clash)),
      context.store.write((tx) => tx.insertEntry(other)),
    ]);
    expect(outcomes.map(statusOf)).toEqual(['ok', 'DUPLICATE', 'ok']);
    expect(await context.store.accountTotals({})).toEqual(totalsOf([first, other]));
  });

  it('shows a later job the accounts and periods as the jobs before it left them, and as a failed job did not', async () => {
    const seen: Record<string, unknown> = {};
    const cash = books.cash.id;
    await Promise.allSettled([
      context.store.write(async (tx) => {
        seen.before = (await tx.getAccounts([cash])).get(cash)?.is_active;
        seen.periodBefore = (await tx.findPeriodContaining('2026-02-10'))?.status;
      }),
      context.store.write((tx) => tx.updateAccount(cash, { is_active: false })),
      context.store.write(async (tx) => {
        seen.afterDeactivation = (await tx.getAccounts([cash])).get(cash)?.is_active;
      }),
      context.store.write(async (tx) => {
        await tx.updateAccount(cash, { is_active: true, name: 'Never' });
        seen.insideFailedJob = (await tx.getAccounts([cash])).get(cash)?.name;
        throw new Error('rolled back');
      }),
      context.store.write(async (tx) => {
        const account = (await tx.getAccounts([cash])).get(cash);
        seen.afterRollback = [account?.is_active, account?.name];
      }),
      context.store.write((tx) => tx.updatePeriod(books.february.id, { status: 'closed' })),
      context.store.write(async (tx) => {
        seen.periodAfterClose = (await tx.findPeriodContaining('2026-02-10'))?.status;
      }),
    ]);
    expect(seen).toEqual({
      before: true, periodBefore: 'open', afterDeactivation: false, insideFailedJob: 'Never',
      afterRollback: [false, books.cash.name], periodAfterClose: 'closed',
    });
  });

  it('shows a later job a period as the jobs before it left it, read again after each change, and not as a failed job left it', async () => {
    const status = async (tx: Pick<LedgerReads, 'findPeriodContaining'>) => (await tx.findPeriodContaining('2026-02-10'))?.status;
    const seen: (string | undefined)[] = [];
    await Promise.allSettled([
      context.store.write(async (tx) => { seen.push(await status(tx)); }),
      context.store.write(async (tx) => {
        await tx.updatePeriod(books.february.id, { status: 'closed' });
        seen.push(await status(tx));
      }),
      context.store.write(async (tx) => { seen.push(await status(tx)); }),
      context.store.write(async (tx) => {
        await tx.updatePeriod(books.february.id, { status: 'open' });
        seen.push(await status(tx));
        throw new Error('rolled back');
      }),
      context.store.write(async (tx) => { seen.push(await status(tx)); }),
    ]);
    expect(seen).toEqual(['open', 'closed', 'closed', 'open', 'closed']);
  });

  it('sees an account changed through another connection to the database (another process) at the next write', async () => {
    const cash = books.cash.id;
    expect((await context.store.write((tx) => tx.getAccounts([cash]))).get(cash)?.is_active).toBe(true);
    const other = await openStore(context.location);
    try {
      await other.write((tx) => tx.updateAccount(cash, { is_active: false }));
    } finally {
      await other.close();
    }
    expect((await context.store.write((tx) => tx.getAccounts([cash]))).get(cash)?.is_active).toBe(false);
  });
});

/** An audit record of an entry, as the service writes one. */
function auditOf(entry: JournalEntry) {
  return {
    id: `audit-${entry.id}`, occurred_at: entry.posted_at, actor_id: null, credential_type: null, credential_id: null, request_id: null,
    action: 'journal_entry.create' as const, target_type: 'journal_entry' as const, target_id: entry.id, changes: null, hash: null,
  };
}

