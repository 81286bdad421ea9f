/** Who is acting: the authenticated user, and the permission check every write goes through. */
import { LedgerError } from '../domain/errors.js';
import type { Permissions, UserType } from '../domain/types.js';

export const PERMISSION_KEYS = [
  'admin', 'currencies:write', 'accounts:write', 'periods:write', 'periods:close', 'journals:create',
  'journals:reverse', 'settings:write', 'users:manage',
] as const;
export type PermissionKey = (typeof PERMISSION_KEYS)[number];

export interface Actor {
  user_id: string;
  user_type: UserType;
  permissions: Permissions;
}

export function hasPermission(actor: Actor, key: PermissionKey): boolean {
  return actor.permissions.admin === true || actor.permissions[key] === true;
}

export function requirePermission(actor: Actor, key: PermissionKey): void {
  if (!hasPermission(actor, key)) {
    throw new LedgerError('FORBIDDEN', `This action needs the permission ${key}`, {
      suggestion: `Ask an administrator to grant ${key}`,
    });
  }
}

/**
 * The person at the command line for the commands that need no API key: whoever can open the
 * database file can already change it, so the CLI acts with full rights and records no author.
 */
export const LOCAL_OPERATOR: Actor = { user_id: 'local-operator', user_type: 'service', permissions: { admin: true } };
