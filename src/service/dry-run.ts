/**
 * Dry runs of posts: the same work as the real post (permission, validation and its precedence,
 * `postWithin`, the database's constraints) in a real write transaction that is then rolled back.
 * The answer is the entries exactly as they would be posted (their ids and `posted_at` are
 * provisional: nothing is stored) and the balance of every touched account before and after.
 */
import type { JournalEntry, Totals } from '../domain/types.js';
import type { BalanceChangeView, DryRunBatchView, DryRunEntryView } from '../schemas/dry-run.js';
import type { CreateEntryInput, EntryView, ReverseInput } from '../schemas/journal-entry.js';
import { balanceView } from './accounts.js';
import type { Actor } from './actor.js';
import type { ServiceContext } from './context.js';
import type { EntryPlace, LedgerTx } from './ports/ledger-store.js';
import { createEntriesWork, createEntryWork, entryViews, type PostingWork, reverseEntryWork } from './post-journal-entry.js';
import { writeRolledBack } from './rolled-back-write.js';

export async function dryRunJournalEntry(ctx: ServiceContext, actor: Actor, input: CreateEntryInput): Promise<DryRunEntryView> {
  const { entries, balances } = await dryRun(ctx, createEntryWork(ctx, actor, input));
  return { dry_run: true, entry: entries[0]!, balances };
}

export async function dryRunReversal(ctx: ServiceContext, actor: Actor, id: string, input: ReverseInput): Promise<DryRunEntryView> {
  const { entries, balances } = await dryRun(ctx, reverseEntryWork(ctx, actor, id, input));
  return { dry_run: true, entry: entries[0]!, balances };
}

export async function dryRunJournalEntries(ctx: ServiceContext, actor: Actor, inputs: readonly CreateEntryInput[]): Promise<DryRunBatchView> {
  return { dry_run: true, ...await dryRun(ctx, createEntriesWork(ctx, actor, inputs)) };
}

async function dryRun(ctx: ServiceContext, work: PostingWork): Promise<{ entries: EntryView[]; balances: BalanceChangeView[] }> {
  return writeRolledBack(ctx.store, async (tx) => {
    const watched = readingBalancesBefore(tx);
    const entries = await entryViews(ctx, await work(watched.tx), tx);
    return { entries, balances: await balanceChanges(ctx, tx, watched.before) };
  });
}

/**
 * The transaction with one addition: just before an entry is written, the totals of the accounts
 * it touches for the first time are read. Those are the balances "before", read in the same
 * transaction and only once the entry has passed every rule (so a rejected entry is refused with
 * exactly the error of the real post). The map keeps the accounts in the order of the lines.
 */
function readingBalancesBefore(tx: LedgerTx): { tx: LedgerTx; before: Map<string, Totals | undefined> } {
  const before = new Map<string, Totals | undefined>();
  async function insertEntry(entry: JournalEntry): Promise<EntryPlace> {
    const firstTouched = [...new Set(entry.lines.map((line) => line.account_id))].filter((id) => !before.has(id));
    if (firstTouched.length > 0) {
      const totals = await tx.accountTotals({ account_ids: firstTouched });
      for (const id of firstTouched) before.set(id, totals.get(id));
    }
    return tx.insertEntry(entry);
  }
  return { tx: { ...tx, insertEntry }, before };
}

/** Every touched account's all-time balance before (as read) and after (read now) the entries. */
async function balanceChanges(ctx: ServiceContext, tx: LedgerTx, before: Map<string, Totals | undefined>): Promise<BalanceChangeView[]> {
  const ids = [...before.keys()];
  const after = await tx.accountTotals({ account_ids: ids });
  const accounts = await tx.getAccounts(ids);
  const changes: BalanceChangeView[] = [];
  for (const id of ids) {
    const account = accounts.get(id)!;
    const scale = await ctx.scaleOf(account.currency_id, tx);
    const balance = (totals: Totals | undefined) => balanceView(account, totals === undefined ? [] : [totals], scale, null);
    changes.push({ account_id: id, account_number: account.account_number, before: balance(before.get(id)), after: balance(after.get(id)) });
  }
  return changes;
}
