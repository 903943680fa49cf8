import { USER_POSTS_PAGE, type Post } from '@tapgram/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { lolgramKeys } from '../lib/query-keys';

/** A user's posts, newest first, a page at a time; the author's own list also holds posts under review. */
export function useUserPosts(userId: string | undefined) {
  const query = useInfiniteQuery({
    queryKey: lolgramKeys.userPosts(userId ?? ''),
    queryFn: async ({ pageParam }) => {
      const params = new URLSearchParams({ limit: String(USER_POSTS_PAGE) });
      if (pageParam) params.set('before', pageParam);
      const res = await apiRequest('GET', `/api/lolgram/posts/user/${userId}?${params}`);
      return (await res.json()) as Post[];
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) =>
      lastPage.length < USER_POSTS_PAGE ? undefined : (lastPage.at(-1)?.cursor ?? undefined),
    enabled: Boolean(userId),
  });
  // A post's check outcome and its moderation arrive live (useOwnPostsLive).
  return { ...query, posts: query.data?.pages.flat() ?? [] };
}
