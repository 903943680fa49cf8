// No schema library here: LOLGram's page reads a stored session as it starts, and loads none.

/** How a LOLGram account signs in. */
export const AUTH_METHODS = ['password', 'wallet'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/**
 * The copy of the signed-in user a browser keeps (localStorage) to show them at once on the next
 * visit, valid for 7 days from `timestamp` (the sign-in), as long as the server's session.
 */
export interface StoredSession {
  id: string;
  username: string;
  authMethod: AuthMethod;
  timestamp: number;
  avatar?: string | null;
  bio?: string | null;
  followerCount?: number;
  followingCount?: number;
  isVerified?: boolean;
}

const optionalOf = (value: unknown, type: 'string' | 'number' | 'boolean', nullable = false) =>
  value === undefined || (nullable && value === null) || typeof value === type;

/**
 * Whether what the browser read back is a StoredSession. Checked by hand, not by a schema: it is
 * read as LOLGram's page starts, which then needs no schema library.
 */
export function isStoredSession(value: unknown): value is StoredSession {
  if (typeof value !== 'object' || value === null) return false;
  const session = value as Record<keyof StoredSession, unknown>;
  return (
    typeof session.id === 'string' &&
    typeof session.username === 'string' &&
    AUTH_METHODS.some((method) => method === session.authMethod) &&
    typeof session.timestamp === 'number' &&
    Number.isFinite(session.timestamp) &&
    optionalOf(session.avatar, 'string', true) &&
    optionalOf(session.bio, 'string', true) &&
    optionalOf(session.followerCount, 'number') &&
    optionalOf(session.followingCount, 'number') &&
    optionalOf(session.isVerified, 'boolean')
  );
}
