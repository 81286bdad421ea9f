/**
 * Storage contract: exchange rates (one per currency and day, replaced in place), their list with
 * filters and keyset paging, the rates a translation reads, and the lock that makes reading a
 * rate and replacing it atomic among processes.
 */
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/app/open-ledger.js';
import type { LedgerStore } from '../../../src/service/ports/ledger-store.js';
import type { ExchangeRate } from '../../../src/service/ports/rates-store.js';
import { currencyFixture, FIXTURE_TIME } from './fixtures.js';
import { freshBooksPerTest, walkPages } from './support.js';

/** The error a promise rejects with (any error: a foreign key is the database's own refusal). */
async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

function rateFixture(currencyId: string, rateDate: string, rate: string, overrides: Partial<ExchangeRate> = {}): ExchangeRate {
  return {
    id: `rate-${currencyId}-${rateDate}`, currency_id: currencyId, rate_date: rateDate, rate,
    created_at: FIXTURE_TIME, updated_at: FIXTURE_TIME, ...overrides,
  };
}

const keys = (rates: readonly ExchangeRate[]) => rates.map((rate) => `${rate.rate_date} ${rate.currency_id}`);

describe('storage contract: exchange rates', () => {
  const { context, books } = freshBooksPerTest();
  const gbp = currencyFixture('GBP');

  async function insertRates(rates: readonly ExchangeRate[]): Promise<void> {
    await context.store.write(async (tx) => {
      if (!(await tx.getCurrency(gbp.id))) await tx.insertCurrency(gbp);
      for (const rate of rates) await tx.upsertExchangeRate(rate);
    });
  }

  it('returns an inserted rate exactly as it was given, and nothing for another day or currency', async () => {
    const rate = rateFixture(books.eur.id, '2026-01-15', '1.0842');
    await insertRates([rate]);
    expect(await context.store.getExchangeRate(books.eur.id, '2026-01-15')).toEqual(rate);
    expect(await context.store.getExchangeRate(books.eur.id, '2026-01-16')).toBeUndefined();
    expect(await context.store.getExchangeRate(books.usd.id, '2026-01-15')).toBeUndefined();
  });

  it('replaces the rate of the same currency and day, keeping its id and created_at', async () => {
    await insertRates([rateFixture(books.eur.id, '2026-01-15', '1.0842')]);
    await insertRates([rateFixture(books.eur.id, '2026-01-15', '1.1', { id: 'rate-other', created_at: '2026-02-01T00:00:00.000Z',
      updated_at: '2026-02-01T00:00:00.000Z' })]);
    expect(await context.store.getExchangeRate(books.eur.id, '2026-01-15')).toEqual(rateFixture(books.eur.id, '2026-01-15', '1.1',
      { updated_at: '2026-02-01T00:00:00.000Z' }));
    expect((await context.store.listExchangeRates({}, { limit: 10 })).items).toHaveLength(1);
  });

  it('keeps a rate\'s twelve fraction digits and large integer part exactly', async () => {
    const rates = [rateFixture(books.eur.id, '2026-01-01', '0.000000000001'), rateFixture(gbp.id, '2026-01-01', '123456789012345678.123456789012')];
    await insertRates(rates);
    for (const rate of rates) expect(await context.store.getExchangeRate(rate.currency_id, rate.rate_date)).toEqual(rate);
  });

  it('refuses a rate of a currency that does not exist, storing nothing', async () => {
    await failureOf(context.store.write((tx) => tx.upsertExchangeRate(rateFixture('currency-unknown', '2026-01-01', '2'))));
    expect((await context.store.listExchangeRates({}, { limit: 10 })).items).toEqual([]);
  });

  it('lists rates by date, then currency, with filters, walking keyset pages to the end', async () => {
    const rates = ['2026-01-03', '2026-01-01', '2026-01-02', '2026-02-01'].flatMap((date, index) => [
      rateFixture(books.eur.id, date, `1.${index + 1}`), rateFixture(gbp.id, date, `2.${index + 1}`),
    ]);
    await insertRates(rates);
    const [first, second] = [books.eur.id, gbp.id].sort();
    const expected = ['2026-01-01', '2026-01-02', '2026-01-03', '2026-02-01'].flatMap((date) => [`${date} ${first}`, `${date} ${second}`]);
    for (const limit of [1, 2, 3, 8, 50]) {
      const walked = await walkPages((request) => context.store.listExchangeRates({}, request), limit);
      expect(keys(walked.items), `limit ${limit}`).toEqual(expected);
    }
    expect((await context.store.listExchangeRates({}, { limit: 3 })).next).toEqual(['2026-01-02', first]);
    const eurOnly = await walkPages((request) => context.store.listExchangeRates({ currency_id: books.eur.id }, request), 1);
    expect(keys(eurOnly.items)).toEqual(['2026-01-01', '2026-01-02', '2026-01-03', '2026-02-01'].map((date) => `${date} ${books.eur.id}`));
    const january = await walkPages((request) => context.store.listExchangeRates({ start_date: '2026-01-02', end_date: '2026-01-03' }, request), 3);
    expect(keys(january.items)).toEqual(expected.slice(2, 6));
    const gbpFrom = await context.store.listExchangeRates({ currency_id: gbp.id, start_date: '2026-01-03' }, { limit: 10 });
    expect(gbpFrom.items.map((rate) => rate.rate)).toEqual(['2.1', '2.4']);
    expect(await context.store.listExchangeRates({ end_date: '2025-12-31' }, { limit: 10 })).toEqual({ items: [], next: undefined });
  });

  it('answers every rate of the asked currencies on or before a date, by currency, then date', async () => {
    await insertRates([
      rateFixture(books.eur.id, '2026-03-01', '1.3'), rateFixture(books.eur.id, '2026-01-01', '1.1'), rateFixture(books.eur.id, '2026-02-01', '1.2'),
      rateFixture(gbp.id, '2026-01-15', '1.25'), rateFixture(books.usd.id, '2026-01-01', '1'),
    ]);
    const through = await context.store.exchangeRatesThrough([gbp.id, books.eur.id], '2026-02-01');
    const eurRates = ['2026-01-01 1.1', '2026-02-01 1.2'];
    const gbpRates = ['2026-01-15 1.25'];
    expect(through.map((rate) => `${rate.rate_date} ${rate.rate}`)).toEqual(books.eur.id < gbp.id ? [...eurRates, ...gbpRates] : [...gbpRates, ...eurRates]);
    expect(through.map((rate) => rate.currency_id)).toEqual([...through.map((rate) => rate.currency_id)].sort());
    expect(await context.store.exchangeRatesThrough([books.eur.id], '2025-12-31')).toEqual([]);
    expect(await context.store.exchangeRatesThrough([], '2026-12-31')).toEqual([]);
  });

  it('offers the rate reads inside read() and write() on the same snapshot as everything else', async () => {
    await insertRates([rateFixture(books.eur.id, '2026-01-15', '1.0842')]);
    const seen = await context.store.write(async (tx) => {
      await tx.upsertExchangeRate(rateFixture(books.eur.id, '2026-01-16', '1.09'));
      return (await tx.listExchangeRates({ currency_id: books.eur.id }, { limit: 10 })).items.map((rate) => rate.rate);
    });
    expect(seen).toEqual(['1.0842', '1.09']);
    expect(await context.store.read(async (reads) => (await reads.getExchangeRate(books.eur.id, '2026-01-16'))?.rate)).toBe('1.09');
  });

  it('rolls a rate back with its transaction', async () => {
    await failureOf(context.store.write(async (tx) => {
      await tx.upsertExchangeRate(rateFixture(books.eur.id, '2026-01-15', '1.0842'));
      throw new Error('changed my mind');
    }));
    expect(await context.store.getExchangeRate(books.eur.id, '2026-01-15')).toBeUndefined();
  });

  it('makes reading a rate and replacing it atomic: thirty concurrent increments from two processes count to thirty', async () => {
    // A second store on the same database stands for a second server process.
    const other = await openStore(context.location);
    try {
      await insertRates([rateFixture(books.eur.id, '2026-01-15', '1000')]);
      const increment = (store: LedgerStore) => store.write(async (tx) => {
        await tx.lockExchangeRates();
        const current = await tx.getExchangeRate(books.eur.id, '2026-01-15');
        await tx.upsertExchangeRate(rateFixture(books.eur.id, '2026-01-15', String(Number(current!.rate) + 1)));
      });
      await Promise.all(Array.from({ length: 30 }, (_, index) => increment(index % 2 === 0 ? context.store : other)));
      expect((await context.store.getExchangeRate(books.eur.id, '2026-01-15'))?.rate).toBe('1030');
    } finally {
      await other.close();
    }
  });
});
