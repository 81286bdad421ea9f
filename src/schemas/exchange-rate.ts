/** Exchange rates: the value of one major unit of a currency in the base currency from a day on (docs/api.md). */
import Type, { type Static } from 'typebox';
import { DateString, Id, PageQuery, Timestamp } from './common.js';

/** Checked by parseRate (domain/currencies/exchange-rate.ts), whose messages say what is wrong with a rate. */
const RateText = Type.String({
  maxLength: 64,
  description: 'The value of one major unit of the currency in the base currency: a positive decimal string with at most 12 '
    + 'fraction digits, kept exactly (never a float), e.g. "1.0842"',
  examples: ['1.0842'],
});

export const ExchangeRate = Type.Object({
  id: Id,
  currency_id: Id,
  currency_code: Type.String({ description: 'The currency\'s code, for people' }),
  rate_date: Type.String({ ...DateString, description: 'The rate holds from this day until the currency\'s next rate' }),
  rate: Type.String({ description: 'Canonical decimal text: no leading zeros, no trailing fraction zeros ("01.50" is "1.5")' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type ExchangeRateView = Static<typeof ExchangeRate>;

export const SetExchangeRateBody = Type.Object({
  currency_id: Id,
  rate_date: DateString,
  rate: RateText,
}, { additionalProperties: false });
export type SetExchangeRateInput = Static<typeof SetExchangeRateBody>;

/** The most rates one bulk set (the CLI's CSV import) takes. */
export const MAX_RATES_PER_SET = 50_000;

export const SetExchangeRatesBody = Type.Object({
  rates: Type.Array(SetExchangeRateBody, { minItems: 1, maxItems: MAX_RATES_PER_SET }),
}, { additionalProperties: false });
export type SetExchangeRatesInput = Static<typeof SetExchangeRatesBody>;

export const ExchangeRatesSet = Type.Object({
  count: Type.Integer({ description: 'Rates set' }),
  created: Type.Integer({ description: 'Of them, rates for a currency and day that had none' }),
  replaced: Type.Integer({ description: 'Of them, rates that replaced the one stored for their currency and day' }),
});
export type ExchangeRatesSetView = Static<typeof ExchangeRatesSet>;

export const ExchangeRateListQuery = Type.Object({
  currency_id: Type.Optional(Id),
  start_date: Type.Optional(DateString),
  end_date: Type.Optional(DateString),
  ...PageQuery,
}, { additionalProperties: false });
export type ExchangeRateListInput = Static<typeof ExchangeRateListQuery>;
