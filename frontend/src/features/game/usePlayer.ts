import { gameEvents, type PlayerFrozenPush } from '@tapgram/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState, type Dispatch } from 'react';
import { ApiError, errorMessage } from '../../lib/api';
import { toast } from '../../hooks/use-toast';
import { createPlayer, fetchPlayer, openSession, type Player } from './game-api';
import { gameSocket } from './game-socket';
import { gameKeys } from './queries';
import { gameStorage } from './storage';
import type { TapStatusEvent } from './tap-status';

export type GameStatus = 'loading' | 'needs-user' | 'ready';

/** A call that failed without an answer: the network (or the server) could not be reached. */
const unreached = (error: unknown) => !(error instanceof ApiError) || error.status >= 500;

/**
 * The player of this device: the stored one loaded with a fresh session (or, without a network,
 * as last shown), or one created in the welcome dialog; and whether the server freezes its taps.
 */
export function usePlayer(report: Dispatch<TapStatusEvent>) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<GameStatus>(() =>
    gameStorage.userId() ? 'loading' : 'needs-user',
  );
  const [player, setPlayer] = useState<Player | null>(null);
  const [frozen, setFrozen] = useState(false);

  useEffect(() => {
    const storedId = gameStorage.userId();
    if (!storedId) return;
    let cancelled = false;
    fetchPlayer(storedId)
      .then(async ({ frozen: isFrozen, ...user }) => {
        if (!cancelled && isFrozen !== undefined) setFrozen(isFrozen);
        return openSession(user);
      })
      .then(
        (loaded) => {
          if (cancelled) return;
          gameStorage.save(loaded.user.id, loaded.session.id);
          gameStorage.savePlayer(loaded);
          setPlayer(loaded);
          setStatus('ready');
        },
        (error: unknown) => {
          if (cancelled) return;
          // Without a network the game opens with the player last shown, and its session: the
          // taps wait on the device until the network is back.
          const stored = gameStorage.player();
          if (unreached(error) && stored) {
            setPlayer(stored);
            setStatus('ready');
            report({ type: 'opened-offline' });
            return;
          }
          gameStorage.clear();
          setStatus('needs-user');
        },
      );
    return () => {
      cancelled = true;
    };
  }, [report]);

  // A freeze or an unfreeze, live.
  useEffect(() => {
    const socket = gameSocket();
    const onFrozen = (push: PlayerFrozenPush) => setFrozen(push.frozen === true);
    socket.on(gameEvents.frozen, onFrozen);
    return () => {
      socket.off(gameEvents.frozen, onFrozen);
    };
  }, []);

  const createUser = useCallback(
    async (username: string, country: string) => {
      try {
        const user = await createPlayer(username, country);
        const created = await openSession(user);
        gameStorage.save(created.user.id, created.session.id);
        // The channel identifies the player by the cookie of its handshake: open it again with it.
        gameSocket().disconnect().connect();
        setPlayer(created);
        setStatus('ready');
        toast({
          title: `Welcome, ${user.username}!`,
          description: 'Start tapping to earn points.',
        });
        void queryClient.invalidateQueries({ queryKey: gameKeys.users });
      } catch (error) {
        toast({
          title: 'Error',
          description: errorMessage(error) || 'Failed to create user',
          variant: 'destructive',
        });
      }
    },
    [queryClient],
  );

  /** A tap without a player: the welcome dialog asks for one. */
  const needUser = useCallback(() => setStatus('needs-user'), []);

  return { status, player, setPlayer, frozen, setFrozen, createUser, needUser };
}
