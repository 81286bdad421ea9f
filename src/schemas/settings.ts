import Type, { type Static } from 'typebox';
import { Id, Nullable } from './common.js';

export const CompanyName = Nullable(Type.String({
  description: 'The company name printed at the top of every report and export (null: none)', examples: ['Acme Ltd'],
}));

export const Settings = Type.Object({
  company_name: CompanyName,
  retained_earnings_account_id: Nullable(Id),
  retained_earnings_account_ids: Type.Record(Type.String(), Id, {
    description: 'Retained earnings account per currency (currency_id -> account id) for the currencies other than the default\'s',
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
}, { additionalProperties: false, minProperties: 1 });
export type UpdateSettingsInput = Static<typeof UpdateSettingsBody>;
