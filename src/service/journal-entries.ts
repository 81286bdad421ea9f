import { notFound } from '../domain/errors.js';
import { parseDate } from '../domain/dates.js';
import type { EntryListFilter, EntryView } from '../schemas/journal-entry.js';
import { lineScopeOf } from './accounts.js';
import type { Page, ServiceContext } from './context.js';
import type { LineScope } from './ports/ledger-store.js';
import { entryView } from './views.js';

export async function getJournalEntry(ctx: ServiceContext, id: string): Promise<EntryView> {
  const entry = await ctx.store.getEntry(id);
  if (!entry) throw notFound('Journal entry', id);
  return entryView(entry, await ctx.scaleOf(entry.currency_id));
}

/** Ordered by entry_date, then posting order; `sort=desc` newest first. */
export async function listJournalEntries(ctx: ServiceContext, filter: EntryListFilter): Promise<Page<EntryView>> {
  if (filter.start_date !== undefined) parseDate(filter.start_date, 'start_date');
  if (filter.end_date !== undefined) parseDate(filter.end_date, 'end_date');
  const sort = filter.sort ?? 'asc';
  const list = `journal-entries:${sort}`;
  const request = ctx.pageRequest(list, filter);
  return ctx.store.read(async (reads) => {
    if (filter.period_id !== undefined && !(await reads.getPeriod(filter.period_id))) {
      throw notFound('Period', filter.period_id, 'period_id');
    }
    let lines: LineScope | undefined;
    if (filter.account_id !== undefined) {
      const account = await reads.getAccount(filter.account_id);
      if (!account) throw notFound('Account', filter.account_id, 'account_id');
      lines = lineScopeOf(account);
    }
    const page = await reads.listEntries({ ...filter, lines }, sort, request);
    const scales = new Map<string, number>();
    for (const entry of page.items) {
      if (!scales.has(entry.currency_id)) scales.set(entry.currency_id, await ctx.scaleOf(entry.currency_id, reads));
    }
    return ctx.toPage(list, page, (entry) => entryView(entry, scales.get(entry.currency_id)!));
  });
}
