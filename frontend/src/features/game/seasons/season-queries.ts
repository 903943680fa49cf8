import type {
  BoardDetail,
  CurrentSeason,
  LeaderboardCountry,
  PastSeason,
  PlayerSeason,
  RankedUser,
} from '@tapgram/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { REFRESH_INTERVAL_MS } from '../../../lib/ui-constants';
import { gameSocket } from '../game-socket';
import { gameKeys } from '../queries';
import { SeasonFollower } from './season-follower';

export const seasonKeys = {
  current: ['/api/seasons/current'],
  users: gameKeys.seasonUsers,
  countries: gameKeys.seasonCountries,
  archived: ['/api/seasons'],
  board: (season: number, board: 'users' | 'countries') => ['/api/seasons', String(season), board],
  player: gameKeys.seasons,
} as const;

/** The running season, with how far this device's clock is from the server's. */
export interface RunningSeason extends CurrentSeason {
  endsAtMs: number;
  /** Add it to Date.now() for the server's time. */
  offsetMs: number;
}

/** After the season ends, it is read again: the next one has started. */
const AFTER_END_MS = 1500;

export function useCurrentSeason() {
  return useQuery<CurrentSeason, Error, RunningSeason>({
    queryKey: seasonKeys.current,
    select: (season) => ({
      ...season,
      endsAtMs: Date.parse(season.endsAt),
      offsetMs: Date.parse(season.now) - Date.now(),
    }),
    refetchInterval: (query) => {
      const season = query.state.data;
      if (!season) return false;
      const left = Date.parse(season.endsAt) - Date.parse(season.now);
      const read = query.state.dataUpdatedAt;
      return Math.max(AFTER_END_MS, left - (Date.now() - read) + AFTER_END_MS);
    },
  });
}

/** The running season's boards: polled every 30 s, pushed sooner by the game channel. */
export function useSeasonUsers() {
  return useQuery<RankedUser[]>({
    queryKey: seasonKeys.users,
    refetchInterval: REFRESH_INTERVAL_MS,
  });
}

export function useSeasonCountries() {
  return useQuery<LeaderboardCountry[]>({
    queryKey: seasonKeys.countries,
    refetchInterval: REFRESH_INTERVAL_MS,
  });
}

/**
 * The player's running season (rank live) and archived ones. `readOnOpen`: read again when the
 * component using it mounts (the past seasons, opened just after a season ended, show its result
 * without waiting for the next poll).
 */
export function usePlayerSeasons(userId: string | undefined, { readOnOpen = false } = {}) {
  return useQuery<PlayerSeason[]>({
    queryKey: seasonKeys.player(userId ?? ''),
    enabled: Boolean(userId),
    refetchInterval: REFRESH_INTERVAL_MS,
    ...(readOnOpen ? { refetchOnMount: 'always' as const } : {}),
  });
}

/** The archived seasons, read each time the past seasons open (a season may have ended since). */
export function useArchivedSeasons() {
  return useQuery<PastSeason[]>({ queryKey: seasonKeys.archived, refetchOnMount: 'always' });
}

export function useArchivedBoard(season: number | null) {
  const users = useQuery<RankedUser[]>({
    queryKey: seasonKeys.board(season ?? 0, 'users'),
    enabled: season !== null,
  });
  const countries = useQuery<LeaderboardCountry[]>({
    queryKey: seasonKeys.board(season ?? 0, 'countries'),
    enabled: season !== null,
  });
  return { users, countries };
}

/**
 * Writes the running season's boards the game channel sends into the queries the polling fills;
 * a new season (a rollover) reads the running season again, for its name and countdown.
 */
export function useSeasonPushes(detail: BoardDetail): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const follower = new SeasonFollower(gameSocket(), detail, ({ season, users, countries }) => {
      queryClient.setQueryData(seasonKeys.users, users);
      queryClient.setQueryData(seasonKeys.countries, countries);
      const current = queryClient.getQueryData<CurrentSeason>(seasonKeys.current);
      if (current && current.id !== season) {
        void queryClient.invalidateQueries({ queryKey: seasonKeys.current });
      }
    });
    return () => follower.dispose();
  }, [queryClient, detail]);
}
