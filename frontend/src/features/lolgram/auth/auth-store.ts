import type { AuthState, StoredSession } from '@tapgram/shared';
import { userFromSession } from './session-storage';

export const loggedOut: AuthState = { isAuthenticated: false, user: null, authMethod: null };

export function stateFromSession(session: StoredSession | null): AuthState {
  return session
    ? { isAuthenticated: true, user: userFromSession(session), authMethod: session.authMethod }
    : loggedOut;
}

export interface AuthStore {
  getState: () => AuthState;
  setState: (next: AuthState) => void;
  subscribe: (listener: () => void) => () => void;
}

/** Holds the auth state and tells every listener when it changes, so all components agree. */
export function createAuthStore(initial: AuthState): AuthStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    setState(next) {
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
