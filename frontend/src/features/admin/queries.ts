import {
  ANALYTICS_DEFAULT_LIMIT,
  ANALYTICS_DEFAULT_TIMEFRAME,
  type AdminStats,
  type CommentSignal,
  type ModerationDecision,
  type ModerationDecisionAnswer,
  type ModerationDecisionBody,
  type ModerationQueueEntry,
  type PopularItem,
  type Sent,
} from '@tapgram/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { REFRESH_INTERVAL_MS } from '../../lib/ui-constants';

export const adminKeys = {
  queue: ['/api/lolgram/admin/moderation/queue'],
  popular: [
    `/api/lolgram/analytics/popular?timeframe=${ANALYTICS_DEFAULT_TIMEFRAME}&limit=${ANALYTICS_DEFAULT_LIMIT}`,
  ],
  stats: ['/api/lolgram/admin/stats'],
  commentSignals: ['/api/lolgram/admin/comment-signals'],
};

export function useModerationQueue() {
  return useQuery<ModerationQueueEntry[]>({
    queryKey: adminKeys.queue,
    refetchInterval: REFRESH_INTERVAL_MS,
  });
}

/** The accounts whose comments looked like a wave lately (see CommentWaves). */
export function useCommentSignals() {
  return useQuery<CommentSignal[]>({
    queryKey: adminKeys.commentSignals,
    refetchInterval: REFRESH_INTERVAL_MS,
  });
}

export function usePopularPosts() {
  return useQuery<PopularItem[]>({ queryKey: adminKeys.popular });
}

export function useAdminStats() {
  return useQuery<AdminStats>({ queryKey: adminKeys.stats, refetchInterval: REFRESH_INTERVAL_MS });
}

/** A decision; the server takes the moderator from the session. */
export function useModerate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      queueId,
      decision,
      notes,
    }: {
      queueId: string;
      decision: ModerationDecision;
      notes: string;
    }): Promise<ModerationDecisionAnswer> => {
      const body: Sent<ModerationDecisionBody> = { decision, notes };
      return (await apiRequest('POST', `/api/lolgram/admin/moderation/${queueId}`, body)).json();
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.queue });
      void queryClient.invalidateQueries({ queryKey: adminKeys.stats });
    },
  });
}
