/** Logging in and out: token pairs, refresh-token rotation with reuse detection, first-user setup. */
import { LedgerError } from '../domain/errors.js';
import type { LoginInput, RefreshInput, SetupInput, TokenPairView, UserView } from '../schemas/user.js';
import type { Actor } from './actor.js';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS, hashToken, newRefreshToken } from './auth/access-tokens.js';
import { hashPassword, verifyPassword } from './auth/passwords.js';
import type { ServiceContext } from './context.js';
import type { LedgerTx } from './ports/ledger-store.js';
import { ADMIN_PERMISSIONS, getUser, newHumanUser, unauthorized } from './users.js';

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
async function tokenPair(ctx: ServiceContext, userId: string, refreshToken: string): Promise<TokenPairView> {
  return {
    access_token: await ctx.accessTokens.issue(userId), refresh_token: refreshToken, token_type: 'bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
  };
}

function invalidLogin(): LedgerError {
  return new LedgerError('UNAUTHORIZED', 'Invalid e-mail or password', { suggestion: 'Check the e-mail and password' });
}

export async function login(ctx: ServiceContext, input: LoginInput, clientKey: string): Promise<TokenPairView> {
  const emailKey = `email:${input.email.trim().toLowerCase()}`;
  const keys = [emailKey, `client:${clientKey}`];
  const waitSeconds = await ctx.loginThrottle.retryAfterSeconds(keys);
  if (waitSeconds > 0) {
    throw new LedgerError('RATE_LIMITED', `Too many failed logins; try again in ${waitSeconds} seconds`, {
      suggestion: `Wait ${waitSeconds} seconds before trying again`, retryAfterSeconds: waitSeconds,
    });
  }
  const user = await ctx.store.findUserByEmail(input.email.trim());
  decoyHash ??= hashPassword('decoy password for unknown e-mails', ctx.options.scryptCost);
  const passwordOk = await verifyPassword(input.password, user?.password_hash ?? (await decoyHash));
  if (!user || !passwordOk || !user.is_active || user.user_type !== 'human') {
    await ctx.loginThrottle.recordFailure(keys);
    throw invalidLogin();
  }
  await ctx.loginThrottle.clear(emailKey);
  const { refreshToken } = await ctx.store.write((tx) => storeRefreshToken(ctx, tx, user.id, ctx.runtime.newId()));
  return tokenPair(ctx, user.id, refreshToken);
}

/**
 * Exchanges a refresh token for a new pair and revokes it. Presenting a token that was already
 * used revokes its whole family: whoever holds a copy is cut off.
 */
export async function refresh(ctx: ServiceContext, input: RefreshInput): Promise<TokenPairView> {
  const invalid = () => unauthorized('Invalid, expired or already used refresh token', 'Log in again with POST /auth/login');
  const outcome = await ctx.store.write(async (tx) => {
    const record = await tx.findRefreshToken(hashToken(input.refresh_token));
    if (!record) return { error: invalid() };
    const now = ctx.now();
    if (record.revoked_at !== null) {
      await tx.revokeRefreshFamily(record.family_id, now);
      return { error: invalid() };
    }
    if (record.expires_at <= now) return { error: invalid() };
    const user = await tx.getUser(record.user_id);
    if (!user || !user.is_active) return { error: unauthorized('The user is inactive') };
    const { refreshToken, tokenId } = await storeRefreshToken(ctx, tx, user.id, record.family_id);
    await tx.revokeRefreshToken(record.id, now, tokenId);
    return { userId: user.id, refreshToken };
  });
  // The family revocation must commit, so the rejection is raised outside the transaction.
  if ('error' in outcome) throw outcome.error;
  return tokenPair(ctx, outcome.userId, outcome.refreshToken);
}

export async function logout(ctx: ServiceContext, input: RefreshInput): Promise<{ revoked: boolean }> {
  return ctx.store.write(async (tx) => {
    const record = await tx.findRefreshToken(hashToken(input.refresh_token));
    if (!record) throw unauthorized('Unknown refresh token', 'Send the refresh_token from the login or refresh response');
    await tx.revokeRefreshFamily(record.family_id, ctx.now());
    return { revoked: true };
  });
}

export async function me(ctx: ServiceContext, actor: Actor): Promise<UserView> {
  return getUser(ctx, actor.user_id);
}

export async function needsSetup(ctx: ServiceContext): Promise<{ needs_setup: boolean }> {
  return { needs_setup: (await ctx.store.countUsers()) === 0 };
}

/** Creates the first user, an admin, while the database has no users at all. */
export async function setup(ctx: ServiceContext, input: SetupInput): Promise<TokenPairView> {
  const alreadySetUp = () => new LedgerError('ALREADY_SET_UP', 'The ledger already has users', {
    suggestion: 'Log in, or ask an admin to create your user',
  });
  if ((await ctx.store.countUsers()) > 0) throw alreadySetUp();
  const user = await newHumanUser(ctx, input, ADMIN_PERMISSIONS);
  const { refreshToken } = await ctx.store.write(async (tx) => {
    if ((await tx.countUsers()) > 0) throw alreadySetUp();
    await tx.insertUser(user);
    return storeRefreshToken(ctx, tx, user.id, ctx.runtime.newId());
  });
  return tokenPair(ctx, user.id, refreshToken);
}
