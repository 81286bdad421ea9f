/** Exchange rates (service/ports/rates-store.ts). */
import type { ExchangeRate, ExchangeRateFilter, RatesReads, RatesWrites } from '../../service/ports/rates-store.js';
import { type ExchangeRateRow, toExchangeRate } from '../shared/exchange-rate-rows.js';
import { mapPage, page } from '../shared/paging.js';
import type { Param, PgQueries } from './queries.js';
import type { PageRequest, StorePage } from '../../service/ports/store-pages.js';

const COLUMNS = 'id, currency_id, rate_date, rate, created_at, updated_at';

export abstract class PostgresRatesReads implements RatesReads {
  declare readonly q: PgQueries;

  async getExchangeRate(currencyId: string, rateDate: string): Promise<ExchangeRate | undefined> {
    const row = await this.q.get<ExchangeRateRow>(`SELECT ${COLUMNS} FROM exchange_rates WHERE currency_id = $1 AND rate_date = $2`,
      currencyId, rateDate);
    return row && toExchangeRate(row);
  }

  async listExchangeRates(filter: ExchangeRateFilter, request: PageRequest): Promise<StorePage<ExchangeRate>> {
    const params: Param[] = [];
    const where: string[] = [];
    if (request.after !== undefined) {
      where.push(`(rate_date, currency_id) > ($${params.push(String(request.after[0]))}, $${params.push(String(request.after[1]))})`);
    }
    if (filter.currency_id !== undefined) where.push(`currency_id = $${params.push(filter.currency_id)}`);
    if (filter.start_date !== undefined) where.push(`rate_date >= $${params.push(filter.start_date)}`);
    if (filter.end_date !== undefined) where.push(`rate_date <= $${params.push(filter.end_date)}`);
    const rows = await this.q.allPlannedEachTime<ExchangeRateRow>(`SELECT ${COLUMNS} FROM exchange_rates
      ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY rate_date, currency_id LIMIT $${params.push(request.limit + 1)}`,
    ...params);
    return mapPage(page(rows, request.limit, (row) => [row.rate_date, row.currency_id]), toExchangeRate);
  }

  async exchangeRatesThrough(currencyIds: readonly string[], through: string): Promise<ExchangeRate[]> {
    const rows = await this.q.all<ExchangeRateRow>(`SELECT ${COLUMNS} FROM exchange_rates
      WHERE currency_id = ANY($1::text[]) AND rate_date <= $2 ORDER BY currency_id, rate_date`, [...new Set(currencyIds)], through);
    return rows.map(toExchangeRate);
  }
}

export abstract class PostgresRatesWrites implements RatesWrites {
  declare readonly q: PgQueries;

  // One transaction lock for every rate: a write reads the rate it replaces (for the audit
  // record's old value) and then writes, and rates are written rarely enough to take turns.
  async lockExchangeRates(): Promise<void> {
    await this.q.run('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', 'ledger.exchange_rates');
  }

  async upsertExchangeRate(rate: ExchangeRate): Promise<void> {
    await this.q.run(`INSERT INTO exchange_rates (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
      ON CONFLICT (currency_id, rate_date) DO UPDATE SET rate = excluded.rate, updated_at = excluded.updated_at`,
    rate.id, rate.currency_id, rate.rate_date, rate.rate, rate.created_at, rate.updated_at);
  }
}
