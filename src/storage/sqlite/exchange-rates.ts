/** Exchange rates (service/ports/rates-store.ts). */
import type { ExchangeRate, ExchangeRateFilter, RatesReads, RatesWrites } from '../../service/ports/rates-store.js';
import { type ExchangeRateRow, toExchangeRate } from '../shared/exchange-rate-rows.js';
import { mapPage, page } from '../shared/paging.js';
import { type Param, placeholders, type SqliteQueries } from './queries.js';
import type { PageRequest, StorePage } from '../../service/ports/store-pages.js';

export abstract class SqliteRatesReads implements RatesReads {
  declare readonly q: SqliteQueries;

  async getExchangeRate(currencyId: string, rateDate: string): Promise<ExchangeRate | undefined> {
    const row = this.q.get<ExchangeRateRow>('SELECT * FROM exchange_rates WHERE currency_id = ? AND rate_date = ?', currencyId, rateDate);
    return row && toExchangeRate(row);
  }

  async listExchangeRates(filter: ExchangeRateFilter, request: PageRequest): Promise<StorePage<ExchangeRate>> {
    const where: string[] = [];
    const params: Param[] = [];
    if (request.after !== undefined) {
      where.push('(rate_date, currency_id) > (?, ?)');
      params.push(String(request.after[0]), String(request.after[1]));
    }
    if (filter.currency_id !== undefined) { where.push('currency_id = ?'); params.push(filter.currency_id); }
    if (filter.start_date !== undefined) { where.push('rate_date >= ?'); params.push(filter.start_date); }
    if (filter.end_date !== undefined) { where.push('rate_date <= ?'); params.push(filter.end_date); }
    const rows = this.q.all<ExchangeRateRow>(`SELECT * FROM exchange_rates${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}
      ORDER BY rate_date, currency_id LIMIT ?`, ...params, request.limit + 1);
    return mapPage(page(rows, request.limit, (row) => [row.rate_date, row.currency_id]), toExchangeRate);
  }

  async exchangeRatesThrough(currencyIds: readonly string[], through: string): Promise<ExchangeRate[]> {
    const rates: ExchangeRateRow[] = [];
    // In chunks under SQLite's limit of bound parameters (a ledger has few currencies anyway).
    const sorted = [...new Set(currencyIds)].sort();
    for (let start = 0; start < sorted.length; start += 500) {
      const chunk = sorted.slice(start, start + 500);
      rates.push(...this.q.all<ExchangeRateRow>(`SELECT * FROM exchange_rates WHERE currency_id IN (${placeholders(chunk.length)})
        AND rate_date <= ? ORDER BY currency_id, rate_date`, ...chunk, through));
    }
    return rates.map(toExchangeRate);
  }
}

export abstract class SqliteRatesWrites implements RatesWrites {
  declare readonly q: SqliteQueries;

  // SQLite's single write lock already holds every rate against other writers.
  async lockExchangeRates(): Promise<void> {}

  async upsertExchangeRate(rate: ExchangeRate): Promise<void> {
    this.q.run(`INSERT INTO exchange_rates (id, currency_id, rate_date, rate, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (currency_id, rate_date) DO UPDATE SET rate = excluded.rate, updated_at = excluded.updated_at`,
    rate.id, rate.currency_id, rate.rate_date, rate.rate, rate.created_at, rate.updated_at);
  }
}
