import type { LolgramUser, LoginBody, MeAnswer } from '@tapgram/shared';
import { ApiError, apiRequest, throwIfResNotOk } from '../../lib/api';
import { serverError } from '../../lib/server-error';

const USERS = '/api/lolgram/users';

/** Signs in, or creates the account when signing in fails (the spec's single form serves both). */
export async function loginOrCreate(body: LoginBody): Promise<LolgramUser> {
  let loginError: unknown;
  try {
    const res = await apiRequest('POST', `${USERS}/login`, body);
    return (await res.json()) as LolgramUser;
  } catch (error) {
    loginError = error;
  }
  try {
    const res = await apiRequest('POST', `${USERS}/create`, body);
    return (await res.json()) as LolgramUser;
  } catch (error) {
    // The name exists: the sign-in failed (a wrong password, too many tries), so say why.
    const taken = error instanceof ApiError && error.status === 409;
    throw new Error(serverError(taken ? loginError : error, 'Failed to create account'));
  }
}

/** The signed-in user as the server sees them, or null when nobody is (401). */
export async function fetchMe(signal?: AbortSignal): Promise<MeAnswer | null> {
  const res = await fetch(`${USERS}/me`, { credentials: 'include', signal });
  if (res.status === 401) return null;
  await throwIfResNotOk(res);
  return (await res.json()) as MeAnswer;
}

export async function logoutRequest(): Promise<void> {
  await apiRequest('POST', `${USERS}/logout`);
}
