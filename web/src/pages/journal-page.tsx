/** Journal entries with a search box and filters (period, dates, account), all in the URL, and cursor paging. */
import { useCallback, useEffect, useState } from 'react';
import { journalEntries } from '../api/endpoints.js';
import type { EntryListFilter, EntryView, Page } from '../api/types.js';
import { useUser } from '../auth/auth.js';
import { AccountSelect, PeriodSelect } from '../components/pickers.js';
import { Badge, Button, ButtonLink, EmptyState, ErrorNotice, InputField, Loading, Money, PageHeader, SelectField } from '../components/ui.js';
import { formatDate } from '../lib/dates.js';
import { displayMinor } from '../lib/money.js';
import { periodCovering, useAccounts, useCurrencyMap, usePeriods } from '../lib/reference.js';
import { Link, setSearchParams, useSearchParams } from '../lib/router.js';
import { useApi } from '../lib/use-api.js';

const PAGE_SIZE = 50;

/** How long typing pauses before the list follows it. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * Words to find in descriptions, references and line descriptions (docs/api.md, "Finding
 * entries"). The list follows what is typed once typing pauses for a moment (the address is
 * replaced, so Back does not step through every letter); Enter or the Search button applies it at
 * once and adds it to the history. Either way the query is in the URL, so a search can be
 * bookmarked and shared.
 */
function SearchBox({ value, onSearch }: { value: string; onSearch: (value: string, options: { replace: boolean }) => void }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text.trim() === value.trim()) return undefined;
    const timer = setTimeout(() => onSearch(text, { replace: true }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);
  return (
    <form className="field--grow search-box" onSubmit={(event) => { event.preventDefault(); onSearch(text, { replace: false }); }}>
      <InputField label="Search" type="search" value={text} placeholder="Words or reference, e.g. office rent"
        maxLength={200} onChange={(event) => setText(event.target.value)} data-testid="journal-search" />
      <Button type="submit" data-testid="journal-search-submit">Search</Button>
    </form>
  );
}

export function JournalPage() {
  const { can } = useUser();
  const search = useSearchParams();
  const filter: EntryListFilter = {
    ...(search.get('period') ? { period_id: search.get('period')! } : {}),
    ...(search.get('start') ? { start_date: search.get('start')! } : {}),
    ...(search.get('end') ? { end_date: search.get('end')! } : {}),
    ...(search.get('account') ? { account_id: search.get('account')! } : {}),
    ...(search.get('q') ? { q: search.get('q')! } : {}),
    // Newest first unless the reader asks for oldest first.
    sort: search.get('sort') === 'asc' ? 'asc' : 'desc',
  };
  const key = JSON.stringify(filter);
  const periods = usePeriods();
  const accounts = useAccounts();
  const currencies = useCurrencyMap();
  const first = useApi(`journal:${key}`, () => journalEntries.list({ ...filter, limit: PAGE_SIZE }));
  const [more, setMore] = useState<Page<EntryView>[]>([]);
  const [moreError, setMoreError] = useState<unknown>();
  const [loadingMore, setLoadingMore] = useState(false);
  useEffect(() => setMore([]), [key, first.data]);

  const pages = first.data ? [first.data, ...more] : [];
  const last = pages[pages.length - 1];
  const entries = pages.flatMap((page) => page.data);
  const update = (changes: Record<string, string>, options?: { replace: boolean }) => setSearchParams({
    period: filter.period_id, start: filter.start_date, end: filter.end_date, account: filter.account_id, q: filter.q,
    sort: filter.sort === 'asc' ? 'asc' : undefined, ...changes,
  }, options);
  // Stable, so that the search box's pause timer is not restarted by every render of the page.
  const currentSearch = search.toString();
  const onSearch = useCallback((value: string, options: { replace: boolean }) => {
    const params = new URLSearchParams(currentSearch);
    const query = value.trim();
    if (query) params.set('q', query);
    else params.delete('q');
    setSearchParams(Object.fromEntries(params), options);
  }, [currentSearch]);
  const filtered = Boolean(filter.period_id || filter.start_date || filter.end_date || filter.account_id || filter.q);
  const currentPeriod = periodCovering(periods.data);

  const loadMore = async () => {
    if (!last?.next_cursor) return;
    setLoadingMore(true);
    try {
      const page = await journalEntries.list({ ...filter, limit: PAGE_SIZE, cursor: last.next_cursor });
      setMore((previous) => [...previous, page]);
      setMoreError(undefined);
    } catch (error) {
      setMoreError(error);
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <>
      <PageHeader title="Journal entries" subtitle={filter.sort === 'asc' ? 'Oldest first, in posting order within a day.' : 'Newest first, latest posting first within a day.'}
        actions={can('journals:create') ? <ButtonLink to="/journal/new" variant="primary" data-testid="entry-new">New entry</ButtonLink> : undefined} />
      <div className="filters no-print" role="search" aria-label="Filter entries">
        <SearchBox value={filter.q ?? ''} onSearch={onSearch} />
        <PeriodSelect label="Period" periods={periods.data} value={filter.period_id ?? ''} onChange={(value) => update({ period: value })}
          emptyLabel="All periods" data-testid="journal-filter-period" />
        <InputField label="From" type="date" value={filter.start_date ?? ''} onChange={(event) => update({ start: event.target.value })}
          data-testid="journal-filter-start" />
        <InputField label="To" type="date" value={filter.end_date ?? ''} onChange={(event) => update({ end: event.target.value })}
          data-testid="journal-filter-end" />
        <AccountSelect label="Account" accounts={accounts.data} value={filter.account_id ?? ''} onChange={(value) => update({ account: value })}
          emptyLabel="All accounts" data-testid="journal-filter-account" className="field--grow" />
        {currentPeriod && filter.period_id !== currentPeriod.id ? (
          <Button variant="ghost" className="filters__clear" onClick={() => setSearchParams({ period: currentPeriod.id })} data-testid="journal-current-period">
            Current period
          </Button>
        ) : null}
        <SelectField label="Order" value={filter.sort} onChange={(event) => update({ sort: event.target.value === 'asc' ? 'asc' : '' })}
          data-testid="journal-sort">
          <option value="desc">Newest first</option>
          <option value="asc">Oldest first</option>
        </SelectField>
        {filtered ? <Button variant="ghost" className="filters__clear" onClick={() => setSearchParams({})}>Clear filters</Button> : null}
      </div>
      {first.error ? <ErrorNotice error={first.error} onRetry={first.reload} /> : null}
      {first.loading && !first.data ? <Loading /> : null}
      {first.data && entries.length === 0 ? <EmptyState title={filter.q ? `No entries match “${filter.q}”` : filtered ? 'No entries match these filters' : 'No journal entries yet'} /> : null}
      {entries.length > 0 ? (
        <div className="card card--flush">
          <div className="table-wrap">
            <table className="table" data-testid="journal-table">
              <thead>
                <tr>
                  <th scope="col" className="col-number hide-narrow">No.</th>
                  <th scope="col" className="col-date hide-narrow">Date</th>
                  <th scope="col" className="col-text">Description</th>
                  <th scope="col" className="hide-narrow">Accounts</th>
                  <th scope="col" className="hide-narrow">Reference</th>
                  <th scope="col" className="num">Amount</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => {
                  const currency = currencies.get(entry.currency_id);
                  const total = entry.lines.reduce((sum, line) => sum + BigInt(line.debit_amount), 0n);
                  const names = [...new Set(entry.lines.map((line) => line.account_name))];
                  return (
                    <tr key={entry.id} data-testid="journal-row" data-entry-id={entry.id}>
                      <td className="col-number mono nowrap hide-narrow" data-testid="journal-entry-number">#{entry.entry_number}</td>
                      <td className="col-date nowrap hide-narrow">{formatDate(entry.entry_date)}</td>
                      <td>
                        <span className="show-narrow muted small">#{entry.entry_number} · {formatDate(entry.entry_date)}<br /></span>
                        <Link to={`/journal/${entry.id}`}>{entry.description}</Link>
                        {entry.entry_type !== 'standard' ? <> <Badge tone={entry.entry_type === 'closing' ? 'info' : 'warn'}>{entry.entry_type}</Badge></> : null}
                        {entry.reversed_by_id ? <> <Badge>reversed</Badge></> : null}
                      </td>
                      <td className="hide-narrow muted cell-truncate" title={names.join(', ')}>
                        <div className="truncate">{names.slice(0, 3).join(', ')}{names.length > 3 ? ` +${names.length - 3}` : ''}</div>
                      </td>
                      <td className="hide-narrow muted cell-break">{entry.reference ?? ''}</td>
                      <td className="num nowrap"><Money display={displayMinor(total, currency?.asset_scale ?? 0)} /><span className="unit"> {currency?.code}</span></td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
      {moreError ? <ErrorNotice error={moreError} /> : null}
      {last?.has_more ? (
        <div className="load-more no-print">
          <Button onClick={() => void loadMore()} busy={loadingMore} data-testid="journal-load-more">Load more</Button>
          <span className="muted">{entries.length} shown</span>
        </div>
      ) : null}
    </>
  );
}
