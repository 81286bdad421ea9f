import Type, { type Static } from 'typebox';
import { DateString, Id, Nullable } from './common.js';

export const CompanyName = Nullable(Type.String({
  description: 'The company name printed at the top of every report and export (null: none)', examples: ['Acme Ltd'],
}));

export const Settings = Type.Object({
  company_name: CompanyName,
  retained_earnings_account_id: Nullable(Id),
  retained_earnings_account_ids: Type.Record(Type.String(), Id, {
    description: 'Retained earnings account per currency (currency_id -> account id) for the currencies other than the default\'s',
  }),
  base_currency_id: Nullable(Id, {
    description: 'The currency reports are translated into (presentation_currency_id); when never set, the retained earnings account\'s currency (null while neither is set)',
  }),
  lock_date: Nullable(DateString, {
    description: 'Entries and reversals dated on or before this day are refused (PERIOD_LOCKED) unless the caller holds periods:override and gives an override_reason; null: no lock',
  }),
});
export type SettingsView = Static<typeof Settings>;

export const UpdateSettingsBody = Type.Object({
  company_name: Type.Optional(Nullable(Type.String({
    maxLength: 1000,
    description: 'Trimmed, then 1 to 200 characters without control characters; null removes it',
  }))),
  retained_earnings_account_id: Type.Optional(Id),
  retained_earnings_account_ids: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Nullable(Id), {
    description: 'Merged into the current map: a currency_id set to an account id sets that currency\'s account, set to null removes it; currencies not named are left as they are',
  })),
  base_currency_id: Type.Optional(Nullable(Id, { description: 'A currency id; null goes back to the retained earnings account\'s currency' })),
  lock_date: Type.Optional(Nullable(DateString, { description: 'YYYY-MM-DD; null removes the lock' })),
}, { additionalProperties: false, minProperties: 1 });
export type UpdateSettingsInput = Static<typeof UpdateSettingsBody>;
