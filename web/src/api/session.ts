/**
 * The signed-in session: the token pair, kept in memory and mirrored to localStorage so that a
 * reload and every open tab share one session.
 *
 * Why localStorage and not sessionStorage: refresh tokens rotate, and presenting a used one
 * revokes the whole login (reuse detection). Browsers copy sessionStorage into tabs opened from
 * the app, so two tabs would soon hold the same refresh token and the second to refresh would
 * sign both out. With one shared copy, a Web Lock makes tabs refresh one at a time and the
 * `storage` event hands every tab the new pair. The price: the refresh token (30 days) outlives
 * the browser window until the user signs out; signing out revokes it on the server.
 */
import type { TokenPairView } from './types.js';

const STORAGE_KEY = 'ledger.session';
const LOCK_NAME = 'ledger.token-refresh';
/** Refresh this long before the access token expires (and at the latest at 3/4 of its life). */
const REFRESH_MARGIN_MS = 60_000;

export interface Session {
  accessToken: string;
  refreshToken: string;
  /** Wall-clock time at which the access token expires. */
  accessExpiresAtMs: number;
}

/** `fromOtherTab`: the change arrived through storage, made by another tab. */
type Listener = (session: Session | null, fromOtherTab: boolean) => void;

let current: Session | null = readStored();
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let inFlight: Promise<boolean> | undefined;
const listeners = new Set<Listener>();

function readStored(): Session | null {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Session>;
    if (typeof parsed.accessToken !== 'string' || typeof parsed.refreshToken !== 'string' || typeof parsed.accessExpiresAtMs !== 'number') {
      return null;
    }
    return { accessToken: parsed.accessToken, refreshToken: parsed.refreshToken, accessExpiresAtMs: parsed.accessExpiresAtMs };
  } catch {
    return null;
  }
}

function writeStored(session: Session | null): void {
  try {
    if (session) window.localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
    else window.localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private mode, quota); the session then lives in memory only.
  }
}

function setCurrent(session: Session | null, persist: boolean, fromOtherTab = false): void {
  current = session;
  if (persist) writeStored(session);
  scheduleRefresh();
  for (const listener of listeners) listener(session, fromOtherTab);
}

export function getSession(): Session | null {
  return current;
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function startSession(pair: TokenPairView): void {
  setCurrent(toSession(pair), true);
}

export function endSession(): void {
  setCurrent(null, true);
}

function toSession(pair: TokenPairView): Session {
  return { accessToken: pair.access_token, refreshToken: pair.refresh_token, accessExpiresAtMs: Date.now() + pair.expires_in * 1000 };
}

function isFresh(session: Session): boolean {
  return session.accessExpiresAtMs - Date.now() > REFRESH_MARGIN_MS;
}

function scheduleRefresh(): void {
  if (refreshTimer !== undefined) clearTimeout(refreshTimer);
  refreshTimer = undefined;
  if (!current) return;
  const lifetimeLeftMs = current.accessExpiresAtMs - Date.now();
  const delayMs = Math.max(0, Math.min(lifetimeLeftMs - REFRESH_MARGIN_MS, lifetimeLeftMs * 0.75));
  refreshTimer = setTimeout(() => void refreshSession(), delayMs);
}

async function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  if (!locks) return work();
  return locks.request(LOCK_NAME, work) as Promise<T>;
}

/**
 * Gets a new token pair with the refresh token (rotation: the new refresh token replaces the old).
 * `rejectedAccessToken` is the token the server just refused, if any: when another tab has
 * already stored a newer, fresh pair, that pair is adopted instead of refreshing again.
 * Resolves false when the session is over (the user has to sign in again).
 */
export function refreshSession(rejectedAccessToken?: string): Promise<boolean> {
  inFlight ??= withRefreshLock(async () => {
    const stored = readStored() ?? current;
    if (!stored) {
      setCurrent(null, false);
      return false;
    }
    // Another tab may have refreshed while this one waited for the lock.
    const usable = isFresh(stored) && (rejectedAccessToken === undefined || stored.accessToken !== rejectedAccessToken);
    if (usable) {
      setCurrent(stored, false);
      return true;
    }
    let response: Response;
    try {
      response = await fetch('/auth/refresh', {
        method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ refresh_token: stored.refreshToken }),
      });
    } catch {
      // Offline or server down: keep the session and try again shortly.
      refreshTimer = setTimeout(() => void refreshSession(), 15_000);
      return current !== null && isFresh(current);
    }
    if (!response.ok) {
      setCurrent(null, true);
      return false;
    }
    const body = (await response.json()) as { data: TokenPairView };
    setCurrent(toSession(body.data), true);
    return true;
  }).finally(() => {
    inFlight = undefined;
  });
  return inFlight;
}

/** Timers are throttled in background tabs, so check again whenever the tab comes back. */
function refreshIfDue(): void {
  if (current && !isFresh(current)) void refreshSession();
}

window.addEventListener('storage', (event) => {
  if (event.key !== STORAGE_KEY && event.key !== null) return;
  setCurrent(readStored(), false, true);
});
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') refreshIfDue();
});
window.addEventListener('focus', refreshIfDue);
scheduleRefresh();
