import type { AuthMethod, LolgramUser } from '@tapgram/shared';
import { useQueryClient } from '@tanstack/react-query';
import {
  useCallback,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { isPostsQuery, lolgramKeys } from '../hooks/query-keys';
import { fetchMe, loginOrCreate, logoutRequest } from './auth-api';
import { AuthContext, type AuthContextValue } from './auth-context';
import { createAuthStore, loggedOut, stateFromSession } from './auth-store';
import {
  clearLegacyKeys,
  clearSession,
  readSession,
  SESSION_KEY,
  toStoredSession,
  writeSession,
} from './session-storage';

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [store] = useState(() => createAuthStore(stateFromSession(readSession())));
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);

  const endSession = useCallback(() => {
    clearSession();
    clearLegacyKeys();
    store.setState(loggedOut);
    void queryClient.invalidateQueries({ queryKey: lolgramKeys.me });
  }, [store, queryClient]);

  useEffect(() => {
    const session = readSession();
    if (!session) {
      endSession();
      return;
    }
    let current = true;
    fetchMe()
      .then((user) => {
        if (!current || store.getState().user?.id !== session.id) return;
        writeSession(toStoredSession(user, session.authMethod, session.timestamp));
        store.setState({ isAuthenticated: true, user, authMethod: session.authMethod });
      })
      .catch((error: unknown) => {
        if (!current || store.getState().user?.id !== session.id) return;
        console.error('LOLGram session could not be validated', error);
        endSession();
      });
    return () => {
      current = false;
    };
  }, [store, endSession]);

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === SESSION_KEY || event.key === null) {
        store.setState(stateFromSession(readSession()));
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [store]);

  const value = useMemo<AuthContextValue>(() => {
    const refreshPosts = () => queryClient.invalidateQueries({ predicate: isPostsQuery });

    const signedIn = (user: LolgramUser, authMethod: AuthMethod) => {
      writeSession(toStoredSession(user, authMethod, Date.now()));
      store.setState({ isAuthenticated: true, user, authMethod });
      void queryClient.invalidateQueries({ queryKey: lolgramKeys.me });
      void refreshPosts();
    };

    return {
      state,
      signedIn,
      async login(username, password) {
        const user = await loginOrCreate({ username: username.trim(), password });
        signedIn(user, 'password');
        return user;
      },
      async logout() {
        try {
          await logoutRequest();
        } catch (error) {
          console.error('LOLGram logout request failed', error);
        } finally {
          endSession();
          void refreshPosts();
        }
      },
      updateUser(user) {
        const current = store.getState();
        if (current.user?.id !== user.id) return;
        const session = readSession();
        if (session?.id === user.id) {
          writeSession(toStoredSession(user, session.authMethod, session.timestamp));
        }
        store.setState({ ...current, user });
      },
    };
  }, [state, store, queryClient, endSession]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
