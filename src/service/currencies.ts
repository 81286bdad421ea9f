import { fieldChanges, initialValues } from '../domain/audit.js';
import { fiatCurrency } from '../domain/currencies/iso4217.js';
import { LedgerError, notFound } from '../domain/errors.js';
import type { Currency } from '../domain/types.js';
import type { CreateCurrencyInput, CurrencyView, UpdateCurrencyInput } from '../schemas/currency.js';
import type { Actor } from './actor.js';
import { recordAudit } from './audit-log.js';
import type { Work } from './use-case.js';
import type { Page, PageInput, ServiceContext } from './context.js';

const CREATED_FIELDS = ['code', 'name', 'symbol', 'asset_scale', 'asset_type', 'caip19_id'] as const;
const UPDATABLE_FIELDS = ['name', 'symbol'] as const;

export function createCurrency(ctx: ServiceContext, actor: Actor, input: CreateCurrencyInput): Work<CurrencyView> {
  const currency: Currency = {
    id: ctx.runtime.newId(),
    code: input.code,
    name: input.name,
    symbol: input.symbol,
    asset_scale: input.asset_scale,
    asset_type: input.asset_type,
    caip19_id: input.caip19_id,
    created_at: ctx.now(),
  };
  return async (tx) => {
    await tx.insertCurrency(currency);
    await recordAudit(ctx, tx, actor, {
      action: 'currency.create', target_type: 'currency', target_id: currency.id, changes: initialValues(currency, CREATED_FIELDS),
    }, { occurredAt: currency.created_at });
    return currency;
  };
}

export async function getCurrency(ctx: ServiceContext, id: string): Promise<CurrencyView> {
  const currency = await ctx.store.getCurrency(id);
  if (!currency) throw notFound('Currency', id);
  return currency;
}

/** Ordered by code. */
export async function listCurrencies(ctx: ServiceContext, input: PageInput): Promise<Page<CurrencyView>> {
  const page = await ctx.store.listCurrencies(ctx.pageRequest('currencies', input));
  return ctx.toPage('currencies', page, (currency) => currency);
}

export function updateCurrency(ctx: ServiceContext, actor: Actor, id: string, input: UpdateCurrencyInput): Work<CurrencyView> {
  return async (tx) => {
    const before = await tx.getCurrency(id);
    if (!before) throw notFound('Currency', id);
    await tx.updateCurrency(id, { name: input.name, symbol: input.symbol });
    const after = (await tx.getCurrency(id))!;
    await recordAudit(ctx, tx, actor, {
      action: 'currency.update', target_type: 'currency', target_id: id, changes: fieldChanges(before, after, UPDATABLE_FIELDS),
    });
    return after;
  };
}

/** Creates a fiat currency from its ISO 4217 code (name, symbol and decimals from CLDR). */
export function createFiatCurrency(ctx: ServiceContext, actor: Actor, code: string): Work<CurrencyView> {
  const fiat = fiatCurrency(code);
  const create = createCurrency(ctx, actor, fiat);
  return async (tx) => {
    try {
      return await create(tx);
    } catch (error) {
      // The caller gave only the code, and a fiat currency's CAIP-19 id follows from it, so a clash on
      // either column means this currency exists already: say so in terms of the code.
      if (error instanceof LedgerError && error.code === 'DUPLICATE') {
        throw new LedgerError('DUPLICATE', `The currency ${fiat.code} (${fiat.caip19_id}) exists already`, {
          field: 'code', suggestion: 'List currencies to find its id',
        });
      }
      throw error;
    }
  };
}
