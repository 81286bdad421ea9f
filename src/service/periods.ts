import { initialValues } from '../domain/audit.js';
import { notFound } from '../domain/errors.js';
import { parseDate } from '../domain/dates.js';
import { assertNoOverlap, assertPeriodBounds } from '../domain/periods/period-rules.js';
import type { Period } from '../domain/types.js';
import type { CreatePeriodInput, PeriodView } from '../schemas/period.js';
import { type Actor, requirePermission } from './actor.js';
import { recordAudit } from './audit-log.js';
import { answering } from './idempotency.js';
import type { Page, PageInput, ServiceContext } from './context.js';

export async function createPeriod(ctx: ServiceContext, actor: Actor, input: CreatePeriodInput): Promise<PeriodView> {
  requirePermission(actor, 'periods:write');
  const startDate = parseDate(input.start_date, 'start_date');
  const endDate = parseDate(input.end_date, 'end_date');
  assertPeriodBounds(startDate, endDate);
  return ctx.store.write(answering(async (tx) => {
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
  }));
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
