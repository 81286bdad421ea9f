import { notFound, validationError } from '../domain/errors.js';
import { queryWords } from '../domain/journal/search-words.js';
import { parseLineAmount } from '../domain/money/amount.js';
import { parseDate } from '../domain/dates.js';
import type { EntryListFilter, EntryView } from '../schemas/journal-entry.js';
import { lineScopeOf } from './accounts.js';
import type { Page, ServiceContext } from './context.js';
import { boundList } from './cursor.js';
import type { EntryFilter, LineScope } from './ports/ledger-store.js';
import { entryView } from './views.js';

export async function getJournalEntry(ctx: ServiceContext, id: string): Promise<EntryView> {
  const entry = await ctx.store.getEntry(id);
  if (!entry) throw notFound('Journal entry', id);
  return entryView(entry, await ctx.scaleOf(entry.currency_id));
}

/** Entries by id in the order given (a batch's kept answer, replayed); every id must exist. */
export async function getJournalEntries(ctx: ServiceContext, ids: readonly string[]): Promise<EntryView[]> {
  const entries = await ctx.store.getEntries(ids);
  if (entries.length !== ids.length) throw notFound('Journal entry', ids.find((id) => !entries.some((entry) => entry.id === id)) ?? '');
  const views: EntryView[] = [];
  for (const entry of entries) views.push(entryView(entry, await ctx.scaleOf(entry.currency_id)));
  return views;
}

const MAX_SEARCH_LENGTH = 200;

/** The finding filters (docs/api.md, "Finding entries"), checked and in the store's terms. */
function searchFilter(filter: EntryListFilter):
Pick<EntryFilter, 'words' | 'or_entry_number' | 'entry_number' | 'reference' | 'entry_type' | 'min_amount' | 'max_amount'> {
  // The HTTP schema checks these lengths too; the command line comes straight here.
  for (const field of ['q', 'reference'] as const) {
    const value = filter[field];
    if (value !== undefined && (value.length === 0 || value.length > MAX_SEARCH_LENGTH)) {
      throw validationError(`${field} must be 1 to ${MAX_SEARCH_LENGTH} characters`, field);
    }
  }
  let words: string[] | undefined;
  let entryNumber = filter.entry_number;
  let orEntryNumber: number | undefined;
  // `#12` is entry number 12; a bare number is that entry or the words it begins.
  const numbered = filter.q === undefined ? null : /^\s*(#?)\s*([0-9]{1,15})\s*$/.exec(filter.q);
  if (numbered?.[1] === '#') {
    if (entryNumber !== undefined && entryNumber !== Number(numbered[2])) entryNumber = -1;
    else entryNumber = Number(numbered[2]);
  } else if (filter.q !== undefined) {
    if (numbered) orEntryNumber = Number(numbered[2]);
    words = queryWords(filter.q);
    if (words.length === 0) {
      throw validationError('q must contain a letter or a digit', 'q', 'Search for words of the description, reference or lines, e.g. q=office rent');
    }
  }
  const minAmount = parseLineAmount(filter.min_amount, 'min_amount');
  const maxAmount = parseLineAmount(filter.max_amount, 'max_amount');
  if (minAmount !== undefined && maxAmount !== undefined && minAmount > maxAmount) {
    throw validationError('max_amount must not be less than min_amount', 'max_amount');
  }
  return { words, or_entry_number: orEntryNumber, entry_number: entryNumber, reference: filter.reference, entry_type: filter.entry_type, min_amount: minAmount, max_amount: maxAmount };
}

/** Ordered by entry_date, then posting order; `sort=desc` newest first. */
export async function listJournalEntries(ctx: ServiceContext, filter: EntryListFilter): Promise<Page<EntryView>> {
  if (filter.start_date !== undefined) parseDate(filter.start_date, 'start_date');
  if (filter.end_date !== undefined) parseDate(filter.end_date, 'end_date');
  const search = searchFilter(filter);
  const sort = filter.sort ?? 'asc';
  const list = boundList('journal-entries', { ...filter, sort });
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
    const page = await reads.listEntries({
      period_id: filter.period_id, start_date: filter.start_date, end_date: filter.end_date, lines, ...search,
    }, sort, request);
    const scales = new Map<string, number>();
    for (const entry of page.items) {
      if (!scales.has(entry.currency_id)) scales.set(entry.currency_id, await ctx.scaleOf(entry.currency_id, reads));
    }
    return ctx.toPage(list, page, (entry) => entryView(entry, scales.get(entry.currency_id)!));
  });
}
