import { createHash, randomBytes } from 'node:crypto';
import { LedgerError, notFound, validationError } from '../domain/errors.js';
import type { Permissions, User } from '../domain/types.js';
import type { CreateServiceAccountInput, ServiceAccountCreatedView, UserView } from '../schemas/user.js';
import { type Actor, PERMISSION_KEYS, hasPermission, requirePermission } from './actor.js';
import type { Page, PageInput, ServiceContext } from './context.js';
import { userView } from './views.js';

/** Permissions of users created from the command line when none are given. */
export const ADMIN_PERMISSIONS: Permissions = { admin: true };

export const API_KEY_PREFIX = 'tsk_';

export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

export function assertPermissionKeys(permissions: Permissions): void {
  for (const [key, value] of Object.entries(permissions)) {
    if (!(PERMISSION_KEYS as readonly string[]).includes(key)) {
      throw validationError(`Unknown permission ${key}`, `permissions.${key}`, `Use one of: ${PERMISSION_KEYS.join(', ')}`);
    }
    if (typeof value !== 'boolean') throw validationError(`permissions.${key} must be true or false`, `permissions.${key}`);
  }
}

/**
 * `actor` is the API caller, or null for the local operator of the command line, who already
 * holds the database file and so may do anything.
 */
function authorizeUserManagement(actor: Actor | null, permissions: Permissions): void {
  if (actor === null) return;
  requirePermission(actor, 'users:manage');
  if ((permissions.admin === true || permissions['users:manage'] === true) && !hasPermission(actor, 'admin')) {
    throw new LedgerError('FORBIDDEN', 'Only an admin may grant admin or users:manage', {
      field: 'permissions', suggestion: 'Ask an admin to grant these permissions',
    });
  }
}

export async function createServiceAccount(ctx: ServiceContext, actor: Actor | null, input: CreateServiceAccountInput): Promise<ServiceAccountCreatedView> {
  const permissions = input.permissions ?? (actor === null ? ADMIN_PERMISSIONS : {});
  assertPermissionKeys(permissions);
  authorizeUserManagement(actor, permissions);
  const user: User = {
    id: ctx.runtime.newId(), name: input.name, email: null, user_type: 'service', permissions, is_active: true,
    created_at: ctx.now(),
  };
  const apiKey = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  await ctx.store.write(async (tx) => {
    await tx.insertUser({ ...user, password_hash: null });
    await tx.insertApiKey({ id: ctx.runtime.newId(), user_id: user.id, key_hash: hashApiKey(apiKey), created_at: user.created_at });
  });
  return { ...userView(user), api_key: apiKey };
}

export async function getUser(ctx: ServiceContext, id: string): Promise<UserView> {
  const user = await ctx.store.getUser(id);
  if (!user) throw notFound('User', id);
  return userView(user);
}

/** Ordered by creation. */
export async function listUsers(ctx: ServiceContext, input: PageInput): Promise<Page<UserView>> {
  const page = await ctx.store.listUsers(ctx.pageRequest('users', input));
  return ctx.toPage('users', page, userView);
}

export function unauthorized(message: string): LedgerError {
  return new LedgerError('UNAUTHORIZED', message, {
    suggestion: 'Send Authorization: Bearer <API key or access token> of an active user',
  });
}

/** Resolves a bearer credential to the acting user. */
export async function authenticateBearer(ctx: ServiceContext, token: string): Promise<Actor> {
  if (!token.startsWith(API_KEY_PREFIX)) throw unauthorized('Unknown credential type');
  const user = await ctx.store.findUserByApiKeyHash(hashApiKey(token));
  if (!user) throw unauthorized('Unknown API key');
  if (!user.is_active) throw unauthorized('The user of this API key is inactive');
  return { user_id: user.id, user_type: user.user_type, permissions: user.permissions };
}
