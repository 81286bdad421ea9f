/**
 * What the dry runs of posts answer. The executor (execute-command.ts) runs the same work as the
 * real post (permission, validation and its precedence, `postWithin`, the database's constraints)
 * in a real write transaction and rolls it back; these make its answer inside that transaction:
 * the entries exactly as they would be posted (their ids and `posted_at` are provisional: nothing
 * is stored) and the balance of every touched account before and after.
 */
import { asAmount, ZERO } from '../domain/money/amount.js';
import type { Totals } from '../domain/types.js';
import type { BalanceChangeView, DryRunBatchView, DryRunEntryView } from '../schemas/dry-run.js';
import type { EntryView } from '../schemas/journal-entry.js';
import { balanceView } from './accounts.js';
import type { ServiceContext } from './context.js';
import type { LedgerTx } from './ports/ledger-store.js';

export async function dryRunEntry(ctx: ServiceContext, tx: LedgerTx, entries: readonly EntryView[]): Promise<DryRunEntryView> {
  return { dry_run: true, entry: entries[0]!, balances: await balanceChanges(ctx, tx, entries) };
}

export async function dryRunEntries(ctx: ServiceContext, tx: LedgerTx, entries: EntryView[]): Promise<DryRunBatchView> {
  return { dry_run: true, entries, balances: await balanceChanges(ctx, tx, entries) };
}

/**
 * Every touched account's all-time balance after the entries (read now, in the transaction that
 * holds them) and before them: the same totals less what the entries added. The accounts are in
 * the order the entries' lines first name them.
 */
async function balanceChanges(ctx: ServiceContext, tx: LedgerTx, entries: readonly EntryView[]): Promise<BalanceChangeView[]> {
  const added = new Map<string, Totals>();
  for (const line of entries.flatMap((entry) => entry.lines)) {
    const sum = added.get(line.account_id) ?? { debit_total: ZERO, credit_total: ZERO };
    added.set(line.account_id, { debit_total: asAmount(sum.debit_total + BigInt(line.debit_amount)),
      credit_total: asAmount(sum.credit_total + BigInt(line.credit_amount)) });
  }
  const ids = [...added.keys()];
  const after = await tx.accountTotals({ account_ids: ids });
  const accounts = await tx.getAccounts(ids);
  const changes: BalanceChangeView[] = [];
  for (const id of ids) {
    const account = accounts.get(id)!;
    const scale = await ctx.scaleOf(account.currency_id, tx);
    const now = after.get(id) ?? { debit_total: ZERO, credit_total: ZERO };
    const own = added.get(id)!;
    const before: Totals = { debit_total: asAmount(now.debit_total - own.debit_total), credit_total: asAmount(now.credit_total - own.credit_total) };
    changes.push({ account_id: id, account_number: account.account_number,
      before: balanceView(account, [before], scale, null), after: balanceView(account, [now], scale, null) });
  }
  return changes;
}
