/**
 * Slows password guessing without letting anyone lock an account out:
 *
 * - every attempt is counted as a failure in the database, atomically, before its password is
 *   hashed (a success takes its count back), so a burst of concurrent guesses cannot slip past
 *   the limit between the check and the count, and every server process on the database counts
 *   the same attempts;
 * - the limit is per (e-mail, client): more than `limit` failures for one e-mail from one client
 *   within the window lock that pair only, so the owner from another address still gets in; one
 *   client failing across many e-mails is held back at `clientLimit`;
 * - attempts in flight are capped per e-mail and per client (in this process), so a flood is
 *   refused before it reaches the database or the password hash.
 *
 * The client is the request's address: behind a TLS proxy set LEDGER_TRUST_PROXY so that it is
 * the real client's (docs/security.md).
 */
import { LedgerError } from '../../domain/errors.js';
import type { LedgerStore, LedgerWrites } from '../ports/ledger-store.js';
import type { Clock } from '../ports/runtime.js';

type LoginFailureWrites = Pick<LedgerWrites, 'forgetLoginFailure' | 'clearLoginFailures'>;

/** Failures allowed for one e-mail from one client within the window. */
export const FAILED_LOGIN_LIMIT = 10;
/** Failures allowed from one client over all e-mails within the window. */
export const CLIENT_FAILED_LOGIN_LIMIT = 50;
export const FAILED_LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Attempts one client may have in flight at once (in one process). */
export const CLIENT_ATTEMPTS_IN_FLIGHT = 4;
/** Attempts for one e-mail in flight at once (in one process): more than one client may use. */
export const EMAIL_ATTEMPTS_IN_FLIGHT = 8;
/** Old failures are deleted at most this often (by whichever process notices first). */
const PRUNE_INTERVAL_MS = 60 * 1000;

export interface ThrottleLimits {
  limit: number;
  clientLimit: number;
  windowMs: number;
  clientInFlight: number;
  emailInFlight: number;
}

const DEFAULT_LIMITS: ThrottleLimits = {
  limit: FAILED_LOGIN_LIMIT, clientLimit: CLIENT_FAILED_LOGIN_LIMIT, windowMs: FAILED_LOGIN_WINDOW_MS,
  clientInFlight: CLIENT_ATTEMPTS_IN_FLIGHT, emailInFlight: EMAIL_ATTEMPTS_IN_FLIGHT,
};

/** An admitted attempt, counted as a failure until it says otherwise. Release it when done. */
export interface LoginAttempt {
  /** Takes the attempt's count back and forgets the pair's failures, inside the success's write job. */
  succeeded(tx: LoginFailureWrites): Promise<void>;
  /** Takes the attempt's count back when it ended without checking a password (an internal error). */
  abandon(): Promise<void>;
  release(): void;
}

export function rateLimited(waitSeconds: number, message: string): LedgerError {
  return new LedgerError('RATE_LIMITED', message, {
    suggestion: `Wait ${waitSeconds} seconds before trying again`, retryAfterSeconds: waitSeconds,
  });
}

export class LoginThrottle {
  private lastPruneMs = 0;
  private readonly inFlight = new Map<string, number>();
  private readonly limits: ThrottleLimits;

  constructor(private readonly store: LedgerStore, private readonly clock: Clock, limits: Partial<ThrottleLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /**
   * Admits one attempt to log in as `email` from `client`, or throws RATE_LIMITED (with the
   * seconds to wait) when the client or the e-mail has too many attempts in flight, or the pair or
   * the client too many recent failures.
   */
  async begin(email: string, client: string): Promise<LoginAttempt> {
    const emailKey = `email:${email.trim().toLowerCase()}`;
    const clientKey = `client:${client}`;
    const pairKey = `email-client:${email.trim().toLowerCase()} ${client}`;
    if (!this.enter(clientKey, this.limits.clientInFlight)) {
      throw rateLimited(1, 'Too many login attempts in progress from this client; try again in 1 second');
    }
    if (!this.enter(emailKey, this.limits.emailInFlight)) {
      this.leave(clientKey);
      throw rateLimited(1, 'Too many login attempts in progress for this e-mail; try again in 1 second');
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.leave(clientKey);
      this.leave(emailKey);
    };
    const keys = [pairKey, clientKey];
    let failedAt: string;
    try {
      const claim = await this.claim(keys, [this.limits.limit, this.limits.clientLimit]);
      if (claim.waitSeconds > 0) {
        throw rateLimited(claim.waitSeconds, `Too many failed logins; try again in ${claim.waitSeconds} seconds`);
      }
      failedAt = claim.failedAt;
    } catch (error) {
      release();
      throw error;
    }
    return {
      succeeded: async (tx) => {
        await tx.forgetLoginFailure([clientKey], failedAt);
        await tx.clearLoginFailures(pairKey);
      },
      abandon: async () => {
        await this.store.write((tx) => tx.forgetLoginFailure(keys, failedAt));
      },
      release,
    };
  }

  /**
   * In one write transaction: holds the keys, counts their recent failures and, when every key is
   * under its limit, records this attempt as one more failure of each.
   */
  private async claim(keys: readonly string[], limits: readonly number[]): Promise<{ waitSeconds: number; failedAt: string }> {
    const nowMs = this.clock.now().getTime();
    const failedAt = new Date(nowMs).toISOString();
    const since = new Date(nowMs - this.limits.windowMs).toISOString();
    const prune = nowMs - this.lastPruneMs > PRUNE_INTERVAL_MS;
    if (prune) this.lastPruneMs = nowMs;
    return this.store.write(async (tx) => {
      await tx.lockLoginKeys(keys);
      if (prune) await tx.deleteLoginFailuresBefore(since);
      let waitMs = 0;
      for (const [index, key] of keys.entries()) {
        const limit = limits[index]!;
        const recent = await tx.recentLoginFailures(key, since, limit);
        // The oldest of the last `limit` failures leaves the window first.
        if (recent.length >= limit) waitMs = Math.max(waitMs, Date.parse(recent[limit - 1]!) + this.limits.windowMs - nowMs);
      }
      if (waitMs > 0) return { waitSeconds: Math.max(1, Math.ceil(waitMs / 1000)), failedAt };
      await tx.recordLoginFailure(keys, failedAt);
      return { waitSeconds: 0, failedAt };
    });
  }

  private enter(key: string, cap: number): boolean {
    const count = this.inFlight.get(key) ?? 0;
    if (count >= cap) return false;
    this.inFlight.set(key, count + 1);
    return true;
  }

  private leave(key: string): void {
    const count = (this.inFlight.get(key) ?? 1) - 1;
    if (count <= 0) this.inFlight.delete(key);
    else this.inFlight.set(key, count);
  }
}
