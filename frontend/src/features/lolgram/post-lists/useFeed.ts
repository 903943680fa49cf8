import { FEED_LIMIT, type Post } from '@tapgram/shared';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { preload } from 'react-dom';
import { apiRequest } from '../../../lib/api';
import { IMAGE_SIZES } from '../lib/image-sizes';
import { lolgramKeys } from '../lib/query-keys';
import { REFRESH_INTERVAL_MS } from '../../../lib/ui-constants';

const [feedPath] = lolgramKeys.feed;

/**
 * The feed's first photo is what LOLGram shows first: it is asked for as soon as its address is
 * known, not when its card renders (after hydration, on a first visit), with what the card's
 * image asks for (PostCard), so that the image takes the download over.
 */
function preloadPhoto(post: Post): void {
  preload(post.imageUrl, {
    as: 'image',
    fetchPriority: 'high',
    ...(post.imageSrcset ? { imageSrcSet: post.imageSrcset, imageSizes: IMAGE_SIZES.card } : {}),
  });
}

export const feedQueryOptions = infiniteQueryOptions({
  queryKey: lolgramKeys.feed,
  queryFn: async ({ pageParam }) => {
    const url = pageParam ? `${feedPath}&before=${encodeURIComponent(pageParam)}` : feedPath;
    const res = await apiRequest('GET', url);
    const posts = (await res.json()) as Post[];
    if (!pageParam && posts[0]) preloadPhoto(posts[0]);
    return posts;
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
