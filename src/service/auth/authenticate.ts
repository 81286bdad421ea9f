/**
 * Who a bearer credential is: a `tsk_` API key (found by its SHA-256) or a JWT access token. The
 * user is read on every request, so that a revoked key, a deactivation or a permission change takes
 * effect at the next request, with one exception made for speed and kept exact:
 *
 * A write route that confirms its credential (the posting routes) may act on an API key this
 * process checked before (CredentialCache) without reading it first. Its actor is then
 * `unconfirmed`, and its write confirms it inside its own transaction (`confirmCredential`) before
 * changing anything: every change of a user or an API key, in any process, moves the store's
 * credentials version, so a key remembered at the version the write transaction sees is exactly
 * what a read there would find; when the version has moved, the key is read again there. A write
 * transaction begins after its job was queued, so a change committed before the request arrived
 * is always seen. An unconfirmed actor that reaches a write unconfirmed fails it (auditActor, which
 * names who made every record and every posted entry).
 */
import { type Actor, type Credential, hasPermission, type PermissionKey, requirePermission } from '../actor.js';
import type { ServiceContext } from '../context.js';
import type { ApiKeyUser, LedgerReads, StoredUser } from '../ports/ledger-store.js';
import { API_KEY_PREFIX, actorOfUser, hashApiKey, unauthorized } from '../users.js';

export interface AuthenticateOptions {
  /**
   * The permission of a write that will confirm the credential inside its transaction: an API
   * key checked before may then be taken from memory (if it had that permission).
   */
  confirmedInWrite?: PermissionKey | undefined;
}

function actorOfApiKey(user: ApiKeyUser): Actor {
  return actorOfUser(user, { type: 'api_key', id: user.api_key_id });
}

export async function authenticateBearer(ctx: ServiceContext, token: string, options: AuthenticateOptions = {}): Promise<Actor> {
  let user: StoredUser | undefined;
  let credential: Credential;
  if (token.startsWith(API_KEY_PREFIX)) {
    const keyHash = hashApiKey(token);
    const permission = options.confirmedInWrite;
    const known = permission === undefined ? undefined : ctx.credentials.get(keyHash);
    // A remembered key without the permission is read again: the permission may have been granted since.
    if (known !== undefined && hasPermission(actorOfApiKey(known), permission!)) {
      return { ...actorOfApiKey(known), unconfirmed: { key_hash: keyHash, version: known.credentials_version } };
    }
    const found = await ctx.store.findUserByApiKeyHash(keyHash);
    if (!found) {
      ctx.credentials.forget(keyHash);
      throw unauthorized('Unknown API key');
    }
    ctx.credentials.remember(keyHash, found);
    user = found;
    credential = { type: 'api_key', id: found.api_key_id };
  } else if (token.startsWith('eyJ')) {
    const verified = await ctx.accessTokens.verify(token);
    if (verified === undefined) throw unauthorized('Invalid or expired access token');
    // Every token names its login session since sessions could end; one without is refused.
    if (verified.sessionId === null) throw unauthorized('Access token without a session', 'Log in again with POST /auth/login');
    const found = await ctx.store.getUserWithSession(verified.userId, verified.sessionId);
    if (!found) throw unauthorized('Unknown user');
    if (!found.session_open) throw unauthorized('The session has ended (logged out or revoked)', 'Log in again with POST /auth/login');
    user = found;
    credential = { type: 'session', id: verified.sessionId };
  } else {
    throw unauthorized('Unknown credential type; expected an API key (tsk_...) or an access token');
  }
  if (!user.is_active) throw unauthorized('The user is inactive');
  return actorOfUser(user, credential);
}

/**
 * The actor a write acts as, inside its transaction `tx`: the actor itself, unless its API key was
 * taken from memory; then the key is confirmed first (see above), and the permission the write
 * needs is checked again when the user had to be read again. Refuses a key revoked or a user
 * deactivated since (UNAUTHORIZED), or a permission withdrawn (FORBIDDEN).
 */
export async function confirmCredential(ctx: ServiceContext, tx: LedgerReads, actor: Actor, permission: PermissionKey): Promise<Actor> {
  const pending = actor.unconfirmed;
  if (pending === undefined) return actor;
  const { unconfirmed: _confirmed, ...confirmed } = actor;
  if ((await tx.credentialsVersion()) === pending.version) return confirmed;
  // Nothing read here is remembered: the transaction sees its own changes, which may yet roll back.
  const user = await tx.findUserByApiKeyHash(pending.key_hash);
  if (user === undefined || !user.is_active) {
    ctx.credentials.forget(pending.key_hash);
    throw user === undefined ? unauthorized('Unknown API key') : unauthorized('The user is inactive');
  }
  const current: Actor = { ...actorOfApiKey(user), request_id: actor.request_id };
  requirePermission(current, permission);
  return current;
}
