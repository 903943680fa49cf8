import {
  POINTS_PER_TAP,
  TAP_KEY_HEADER,
  type ChangeCountryBody,
  type ChangeCountryResult,
  type CreateSessionBody,
  type CreateUserBody,
  type GameSession,
  type GameUser,
  type PlayerRecord,
  type Sent,
  type TapBody,
  type TapResult,
} from '@tapgram/shared';
import { apiRequest } from '../../lib/api';

/** A player and the session this visit plays in. */
export interface Player {
  user: GameUser;
  session: GameSession;
}

async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** The stored player, as the server holds it (with whether it is frozen). */
export async function fetchPlayer(userId: string): Promise<PlayerRecord> {
  return json<PlayerRecord>(await apiRequest('GET', `/api/users/${userId}`));
}

/** `ref`: the invite code the visitor arrived with, if any (the server checks it). */
export async function createPlayer(
  username: string,
  country: string,
  ref?: string,
): Promise<GameUser> {
  const body: CreateUserBody = { username, country, ...(ref ? { ref } : {}) };
  return json<GameUser>(await apiRequest('POST', '/api/users', body));
}

/** The signed player plays for `country` from now on (the server moves their points). */
export async function changeCountry(country: string): Promise<ChangeCountryResult> {
  const body: ChangeCountryBody = { country };
  return json<ChangeCountryResult>(await apiRequest('PATCH', '/api/users/me/country', body));
}

/** A fresh session for this visit. */
export async function openSession(user: GameUser): Promise<Player> {
  const body: Sent<CreateSessionBody> = { userId: user.id };
  const session = await json<GameSession>(await apiRequest('POST', '/api/sessions', body));
  return { user, session };
}

/** The spec's per-tap call, named by `key` so that a tap posted again counts once. */
export async function postTap(userId: string, sessionId: string, key: string): Promise<TapResult> {
  const body: Sent<TapBody> = { userId, sessionId, pointsPerTap: POINTS_PER_TAP };
  return json<TapResult>(await apiRequest('POST', '/api/tap', body, { [TAP_KEY_HEADER]: key }));
}

/** `promise`, or a rejection once `ms` have passed without its answer. */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`No answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
