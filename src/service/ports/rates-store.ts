/**
 * The storage port's exchange-rates concern: one rate per currency and day, the value of one major
 * unit of the currency in the base currency, kept as canonical decimal text
 * (domain/currencies/exchange-rate.ts). Composed into LedgerReads and LedgerWrites (ledger-store.ts).
 */
import type { PageRequest, StorePage } from './store-pages.js';

export interface ExchangeRate {
  id: string;
  currency_id: string;
  /** YYYY-MM-DD: the rate holds from this day until the currency's next rate. */
  rate_date: string;
  /** Canonical decimal text, at most 12 fraction digits. */
  rate: string;
  created_at: string;
  updated_at: string;
}

export interface ExchangeRateFilter {
  currency_id?: string | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
}

export interface RatesReads {
  /** The rate stored for exactly this currency and day. */
  getExchangeRate(currencyId: string, rateDate: string): Promise<ExchangeRate | undefined>;
  /** Rates in (rate_date, currency_id) order; the keyset is [rate_date, currency_id]. */
  listExchangeRates(filter: ExchangeRateFilter, page: PageRequest): Promise<StorePage<ExchangeRate>>;
  /** Every rate of these currencies dated on or before `through`, ordered by currency_id, then rate_date. */
  exchangeRatesThrough(currencyIds: readonly string[], through: string): Promise<ExchangeRate[]>;
}

export interface RatesWrites {
  /** Inserts the rate, or replaces the rate (and updated_at) of the same currency and day, keeping its id and created_at. */
  upsertExchangeRate(rate: ExchangeRate): Promise<void>;
}
