/**
 * Exchange rates: set one (a second rate for the same currency and day replaces the first), set
 * many at once (the CLI's CSV import: all or nothing), list them. A rate is the value of one major
 * unit of a currency in the base currency, read by parseRate into its canonical text; it is never
 * a float. Every rate set is audited (`exchange_rate.set`, the rate's old and new value).
 */
import { initialValues } from '../domain/audit.js';
import { parseRate } from '../domain/currencies/exchange-rate.js';
import { parseDate } from '../domain/dates.js';
import { notFound, validationError } from '../domain/errors.js';
import type { Currency } from '../domain/types.js';
import {
  type ExchangeRateListInput, type ExchangeRatesSetView, type ExchangeRateView, MAX_RATES_PER_SET, type SetExchangeRateInput,
} from '../schemas/exchange-rate.js';
import type { Actor } from './actor.js';
import { recordAudit } from './audit-log.js';
import { confirmCredential } from './auth/authenticate.js';
import type { Page, ServiceContext } from './context.js';
import type { Work } from './use-case.js';
import type { LedgerReads, LedgerTx } from './ports/ledger-store.js';
import type { ExchangeRate } from './ports/rates-store.js';
import { baseCurrencyOf } from './settings.js';

const CREATED_FIELDS = ['currency_id', 'rate_date', 'rate'] as const;

/** What setting one rate did: the rate as stored, and whether it replaced one of the same currency and day. */
export interface ExchangeRateSet {
  rate: ExchangeRateView;
  replaced: boolean;
}

/** A rate as asked for, read: the date checked, the rate in its canonical text. */
interface RateRequest {
  currency_id: string;
  rate_date: string;
  rate: string;
}

function readRequest(input: SetExchangeRateInput, prefix: string): RateRequest {
  return {
    currency_id: input.currency_id,
    rate_date: parseDate(input.rate_date, `${prefix}rate_date`),
    rate: parseRate(input.rate, `${prefix}rate`).text,
  };
}

export function exchangeRateView(rate: ExchangeRate, currency: Pick<Currency, 'code'>): ExchangeRateView {
  return {
    id: rate.id, currency_id: rate.currency_id, currency_code: currency.code, rate_date: rate.rate_date, rate: rate.rate,
    created_at: rate.created_at, updated_at: rate.updated_at,
  };
}

/** The currencies rates may be set for: any but the base currency, which the ledger must have. */
class RateTargets {
  private readonly currencies = new Map<string, Currency>();

  private constructor(private readonly reads: LedgerReads, private readonly base: Currency) {}

  static async of(reads: LedgerReads): Promise<RateTargets> {
    const baseId = await baseCurrencyOf(reads);
    const base = baseId === null ? undefined : await reads.getCurrency(baseId);
    if (base === undefined) {
      throw validationError('The ledger has no base currency, so a rate has nothing to be expressed in', 'currency_id',
        'Set the base currency first: PATCH /api/v1/settings {"base_currency_id": ...} or `ledger settings set base-currency USD`');
    }
    return new RateTargets(reads, base);
  }

  async currency(id: string, field: string, prefix = ''): Promise<Currency> {
    let currency = this.currencies.get(id);
    if (currency === undefined) {
      currency = await this.reads.getCurrency(id);
      if (currency === undefined) {
        throw validationError(`${prefix}Currency ${id} does not exist`, field, 'List the currencies (GET /api/v1/currencies, `ledger currencies list`) to find its id');
      }
      this.currencies.set(id, currency);
    }
    if (currency.id === this.base.id) {
      throw validationError(`${prefix}${currency.code} is the base currency: its rate is 1 by definition and is not stored`, field,
        'Give rates for the other currencies, each as the value of one of its units in the base currency');
    }
    return currency;
  }
}

/** Stores one rate, replacing the one of its currency and day, and audits it; the caller holds the rates lock. */
async function storeRate(ctx: ServiceContext, tx: LedgerTx, actor: Actor, request: RateRequest, now: string): Promise<{ stored: ExchangeRate; before: ExchangeRate | undefined }> {
  const before = await tx.getExchangeRate(request.currency_id, request.rate_date);
  const stored: ExchangeRate = {
    id: before?.id ?? ctx.runtime.newId(), currency_id: request.currency_id, rate_date: request.rate_date, rate: request.rate,
    created_at: before?.created_at ?? now, updated_at: now,
  };
  await tx.upsertExchangeRate(stored);
  await recordAudit(ctx, tx, actor, {
    action: 'exchange_rate.set', target_type: 'exchange_rate', target_id: stored.id,
    changes: before === undefined ? initialValues(stored, CREATED_FIELDS) : { rate: { old: before.rate, new: stored.rate } },
  }, { occurredAt: now });
  return { stored, before };
}

export function setExchangeRate(ctx: ServiceContext, actor: Actor, input: SetExchangeRateInput): Work<ExchangeRateSet> {
  const request = readRequest(input, '');
  return async (tx) => {
    const confirmed = await confirmCredential(ctx, tx, actor, 'rates:write');
    await tx.lockExchangeRates();
    const currency = await (await RateTargets.of(tx)).currency(request.currency_id, 'currency_id');
    const { stored, before } = await storeRate(ctx, tx, confirmed, request, ctx.now());
    return { rate: exchangeRateView(stored, currency), replaced: before !== undefined };
  };
}

/**
 * Sets many rates in one transaction, all or none: the first bad rate (its error names it,
 * `rates[i]`) refuses them all. A currency and day given twice is refused too, since which of the
 * two was meant cannot be told.
 */
export function setExchangeRates(ctx: ServiceContext, actor: Actor, inputs: readonly SetExchangeRateInput[]): Work<ExchangeRatesSetView> {
  if (inputs.length === 0) throw validationError('No rates to set', 'rates', 'Give at least one rate');
  if (inputs.length > MAX_RATES_PER_SET) {
    throw validationError(`${inputs.length} rates are more than the ${MAX_RATES_PER_SET} one set takes`, 'rates', 'Split them into several sets');
  }
  const requests: RateRequest[] = [];
  const seen = new Map<string, number>();
  for (const [index, input] of inputs.entries()) {
    const request = readRequest(input, `rates[${index}].`);
    const key = `${request.currency_id}\n${request.rate_date}`;
    const first = seen.get(key);
    if (first !== undefined) {
      throw validationError(`rates[${index}] repeats the currency and date of rates[${first}] (${request.rate_date})`, `rates[${index}].rate_date`,
        'Give one rate per currency and day');
    }
    seen.set(key, index);
    requests.push(request);
  }
  return async (tx) => {
    const confirmed = await confirmCredential(ctx, tx, actor, 'rates:write');
    await tx.lockExchangeRates();
    const targets = await RateTargets.of(tx);
    for (const [index, request] of requests.entries()) await targets.currency(request.currency_id, `rates[${index}].currency_id`, `rates[${index}]: `);
    const now = ctx.now();
    let replaced = 0;
    for (const request of requests) {
      if ((await storeRate(ctx, tx, confirmed, request, now)).before !== undefined) replaced += 1;
    }
    return { count: requests.length, created: requests.length - replaced, replaced };
  };
}

/** Rates by date, then currency; filters currency_id and an inclusive date range. */
export async function listExchangeRates(ctx: ServiceContext, input: ExchangeRateListInput): Promise<Page<ExchangeRateView>> {
  if (input.start_date !== undefined) parseDate(input.start_date, 'start_date');
  if (input.end_date !== undefined) parseDate(input.end_date, 'end_date');
  if (input.start_date !== undefined && input.end_date !== undefined && input.start_date > input.end_date) {
    throw validationError('start_date is after end_date', 'start_date', 'Give a start_date on or before end_date');
  }
  const list = `exchange-rates:${[input.currency_id, input.start_date, input.end_date].map((part) => part ?? '').join(':')}`;
  return ctx.store.read(async (reads) => {
    if (input.currency_id !== undefined && !(await reads.getCurrency(input.currency_id))) throw notFound('Currency', input.currency_id, 'currency_id');
    const page = await reads.listExchangeRates({ currency_id: input.currency_id, start_date: input.start_date, end_date: input.end_date },
      ctx.pageRequest(list, input));
    const currencies = await ctx.currenciesOf(page.items, reads);
    return ctx.toPage(list, page, (rate) => exchangeRateView(rate, currencies.get(rate.currency_id)!));
  });
}
