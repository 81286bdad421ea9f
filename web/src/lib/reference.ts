/**
 * Reference data most pages need: currencies (for scales and codes), the chart of accounts
 * (for names), periods and settings. Each is loaded whole once and shared through the cache.
 */
import { useMemo } from 'react';
import { accounts, currencies, periods, reports, settings } from '../api/endpoints.js';
import type { AccountView, CurrencyView, PeriodView } from '../api/types.js';
import { todayIso } from './dates.js';
import { useApi } from './use-api.js';

export const useCurrencies = () => useApi('currencies:all', currencies.all);
export const useAccounts = () => useApi('accounts:all', accounts.all);
export const usePeriods = () => useApi('periods:all', periods.all);
export const useSettings = () => useApi('settings', settings.get);
/** The all-time trial balance (the chart of accounts' balances, and which currencies have posted lines). */
export const useAllTimeTrialBalance = () => useApi('accounts:balances', () => reports.trialBalance({}));

/** The currencies with posted lines, from the all-time trial balance's totals (undefined until loaded). */
export function usePostedCurrencyIds(): string[] | undefined {
  const { data } = useAllTimeTrialBalance();
  return useMemo(() => data?.totals.map((total) => total.currency_id), [data]);
}

export function byId<T extends { id: string }>(rows: readonly T[] | undefined): Map<string, T> {
  return new Map((rows ?? []).map((row) => [row.id, row]));
}

export function useCurrencyMap(): Map<string, CurrencyView> {
  const { data } = useCurrencies();
  return useMemo(() => byId(data), [data]);
}

export function useAccountMap(): Map<string, AccountView> {
  const { data } = useAccounts();
  return useMemo(() => byId(data), [data]);
}

export function accountLabel(account: Pick<AccountView, 'account_number' | 'name'>): string {
  return `${account.account_number} · ${account.name}`;
}

/** Accounts a journal line can post to: active and not a control account. */
export function isPostingAccount(account: AccountView): boolean {
  return account.is_active && !account.has_subledger;
}

export function periodCovering(rows: readonly PeriodView[] | undefined, date: string = todayIso()): PeriodView | undefined {
  return rows?.find((period) => period.start_date <= date && date <= period.end_date);
}

/**
 * The currency reports default to, as the API chooses it (CONTRACT.md): the retained earnings
 * account's, else the only currency with posted lines (`postedCurrencyIds`, from the trial
 * balance's totals, when known). Where the API would ask for a choice, the page still needs one to
 * show: the currency most accounts use, else the first currency.
 */
export function defaultReportCurrency(
  accountRows: readonly AccountView[] | undefined, currencyRows: readonly CurrencyView[] | undefined, retainedEarningsId: string | null | undefined,
  postedCurrencyIds?: readonly string[],
): string | undefined {
  const retained = retainedEarningsId ? accountRows?.find((account) => account.id === retainedEarningsId) : undefined;
  if (retained) return retained.currency_id;
  if (postedCurrencyIds?.length === 1) return postedCurrencyIds[0];
  return mostUsedCurrency(accountRows, currencyRows);
}

/**
 * The new-account form's currency: the base currency (settings' `base_currency_id`, which the API
 * answers as the retained earnings account's currency until one is chosen), else the retained
 * earnings account's currency, else the one most accounts are in. A business's accounts are
 * mostly in the currency it reports in; another currency is the exception the user picks.
 */
export function defaultAccountCurrency(
  settingsRow: { base_currency_id?: string | null; retained_earnings_account_id: string | null } | undefined,
  accountRows: readonly AccountView[] | undefined, currencyRows: readonly CurrencyView[] | undefined,
): string | undefined {
  const known = (currencyId: string | null | undefined) => (currencyId && currencyRows?.some((row) => row.id === currencyId) ? currencyId : undefined);
  const retained = accountRows?.find((account) => account.id === settingsRow?.retained_earnings_account_id);
  return known(settingsRow?.base_currency_id) ?? known(retained?.currency_id) ?? mostUsedCurrency(accountRows, currencyRows);
}

/**
 * The currency most accounts are in (the new-account form's last resort): counted over the chart,
 * which every page has loaded anyway. On a tie, or with no accounts, the first currency listed.
 */
export function mostUsedCurrency(accountRows: readonly AccountView[] | undefined, currencyRows: readonly CurrencyView[] | undefined): string | undefined {
  const counts = new Map<string, number>();
  for (const account of accountRows ?? []) counts.set(account.currency_id, (counts.get(account.currency_id) ?? 0) + 1);
  let best: string | undefined;
  for (const currency of currencyRows ?? []) {
    if (best === undefined || (counts.get(currency.id) ?? 0) > (counts.get(best) ?? 0)) best = currency.id;
  }
  return best;
}
