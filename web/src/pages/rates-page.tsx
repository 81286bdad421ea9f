/**
 * Exchange rates: the value of one major unit of a currency in the base currency from a day on
 * (CONTRACT.md, "Several currencies in one picture"). Everyone sees the list; callers with
 * rates:write (or admin) also get the form. The rate is sent as the text typed, never read into a
 * float: the server keeps it exact and says what is wrong with it, under the field.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { exchangeRates } from '../api/endpoints.js';
import type { ExchangeRateView, Page } from '../api/types.js';
import { useUser } from '../auth/auth.js';
import { CurrencySelect } from '../components/pickers.js';
import { Button, Card, EmptyState, ErrorNotice, InputField, Loading, Notice, PageHeader } from '../components/ui.js';
import { formatDate, todayIso } from '../lib/dates.js';
import { fieldError, isFieldError } from '../lib/form-errors.js';
import { useCurrencies, useCurrencyMap, useSettings } from '../lib/reference.js';
import { Link, setSearchParams, useSearchParams } from '../lib/router.js';
import { toast } from '../lib/toast.js';
import { invalidate, useApi } from '../lib/use-api.js';
import { useSubmit } from '../lib/use-submit.js';

const PAGE_SIZE = 100;
const RATE_FIELDS = ['currency_id', 'rate_date', 'rate'];

export function RatesPage() {
  const { can } = useUser();
  const search = useSearchParams();
  const currencyFilter = search.get('currency') ?? '';
  const start = search.get('start') ?? '';
  const end = search.get('end') ?? '';
  const currencies = useCurrencies();
  const settings = useSettings();
  const base = currencies.data?.find((currency) => currency.id === settings.data?.base_currency_id);
  const update = (changes: Record<string, string>) => setSearchParams({ currency: currencyFilter, start, end, ...changes });
  const filter = {
    limit: PAGE_SIZE, ...(currencyFilter ? { currency_id: currencyFilter } : {}), ...(start ? { start_date: start } : {}), ...(end ? { end_date: end } : {}),
  };
  const key = `exchange-rates:${currencyFilter}:${start}:${end}`;
  const first = useApi(key, () => exchangeRates.list(filter));
  const [more, setMore] = useState<Page<ExchangeRateView>[]>([]);
  const [moreError, setMoreError] = useState<unknown>();
  const [loadingMore, setLoadingMore] = useState(false);
  useEffect(() => { setMore([]); setMoreError(undefined); }, [key, first.data]);
  const pages = first.data ? [first.data, ...more] : [];
  const last = pages[pages.length - 1];
  const rates = pages.flatMap((page) => page.data);

  const loadMore = async () => {
    if (!last?.next_cursor) return;
    setLoadingMore(true);
    setMoreError(undefined);
    try {
      const page = await exchangeRates.list({ ...filter, cursor: last.next_cursor });
      setMore((previous) => [...previous, page]);
    } catch (error) {
      setMoreError(error);
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <>
      <PageHeader title="Exchange rates"
        subtitle={base ? `The value of one unit of each currency in ${base.code}, the base currency, from a day until its next rate.`
          : 'The value of one unit of each currency in the base currency, from a day until its next rate.'} />
      {settings.data && !base && currencies.data ? (
        <Notice tone="warning" title="No base currency" data-testid="rates-no-base">
          Rates are values in the base currency. <Link to="/settings">Choose the base currency in Settings</Link>.
        </Notice>
      ) : null}
      {can('rates:write') && base ? <RateForm baseId={base.id} baseCode={base.code} known={rates} /> : null}
      {!can('rates:write') ? (
        <p className="muted" data-testid="rates-read-only">Setting rates needs the rates:write permission.</p>
      ) : null}

      <div className="filters no-print" role="search" aria-label="Filter rates">
        <CurrencySelect label="Currency" currencies={currencies.data?.filter((currency) => currency.id !== base?.id)} value={currencyFilter}
          emptyLabel="All currencies" onChange={(value) => update({ currency: value })} data-testid="rates-filter-currency" />
        <InputField label="From" type="date" value={start} onChange={(event) => update({ start: event.target.value })} data-testid="rates-filter-start" />
        <InputField label="To" type="date" value={end} onChange={(event) => update({ end: event.target.value })} data-testid="rates-filter-end" />
        {currencyFilter || start || end ? <Button variant="ghost" className="filters__clear" onClick={() => setSearchParams({})}>Clear filters</Button> : null}
      </div>
      {first.error ? <ErrorNotice error={first.error} onRetry={first.reload} /> : null}
      {first.loading && !first.data ? <Loading /> : null}
      {first.data && rates.length === 0 ? <EmptyState title={currencyFilter || start || end ? 'No rates match these filters' : 'No exchange rates yet'} /> : null}
      {rates.length > 0 ? <RatesTable rates={rates} baseCode={base?.code} /> : null}
      {moreError ? <ErrorNotice error={moreError} /> : null}
      {last?.has_more ? (
        <div className="load-more no-print">
          <Button onClick={() => void loadMore()} busy={loadingMore} data-testid="rates-load-more">Load more</Button>
          <span className="muted">{rates.length} shown</span>
        </div>
      ) : null}
    </>
  );
}

function RatesTable({ rates, baseCode }: { rates: ExchangeRateView[]; baseCode: string | undefined }) {
  return (
    <div className="card card--flush">
      <div className="table-wrap">
        <table className="table" data-testid="rates-table">
          <thead>
            <tr>
              <th scope="col" className="col-date">From</th>
              <th scope="col">Currency</th>
              <th scope="col" className="num">Rate{baseCode ? ` (${baseCode})` : ''}</th>
            </tr>
          </thead>
          <tbody>
            {rates.map((rate) => (
              <tr key={rate.id} data-testid="rate-row" data-currency={rate.currency_code} data-date={rate.rate_date}>
                <td className="col-date nowrap">{formatDate(rate.rate_date)}</td>
                <td className="mono"><strong>{rate.currency_code}</strong></td>
                <td className="num mono" data-testid="rate-value">{rate.rate}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** Sets one rate; a second rate for the same currency and day replaces the first, and the form says so. */
function RateForm({ baseId, baseCode, known }: { baseId: string; baseCode: string; known: ExchangeRateView[] }) {
  const currencies = useCurrencies();
  const currencyMap = useCurrencyMap();
  const others = (currencies.data ?? []).filter((currency) => currency.id !== baseId);
  const [currencyId, setCurrencyId] = useState('');
  const [date, setDate] = useState(todayIso());
  const [rate, setRate] = useState('');
  const [result, setResult] = useState<{ rate: ExchangeRateView; replaced: boolean; previous: string | undefined } | null>(null);
  const { busy, error, setError, run } = useSubmit();
  const chosen = currencyId || (others.length === 1 ? others[0]!.id : '');
  const code = currencyMap.get(chosen)?.code;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    const previous = known.find((row) => row.currency_id === chosen && row.rate_date === date)?.rate;
    void run(async () => {
      // The text as typed (trimmed): the server parses it exactly.
      const answer = await exchangeRates.set({ currency_id: chosen, rate_date: date, rate: rate.trim() });
      setResult({ ...answer, previous });
      invalidate();
      toast(answer.replaced ? `${answer.rate.currency_code} rate of ${answer.rate.rate_date} replaced` : `${answer.rate.currency_code} rate set`);
    });
  };
  const edited = () => { setResult(null); setError(undefined); };

  return (
    <Card title="Set a rate" data-testid="rate-form-card">
      {others.length === 0 ? (
        <p className="muted">Only the base currency exists. <Link to="/currencies">Add another currency</Link> to give it rates.</p>
      ) : (
        <form className="form form--inline" onSubmit={submit} noValidate data-testid="rate-form">
          <CurrencySelect label="Currency" currencies={others} value={chosen} emptyLabel="Choose…" required
            onChange={(value) => { setCurrencyId(value); edited(); }} error={fieldError(error, 'currency_id')} data-testid="rate-currency" />
          <InputField label="From" type="date" required value={date} onChange={(event) => { setDate(event.target.value); edited(); }}
            error={fieldError(error, 'rate_date')} data-testid="rate-date" />
          <InputField label={`1 ${code ?? 'unit'} in ${baseCode}`} value={rate} inputMode="decimal" autoComplete="off" required
            placeholder="1.0842" hint="A decimal point, up to 12 decimals; kept exactly" className="field--grow"
            onChange={(event) => { setRate(event.target.value); edited(); }} error={fieldError(error, 'rate')} data-testid="rate-value-input" />
          <Button type="submit" variant="primary" busy={busy} disabled={!chosen || !date || !rate.trim()} data-testid="rate-save">Save rate</Button>
        </form>
      )}
      {error && !isFieldError(error, RATE_FIELDS) ? <ErrorNotice error={error} /> : null}
      {result ? (
        <Notice tone="success" data-testid="rate-result" >
          {result.replaced
            ? <>The {result.rate.currency_code} rate from {formatDate(result.rate.rate_date)} was <strong>replaced</strong>
              {result.previous !== undefined ? <> ({result.previous} before)</> : null}: now {result.rate.rate} {baseCode}.</>
            : <>Set: 1 {result.rate.currency_code} = {result.rate.rate} {baseCode} from {formatDate(result.rate.rate_date)}.</>}
        </Notice>
      ) : null}
    </Card>
  );
}
