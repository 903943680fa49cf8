import { NOTIFICATIONS_PAGE, type Notification, type UnreadCount } from '@tapgram/shared';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { useLiveConnect, useLiveEvent } from '../../auth';
import { lolgramKeys } from '../lib/query-keys';

/**
 * The signed-in user's unread notifications, kept live: each push of the live channel carries the
 * latest count, and a (re)connection reads it again (a push sent meanwhile was lost).
 */
export function useUnreadCount(signedIn: boolean) {
  const queryClient = useQueryClient();
  const query = useQuery<UnreadCount>({ queryKey: lolgramKeys.unreadCount, enabled: signedIn });
  useLiveEvent('notifications', (push) => {
    // The push is newer than a read still under way: that one's answer must not overwrite it.
    void queryClient.cancelQueries({ queryKey: lolgramKeys.unreadCount });
    queryClient.setQueryData<UnreadCount>(lolgramKeys.unreadCount, push);
    // An open list shows what came in; a profile on screen, its count of followers (a follow or
    // an unfollow is what changed it).
    for (const queryKey of [lolgramKeys.notifications, lolgramKeys.usersByUsername]) {
      void queryClient.invalidateQueries({ queryKey, refetchType: 'active' });
    }
  });
  useLiveConnect(() => {
    if (signedIn) void queryClient.invalidateQueries({ queryKey: lolgramKeys.unreadCount });
  });
  return signedIn ? (query.data?.unread ?? 0) : 0;
}

/** The user's notifications, the latest first, a page at a time (read while the list is open). */
export function useNotificationList(open: boolean) {
  const query = useInfiniteQuery({
    queryKey: lolgramKeys.notifications,
    queryFn: async ({ pageParam }) => {
      const params = new URLSearchParams({ limit: String(NOTIFICATIONS_PAGE) });
      if (pageParam) params.set('before', pageParam);
      const res = await apiRequest('GET', `/api/lolgram/notifications?${params}`);
      return (await res.json()) as Notification[];
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) =>
      lastPage.length < NOTIFICATIONS_PAGE ? undefined : (lastPage.at(-1)?.cursor ?? undefined),
    enabled: open,
    staleTime: 0,
  });
  return { ...query, notifications: query.data?.pages.flat() ?? [] };
}

/** Marks read what the list showed: up to its newest, so that one arriving meanwhile stays unread. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (upTo: string) => {
      const res = await apiRequest('POST', '/api/lolgram/notifications/read', { upTo });
      return (await res.json()) as UnreadCount;
    },
    onSuccess: (count) => queryClient.setQueryData<UnreadCount>(lolgramKeys.unreadCount, count),
  });
}
