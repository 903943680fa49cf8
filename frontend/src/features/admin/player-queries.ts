import type {
  PLAYER_ACTIONS,
  PlayerAction,
  PlayerActionBody,
  PlayerDetail,
  PlayersPage,
  PlayersQuery,
  ReferralEvidence,
  Sent,
} from '@tapgram/shared';
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type Query,
} from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import { REFRESH_INTERVAL_MS } from '../../lib/ui-constants';

/** The game operators' calls; the query keys are their paths, as everywhere else. */
const GAME_ADMIN = '/api/admin/game';

export const playerKeys = {
  page: ({ q, sort, limit, offset }: PlayersQuery) => [
    `${GAME_ADMIN}/players?${new URLSearchParams({
      q,
      sort,
      limit: String(limit),
      offset: String(offset),
    })}`,
  ],
  detail: (id: string) => [`${GAME_ADMIN}/players/${encodeURIComponent(id)}`],
  referrals: (id: string) => [`${GAME_ADMIN}/players/${encodeURIComponent(id)}/referrals`],
  actions: [`${GAME_ADMIN}/actions`],
};

/** The payout export: a download, not a query. */
export const LEADERBOARD_CSV_URL = `${GAME_ADMIN}/leaderboard.csv`;

export function usePlayers(query: PlayersQuery) {
  // A new page or sort keeps the rows on show until the next ones arrive: no flash of skeleton.
  return useQuery<PlayersPage>({
    queryKey: playerKeys.page(query),
    placeholderData: keepPreviousData,
  });
}

export function usePlayer(id: string) {
  return useQuery<PlayerDetail>({ queryKey: playerKeys.detail(id) });
}

/** The player's invitations and the evidence of an invitation farm. */
export function usePlayerReferrals(id: string) {
  return useQuery<ReferralEvidence>({ queryKey: playerKeys.referrals(id) });
}

export function usePlayerActions() {
  return useQuery<PlayerAction[]>({
    queryKey: playerKeys.actions,
    refetchInterval: REFRESH_INTERVAL_MS,
  });
}

/** Every answer a freeze can change: the lists, the players' pages and the audit. */
const isGameAdminQuery = (query: Query) =>
  typeof query.queryKey[0] === 'string' && query.queryKey[0].startsWith(`${GAME_ADMIN}/`);

/** What an operator does to a player (the audit also records what a freeze cancelled). */
export type PlayerActionKind = (typeof PLAYER_ACTIONS)[number];

/** Freezes or unfreezes the player; the server takes the moderator from the session. */
export function usePlayerAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      action,
      reason,
    }: {
      action: PlayerActionKind;
      reason: string;
    }): Promise<PlayerDetail> => {
      const body: Sent<PlayerActionBody> = { reason };
      const path = `${playerKeys.detail(id)[0]}/${action}`;
      return (await apiRequest('POST', path, body)).json();
    },
    onSuccess: (detail) => queryClient.setQueryData(playerKeys.detail(id), detail),
    // Also after a refusal (409: someone else froze the player first), what is shown is stale.
    onSettled: () => queryClient.invalidateQueries({ predicate: isGameAdminQuery }),
  });
}
