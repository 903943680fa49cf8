import {
  gameEvents,
  type BonusEntry,
  type FriendActionBody,
  type FriendRequestAnswer,
  type FriendRequestBody,
  type Friends,
  type FriendsBoard,
  type Invitations,
  type Invite,
} from '@tapgram/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiRequest } from '../../../lib/api';
import { REFRESH_INTERVAL_MS } from '../../../lib/ui-constants';
import { gameSocket } from '../game-socket';
import { gameKeys } from '../queries';
import { throttle } from '../throttle';

/** The player's own friends, invitations and bonuses (query keys are the API paths). */
export const friendsKeys = {
  friends: (userId: string) => ['/api/users', userId, 'friends'],
  board: gameKeys.friendsBoard,
  invite: (userId: string) => ['/api/users', userId, 'invite'],
  invitations: (userId: string) => ['/api/users', userId, 'invitations'],
  bonuses: (userId: string) => ['/api/users', userId, 'bonuses'],
} as const;

/** A push of the season's boards reads the friends board again, at most this often. */
const BOARD_REFRESH_MS = 1000;

/**
 * The friends board, live as the other boards are: read again when the game channel pushes the
 * running season's boards (someone's points changed), at most once a second, and every 30 s; and,
 * with the friends and invitations, when the server says they changed (`friends` push).
 */
export function useFriendsBoard(userId: string) {
  const queryClient = useQueryClient();
  const [refresh] = useState(() =>
    throttle(() => {
      void queryClient.invalidateQueries({ queryKey: friendsKeys.board(userId) });
    }, BOARD_REFRESH_MS),
  );
  useEffect(() => {
    const socket = gameSocket();
    const pushed = () => refresh();
    // The server's word that the player's friends or invitations changed (this node or another).
    const changed = () => {
      for (const key of [
        friendsKeys.friends(userId),
        friendsKeys.board(userId),
        friendsKeys.invitations(userId),
        friendsKeys.bonuses(userId),
      ]) {
        // Exact: the friends' key is a prefix of the board's, which would be read twice.
        void queryClient.invalidateQueries({ queryKey: key, exact: true });
      }
    };
    socket.on(gameEvents.seasonDelta, pushed);
    socket.on(gameEvents.seasonSnapshot, pushed);
    socket.on(gameEvents.friends, changed);
    return () => {
      socket.off(gameEvents.seasonDelta, pushed);
      socket.off(gameEvents.seasonSnapshot, pushed);
      socket.off(gameEvents.friends, changed);
      refresh.cancel();
    };
  }, [refresh, queryClient, userId]);
  return useQuery<FriendsBoard>({
    queryKey: friendsKeys.board(userId),
    refetchInterval: REFRESH_INTERVAL_MS,
  });
}

export function useFriends(userId: string) {
  return useQuery<Friends>({ queryKey: friendsKeys.friends(userId) });
}

export function useInvite(userId: string) {
  return useQuery<Invite>({ queryKey: friendsKeys.invite(userId) });
}

/** A change of the friends' points reads the invitations' progress again, at most this often. */
const PROGRESS_REFRESH_MS = 10_000;

/**
 * The invitations with their state: read again every 30 s, and when the friends' points on the
 * board change (`friendsPoints`, their signature): an invited friend playing moves their progress.
 */
export function useInvitations(userId: string, friendsPoints: string) {
  const queryClient = useQueryClient();
  const [refresh] = useState(() =>
    throttle(() => {
      void queryClient.invalidateQueries({ queryKey: friendsKeys.invitations(userId) });
    }, PROGRESS_REFRESH_MS),
  );
  const [seen, setSeen] = useState(friendsPoints);
  if (seen !== friendsPoints) {
    setSeen(friendsPoints);
    if (seen !== '') refresh();
  }
  useEffect(() => () => refresh.cancel(), [refresh]);
  return useQuery<Invitations>({
    queryKey: friendsKeys.invitations(userId),
    refetchInterval: REFRESH_INTERVAL_MS,
  });
}

export function useBonusHistory(userId: string, enabled: boolean) {
  return useQuery<BonusEntry[]>({ queryKey: friendsKeys.bonuses(userId), enabled });
}

/** The friend calls; each answer reads the friends and the board again. */
export function useFriendActions(userId: string) {
  const queryClient = useQueryClient();
  const settled = () => {
    void queryClient.invalidateQueries({ queryKey: friendsKeys.friends(userId), exact: true });
    void queryClient.invalidateQueries({ queryKey: friendsKeys.board(userId), exact: true });
  };
  const body: FriendActionBody = { userId };
  const ask = useMutation({
    mutationFn: async (username: string) => {
      const sent: FriendRequestBody = { userId, username };
      const res = await apiRequest('POST', '/api/friends/requests', sent);
      return (await res.json()) as FriendRequestAnswer;
    },
    onSettled: settled,
  });
  const accept = useMutation({
    mutationFn: (fromId: string) =>
      apiRequest('POST', `/api/friends/requests/${fromId}/accept`, body),
    onSettled: settled,
  });
  const drop = useMutation({
    mutationFn: (otherId: string) => apiRequest('DELETE', `/api/friends/requests/${otherId}`, body),
    onSettled: settled,
  });
  const remove = useMutation({
    mutationFn: (friendId: string) => apiRequest('DELETE', `/api/friends/${friendId}`, body),
    onSettled: settled,
  });
  return { ask, accept, drop, remove };
}
