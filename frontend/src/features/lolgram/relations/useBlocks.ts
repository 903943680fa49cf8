import { BLOCKS_PAGE, type BlockedUser, type BlockState, type LolgramUser } from '@tapgram/shared';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { isPostsQuery, lolgramKeys } from '../lib/query-keys';

/** Whether the viewer has blocked `userId`; idle until both are known. */
export function useBlockStatus(viewerId: string | undefined, userId: string | undefined) {
  return useQuery<BlockState>({
    queryKey: lolgramKeys.blockStatus(userId ?? ''),
    enabled: Boolean(viewerId && userId && viewerId !== userId),
  });
}

/** The accounts the viewer blocked, the latest first, a page at a time. */
export function useBlockedUsers(viewerId: string) {
  const query = useInfiniteQuery({
    queryKey: lolgramKeys.blocked(viewerId),
    queryFn: async ({ pageParam }) => {
      const params = new URLSearchParams({ limit: String(BLOCKS_PAGE) });
      if (pageParam) params.set('before', pageParam);
      const res = await apiRequest('GET', `/api/lolgram/users/${viewerId}/blocked?${params}`);
      return (await res.json()) as BlockedUser[];
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) =>
      lastPage.length < BLOCKS_PAGE ? undefined : (lastPage.at(-1)?.cursor ?? undefined),
  });
  return { ...query, users: query.data?.pages.flat() ?? [] };
}

/**
 * Blocks or unblocks `target` as the viewer. A block ends the follows between them, and each
 * leaves the other's feed and map: those are read again.
 */
export function useSetBlocked(target: Pick<LolgramUser, 'id' | 'username'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (block: boolean) => {
      const res = await apiRequest(
        block ? 'POST' : 'DELETE',
        `/api/lolgram/users/${target.id}/block`,
      );
      return (await res.json()) as BlockState;
    },
    onSuccess: (state) => {
      queryClient.setQueryData<BlockState>(lolgramKeys.blockStatus(target.id), state);
      void queryClient.invalidateQueries({
        predicate: (query) => {
          const [path, , what] = query.queryKey;
          return (
            isPostsQuery(query) ||
            path === lolgramKeys.comments('')[0] ||
            path === '/api/lolgram/users/username' ||
            (path === '/api/lolgram/users' && (what === 'following' || what === 'blocked'))
          );
        },
      });
    },
  });
}
