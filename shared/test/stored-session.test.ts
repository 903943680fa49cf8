import { describe, expect, it } from 'vitest';
import { isStoredSession } from '../src/stored-session';

const session = { id: 'u1', username: 'alice', authMethod: 'password', timestamp: 1_700_000_000 };

describe('isStoredSession: what a browser read back', () => {
  it.each([
    ['the least a session holds', session],
    [
      'a wallet session with every field',
      {
        ...session,
        authMethod: 'wallet',
        avatar: '/a.png',
        bio: 'hi',
        followerCount: 3,
        followingCount: 0,
        isVerified: true,
      },
    ],
    ['no avatar or bio (null)', { ...session, avatar: null, bio: null }],
  ])('takes %s', (_case, value) => {
    expect(isStoredSession(value)).toBe(true);
  });

  it.each([
    ['nothing', null],
    ['a string', 'alice'],
    ['an array', [session]],
    ['no id', { ...session, id: undefined }],
    ['a numeric id', { ...session, id: 1 }],
    ['no username', { ...session, username: undefined }],
    ['an unknown way of signing in', { ...session, authMethod: 'email' }],
    ['a timestamp as text', { ...session, timestamp: '1700000000' }],
    ['an avatar that is not text', { ...session, avatar: 5 }],
    ['a bio that is not text', { ...session, bio: {} }],
    ['a follower count as text', { ...session, followerCount: '3' }],
    ['a following count of null', { ...session, followingCount: null }],
    ['a verified flag as text', { ...session, isVerified: 'yes' }],
  ])('refuses %s', (_case, value) => {
    expect(isStoredSession(value)).toBe(false);
  });
});
