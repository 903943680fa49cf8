import { FEED_LIMIT, type LocatedCount, type Post } from '@tapgram/shared';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { lolgramKeys } from '../lib/query-keys';

const [locatedPath] = lolgramKeys.located;

/** The map's posts: public posts with a location, newest first, a page of 20 at a time. */
export function useLocatedPosts() {
  const query = useInfiniteQuery({
    queryKey: lolgramKeys.located,
    queryFn: async ({ pageParam }) => {
      const url = pageParam
        ? `${locatedPath}&before=${encodeURIComponent(pageParam)}`
        : locatedPath;
      const res = await apiRequest('GET', url);
      return (await res.json()) as Post[];
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) =>
      lastPage.length < FEED_LIMIT ? undefined : (lastPage.at(-1)?.cursor ?? undefined),
  });
  return { ...query, posts: query.data?.pages.flat() ?? [] };
}

/** How many posts have a location in all, counted by the server (not the pages loaded). */
export function useLocatedCount() {
  return useQuery<LocatedCount>({ queryKey: lolgramKeys.locatedCount });
}
