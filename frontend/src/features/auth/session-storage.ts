import {
  LOLGRAM_SESSION_LIFETIME_MS,
  isStoredSession,
  type AuthMethod,
  type LolgramUser,
  type StoredSession,
} from '@tapgram/shared';

export const SESSION_KEY = 'tapgram.lolgram.session';
/**
 * Set at the first sign-in on this device and kept after logging out: the sign-in dialog opens on
 * "Welcome Back!" for those who signed in here before, on "Join LOLGram" for everyone else.
 */
export const SIGNED_IN_BEFORE_KEY = 'tapgram.lolgram.signed-in-before';
/** Entries written by earlier versions of the app; removed on logout so no stale user lingers. */
export const LEGACY_KEYS = ['lolgram_user', 'lolgramUser', 'lolgram_session'] as const;

export function toStoredSession(
  user: LolgramUser,
  authMethod: AuthMethod,
  timestamp: number,
): StoredSession {
  return {
    id: user.id,
    username: user.username,
    authMethod,
    timestamp,
    avatar: user.avatar,
    bio: user.bio,
    followerCount: user.followerCount,
    followingCount: user.followingCount,
    isVerified: user.isVerified,
  };
}

/** The user a stored session stands for until the server confirms it. */
export function userFromSession(session: StoredSession): LolgramUser {
  return {
    id: session.id,
    username: session.username,
    avatar: session.avatar ?? null,
    bio: session.bio ?? null,
    followerCount: session.followerCount ?? 0,
    followingCount: session.followingCount ?? 0,
    postCount: 0,
    walletAddress: null,
    isVerified: session.isVerified ?? false,
  };
}

export function isExpired(session: StoredSession, now: number): boolean {
  return now - session.timestamp >= LOLGRAM_SESSION_LIFETIME_MS;
}

/** The stored session when it parses and is younger than 7 days; anything else is removed. */
export function readSession(now: number = Date.now()): StoredSession | null {
  const raw = localStorage.getItem(SESSION_KEY);
  if (raw === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = null;
  }
  if (!isStoredSession(parsed) || isExpired(parsed, now)) {
    localStorage.removeItem(SESSION_KEY);
    return null;
  }
  return parsed;
}

export function writeSession(session: StoredSession): void {
  localStorage.setItem(SESSION_KEY, JSON.stringify(session));
  localStorage.setItem(SIGNED_IN_BEFORE_KEY, '1');
}

/** Whether someone signed in to LOLGram in this browser before (false where there is no storage). */
export function signedInBefore(): boolean {
  if (typeof localStorage === 'undefined') return false;
  // A session kept from before the mark existed counts too, even an expired one.
  return [SIGNED_IN_BEFORE_KEY, SESSION_KEY, ...LEGACY_KEYS].some(
    (key) => localStorage.getItem(key) !== null,
  );
}

function clearSession(): void {
  localStorage.removeItem(SESSION_KEY);
}

export function clearLegacyKeys(): void {
  for (const key of LEGACY_KEYS) localStorage.removeItem(key);
}

/** Removes every trace of a signed-in user from the browser. */
export function forgetSession(): void {
  clearSession();
  clearLegacyKeys();
}
