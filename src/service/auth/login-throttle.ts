/**
 * Slows password guessing: more than `limit` failed logins for one e-mail or from one client
 * within the window answer RATE_LIMITED until the window has passed. Successful logins are never
 * counted and clear the e-mail's failures. The failures are kept in the database, so every server
 * process on the same database counts the same attempts and a restart forgets nothing.
 */
import type { LedgerStore, LedgerWrites } from '../ports/ledger-store.js';
import type { Clock } from '../ports/runtime.js';

type LoginFailureWrites = Pick<LedgerWrites, 'recordLoginFailure' | 'clearLoginFailures' | 'deleteLoginFailuresBefore'>;

export const FAILED_LOGIN_LIMIT = 10;
export const FAILED_LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Old failures are deleted at most this often (by whichever process notices first). */
const PRUNE_INTERVAL_MS = 60 * 1000;

export class LoginThrottle {
  private lastPruneMs = 0;

  constructor(private readonly store: LedgerStore, private readonly clock: Clock,
    private readonly limit = FAILED_LOGIN_LIMIT, private readonly windowMs = FAILED_LOGIN_WINDOW_MS) {}

  /** Seconds until another attempt is allowed for any of the keys, or 0 when allowed now. */
  async retryAfterSeconds(keys: readonly string[]): Promise<number> {
    const nowMs = this.clock.now().getTime();
    const since = new Date(nowMs - this.windowMs).toISOString();
    let waitMs = 0;
    for (const key of keys) {
      const recent = await this.store.recentLoginFailures(key, since, this.limit);
      if (recent.length >= this.limit) {
        // The oldest of the last `limit` failures leaves the window first.
        waitMs = Math.max(waitMs, Date.parse(recent[this.limit - 1]!) + this.windowMs - nowMs);
      }
    }
    return Math.ceil(waitMs / 1000);
  }

  /** Counts a failed login under each key, inside the caller's write job (which also records it in the audit log). */
  async recordFailure(tx: LoginFailureWrites, keys: readonly string[]): Promise<void> {
    const nowMs = this.clock.now().getTime();
    const prune = nowMs - this.lastPruneMs > PRUNE_INTERVAL_MS;
    if (prune) this.lastPruneMs = nowMs;
    if (prune) await tx.deleteLoginFailuresBefore(new Date(nowMs - this.windowMs).toISOString());
    await tx.recordLoginFailure(keys, new Date(nowMs).toISOString());
  }

  /** Forgets a key's failures, inside the caller's write job (the successful login's). */
  async clear(tx: LoginFailureWrites, key: string): Promise<void> {
    await tx.clearLoginFailures(key);
  }
}
