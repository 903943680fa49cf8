import { FEED_LIMIT } from '@tapgram/shared';
import type { Query } from '@tanstack/react-query';

/** Query keys are the API paths; the default query function joins them with "/". */
export const lolgramKeys = {
  feed: [`/api/lolgram/posts/feed?limit=${FEED_LIMIT}`],
  userPosts: (userId: string) => ['/api/lolgram/posts/user', userId],
  post: (postId: string) => ['/api/lolgram/posts', encodeURIComponent(postId)],
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

/** Every query holding posts: the feed, the users' post lists and single posts. */
export function isPostsQuery(query: Query): boolean {
  const [path] = query.queryKey;
  return typeof path === 'string' && path.startsWith('/api/lolgram/posts');
}
