/**
 * Translated reports (docs/currencies.md): the switch "In <base code>" that the trial balance,
 * balance sheet and income statement share, kept in the page's address as
 * `presentation_currency_id=<base id>` (the one value the API accepts for now), and what a report
 * shows when a rate it needs is missing (RATE_MISSING: the server's message and a way to the rates).
 */
import { isApiError } from '../../api/client.js';
import type { CurrencyView } from '../../api/types.js';
import { Button, Checkbox, ErrorNotice, Money } from '../../components/ui.js';
import { groupDigits } from '../../lib/money.js';
import { useCurrencies, useCurrencyMap, useSettings } from '../../lib/reference.js';
import { Link } from '../../lib/router.js';

/** The address parameter of the switch, named like the API's. */
export const PRESENTATION_PARAM = 'presentation_currency_id';

export interface Presentation {
  /** The base currency, once settings and currencies are loaded (undefined while none is set). */
  base: CurrencyView | undefined;
  /** The base currency's id when the switch is on and names it; '' otherwise. */
  presentationId: string;
}

/** Reads the switch from the address: on only when it names the base currency (an old link naming another is ignored). */
export function usePresentation(search: URLSearchParams): Presentation {
  const settings = useSettings();
  const currencies = useCurrencies();
  const base = currencies.data?.find((currency) => currency.id === settings.data?.base_currency_id);
  const asked = search.get(PRESENTATION_PARAM) ?? '';
  return { base, presentationId: base && asked === base.id ? base.id : '' };
}

/** The switch; hidden while there is no base currency or only one currency (nothing to translate). */
export function TranslateToggle({ presentation, onChange }: { presentation: Presentation; onChange: (presentationId: string) => void }) {
  const currencies = useCurrencies();
  const { base, presentationId } = presentation;
  if (!base || (currencies.data?.length ?? 0) < 2) return null;
  return (
    <div className="filters__toggle">
      <Checkbox label={`In ${base.code}`} hint="Every currency at the exchange rates" checked={presentationId !== ''}
        onChange={(event) => onChange(event.target.checked ? base.id : '')} data-testid="report-translate" />
    </div>
  );
}

/** A report's error: a missing rate says which and links to the Rates page; anything else as usual. */
export function ReportError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (isApiError(error) && error.code === 'RATE_MISSING') return <RateMissingNotice error={error} onRetry={onRetry} />;
  return <ErrorNotice error={error} onRetry={onRetry} />;
}

export function RateMissingNotice({ error, onRetry }: { error: Error; onRetry?: (() => void) | undefined }) {
  return (
    <div className="notice notice--warning" role="alert" data-testid="rate-missing">
      <p className="notice__title">An exchange rate is missing</p>
      <p>{error.message}.</p>
      <p><Link to="/rates" data-testid="rate-missing-link">Set the rate on the Exchange rates page</Link>, then try again.</p>
      {onRetry ? <Button onClick={onRetry}>Try again</Button> : null}
    </div>
  );
}

/**
 * "5,501.00 EUR": a row's own figure in its account's currency, beside the translated one (nothing on
 * the difference row). `wrap`: it may break between digit groups, for a figure set under a name.
 */
export function OriginalAmount({ value, display, currencyId, testId = 'original-amount', wrap = false }:
  { value?: string | undefined; display: string | undefined; currencyId: string | null | undefined; testId?: string; wrap?: boolean }) {
  const currencies = useCurrencyMap();
  if (display === undefined) return null;
  const code = currencyId ? currencies.get(currencyId)?.code ?? '' : '';
  return (
    <span className={wrap ? 'original-amount original-amount--wrap' : 'original-amount'} data-testid={testId}>
      <Money value={value} display={groupDigits(display)} /><span className="unit"> {code}</span>
    </span>
  );
}

/** The CSV cells of a translated row's original figure: its currency's code and the amount. */
export function originalCells(row: { currency_id?: string | null | undefined; display_original_amount?: string | undefined },
  codeOf: (currencyId: string) => string | undefined): [string, string] {
  if (row.display_original_amount === undefined || !row.currency_id) return ['', ''];
  return [codeOf(row.currency_id) ?? row.currency_id, row.display_original_amount];
}
