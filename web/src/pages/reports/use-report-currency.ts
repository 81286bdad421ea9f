/** The currency a single-currency report is shown in: the one chosen, else the ledger's default. */
import type { CurrencyView } from '../../api/types.js';
import { defaultReportCurrency, useAccounts, useCurrencies, usePostedCurrencyIds, useSettings } from '../../lib/reference.js';

export function useReportCurrency(chosen: string): { currencyId: string | undefined; currency: CurrencyView | undefined; currencies: CurrencyView[] | undefined } {
  const accounts = useAccounts();
  const currencies = useCurrencies();
  const settings = useSettings();
  const posted = usePostedCurrencyIds();
  const ready = accounts.data !== undefined && currencies.data !== undefined && settings.data !== undefined && posted !== undefined;
  const currencyId = chosen || (ready ? defaultReportCurrency(accounts.data, currencies.data, settings.data?.retained_earnings_account_id, posted) : undefined);
  return { currencyId, currency: currencies.data?.find((row) => row.id === currencyId), currencies: currencies.data };
}
