/**
 * The row of `exchange_rates` (the same in both schemas) and its mapping to the port's record: the
 * stored rate text is read back through parseRate, so a rate that is not canonical, positive and
 * within 12 fraction digits never leaves the store unnoticed.
 */
import { parseRate } from '../../domain/currencies/exchange-rate.js';
import type { ExchangeRate } from '../../service/ports/rates-store.js';

/** The columns are the port's record, field for field. */
export type ExchangeRateRow = ExchangeRate;

export function toExchangeRate(row: ExchangeRateRow): ExchangeRate {
  return {
    id: row.id, currency_id: row.currency_id, rate_date: row.rate_date, rate: parseRate(row.rate, 'stored rate').text,
    created_at: row.created_at, updated_at: row.updated_at,
  };
}
