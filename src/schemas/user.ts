import Type, { type Static } from 'typebox';
import { Id, NonEmpty, Nullable, Timestamp } from './common.js';

export const PermissionsSchema = Type.Record(Type.String(), Type.Boolean(), {
  description: 'Permission key to boolean: admin, currencies:write, accounts:write, periods:write, periods:close, journals:create, journals:reverse, settings:write, users:manage, bank:write, periods:override (post on or before the lock date, with a reason), rates:write (exchange rates)',
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

const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$', description: 'Login e-mail (case-insensitive)' });
const Password = Type.String({ minLength: 1, maxLength: 1024, description: 'At least 8 characters; write-only' });

export const CreateServiceAccountBody = Type.Object({
  name: NonEmpty('Display name', 200),
  permissions: Type.Optional(PermissionsSchema),
}, { additionalProperties: false });
export type CreateServiceAccountInput = Static<typeof CreateServiceAccountBody>;

export const CreateUserBody = Type.Object({
  name: NonEmpty('Display name', 200),
  email: Email,
  password: Password,
  permissions: Type.Optional(PermissionsSchema),
}, { additionalProperties: false });
export type CreateUserInput = Static<typeof CreateUserBody>;

export const UpdateUserBody = Type.Object({
  name: Type.Optional(NonEmpty('Display name', 200)),
  permissions: Type.Optional(PermissionsSchema),
  is_active: Type.Optional(Type.Boolean()),
}, { additionalProperties: false, minProperties: 1 });
export type UpdateUserInput = Static<typeof UpdateUserBody>;

export const LoginBody = Type.Object({ email: Type.String({ maxLength: 254 }), password: Password }, { additionalProperties: false });
export type LoginInput = Static<typeof LoginBody>;

export const ChangePasswordBody = Type.Object({ current_password: Password, new_password: Password }, { additionalProperties: false });
export type ChangePasswordInput = Static<typeof ChangePasswordBody>;

export const RefreshBody = Type.Object({ refresh_token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
export type RefreshInput = Static<typeof RefreshBody>;

export const SetupBody = Type.Object({ name: NonEmpty('Display name', 200), email: Email, password: Password }, { additionalProperties: false });
export type SetupInput = Static<typeof SetupBody>;

export const TokenPair = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer({ description: 'Lifetime of the access token in seconds' }),
});
export type TokenPairView = Static<typeof TokenPair>;

export const SetupStatus = Type.Object({ needs_setup: Type.Boolean() });
export const LogoutResult = Type.Object({ revoked: Type.Boolean() });
