import { FEED_LIMIT } from '@tapgram/shared';
import type { Query } from '@tanstack/react-query';

/** Query keys are the API paths; the default query function joins them with "/". */
export const lolgramKeys = {
  feed: [`/api/lolgram/posts/feed?limit=${FEED_LIMIT}`],
  located: [`/api/lolgram/posts/located?limit=${FEED_LIMIT}`],
  locatedCount: ['/api/lolgram/posts/located/count'],
  userPosts: (userId: string) => ['/api/lolgram/posts/user', userId],
  post: (postId: string) => ['/api/lolgram/posts', encodeURIComponent(postId)],
  comments: (postId: string) => ['/api/lolgram/comments-of', postId],
  saved: (userId: string) => ['/api/lolgram/users', userId, 'saved'],
  blocked: (userId: string) => ['/api/lolgram/users', userId, 'blocked'],
  blockStatus: (userId: string) => ['/api/lolgram/users', userId, 'block'],
  notifications: ['/api/lolgram/notifications'],
  unreadCount: ['/api/lolgram/notifications/unread-count'],
  /** Every profile read by name (a prefix of userByUsername's keys). */
  usersByUsername: ['/api/lolgram/users/username'],
  userByUsername: (username: string) => [
    '/api/lolgram/users/username',
    encodeURIComponent(username),
  ],
  followStatus: (followerId: string, userId: string) => [
    '/api/lolgram/users',
    followerId,
    'following',
    userId,
  ],
} as const;

/** Every query holding posts: the feed, the map, the users' post lists, Saved lists, single posts. */
export function isPostsQuery(query: Query): boolean {
  const [path, , list] = query.queryKey;
  if (typeof path !== 'string') return false;
  return (
    path.startsWith('/api/lolgram/posts') || (path === '/api/lolgram/users' && list === 'saved')
  );
}
