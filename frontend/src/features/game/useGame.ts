import type { GameSession, GameUser } from '@tapgram/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { apiRequest, errorMessage } from '../../lib/api';
import { toast } from '../../hooks/use-toast';
import { defaultCountry } from './countries';
import { gameSocket } from './game-socket';
import { gameKeys } from './queries';
import { gameStorage } from './storage';
import { TapSender, type TapSettled } from './tap-sender';
import { playTapSound } from './tap-sound';

export type GameStatus = 'loading' | 'needs-user' | 'ready';

interface Player {
  user: GameUser;
  session: GameSession;
}

const REFRESH_THROTTLE_MS = 1000;

async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

async function openSession(user: GameUser): Promise<Player> {
  const session = await json<GameSession>(
    await apiRequest('POST', '/api/sessions', {
      userId: user.id,
      sessionPoints: 0,
      sessionTaps: 0,
    }),
  );
  return { user, session };
}

/** The game screen's state: loading the stored player, creating one, and tapping. */
export function useGame() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<GameStatus>(() =>
    gameStorage.userId() ? 'loading' : 'needs-user',
  );
  const [player, setPlayer] = useState<Player | null>(null);
  const [unconfirmed, setUnconfirmed] = useState(0);
  const [soundOn, setSoundOn] = useState(gameStorage.sound);
  const lastRefresh = useRef(0);

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

  const refreshAfterTap = useCallback(
    (userId: string) => {
      const now = Date.now();
      if (now - lastRefresh.current < REFRESH_THROTTLE_MS) return;
      lastRefresh.current = now;
      void queryClient.invalidateQueries({ queryKey: gameKeys.rank(userId) });
      // The game channel pushes the boards; without it, ask for them.
      if (!gameSocket().connected) {
        void queryClient.invalidateQueries({ queryKey: gameKeys.users });
        void queryClient.invalidateQueries({ queryKey: gameKeys.countries });
      }
    },
    [queryClient],
  );

  const sender = useRef<TapSender | null>(null);
  useEffect(() => {
    const created = new TapSender({
      socket: gameSocket(),
      postTap: async (userId, sessionId) =>
        json<Player>(
          await apiRequest('POST', '/api/tap', {
            userId,
            sessionId,
            pointsPerTap: 1,
            sessionPoints: 0,
            sessionTaps: 0,
          }),
        ),
      onSettled: ({ user, session, sent }: TapSettled) => {
        setUnconfirmed((n) => Math.max(0, n - sent));
        // Answers can arrive out of order; keep the newest totals.
        setPlayer((current) =>
          current && current.user.totalTaps > user.totalTaps ? current : { user, session },
        );
        refreshAfterTap(user.id);
      },
      onError: (error, sent) => {
        setUnconfirmed((n) => Math.max(0, n - sent));
        console.error('Tap failed', error);
        toast({
          title: 'Error',
          description: error.message.startsWith('429')
            ? errorMessage(error)
            : 'Failed to register tap. Please try again.',
          variant: 'destructive',
        });
      },
    });
    sender.current = created;
    return () => created.dispose();
  }, [refreshAfterTap]);

  const createUser = useCallback(
    async (username: string) => {
      try {
        const user = await json<GameUser>(
          await apiRequest('POST', '/api/users', { username, country: defaultCountry() }),
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
    if (!player) {
      console.error(new Error('User or session not found'));
      setStatus('needs-user');
      return;
    }
    setUnconfirmed((n) => n + 1);
    sender.current?.tap(player.user.id, player.session.id);
    if (soundOn) playTapSound();
  }, [player, soundOn]);

  const toggleSound = useCallback(() => {
    setSoundOn((on) => {
      gameStorage.setSound(!on);
      return !on;
    });
  }, []);

  return { status, player, unconfirmed, soundOn, toggleSound, createUser, tap };
}
