import { initialValues } from '../domain/audit.js';
import { LedgerError, notFound } from '../domain/errors.js';
import { parseDate } from '../domain/dates.js';
import { assertNoOverlap, assertPeriodBounds } from '../domain/periods/period-rules.js';
import type { Period } from '../domain/types.js';
import type { CreatePeriodInput, PeriodView } from '../schemas/period.js';
import type { Actor } from './actor.js';
import { recordAudit } from './audit-log.js';
import type { Work } from './use-case.js';
import type { Page, PageInput, ServiceContext } from './context.js';

export function createPeriod(ctx: ServiceContext, actor: Actor, input: CreatePeriodInput): Work<PeriodView> {
  const startDate = parseDate(input.start_date, 'start_date');
  const endDate = parseDate(input.end_date, 'end_date');
  assertPeriodBounds(startDate, endDate);
  return async (tx) => {
    assertNoOverlap(startDate, endDate, await tx.findOverlappingPeriods(startDate, endDate));
    const period: Period = {
      id: ctx.runtime.newId(), name: input.name, start_date: startDate, end_date: endDate, status: 'open',
      closed_at: null, closed_by: null, closing_entry_id: null, created_at: ctx.now(),
    };
    await tx.insertPeriod(period);
    await recordAudit(ctx, tx, actor, {
      action: 'period.create', target_type: 'period', target_id: period.id,
      changes: initialValues(period, ['name', 'start_date', 'end_date', 'status']),
    }, { occurredAt: period.created_at });
    return period;
  };
}

export async function getPeriod(ctx: ServiceContext, id: string): Promise<PeriodView> {
  const period = await ctx.store.getPeriod(id);
  if (!period) throw notFound('Period', id);
  return period;
}

/** Ordered by start_date. */
export async function listPeriods(ctx: ServiceContext, input: PageInput): Promise<Page<PeriodView>> {
  const page = await ctx.store.listPeriods(ctx.pageRequest('periods', input));
  return ctx.toPage('periods', page, (period) => period);
}

/**
 * Removes a period created by mistake (a mistyped April 1-3): only an open period that holds no
 * entries; otherwise 409 PERIOD_IN_USE. Audited like its creation.
 */
export function deletePeriod(ctx: ServiceContext, actor: Actor, id: string): Work<PeriodView> {
  return async (tx) => {
    const period = await tx.getPeriod(id);
    if (!period) throw notFound('Period', id);
    if (period.status === 'closed') {
      throw new LedgerError('PERIOD_IN_USE', `Period ${period.name} is closed, and a closed period is kept for good`, {
        suggestion: 'Only an open period without entries can be deleted',
      });
    }
    if (await tx.periodHasEntries(id)) {
      throw new LedgerError('PERIOD_IN_USE', `Period ${period.name} holds entries`, {
        suggestion: 'A period with entries stays; reverse the entries if they are wrong, and keep the period',
      });
    }
    await tx.deletePeriod(id);
    await recordAudit(ctx, tx, actor, { action: 'period.delete', target_type: 'period', target_id: id, changes: {
      name: { old: period.name, new: null }, start_date: { old: period.start_date, new: null }, end_date: { old: period.end_date, new: null },
    } });
    return period;
  };
}
