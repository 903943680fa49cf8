import type { LolgramUser, MeAnswer, ModerationPush, Post, StoredSession } from '@tapgram/shared';

let sequence = 0;
const nextId = () => {
  sequence += 1;
  return `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
};

export function makeUser(overrides: Partial<LolgramUser> = {}): LolgramUser {
  return {
    id: nextId(),
    username: 'alice',
    avatar: null,
    bio: null,
    followerCount: 0,
    followingCount: 0,
    postCount: 0,
    walletAddress: null,
    isVerified: false,
    ...overrides,
  };
}

/** GET /api/lolgram/users/me's answer for `user`. */
export function meAnswer(user: LolgramUser, isAdmin = false): MeAnswer {
  return { ...user, isAdmin };
}

export function makePost(overrides: Partial<Post> = {}): Post {
  const id = overrides.id ?? nextId();
  return {
    id,
    userId: nextId(),
    username: 'bob',
    userAvatar: null,
    imageUrl: `/uploads/${id}.jpg`,
    thumbnailUrl: `/uploads/${id}-thumb.jpg`,
    caption: 'A very funny cat',
    location: null,
    lolCount: 0,
    isLiked: false,
    isSaved: false,
    commentCount: 0,
    commentsOff: false,
    createdAt: '2026-11-01T12:00:00.000Z',
    canMintNFT: false,
    cursor: `cursor-${id}`,
    ...overrides,
  };
}

export function makeSession(
  user: LolgramUser,
  overrides: Partial<StoredSession> = {},
): StoredSession {
  return {
    id: user.id,
    username: user.username,
    authMethod: 'password',
    timestamp: Date.now(),
    ...overrides,
  };
}

/** The live push of a post of the user moving in moderation (its check ended, or a decision). */
export function postMoved(postId: string, previous: string, status: string): ModerationPush {
  return { contentType: 'post', contentId: postId, postId, status, previous, edit: false };
}
