import type { AuthMethod, LolgramUser } from '@tapgram/shared';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useHydrated } from '../../lib/hydration';
import { createAccount, loginOrCreate, logoutRequest, signInOnly } from './auth-api';
import { currentSignedIn, meQuery, setSignedIn, type SignedIn } from './me-query';
import { authKeys } from './query-keys';
import { forgetSession, readSession, toStoredSession, writeSession } from './session-storage';

export interface AuthState {
  isAuthenticated: boolean;
  user: LolgramUser | null;
  authMethod: AuthMethod | null;
}

const loggedOut: AuthState = { isAuthenticated: false, user: null, authMethod: null };

/**
 * Who is signed in, read from the me query; a failed check counts as nobody, and so does the
 * stored sign-in until the page is hydrated (its HTML, rendered at build time, is signed out).
 */
function useSignedIn(): SignedIn | null {
  const me = useQuery(meQuery);
  const hydrated = useHydrated();
  return me.isError || !hydrated ? null : me.data;
}

function authActions(queryClient: QueryClient) {
  // Who is asking changed: every answer that depended on it (LOLs, a post's own lists) is read again.
  const refreshAnswers = () =>
    queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== authKeys.me[0] });

  const signedIn = (user: LolgramUser, authMethod: AuthMethod) => {
    writeSession(toStoredSession(user, authMethod, Date.now()));
    setSignedIn(queryClient, { user, authMethod });
    void refreshAnswers();
  };

  return {
    signedIn,
    /** Signs in, or creates the account at once when the name is free ("Join LOLGram"). */
    async login(username: string, password: string): Promise<LolgramUser> {
      const user = await loginOrCreate({ username: username.trim(), password });
      signedIn(user, 'password');
      return user;
    },
    /** Signs in only ("Welcome Back!"): a name nobody has throws NoSuchAccountError. */
    async signIn(username: string, password: string): Promise<LolgramUser> {
      const user = await signInOnly({ username: username.trim(), password });
      signedIn(user, 'password');
      return user;
    },
    /** Creates the account the user agreed to create. */
    async createAccount(username: string, password: string): Promise<LolgramUser> {
      const user = await createAccount({ username: username.trim(), password });
      signedIn(user, 'password');
      return user;
    },
    async logout(): Promise<void> {
      try {
        await logoutRequest();
      } catch (error) {
        console.error('LOLGram logout request failed', error);
      } finally {
        forgetSession();
        setSignedIn(queryClient, null);
        void refreshAnswers();
      }
    },
    /** Takes in the signed-in user's new profile (an edit's answer). */
    updateUser(user: LolgramUser): void {
      const current = currentSignedIn(queryClient);
      if (current?.user.id !== user.id) return;
      const session = readSession();
      if (session?.id === user.id) {
        writeSession(toStoredSession(user, session.authMethod, session.timestamp));
      }
      setSignedIn(queryClient, { ...current, user });
    },
  };
}

type AuthActions = ReturnType<typeof authActions>;

/** The sign-in state and what changes it; every screen reads the same me query. */
export function useAuth(): AuthActions & { state: AuthState } {
  const queryClient = useQueryClient();
  const signedIn = useSignedIn();
  const actions = useMemo(() => authActions(queryClient), [queryClient]);
  const state = signedIn
    ? { isAuthenticated: true, user: signedIn.user, authMethod: signedIn.authMethod }
    : loggedOut;
  return { ...actions, state };
}
