import type { Streak, StreakClaimAnswer, StreakClaimBody } from '@tapgram/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiRequest } from '../../../lib/api';
import { gameKeys } from '../queries';

/** What the streak shows: the server's answer, and today's taps with those counted since. */
export interface ShownStreak extends Streak {
  /** Today counts (the server said so, or this screen's counted taps reached the day's count). */
  counted: boolean;
}

const DAY_MS = 86_400_000;
/** A device whose clock is ahead of the server's asks again at most this often until its day starts. */
const NEW_DAY_RETRY_MS = 60_000;

/**
 * When to read the streak again: as the next UTC day starts (by this device's clock), when
 * today's claim and taps start again.
 */
function untilNextDay(today: string | undefined): number | false {
  if (!today) return false;
  return Math.max(NEW_DAY_RETRY_MS, Date.parse(today) + DAY_MS - Date.now() + 1000);
}

/**
 * The player's streak. Today's taps go on from the server's figure with the taps the game counts
 * after it (`totalTaps`, the player's counted taps): no call per tap. When they reach the day's
 * count the streak is read again once, for the server to say the day counts; and again as a new
 * day starts.
 */
export function useStreak(userId: string | undefined, totalTaps: number | undefined) {
  const queryClient = useQueryClient();
  const query = useQuery<Streak>({
    queryKey: gameKeys.streak(userId ?? ''),
    enabled: !!userId,
    refetchInterval: (q) => untilNextDay(q.state.data?.today),
  });
  const { data, dataUpdatedAt } = query;
  // The player's counted taps when the answer arrived: taps after it add to today's.
  const [base, setBase] = useState<{ at: number; taps: number } | null>(null);
  if (data && totalTaps !== undefined && base?.at !== dataUpdatedAt) {
    setBase({ at: dataUpdatedAt, taps: totalTaps });
  }
  const since = base && totalTaps !== undefined ? Math.max(0, totalTaps - base.taps) : 0;
  const shown: ShownStreak | undefined = data && {
    ...data,
    todayTaps: data.todayTaps + since,
    counted: data.todayTaps + since >= data.dailyTaps,
  };
  const reached = !!data && data.todayTaps < data.dailyTaps && !!shown?.counted;
  useEffect(() => {
    if (reached && userId)
      void queryClient.invalidateQueries({ queryKey: gameKeys.streak(userId) });
  }, [reached, userId, queryClient]);
  return { streak: shown, isLoading: query.isLoading };
}

/**
 * Claims today's check-in bonus. The answer is the streak with today claimed; the player's rank
 * and boards are read again (the bonus is points).
 */
export function useClaimStreak(userId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const body: StreakClaimBody = { userId: userId ?? '' };
      const res = await apiRequest('POST', '/api/streak/claim', body);
      return (await res.json()) as StreakClaimAnswer;
    },
    onSuccess: (answer) => {
      if (!userId) return;
      queryClient.setQueryData(gameKeys.streak(userId), answer.streak);
      for (const key of [
        gameKeys.rank(userId),
        gameKeys.around(userId),
        gameKeys.seasons(userId),
      ]) {
        void queryClient.invalidateQueries({ queryKey: key });
      }
      void queryClient.invalidateQueries({ queryKey: gameKeys.users });
      void queryClient.invalidateQueries({ queryKey: gameKeys.seasonUsers });
    },
    // Refused (claimed in another tab, the day not counted yet): the server's figures are read again.
    onError: () => {
      if (userId) void queryClient.invalidateQueries({ queryKey: gameKeys.streak(userId) });
    },
  });
}
