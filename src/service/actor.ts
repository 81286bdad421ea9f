/** Who is acting: the authenticated user, and the permission check every write goes through. */
import { type CredentialType, LOCAL_OPERATOR_ID } from '../domain/audit.js';
import { LedgerError } from '../domain/errors.js';
import type { Permissions, UserType } from '../domain/types.js';

export const PERMISSION_KEYS = [
  'admin', 'currencies:write', 'accounts:write', 'periods:write', 'periods:close', 'journals:create',
  'journals:reverse', 'settings:write', 'users:manage', 'bank:write', 'periods:override', 'rates:write', 'events:read',
  'webhooks:manage',
] as const;
export type PermissionKey = (typeof PERMISSION_KEYS)[number];

/** The credential an actor authenticated with: an API key's id, or a login session's id (unknown for old tokens). */
export interface Credential {
  type: CredentialType;
  id: string | null;
}

export interface Actor {
  user_id: string;
  user_type: UserType;
  permissions: Permissions;
  /** Null for the local operator, who authenticated with nothing. */
  credential: Credential | null;
  /** The HTTP request the actor acts in, set by the HTTP face; absent on the command line. */
  request_id?: string | undefined;
  /**
   * Set when the actor's API key was taken from this process's memory instead of read: the write
   * it acts in must confirm it first (auth/authenticate.ts, `confirmCredential`).
   */
  unconfirmed?: { key_hash: string; version: string } | undefined;
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
export const LOCAL_OPERATOR: Actor = {
  user_id: LOCAL_OPERATOR_ID, user_type: 'service', permissions: { admin: true }, credential: null,
};

/** Whether the actor is the command line's local operator (no user: recorded as nobody). */
export function isLocalOperator(actor: Actor): boolean {
  return actor.user_id === LOCAL_OPERATOR.user_id && actor.credential === null;
}
