import { SAVED_PAGE, type Post } from '@tapgram/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { lolgramKeys } from '../lib/query-keys';

/** One's Saved grid (nobody else may read it): the latest saved first, a page at a time. */
export function useSavedPosts(userId: string, enabled = true) {
  const query = useInfiniteQuery({
    queryKey: lolgramKeys.saved(userId),
    queryFn: async ({ pageParam }) => {
      const params = new URLSearchParams({ limit: String(SAVED_PAGE) });
      if (pageParam) params.set('before', pageParam);
      const res = await apiRequest('GET', `/api/lolgram/users/${userId}/saved?${params}`);
      return (await res.json()) as Post[];
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) =>
      lastPage.length < SAVED_PAGE ? undefined : (lastPage.at(-1)?.cursor ?? undefined),
    enabled,
  });
  return { ...query, posts: query.data?.pages.flat() ?? [] };
}
