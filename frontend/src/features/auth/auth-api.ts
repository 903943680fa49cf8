import type { LolgramUser, LoginBody, MeAnswer } from '@tapgram/shared';
import { ApiError, apiRequest, throwIfResNotOk } from '../../lib/api';
import { serverError } from '../../lib/server-error';

const USERS = '/api/lolgram/users';

/** Signing in failed because nobody has the name: the form asks before it creates the account. */
export class NoSuchAccountError extends Error {
  override readonly name = 'NoSuchAccountError';

  constructor(readonly username: string) {
    super(`There is no account named ${username}`);
  }
}

/**
 * Signs in (the spec's first call). When that is refused, asks whether the name exists (the
 * public profile lookup): a name nobody has is a NoSuchAccountError, so that a mistyped name on
 * "Welcome Back!" creates nothing without the user's say; any other refusal is the sign-in's own.
 */
export async function signInOnly(body: LoginBody): Promise<LolgramUser> {
  try {
    const res = await apiRequest('POST', `${USERS}/login`, body);
    return (await res.json()) as LolgramUser;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    const lookup = await fetch(`${USERS}/username/${encodeURIComponent(body.username)}`, {
      credentials: 'include',
    });
    if (lookup.status === 404) throw new NoSuchAccountError(body.username);
    throw error;
  }
}

/** Creates the account (the spec's fallback call), once the user said so. */
export async function createAccount(body: LoginBody): Promise<LolgramUser> {
  try {
    const res = await apiRequest('POST', `${USERS}/create`, body);
    return (await res.json()) as LolgramUser;
  } catch (error) {
    throw new Error(serverError(error, 'Failed to create account'));
  }
}

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
