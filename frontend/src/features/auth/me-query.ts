import type { AuthMethod, LolgramUser } from '@tapgram/shared';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { authKeys } from './query-keys';
import { fetchMe } from './auth-api';
import {
  clearLegacyKeys,
  forgetSession,
  readSession,
  toStoredSession,
  userFromSession,
  writeSession,
} from './session-storage';

/** Who is signed in and how; `isAdmin` is known once GET /me has answered (sign-ins do not say). */
export interface SignedIn {
  user: LolgramUser;
  authMethod: AuthMethod;
  isAdmin?: boolean;
}

/** A wallet account has no password and a password account no wallet: the account tells. */
function authMethodOf(user: LolgramUser): AuthMethod {
  return user.walletAddress === null ? 'password' : 'wallet';
}

/** The copy the browser stored at the last sign-in, shown until the server answers. */
export function storedSignedIn(): SignedIn | null {
  const session = readSession();
  if (!session) {
    clearLegacyKeys();
    return null;
  }
  return { user: userFromSession(session), authMethod: session.authMethod };
}

/** Asks the server; its answer replaces the stored copy, and a 401 or a failure removes it. */
async function confirmSignedIn({ signal }: { signal: AbortSignal }): Promise<SignedIn | null> {
  let answer;
  try {
    answer = await fetchMe(signal);
  } catch (error) {
    // A sign-in or a sign-out that replaced this call has already set the state.
    if (signal.aborted) throw error;
    console.error('LOLGram session could not be validated', error);
    forgetSession();
    throw error;
  }
  // A sign-in or a sign-out made while the answer was read speaks for the browser now: the
  // answer must not write back the session it replaced.
  signal.throwIfAborted();
  if (!answer) {
    forgetSession();
    return null;
  }
  const { isAdmin, ...user } = answer;
  const authMethod = authMethodOf(user);
  const stored = readSession();
  const signedInAt = stored?.id === user.id ? stored.timestamp : Date.now();
  writeSession(toStoredSession(user, authMethod, signedInAt));
  return { user, authMethod, isAdmin: isAdmin === true };
}

/**
 * Sign-in state lives here and only here: GET /api/lolgram/users/me, starting from the stored
 * copy (null when there is none: nobody is signed in and nothing is asked). The stored copy is
 * stale, so the first screen that reads it asks the server once; an answer or a sign-in is fresh
 * for good. A failed check counts as signed out.
 */
export const meQuery = queryOptions({
  queryKey: authKeys.me,
  queryFn: confirmSignedIn,
  initialData: storedSignedIn,
  staleTime: ({ state }) =>
    state.status === 'success' && state.dataUpdateCount === 0 && state.data !== null ? 0 : Infinity,
  retry: false,
});

/** Replaces the sign-in state, dropping a GET /me still under way (it speaks for the old one). */
export function setSignedIn(queryClient: QueryClient, next: SignedIn | null): void {
  void queryClient.cancelQueries({ queryKey: meQuery.queryKey });
  queryClient.setQueryData(meQuery.queryKey, next);
}

/** The sign-in state of the cache as it is now. */
export function currentSignedIn(queryClient: QueryClient): SignedIn | null {
  const state = queryClient.getQueryState(meQuery.queryKey);
  return state?.status === 'success' ? (state.data ?? null) : null;
}
