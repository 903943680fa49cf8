import {
  gameEvents,
  type BoardsPush,
  type GameConfig,
  type LeaderboardCountry,
  type LeaderboardUser,
  type MilestoneResponse,
  type RankResponse,
} from '@tapgram/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { gameSocket } from './game-socket';
import { REFRESH_INTERVAL_MS } from '../../lib/ui-constants';

export const gameKeys = {
  users: ['/api/leaderboard/users'],
  countries: ['/api/leaderboard/countries'],
  milestone: ['/api/milestone/100k'],
  rank: (userId: string) => ['/api/users', userId, 'rank'],
  config: ['/api/game/config'],
} as const;

/** Both leaderboards and the milestone poll every 30 s; the game channel pushes them sooner. */
export function useLeaderboardUsers() {
  return useQuery<LeaderboardUser[]>({
    queryKey: gameKeys.users,
    refetchInterval: REFRESH_INTERVAL_MS,
  });
}

export function useLeaderboardCountries() {
  return useQuery<LeaderboardCountry[]>({
    queryKey: gameKeys.countries,
    refetchInterval: REFRESH_INTERVAL_MS,
  });
}

export function useMilestone() {
  return useQuery<MilestoneResponse>({
    queryKey: gameKeys.milestone,
    refetchInterval: REFRESH_INTERVAL_MS,
  });
}

export function useRank(userId: string | undefined) {
  return useQuery<RankResponse>({
    queryKey: gameKeys.rank(userId ?? ''),
    enabled: Boolean(userId),
  });
}

export function useGameConfig() {
  return useQuery<GameConfig>({ queryKey: gameKeys.config });
}

/** Writes the game channel's pushes into the same query cache the polling fills. */
export function useGamePushes(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const socket = gameSocket();
    const onBoards = ({ users, countries, milestone }: BoardsPush) => {
      if (users) queryClient.setQueryData(gameKeys.users, users);
      if (countries) queryClient.setQueryData(gameKeys.countries, countries);
      if (milestone) queryClient.setQueryData(gameKeys.milestone, milestone);
    };
    socket.on(gameEvents.boards, onBoards);
    return () => {
      socket.off(gameEvents.boards, onBoards);
    };
  }, [queryClient]);
}
