import type { LolgramUser, LoginBody } from '@tapgram/shared';
import { apiRequest } from '../../../lib/api';
import { serverError } from '../lib/server-error';

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
    const taken = error instanceof Error && error.message.startsWith('409:');
    throw new Error(serverError(taken ? loginError : error, 'Failed to create account'));
  }
}

export async function fetchMe(): Promise<LolgramUser> {
  const res = await apiRequest('GET', `${USERS}/me`);
  return (await res.json()) as LolgramUser;
}

export async function logoutRequest(): Promise<void> {
  await apiRequest('POST', `${USERS}/logout`);
}
