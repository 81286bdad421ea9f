import Type, { type Static } from 'typebox';
import { Id, NonEmpty, Timestamp } from './common.js';

export const Currency = Type.Object({
  id: Id,
  code: Type.String(),
  name: Type.String(),
  symbol: Type.String(),
  asset_scale: Type.Integer(),
  asset_type: Type.Union([Type.Literal('fiat'), Type.Literal('crypto')]),
  caip19_id: Type.String(),
  created_at: Timestamp,
});
export type CurrencyView = Static<typeof Currency>;

export const CreateCurrencyBody = Type.Object({
  code: Type.String({ pattern: '^[A-Za-z0-9._-]{1,32}$', description: 'ISO 4217 code or crypto ticker' }),
  name: NonEmpty('Display name', 200),
  symbol: NonEmpty('Display symbol', 20),
  asset_scale: Type.Integer({ minimum: 0, maximum: 38, description: 'Decimal places of the smallest unit (0..38)' }),
  asset_type: Type.Union([Type.Literal('fiat'), Type.Literal('crypto')]),
  caip19_id: Type.String({ pattern: '^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}/[-a-z0-9]{3,8}:[-.%a-zA-Z0-9]{1,128}(/[-.%a-zA-Z0-9]{1,78})?$',
    description: 'CAIP-19 asset id, e.g. swift:0/iso4217:USD or eip155:1/slip44:60' }),
}, { additionalProperties: false });
export type CreateCurrencyInput = Static<typeof CreateCurrencyBody>;

export const UpdateCurrencyBody = Type.Object({
  name: Type.Optional(NonEmpty('Display name', 200)),
  symbol: Type.Optional(NonEmpty('Display symbol', 20)),
}, { additionalProperties: false, minProperties: 1 });
export type UpdateCurrencyInput = Static<typeof UpdateCurrencyBody>;
