import {
  ANALYTICS_DEFAULT_LIMIT,
  ANALYTICS_DEFAULT_TIMEFRAME,
  REFRESH_INTERVAL_MS,
  type AdminStats,
  type LolgramUser,
  type ModerationDecision,
  type ModerationDecisionAnswer,
  type ModerationQueueEntry,
  type PopularItem,
} from '@tapgram/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getQueryFn } from '../../lib/api';
import { lolgramKeys } from '../lolgram/hooks/query-keys';

export const adminKeys = {
  queue: ['/api/lolgram/admin/moderation/queue'],
  popular: [
    `/api/lolgram/analytics/popular?timeframe=${ANALYTICS_DEFAULT_TIMEFRAME}&limit=${ANALYTICS_DEFAULT_LIMIT}`,
  ],
  stats: ['/api/lolgram/admin/stats'],
};

/** Who is signed in, if anybody: decides whether the dashboard may load at all. */
export function useMe() {
  return useQuery<LolgramUser | null>({
    queryKey: lolgramKeys.me,
    queryFn: getQueryFn<LolgramUser>({ on401: 'returnNull' }),
  });
}

export function useModerationQueue() {
  return useQuery<ModerationQueueEntry[]>({
    queryKey: adminKeys.queue,
    refetchInterval: REFRESH_INTERVAL_MS,
  });
}

export function usePopularPosts() {
  return useQuery<PopularItem[]>({ queryKey: adminKeys.popular });
}

export function useAdminStats() {
  return useQuery<AdminStats>({ queryKey: adminKeys.stats, refetchInterval: REFRESH_INTERVAL_MS });
}

/** A decision; the body names the signed-in moderator as the spec's does (the server checks who). */
export function useModerate() {
  const queryClient = useQueryClient();
  const me = useMe();
  return useMutation({
    mutationFn: async ({
      queueId,
      decision,
      notes,
    }: {
      queueId: string;
      decision: ModerationDecision;
      notes: string;
    }): Promise<ModerationDecisionAnswer> =>
      (
        await apiRequest('POST', `/api/lolgram/admin/moderation/${queueId}`, {
          moderatorId: me.data?.id,
          decision,
          notes,
        })
      ).json(),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.queue });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats });
    },
  });
}
