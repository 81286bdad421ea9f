import Type, { type Static } from 'typebox';
import { Id, NonEmpty, Nullable, Timestamp } from './common.js';

export const PermissionsSchema = Type.Record(Type.String(), Type.Boolean(), {
  description: 'Permission key to boolean: admin, currencies:write, accounts:write, periods:write, periods:close, journals:create, journals:reverse, settings:write, users:manage',
});

export const User = Type.Object({
  id: Id,
  name: Type.String(),
  email: Nullable(Type.String()),
  user_type: Type.Union([Type.Literal('human'), Type.Literal('service')]),
  permissions: PermissionsSchema,
  is_active: Type.Boolean(),
  created_at: Timestamp,
});
export type UserView = Static<typeof User>;

export const ServiceAccountCreated = Type.Object({
  ...User.properties,
  api_key: Type.String({ description: 'Shown only in this response' }),
});
export type ServiceAccountCreatedView = Static<typeof ServiceAccountCreated>;

export const CreateServiceAccountBody = Type.Object({
  name: NonEmpty('Display name', 200),
  permissions: Type.Optional(PermissionsSchema),
}, { additionalProperties: false });
export type CreateServiceAccountInput = Static<typeof CreateServiceAccountBody>;
