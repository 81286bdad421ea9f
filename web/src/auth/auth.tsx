/**
 * Who is signed in. The provider decides between the setup page (no user exists yet), the login
 * page and the app, and exposes `can(permission)` so pages only offer what the user may do.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { isApiError } from '../api/client.js';
import { auth } from '../api/endpoints.js';
import { endSession, getSession, startSession, subscribeSession } from '../api/session.js';
import type { LoginInput, PermissionKey, SetupInput, UserView } from '../api/types.js';
import { invalidate } from '../lib/use-api.js';

export type AuthStatus =
  | { kind: 'loading' }
  | { kind: 'unreachable'; message: string }
  | { kind: 'needs-setup' }
  | { kind: 'signed-out'; reason?: string }
  | { kind: 'signed-in'; user: UserView };

interface AuthContextValue {
  status: AuthStatus;
  login: (input: LoginInput) => Promise<void>;
  setup: (input: SetupInput) => Promise<void>;
  logout: () => Promise<void>;
  retry: () => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<AuthStatus>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  const resolveSignedOut = useCallback(async (reason?: string) => {
    try {
      const { needs_setup } = await auth.setupStatus();
      setStatus(needs_setup ? { kind: 'needs-setup' } : { kind: 'signed-out', ...(reason ? { reason } : {}) });
    } catch (error) {
      setStatus({ kind: 'unreachable', message: isApiError(error) ? error.message : 'The server could not be reached.' });
    }
  }, []);

  const loadUser = useCallback(async () => {
    try {
      const user = await auth.me();
      setStatus({ kind: 'signed-in', user });
    } catch (error) {
      if (isApiError(error) && error.status === 0) {
        setStatus({ kind: 'unreachable', message: error.message });
        return;
      }
      endSession();
      await resolveSignedOut('Your session has ended. Please sign in again.');
    }
  }, [resolveSignedOut]);

  useEffect(() => {
    if (getSession()) void loadUser();
    else void resolveSignedOut();
  }, [attempt, loadUser, resolveSignedOut]);

  // The session ends when a refresh fails, when this user signs out in another tab, or on logout;
  // it starts in this tab when another tab signs in.
  const statusRef = useRef(status);
  statusRef.current = status;
  useEffect(() => subscribeSession((session, fromOtherTab) => {
    const kind = statusRef.current.kind;
    if (session === null && kind === 'signed-in') {
      invalidate();
      setStatus({ kind: 'loading' });
      void resolveSignedOut('Your session has ended. Please sign in again.');
    } else if (session !== null && fromOtherTab && (kind === 'signed-out' || kind === 'needs-setup')) {
      void loadUser();
    }
  }), [loadUser, resolveSignedOut]);

  // Permissions can change while the app is open; look again when the user comes back to the tab.
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState !== 'visible' || statusRef.current.kind !== 'signed-in') return;
      // Quietly: a failed look (offline) keeps the app as it is; a 401 ends the session through the client.
      auth.me().then((user) => {
        if (statusRef.current.kind === 'signed-in') setStatus({ kind: 'signed-in', user });
      }, () => undefined);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, []);

  const value = useMemo<AuthContextValue>(() => ({
    status,
    login: async (input) => {
      startSession(await auth.login(input));
      await loadUser();
    },
    setup: async (input) => {
      startSession(await auth.setup(input));
      await loadUser();
    },
    logout: async () => {
      const session = getSession();
      if (session) await auth.logout(session.refreshToken).catch(() => undefined);
      const signedOut: AuthStatus = { kind: 'signed-out', reason: 'You have signed out.' };
      statusRef.current = signedOut;
      setStatus(signedOut);
      endSession();
      invalidate();
    },
    retry: () => {
      setStatus({ kind: 'loading' });
      setAttempt((count) => count + 1);
    },
  }), [status, loadUser]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}

export function hasPermission(user: UserView, key: PermissionKey): boolean {
  return user.permissions.admin === true || user.permissions[key] === true;
}

/** The signed-in user and a permission check; only used inside the signed-in app. */
export function useUser(): { user: UserView; can: (key: PermissionKey) => boolean } {
  const { status } = useAuth();
  if (status.kind !== 'signed-in') throw new Error('useUser needs a signed-in user');
  const { user } = status;
  return { user, can: (key) => hasPermission(user, key) };
}
