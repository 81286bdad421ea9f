/**
 * Closing a period: the closing entries (one per currency with revenue or expense activity) are
 * computed by the pure domain function and posted through the same path as any entry; the period
 * is then marked closed, all in one transaction. A preview is the close's dry run: the executor
 * runs exactly the same steps and rolls them back, so it shows exactly what the close would post.
 */
import { LedgerError, notFound, validationError } from '../domain/errors.js';
import { assertRetainedEarningsAccount, closingCurrencies, computeClosingEntries } from '../domain/periods/closing-entry.js';
import type { Account, JournalEntryView, Period } from '../domain/types.js';
import type { EntryView } from '../schemas/journal-entry.js';
import type { PeriodView } from '../schemas/period.js';
import { fieldChanges } from '../domain/audit.js';
import type { Actor } from './actor.js';
import { recordAudit } from './audit-log.js';
import type { ServiceContext } from './context.js';
import type { LedgerTx } from './ports/ledger-store.js';
import { postWithin } from './post-journal-entry.js';
import type { Work } from './use-case.js';
import { RETAINED_EARNINGS_KEY, perCurrencyRetainedEarnings as retainedEarningsMapOf } from './settings.js';
import { entryView } from './views.js';

export interface CloseResult {
  period: PeriodView;
  /** The default currency's closing entry (the retained earnings account's currency), or null. */
  closing_entry: EntryView | null;
  /** Every closing entry the close posts, one per currency with revenue or expense activity, the default currency's first. */
  closing_entries: EntryView[];
  preview: boolean;
}

/** The close's work; a preview is the same work, which the executor rolls back (its answer says `preview: true`). */
export function closePeriod(ctx: ServiceContext, actor: Actor, id: string, preview: boolean): Work<CloseResult> {
  return (tx) => closeWithin(ctx, tx, actor, id, preview);
}

/** The earliest open period that starts before `period`, if any: books close in order. */
async function earlierOpenPeriod(tx: LedgerTx, period: Period): Promise<Period | undefined> {
  let page = await tx.listPeriods({ limit: 200 });
  for (;;) {
    const found = page.items.find((candidate) => candidate.start_date < period.start_date && candidate.status === 'open');
    if (found !== undefined || page.next === undefined || page.items.some((candidate) => candidate.start_date >= period.start_date)) return found;
    page = await tx.listPeriods({ limit: 200, after: page.next });
  }
}

/** The retained earnings account of each currency but the default's, as the settings name them, each checked as the default is. */
async function perCurrencyRetainedEarnings(tx: LedgerTx): Promise<Map<string, Account>> {
  const accounts = new Map<string, Account>();
  for (const [currencyId, accountId] of Object.entries(retainedEarningsMapOf(await tx.allSettings()))) {
    const field = `retained_earnings_account_ids.${currencyId}`;
    const account = assertRetainedEarningsAccount(await tx.getAccount(accountId), accountId, field);
    if (account.currency_id !== currencyId) {
      throw validationError(`The retained earnings account for currency ${currencyId} is not in that currency`, field,
        'Choose another account with PATCH /api/v1/settings');
    }
    accounts.set(currencyId, account);
  }
  return accounts;
}

async function closeWithin(ctx: ServiceContext, tx: LedgerTx, actor: Actor, id: string, preview: boolean): Promise<CloseResult> {
  const period = await tx.getPeriod(id);
  if (!period) throw notFound('Period', id);
  if (period.status === 'closed') {
    throw new LedgerError('PERIOD_CLOSED', `Period ${period.name} is already closed`, {
      suggestion: 'A closed period stays closed; post corrections in an open period',
    });
  }
  const earlier = await earlierOpenPeriod(tx, period);
  if (earlier !== undefined) {
    throw new LedgerError('EARLIER_PERIOD_OPEN', `Period ${earlier.name} (${earlier.start_date} to ${earlier.end_date}) is still open; `
      + `periods close in order`, { suggestion: `Close ${earlier.name} first, or delete it if it was created by mistake and holds no entries` });
  }
  const retainedEarningsId = await tx.getSetting(RETAINED_EARNINGS_KEY);
  const retainedEarnings = assertRetainedEarningsAccount(
    retainedEarningsId === undefined ? undefined : await tx.getAccount(retainedEarningsId), retainedEarningsId);
  const others = await perCurrencyRetainedEarnings(tx);
  const totals = await tx.accountTotals({ period_id: period.id });
  const accounts = await tx.getAccounts([...totals.keys()]);
  const codes = new Map<string, string>();
  for (const currencyId of closingCurrencies(totals, accounts)) codes.set(currencyId, (await tx.getCurrency(currencyId))?.code ?? currencyId);
  const drafts = computeClosingEntries(period, totals, accounts, retainedEarnings,
    (currencyId) => others.get(currencyId), (currencyId) => codes.get(currencyId) ?? currencyId);
  // Every entry goes through the normal posting path in this one transaction, so each joins its
  // currency's hash chain and a refusal of any of them leaves the whole close undone.
  const entries: JournalEntryView[] = [];
  for (const { draft } of drafts) {
    entries.push(await postWithin(ctx, tx, draft, { entry_type: 'closing', reverses_id: null, actor }));
  }
  const defaultEntry = entries.find((entry) => entry.currency_id === retainedEarnings.currency_id) ?? null;
  const closed: Period = preview ? period : {
    ...period, status: 'closed', closed_at: ctx.now(), closed_by: actor.user_id, closing_entry_id: defaultEntry?.id ?? null,
  };
  if (!preview) {
    await tx.updatePeriod(period.id, {
      status: closed.status, closed_at: closed.closed_at, closed_by: closed.closed_by, closing_entry_id: closed.closing_entry_id,
    });
    const changes = fieldChanges(period, closed, ['status', 'closed_at', 'closed_by', 'closing_entry_id']);
    if (entries.length > 0) changes['closing_entry_ids'] = { old: null, new: entries.map((entry) => entry.id) };
    await recordAudit(ctx, tx, actor, { action: 'period.close', target_type: 'period', target_id: period.id, changes },
      { occurredAt: closed.closed_at! });
  }
  const views: EntryView[] = [];
  for (const entry of entries) views.push(entryView(entry, await ctx.scaleOf(entry.currency_id, tx)));
  const defaultView = defaultEntry === null ? null : views[entries.indexOf(defaultEntry)]!;
  return { period: closed, closing_entry: defaultView, closing_entries: views, preview };
}
