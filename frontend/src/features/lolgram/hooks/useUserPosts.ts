import { USER_POSTS_PAGE, type Post } from '@tapgram/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { lolgramKeys } from './query-keys';

// While an own new post is being checked, the list is asked again until the check is done.
const CHECKING_POLL_MS = 1500;

const isChecking = (post: Post) => post.moderation === 'checking';

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
    refetchInterval: (q) =>
      q.state.data?.pages.some((page) => page.some(isChecking)) ? CHECKING_POLL_MS : false,
  });
  // The feed learns of a checked post from the check's own watcher (useCreatePost).
  return { ...query, posts: query.data?.pages.flat() ?? [] };
}
