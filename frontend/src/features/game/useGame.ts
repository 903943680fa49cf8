import {
  messages,
  POINTS_PER_TAP,
  TAP_KEY_HEADER,
  type CreateSessionBody,
  type GameSession,
  type GameUser,
  type Sent,
  type TapBody,
  type TapResult,
  type TapTotals,
} from '@tapgram/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, apiRequest, errorMessage } from '../../lib/api';
import { toast } from '../../hooks/use-toast';
import { gameSocket, useSocketReconnecting } from './game-socket';
import { gameKeys } from './queries';
import { gameStorage } from './storage';
import { TapSender, type TapSettled } from './tap-sender';
import { playTapSound } from './tap-sound';
import { useRefreshAfterTap } from './use-refresh-after-tap';

export type GameStatus = 'loading' | 'needs-user' | 'ready';

interface Player {
  user: GameUser;
  session: GameSession;
}

async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** Whatever the cause (a 429 included), a tap that was not counted says this, and only this. */
function reportTapFailure(error: Error) {
  console.error('Tap failed', error);
  toast({
    title: 'Error',
    description: 'Failed to register tap. Please try again.',
    variant: 'destructive',
  });
}

/** The server refuses every tap of a frozen player: its `{error}` says so, the same on REST and socket. */
function isFrozenRefusal(error: Error): boolean {
  return error instanceof ApiError && error.serverMessage === messages.playerFrozen;
}

/** The player after an answer with `totals` for `sessionId`: older totals do not go back. */
function withTotals(current: Player | null, sessionId: string, totals: TapTotals): Player | null {
  if (!current || current.session.id !== sessionId) return current;
  if (current.user.totalTaps > totals.totalTaps) return current;
  const { totalPoints, totalTaps, sessionPoints, sessionTaps } = totals;
  return {
    user: { ...current.user, totalPoints, totalTaps },
    session: { ...current.session, sessionPoints, sessionTaps },
  };
}

async function openSession(user: GameUser): Promise<Player> {
  const body: Sent<CreateSessionBody> = { userId: user.id };
  const session = await json<GameSession>(await apiRequest('POST', '/api/sessions', body));
  return { user, session };
}

async function postTap(userId: string, sessionId: string, key: string): Promise<TapResult> {
  const body: Sent<TapBody> = { userId, sessionId, pointsPerTap: POINTS_PER_TAP };
  return json<TapResult>(await apiRequest('POST', '/api/tap', body, { [TAP_KEY_HEADER]: key }));
}

/** The game screen's state: loading the stored player, creating one, and tapping. */
export function useGame() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<GameStatus>(() =>
    gameStorage.userId() ? 'loading' : 'needs-user',
  );
  const [player, setPlayer] = useState<Player | null>(null);
  const [unconfirmed, setUnconfirmed] = useState(0);
  const [reconnecting, setReconnecting] = useState(false);
  const [frozen, setFrozen] = useState(false);
  const [soundOn, setSoundOn] = useState(gameStorage.sound);

  useEffect(() => {
    const storedId = gameStorage.userId();
    if (!storedId) return;
    let cancelled = false;
    apiRequest('GET', `/api/users/${storedId}`)
      .then((res) => json<GameUser>(res))
      .then(openSession)
      .then(
        (loaded) => {
          if (cancelled) return;
          gameStorage.save(loaded.user.id, loaded.session.id);
          setPlayer(loaded);
          setStatus('ready');
        },
        () => {
          if (cancelled) return;
          gameStorage.clear();
          setStatus('needs-user');
        },
      );
    return () => {
      cancelled = true;
    };
  }, []);

  const refreshAfterTap = useRefreshAfterTap();
  const sender = useRef<TapSender | null>(null);
  useEffect(() => {
    const created: TapSender = new TapSender({
      socket: gameSocket(),
      postTap,
      onSettled: ({ userId, sessionId, totals, accepted, sent }: TapSettled) => {
        // The server's totals hold the counted taps; what it refused leaves the counters here.
        setUnconfirmed(created.unconfirmed);
        // Answers can arrive out of order; keep the newest totals, of this player's session.
        setPlayer((current) => withTotals(current, sessionId, totals));
        if (accepted < sent)
          reportTapFailure(new Error(`${sent - accepted} of ${sent} taps refused`));
        refreshAfterTap(userId);
      },
      onError: (error) => {
        if (isFrozenRefusal(error)) {
          // Every further tap would be refused too: stop sending, and the screen says why.
          created.stop();
          setFrozen(true);
        } else {
          reportTapFailure(error);
        }
        setUnconfirmed(created.unconfirmed);
      },
      // The game is briefly unavailable, or serves again: one status, and taps are kept meanwhile.
      onChange: () => {
        setUnconfirmed(created.unconfirmed);
        setReconnecting(created.unavailable);
      },
    });
    sender.current = created;
    return () => created.dispose();
  }, [refreshAfterTap]);

  const createUser = useCallback(
    async (username: string, country: string) => {
      try {
        const user = await json<GameUser>(
          await apiRequest('POST', '/api/users', { username, country }),
        );
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

  const tap = useCallback(() => {
    if (frozen) return;
    if (!player) {
      console.error(new Error('User or session not found'));
      setStatus('needs-user');
      return;
    }
    const current = sender.current;
    if (current) {
      current.tap(player.user.id, player.session.id);
      setUnconfirmed(current.unconfirmed);
    }
    if (soundOn) playTapSound();
  }, [player, soundOn, frozen]);

  const toggleSound = useCallback(() => {
    setSoundOn((on) => {
      gameStorage.setSound(!on);
      return !on;
    });
  }, []);

  // The channel dropped (a deploy, a network change) and is coming back, or the game answered
  // that it is briefly unavailable: either way taps are kept and counted once it serves.
  const socketDown = useSocketReconnecting();

  return {
    status,
    player,
    unconfirmed,
    reconnecting: reconnecting || socketDown,
    frozen,
    soundOn,
    toggleSound,
    createUser,
    tap,
  };
}
