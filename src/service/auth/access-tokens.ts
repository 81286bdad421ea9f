/**
 * JWT access tokens (HS256, signed with the database's or LEDGER_JWT_SECRET's secret) and opaque
 * refresh tokens. An access token carries `typ: at+jwt` and `token_use: access`, so no other
 * token can pass for one; refresh tokens are random strings stored only as hashes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { validationError } from '../../domain/errors.js';
import type { Clock } from '../ports/runtime.js';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
const ACCESS_TOKEN_TYPE = 'at+jwt';
const ISSUER = 'ledger';

/** jose is loaded on first use, so CLI commands that never see a token start faster. */
let joseModule: Promise<typeof import('jose')> | undefined;
const jose = () => (joseModule ??= import('jose'));

/** HS256 needs a key of at least its output size: a shorter secret can be found offline from one token. */
export const MIN_JWT_SECRET_BYTES = 32;

export function assertStrongJwtSecret(secret: string): void {
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes < MIN_JWT_SECRET_BYTES) {
    throw validationError(`LEDGER_JWT_SECRET has ${bytes} bytes; it must have at least ${MIN_JWT_SECRET_BYTES}`, 'LEDGER_JWT_SECRET',
      'Generate one with `openssl rand -base64 48`, or unset LEDGER_JWT_SECRET to keep a generated secret in the database');
  }
}

export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(secret: string, private readonly clock: Clock) {
    this.key = new TextEncoder().encode(secret);
  }

  /** `sessionId` is the login session (refresh-token family) the token belongs to, carried as `sid`. */
  async issue(userId: string, sessionId: string): Promise<string> {
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    const { SignJWT } = await jose();
    return new SignJWT({ token_use: 'access', sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: ACCESS_TOKEN_TYPE })
      .setSubject(userId)
      .setIssuer(ISSUER)
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + ACCESS_TOKEN_TTL_SECONDS)
      .setJti(randomBytes(9).toString('base64url'))
      .sign(this.key);
  }

  /**
   * The user and session of a valid, unexpired access token, or undefined. A token issued before
   * tokens carried their session has `sessionId` null.
   */
  async verify(token: string): Promise<{ userId: string; sessionId: string | null } | undefined> {
    const { jwtVerify } = await jose();
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'], typ: ACCESS_TOKEN_TYPE, issuer: ISSUER, currentDate: this.clock.now(),
        requiredClaims: ['sub', 'exp'],
      });
      if (payload.token_use !== 'access' || payload.sub === undefined) return undefined;
      return { userId: payload.sub, sessionId: typeof payload.sid === 'string' ? payload.sid : null };
    } catch {
      return undefined;
    }
  }
}

export const REFRESH_TOKEN_PREFIX = 'rt_';

export function newRefreshToken(): string {
  return REFRESH_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
