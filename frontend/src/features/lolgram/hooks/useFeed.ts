import { FEED_LIMIT, type Post } from '@tapgram/shared';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { lolgramKeys } from './query-keys';
import { REFRESH_INTERVAL_MS } from '../../../lib/ui-constants';

const [feedPath] = lolgramKeys.feed;

export const feedQueryOptions = infiniteQueryOptions({
  queryKey: lolgramKeys.feed,
  queryFn: async ({ pageParam }) => {
    const url = pageParam ? `${feedPath}&before=${encodeURIComponent(pageParam)}` : feedPath;
    const res = await apiRequest('GET', url);
    return (await res.json()) as Post[];
  },
  initialPageParam: null as string | null,
  getNextPageParam: (lastPage) =>
    lastPage.length < FEED_LIMIT ? undefined : (lastPage.at(-1)?.cursor ?? undefined),
  refetchInterval: REFRESH_INTERVAL_MS,
});

/** The feed, newest first, one page of 20 at a time; refreshed every 30 s. */
export function useFeed() {
  const query = useInfiniteQuery(feedQueryOptions);
  const posts = query.data?.pages.flat() ?? [];
  return { ...query, posts };
}
