import {
  type BoardDetail,
  type GameConfig,
  type LeaderboardCountry,
  type LeaderboardUser,
  type MilestoneResponse,
  type RankedUser,
  type RankResponse,
} from '@tapgram/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { BoardFollower } from './board-follower';
import { boardsAskedAtConnect, followBoards, gameSocket } from './game-socket';
import { REFRESH_INTERVAL_MS } from '../../lib/ui-constants';

export const gameKeys = {
  users: ['/api/leaderboard/users'],
  countries: ['/api/leaderboard/countries'],
  milestone: ['/api/milestone/100k'],
  rank: (userId: string) => ['/api/users', userId, 'rank'],
  around: (userId: string) => ['/api/users', userId, 'around'],
  /** The running season's boards, and the player's running season and archived ones (seasons/). */
  seasonUsers: ['/api/seasons/current/users'],
  seasonCountries: ['/api/seasons/current/countries'],
  seasons: (userId: string) => ['/api/users', userId, 'seasons'],
  /** The player's friends board (friends/). */
  friendsBoard: (userId: string) => ['/api/users', userId, 'friends', 'board'],
  /** The player's daily streak (streak/). */
  streak: (userId: string) => ['/api/users', userId, 'streak'],
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

/** The player's row and two either side of it, for a player the top of the board leaves out. */
export function useAroundMe(userId: string | undefined, enabled: boolean) {
  return useQuery<RankedUser[]>({
    queryKey: gameKeys.around(userId ?? ''),
    enabled: Boolean(userId) && enabled,
    refetchInterval: REFRESH_INTERVAL_MS,
  });
}

export function useGameConfig() {
  return useQuery<GameConfig>({ queryKey: gameKeys.config });
}

/**
 * Writes the game channel's pushes into the same query cache the polling fills: the screen's
 * `detail` of the boards (the game screen's top 100, the event screen's top 10), as a snapshot and
 * then what changed.
 */
export function useGamePushes(detail: BoardDetail): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    followBoards(detail);
    const follower = new BoardFollower(
      gameSocket(),
      detail,
      ({ users, countries, milestone }, changed) => {
        if (changed.users) queryClient.setQueryData(gameKeys.users, users);
        if (changed.countries) queryClient.setQueryData(gameKeys.countries, countries);
        if (changed.milestone) queryClient.setQueryData(gameKeys.milestone, milestone);
      },
      boardsAskedAtConnect,
    );
    return () => follower.dispose();
  }, [queryClient, detail]);
}
