/** Users: human users who log in, service accounts with API keys, and who may manage whom. */
import { createHash, randomBytes } from 'node:crypto';
import { fieldChanges, initialValues } from '../domain/audit.js';
import { LedgerError, notFound, validationError } from '../domain/errors.js';
import type { Permissions, User } from '../domain/types.js';
import type {
  CreateServiceAccountInput, CreateUserInput, ServiceAccountCreatedView, UpdateUserInput, UserView,
} from '../schemas/user.js';
import { type Actor, type Credential, PERMISSION_KEYS, hasPermission, requirePermission } from './actor.js';
import { recordAudit } from './audit-log.js';
import type { Work } from './use-case.js';
import { assertPasswordAcceptable, hashPassword } from './auth/passwords.js';
import type { Page, PageInput, ServiceContext } from './context.js';
import type { LedgerTx, StoredUser } from './ports/ledger-store.js';
import { userView } from './views.js';

/** Permissions of users created from the command line when none are given. */
export const ADMIN_PERMISSIONS: Permissions = { admin: true };

export const API_KEY_PREFIX = 'tsk_';

/** The fields the audit log records of a created user: never the password or its hash. */
const CREATED_FIELDS = ['name', 'email', 'user_type', 'permissions', 'is_active'] as const;
const UPDATABLE_FIELDS = ['name', 'permissions', 'is_active'] as const;

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

const grantsManagement = (permissions: Permissions) => permissions.admin === true || permissions['users:manage'] === true;

/**
 * `actor` is the API caller, or null for the local operator of the command line, who already
 * holds the database file and so may do anything. Only an admin grants admin or users:manage; a
 * non-admin grants only permissions it holds itself, so `users:manage` never leads to more.
 * `alreadyHeld` are the target's current permissions (a PATCH keeps those without granting them).
 */
function authorizeGrant(actor: Actor | null, permissions: Permissions, alreadyHeld: Permissions = {}): void {
  if (actor === null) return;
  requirePermission(actor, 'users:manage');
  if (hasPermission(actor, 'admin')) return;
  if (grantsManagement(permissions)) {
    throw new LedgerError('FORBIDDEN', 'Only an admin may grant admin or users:manage', {
      field: 'permissions', suggestion: 'Ask an admin to grant these permissions',
    });
  }
  const granted = Object.entries(permissions).filter(([key, value]) => value === true && alreadyHeld[key] !== true);
  const notHeld = granted.map(([key]) => key).filter((key) => actor.permissions[key] !== true);
  if (notHeld.length > 0) {
    throw new LedgerError('FORBIDDEN', `You may grant only permissions you hold yourself; you do not hold ${notHeld.join(', ')}`, {
      field: `permissions.${notHeld[0]}`, suggestion: 'Ask an admin, or a user who holds these permissions, to grant them',
    });
  }
}

/**
 * Whom a non-admin user manager may change, reactivate, deactivate or re-key: only users whose
 * permissions are a subset of its own (and never an admin or another user manager). Otherwise
 * reactivating, or rotating the key of, a service account that holds more would hand the manager
 * every permission of that account. The local operator (null) and admins manage anyone.
 */
function authorizeManaging(actor: Actor | null, target: User, what: string): void {
  if (actor === null || hasPermission(actor, 'admin')) return;
  if (grantsManagement(target.permissions)) {
    throw new LedgerError('FORBIDDEN', `Only an admin may ${what} an admin or a user manager`, {
      suggestion: 'Ask an admin to make this change',
    });
  }
  const beyond = Object.entries(target.permissions).filter(([key, value]) => value === true && actor.permissions[key] !== true)
    .map(([key]) => key);
  if (beyond.length > 0) {
    throw new LedgerError('FORBIDDEN', `You may ${what} only users whose permissions you hold yourself; `
      + `${target.name} holds ${beyond.join(', ')}, which you do not`, {
      suggestion: 'Ask an admin, or a user manager who holds these permissions, to make this change',
    });
  }
}

function normaliseEmail(email: string): string {
  return email.trim();
}

export function createServiceAccount(ctx: ServiceContext, actor: Actor | null, input: CreateServiceAccountInput): Work<ServiceAccountCreatedView> {
  const permissions = input.permissions ?? (actor === null ? ADMIN_PERMISSIONS : {});
  assertPermissionKeys(permissions);
  authorizeGrant(actor, permissions);
  const user: User = {
    id: ctx.runtime.newId(), name: input.name, email: null, user_type: 'service', permissions, is_active: true,
    created_at: ctx.now(),
  };
  const apiKey = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  // The answer kept for a retry leaves the API key out (idempotency.ts, keptJson).
  return async (tx) => {
    await tx.insertUser({ ...user, password_hash: null });
    await tx.insertApiKey({ id: ctx.runtime.newId(), user_id: user.id, key_hash: hashApiKey(apiKey), created_at: user.created_at });
    await recordAudit(ctx, tx, actor, {
      action: 'service_account.create', target_type: 'user', target_id: user.id, changes: initialValues(user, CREATED_FIELDS),
    }, { occurredAt: user.created_at });
    return { ...userView(user), api_key: apiKey };
  };
}

/**
 * Gives a service account a new API key and deletes its old ones in one transaction: the new key is
 * answered once, the old key is refused from the next request on. Needs users:manage; only an
 * admin rotates the key of an admin or a user manager.
 */
export function rotateApiKey(ctx: ServiceContext, actor: Actor | null, id: string): Work<ServiceAccountCreatedView> {
  const apiKey = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return async (tx) => {
    const target = await tx.getUser(id);
    if (!target) throw notFound('User', id);
    if (target.user_type !== 'service') {
      throw validationError('Only a service account has an API key', 'id', 'Human users change their password with POST /auth/password');
    }
    authorizeManaging(actor, target, 'rotate the API key of');
    const now = ctx.now();
    await tx.deleteUserApiKeys(id);
    await tx.insertApiKey({ id: ctx.runtime.newId(), user_id: id, key_hash: hashApiKey(apiKey), created_at: now });
    await recordAudit(ctx, tx, actor, { action: 'service_account.key_rotate', target_type: 'user', target_id: id }, { occurredAt: now });
    return { ...userView(target), api_key: apiKey };
  };
}

/** Builds a human user record; the password is hashed before any transaction starts. */
export async function newHumanUser(ctx: ServiceContext, input: CreateUserInput, permissions: Permissions): Promise<StoredUser> {
  assertPermissionKeys(permissions);
  assertPasswordAcceptable(input.password);
  return {
    id: ctx.runtime.newId(), name: input.name, email: normaliseEmail(input.email), user_type: 'human', permissions,
    is_active: true, created_at: ctx.now(), password_hash: await hashPassword(input.password, ctx.options.scryptCost),
  };
}

export async function createUser(ctx: ServiceContext, actor: Actor | null, input: CreateUserInput): Promise<Work<UserView>> {
  const permissions = input.permissions ?? (actor === null ? ADMIN_PERMISSIONS : {});
  assertPermissionKeys(permissions);
  authorizeGrant(actor, permissions);
  const user = await newHumanUser(ctx, input, permissions);
  return async (tx) => {
    await tx.insertUser(user);
    await recordUserCreated(ctx, tx, actor, user);
    return userView(user);
  };
}

export async function recordUserCreated(ctx: ServiceContext, tx: LedgerTx, actor: Actor | null, user: User,
  requestId?: string): Promise<void> {
  await recordAudit(ctx, tx, actor, {
    action: 'user.create', target_type: 'user', target_id: user.id, changes: initialValues(userView(user), CREATED_FIELDS),
  }, { occurredAt: user.created_at, requestId });
}

export function updateUser(ctx: ServiceContext, actor: Actor | null, id: string, input: UpdateUserInput): Work<UserView> {
  if (input.permissions !== undefined) assertPermissionKeys(input.permissions);
  return async (tx) => {
    const target = await tx.getUser(id);
    if (!target) throw notFound('User', id);
    authorizeManaging(actor, target, 'change');
    if (input.permissions !== undefined) authorizeGrant(actor, input.permissions, target.permissions);
    if (input.is_active === false && actor !== null && actor.user_id === id) {
      throw validationError('You cannot deactivate yourself', 'is_active', 'Ask another admin to deactivate this user');
    }
    await assertAdminRemains(tx, target, input);
    await tx.updateUser(id, { name: input.name, permissions: input.permissions, is_active: input.is_active });
    // Deactivation ends every login session: reactivating the user later revives none of them.
    if (input.is_active === false && target.is_active) await tx.revokeUserRefreshTokens(id, ctx.now());
    const after = userView((await tx.getUser(id))!);
    await recordAudit(ctx, tx, actor, {
      action: 'user.update', target_type: 'user', target_id: id, changes: fieldChanges(userView(target), after, UPDATABLE_FIELDS),
    });
    return after;
  };
}

/** The last active admin can be neither deactivated nor stripped of admin. */
async function assertAdminRemains(tx: LedgerTx, target: StoredUser, input: UpdateUserInput): Promise<void> {
  const isActiveAdmin = target.is_active && target.permissions.admin === true;
  const staysActiveAdmin = (input.is_active ?? target.is_active) && (input.permissions ?? target.permissions).admin === true;
  if (isActiveAdmin && !staysActiveAdmin && (await tx.countActiveAdmins()) <= 1) {
    throw validationError('This is the last active admin', input.is_active === false ? 'is_active' : 'permissions.admin',
      'Make another user an admin first');
  }
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

export function unauthorized(message: string,
  suggestion = 'Send Authorization: Bearer <API key or access token> of an active user'): LedgerError {
  return new LedgerError('UNAUTHORIZED', message, { suggestion });
}

export function actorOfUser(user: User, credential: Credential | null): Actor {
  return { user_id: user.id, user_type: user.user_type, permissions: user.permissions, credential };
}
