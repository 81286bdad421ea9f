import Type, { type Static } from 'typebox';
import { Id, Nullable } from './common.js';

export const Settings = Type.Object({ retained_earnings_account_id: Nullable(Id) });
export type SettingsView = Static<typeof Settings>;

export const UpdateSettingsBody = Type.Object({
  retained_earnings_account_id: Id,
}, { additionalProperties: false });
export type UpdateSettingsInput = Static<typeof UpdateSettingsBody>;
