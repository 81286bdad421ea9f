/** Logging in and out: token pairs, refresh-token rotation with reuse detection, first-user setup. */
import { LedgerError, validationError } from '../domain/errors.js';
import type { User } from '../domain/types.js';
import type { ChangePasswordInput, LoginInput, RefreshInput, SetupInput, TokenPairView, UserView } from '../schemas/user.js';
import type { Actor } from './actor.js';
import { recordAudit } from './audit-log.js';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS, hashToken, newRefreshToken } from './auth/access-tokens.js';
import { assertPasswordAcceptable, hashPassword, needsRehash, verifyPassword } from './auth/passwords.js';
import type { ServiceContext } from './context.js';
import type { LedgerTx, StoredUser } from './ports/ledger-store.js';
import { ADMIN_PERMISSIONS, actorOfUser, getUser, newHumanUser, recordUserCreated, unauthorized } from './users.js';

/** Compared against when the e-mail is unknown, so that case costs the same as a wrong password. */
let decoyHash: Promise<string> | undefined;

/** Stores a new refresh token for the user inside `tx`; the access token is signed afterwards. */
async function storeRefreshToken(ctx: ServiceContext, tx: LedgerTx, userId: string, familyId: string): Promise<{ refreshToken: string; tokenId: string }> {
  const refreshToken = newRefreshToken();
  const tokenId = ctx.runtime.newId();
  const nowMs = ctx.runtime.clock.now().getTime();
  await tx.insertRefreshToken({
    id: tokenId, user_id: userId, family_id: familyId, token_hash: hashToken(refreshToken),
    created_at: new Date(nowMs).toISOString(), expires_at: new Date(nowMs + REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString(),
    revoked_at: null, replaced_by: null,
  });
  return { refreshToken, tokenId };
}

/** Signing is asynchronous (WebCrypto), so it happens after the write transaction, not inside it. */
async function tokenPair(ctx: ServiceContext, userId: string, sessionId: string, refreshToken: string): Promise<TokenPairView> {
  return {
    access_token: await ctx.accessTokens.issue(userId, sessionId), refresh_token: refreshToken, token_type: 'bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
  };
}

/**
 * The user acting through a login session: the session is the refresh-token family, one per
 * login, which every refresh continues and every access token names (`sid`).
 */
function sessionActor(user: User, sessionId: string, requestId: string | undefined): Actor {
  return { ...actorOfUser(user, { type: 'session', id: sessionId }), request_id: requestId };
}

function invalidLogin(): LedgerError {
  return new LedgerError('UNAUTHORIZED', 'Invalid e-mail or password', { suggestion: 'Check the e-mail and password' });
}

/**
 * `requestId` is the HTTP request's, for the audit log. The throttle counts the attempt before the
 * password is hashed (docs/security.md); a failed login is recorded in the audit log in a
 * transaction that commits before the refusal is raised; the record names the user whose e-mail
 * was tried, never the text typed (which may be a mistyped password), and nothing when no user has
 * that e-mail. Logins refused by the throttle check no password and are not audited (the security
 * log of the server notes them).
 */
export async function login(ctx: ServiceContext, input: LoginInput, clientKey: string, requestId?: string): Promise<TokenPairView> {
  // Counted (as a failure until it succeeds) before the password is hashed; throws RATE_LIMITED.
  const attempt = await ctx.loginThrottle.begin(input.email, clientKey);
  try {
    let user: StoredUser | undefined;
    let passwordOk: boolean;
    try {
      user = await ctx.store.findUserByEmail(input.email.trim());
      decoyHash ??= hashPassword('decoy password for unknown e-mails', ctx.options.scryptCost);
      passwordOk = await verifyPassword(input.password, user?.password_hash ?? (await decoyHash));
    } catch (error) {
      // No password was checked (the hash queue was full, the database failed): not a failure.
      await attempt.abandon().catch(() => {});
      throw error;
    }
    if (!user || !passwordOk || !user.is_active || user.user_type !== 'human') {
      const target = user;
      await ctx.store.write(async (tx) => {
        await recordAudit(ctx, tx, null, {
          action: 'auth.login_failed', target_type: target ? 'user' : null, target_id: target?.id ?? null,
        }, { requestId });
      });
      throw invalidLogin();
    }
    const found = user;
    const sessionId = ctx.runtime.newId();
    // A hash made at a lower cost than today's is replaced now, while the password is at hand.
    const rehashed = found.password_hash !== null && needsRehash(found.password_hash, ctx.options.scryptCost)
      ? await hashPassword(input.password, ctx.options.scryptCost) : undefined;
    const { refreshToken } = await ctx.store.write(async (tx) => {
      await attempt.succeeded(tx);
      if (rehashed !== undefined) await tx.updateUser(found.id, { password_hash: rehashed });
      const stored = await storeRefreshToken(ctx, tx, found.id, sessionId);
      await recordAudit(ctx, tx, sessionActor(found, sessionId, requestId), { action: 'auth.login', target_type: 'user', target_id: found.id });
      return stored;
    });
    return await tokenPair(ctx, found.id, sessionId, refreshToken);
  } finally {
    attempt.release();
  }
}

/**
 * Exchanges a refresh token for a new pair and revokes it. Presenting a token that was already
 * used revokes its whole family: whoever holds a copy is cut off.
 */
export async function refresh(ctx: ServiceContext, input: RefreshInput, requestId?: string): Promise<TokenPairView> {
  const invalid = () => unauthorized('Invalid, expired or already used refresh token', 'Log in again with POST /auth/login');
  const outcome = await ctx.store.write(async (tx) => {
    const record = await tx.findRefreshToken(hashToken(input.refresh_token));
    if (!record) return { error: invalid() };
    const now = ctx.now();
    const session = { type: 'session', id: record.family_id } as const;
    if (record.revoked_at !== null) {
      // A used token presented again: whoever holds a copy is cut off, and that is recorded.
      await tx.revokeRefreshFamily(record.family_id, now);
      const owner = await tx.getUser(record.user_id);
      await recordAudit(ctx, tx, owner ? actorOfUser(owner, session) : null, {
        action: 'auth.refresh_reused', target_type: 'user', target_id: record.user_id,
      }, { occurredAt: now, requestId });
      return { error: invalid() };
    }
    if (record.expires_at <= now) return { error: invalid() };
    const user = await tx.getUser(record.user_id);
    if (!user || !user.is_active) return { error: unauthorized('The user is inactive') };
    const { refreshToken, tokenId } = await storeRefreshToken(ctx, tx, user.id, record.family_id);
    await tx.revokeRefreshToken(record.id, now, tokenId);
    await recordAudit(ctx, tx, sessionActor(user, record.family_id, requestId), {
      action: 'auth.refresh', target_type: 'user', target_id: user.id,
    }, { occurredAt: now });
    return { userId: user.id, sessionId: record.family_id, refreshToken };
  });
  // The family revocation must commit, so the rejection is raised outside the transaction.
  if ('error' in outcome) throw outcome.error;
  return tokenPair(ctx, outcome.userId, outcome.sessionId, outcome.refreshToken);
}

export async function logout(ctx: ServiceContext, input: RefreshInput, requestId?: string): Promise<{ revoked: boolean }> {
  return ctx.store.write(async (tx) => {
    const record = await tx.findRefreshToken(hashToken(input.refresh_token));
    if (!record) throw unauthorized('Unknown refresh token', 'Send the refresh_token from the login or refresh response');
    const now = ctx.now();
    await tx.revokeRefreshFamily(record.family_id, now);
    const owner = await tx.getUser(record.user_id);
    await recordAudit(ctx, tx, owner ? sessionActor(owner, record.family_id, requestId) : null, {
      action: 'auth.logout', target_type: 'user', target_id: record.user_id,
    }, { occurredAt: now, requestId });
    return { revoked: true };
  });
}

/**
 * "Sign out everywhere": revokes every refresh token of the actor's user, which ends every login
 * session and so every access token at once (API keys are not sessions and stay valid).
 */
export async function logoutAll(ctx: ServiceContext, actor: Actor): Promise<{ revoked: boolean }> {
  return ctx.store.write(async (tx) => {
    const now = ctx.now();
    await tx.revokeUserRefreshTokens(actor.user_id, now);
    await recordAudit(ctx, tx, actor, { action: 'auth.logout_all', target_type: 'user', target_id: actor.user_id }, { occurredAt: now });
    return { revoked: true };
  });
}

/**
 * Changes a human user's password, given the current one (a wrong one counts as a failed login of
 * that e-mail from `clientKey`). Every session of the user ends, the one asking included, and a
 * new session begins: the answer is its token pair.
 */
export async function changePassword(ctx: ServiceContext, actor: Actor, input: ChangePasswordInput, clientKey: string): Promise<TokenPairView> {
  const user = await ctx.store.getUser(actor.user_id);
  if (!user || user.user_type !== 'human' || user.email === null || user.password_hash === null) {
    throw new LedgerError('FORBIDDEN', 'Only human users have a password', { suggestion: 'Service accounts rotate their API key instead' });
  }
  assertPasswordAcceptable(input.new_password, 'new_password');
  if (input.new_password === input.current_password) {
    throw validationError('The new password is the current one', 'new_password', 'Choose a password you have not used here');
  }
  const attempt = await ctx.loginThrottle.begin(user.email, clientKey);
  try {
    if (!(await verifyPassword(input.current_password, user.password_hash))) {
      throw validationError('The current password is wrong', 'current_password', 'Send the password you log in with now');
    }
    const newHash = await hashPassword(input.new_password, ctx.options.scryptCost);
    const sessionId = ctx.runtime.newId();
    const { refreshToken } = await ctx.store.write(async (tx) => {
      await attempt.succeeded(tx);
      const now = ctx.now();
      await tx.updateUser(user.id, { password_hash: newHash });
      await tx.revokeUserRefreshTokens(user.id, now);
      const stored = await storeRefreshToken(ctx, tx, user.id, sessionId);
      await recordAudit(ctx, tx, sessionActor(user, sessionId, actor.request_id), {
        action: 'auth.password_change', target_type: 'user', target_id: user.id,
      }, { occurredAt: now });
      return stored;
    });
    return await tokenPair(ctx, user.id, sessionId, refreshToken);
  } finally {
    attempt.release();
  }
}

export async function me(ctx: ServiceContext, actor: Actor): Promise<UserView> {
  return getUser(ctx, actor.user_id);
}

export async function needsSetup(ctx: ServiceContext): Promise<{ needs_setup: boolean }> {
  return { needs_setup: (await ctx.store.countUsers()) === 0 };
}

/** Creates the first user, an admin, while the database has no users at all. */
/**
 * Recorded as the user's creation by nobody (no one is authenticated yet) and the new admin's
 * first login.
 */
export async function setup(ctx: ServiceContext, input: SetupInput, requestId?: string): Promise<TokenPairView> {
  const alreadySetUp = () => new LedgerError('ALREADY_SET_UP', 'The ledger already has users', {
    suggestion: 'Log in, or ask an admin to create your user',
  });
  if ((await ctx.store.countUsers()) > 0) throw alreadySetUp();
  const user = await newHumanUser(ctx, input, ADMIN_PERMISSIONS);
  const sessionId = ctx.runtime.newId();
  const { refreshToken } = await ctx.store.write(async (tx) => {
    if ((await tx.countUsers()) > 0) throw alreadySetUp();
    await tx.insertUser(user);
    await recordUserCreated(ctx, tx, null, user, requestId);
    const stored = await storeRefreshToken(ctx, tx, user.id, sessionId);
    await recordAudit(ctx, tx, sessionActor(user, sessionId, requestId), { action: 'auth.login', target_type: 'user', target_id: user.id },
      { occurredAt: user.created_at });
    return stored;
  });
  return tokenPair(ctx, user.id, sessionId, refreshToken);
}
