/**
 * Slows password guessing: more than `limit` failed logins for one e-mail or from one client
 * within the window answer RATE_LIMITED until the window has passed. Successful logins are never
 * counted and clear the e-mail's failures. Kept in memory per process: a restart forgets it.
 */
import type { Clock } from '../ports/runtime.js';

export const FAILED_LOGIN_LIMIT = 10;
export const FAILED_LOGIN_WINDOW_MS = 15 * 60 * 1000;
const MAX_TRACKED_KEYS = 100_000;

export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly clock: Clock, private readonly limit = FAILED_LOGIN_LIMIT,
    private readonly windowMs = FAILED_LOGIN_WINDOW_MS) {}

  /** Seconds until another attempt is allowed for any of the keys, or 0 when allowed now. */
  retryAfterSeconds(keys: readonly string[]): number {
    const nowMs = this.clock.now().getTime();
    let waitMs = 0;
    for (const key of keys) {
      const recent = this.recent(key, nowMs);
      if (recent.length >= this.limit) waitMs = Math.max(waitMs, recent[recent.length - this.limit]! + this.windowMs - nowMs);
    }
    return Math.ceil(waitMs / 1000);
  }

  recordFailure(keys: readonly string[]): void {
    const nowMs = this.clock.now().getTime();
    if (this.failures.size > MAX_TRACKED_KEYS) this.prune(nowMs);
    for (const key of keys) this.failures.set(key, [...this.recent(key, nowMs), nowMs]);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, nowMs: number): number[] {
    return (this.failures.get(key) ?? []).filter((at) => nowMs - at < this.windowMs);
  }

  private prune(nowMs: number): void {
    for (const key of [...this.failures.keys()]) {
      if (this.recent(key, nowMs).length === 0) this.failures.delete(key);
    }
  }
}
