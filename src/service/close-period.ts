/**
 * Closing a period: the closing entry is computed by the pure domain function and posted through
 * the same path as any entry; the period is then marked closed, all in one transaction. A preview
 * runs exactly the same steps and rolls them back, so it shows exactly what the close would post.
 */
import { LedgerError, notFound } from '../domain/errors.js';
import { assertRetainedEarningsAccount, computeClosingEntry } from '../domain/periods/closing-entry.js';
import type { Period } from '../domain/types.js';
import type { EntryView } from '../schemas/journal-entry.js';
import type { PeriodView } from '../schemas/period.js';
import { fieldChanges } from '../domain/audit.js';
import { type Actor, requirePermission } from './actor.js';
import { recordAudit } from './audit-log.js';
import type { ServiceContext } from './context.js';
import type { LedgerTx } from './ports/ledger-store.js';
import { postWithin } from './post-journal-entry.js';
import { answering } from './idempotency.js';
import { writeRolledBack } from './rolled-back-write.js';
import { RETAINED_EARNINGS_KEY } from './settings.js';
import { entryView } from './views.js';

export interface CloseResult {
  period: PeriodView;
  closing_entry: EntryView | null;
  preview: boolean;
}

export async function closePeriod(ctx: ServiceContext, actor: Actor, id: string, preview: boolean): Promise<CloseResult> {
  requirePermission(actor, 'periods:close');
  const work = (tx: LedgerTx) => closeWithin(ctx, tx, actor, id, preview);
  return preview ? writeRolledBack(ctx.store, work) : ctx.store.write(answering(work));
}

async function closeWithin(ctx: ServiceContext, tx: LedgerTx, actor: Actor, id: string, preview: boolean): Promise<CloseResult> {
  const period = await tx.getPeriod(id);
  if (!period) throw notFound('Period', id);
  if (period.status === 'closed') {
    throw new LedgerError('PERIOD_CLOSED', `Period ${period.name} is already closed`, {
      suggestion: 'A closed period stays closed; post corrections in an open period',
    });
  }
  const retainedEarningsId = await tx.getSetting(RETAINED_EARNINGS_KEY);
  const retainedEarnings = assertRetainedEarningsAccount(
    retainedEarningsId === undefined ? undefined : await tx.getAccount(retainedEarningsId), retainedEarningsId);
  const totals = await tx.accountTotals({ period_id: period.id });
  const accounts = await tx.getAccounts([...totals.keys()]);
  const draft = computeClosingEntry(period, totals, accounts, retainedEarnings);
  const entry = draft === null ? null
    : await postWithin(ctx, tx, draft, { entry_type: 'closing', reverses_id: null, created_by: actor.user_id });
  const closed: Period = preview ? period : {
    ...period, status: 'closed', closed_at: ctx.now(), closed_by: actor.user_id, closing_entry_id: entry?.id ?? null,
  };
  if (!preview) {
    await tx.updatePeriod(period.id, {
      status: closed.status, closed_at: closed.closed_at, closed_by: closed.closed_by, closing_entry_id: closed.closing_entry_id,
    });
    await recordAudit(ctx, tx, actor, {
      action: 'period.close', target_type: 'period', target_id: period.id,
      changes: fieldChanges(period, closed, ['status', 'closed_at', 'closed_by', 'closing_entry_id']),
    }, { occurredAt: closed.closed_at! });
  }
  const view = entry === null ? null : entryView(entry, await ctx.scaleOf(entry.currency_id, tx));
  return { period: closed, closing_entry: view, preview };
}
