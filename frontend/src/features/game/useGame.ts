import {
  gameEvents,
  MAX_KEPT_TAPS,
  messages,
  POINTS_PER_TAP,
  TapBucket,
  type PlayerFrozenPush,
  type PlayerRecord,
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
import { indexedDbKeptTaps } from './kept-taps-idb';
import {
  emptyKept,
  KeptTapsWriter,
  mergeKept,
  type KeptTaps,
  type KeptTapsStorage,
} from './kept-taps';
import { gameStorage } from './storage';
import { isAllowance } from './tap-answers';
import { TapSender, type TapSettled } from './tap-sender';
import { playTapSound } from './tap-sound';
import { useRefreshAfterTap } from './use-refresh-after-tap';

export type GameStatus = 'loading' | 'needs-user' | 'ready';

/**
 * Where the player's taps stand, as the screen says it: 'offline' (the network is gone; taps
 * wait on the device), 'sending' (back, or a page that found taps kept: sending what waits),
 * 'synced' (everything that waited is in), 'live' (nothing to say).
 */
export type SyncState = 'live' | 'offline' | 'sending' | 'synced';

/** This page's kept taps, one entry in IndexedDB (made on first use: only in a browser). */
let keptStorage: KeptTapsStorage | null = null;
const keptTaps = () => (keptStorage ??= indexedDbKeptTaps());
/** What a page's former sender held, for the next one; and the adoptions, one after another. */
let handover: KeptTaps | null = null;
let adopting: Promise<unknown> = Promise.resolve();

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

/**
 * The player after an answer with `totals` for `sessionId`: older totals do not go back. An
 * answer for an earlier session (taps kept from a former visit) moves the player's totals only.
 */
function withTotals(current: Player | null, sessionId: string, totals: TapTotals): Player | null {
  if (!current) return current;
  if (current.user.totalTaps > totals.totalTaps) return current;
  const { totalPoints, totalTaps, sessionPoints, sessionTaps } = totals;
  const user = { ...current.user, totalPoints, totalTaps };
  if (current.session.id !== sessionId) return { ...current, user };
  return { user, session: { ...current.session, sessionPoints, sessionTaps } };
}

/** A call that failed without an answer: the network (or the server) could not be reached. */
const unreached = (error: unknown) => !(error instanceof ApiError) || error.status >= 500;

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
  /** Of them, the taps of the session on show (the Session counter adds them). */
  const [waitingHere, setWaitingHere] = useState(0);
  const [reconnecting, setReconnecting] = useState(false);
  const [frozen, setFrozen] = useState(false);
  const [soundOn, setSoundOn] = useState(gameStorage.sound);
  const [offline, setOffline] = useState(false);
  const [sync, setSync] = useState<SyncState>('live');
  /** The server's allowance as the screen applies it: taps beyond it are not counted here. */
  const [bucket] = useState(() => new TapBucket());
  /** Changes with every tap the screen takes or turns away, so that the gauge follows. */
  const [spent, setSpent] = useState(0);

  useEffect(() => {
    const storedId = gameStorage.userId();
    if (!storedId) return;
    let cancelled = false;
    apiRequest('GET', `/api/users/${storedId}`)
      .then((res) => json<PlayerRecord>(res))
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
            setOffline(true);
            setSync('offline');
            return;
          }
          gameStorage.clear();
          setStatus('needs-user');
        },
      );
    return () => {
      cancelled = true;
    };
  }, []);

  // The server's allowance, announced on every connection; a freeze or an unfreeze, live.
  useEffect(() => {
    const socket = gameSocket();
    const onAllowance = (allowance: unknown) => {
      if (isAllowance(allowance)) bucket.setAllowance(allowance);
    };
    const onFrozen = (push: PlayerFrozenPush) => setFrozen(push.frozen === true);
    socket.on(gameEvents.allowance, onAllowance);
    socket.on(gameEvents.frozen, onFrozen);
    return () => {
      socket.off(gameEvents.allowance, onAllowance);
      socket.off(gameEvents.frozen, onFrozen);
    };
  }, [bucket]);

  const refreshAfterTap = useRefreshAfterTap();
  const sender = useRef<TapSender | null>(null);
  const sessionRef = useRef<string | null>(null);
  useEffect(() => {
    sessionRef.current = player?.session.id ?? null;
  }, [player]);
  // Where the taps stand, after any change of the sender's.
  const follow = useCallback((from: TapSender) => {
    const waiting = from.unconfirmed;
    setWaitingHere(sessionRef.current ? from.unconfirmedIn(sessionRef.current) : 0);
    const isOffline = from.offline;
    setUnconfirmed(waiting);
    setOffline(isOffline);
    setSync((state) => {
      if (isOffline) return 'offline';
      if (waiting > 0) return state === 'live' || state === 'synced' ? state : 'sending';
      return state === 'offline' || state === 'sending' ? 'synced' : state;
    });
  }, []);
  useEffect(() => {
    // A frozen player's taps are refused: what the device keeps waits for an unfreeze.
    if (frozen) return;
    let disposed = false;
    const created: TapSender = new TapSender({
      socket: gameSocket(),
      postTap,
      onKeep: () => {
        if (!disposed) writer.changed();
      },
      onSettled: ({ userId, sessionId, totals, accepted, sent }: TapSettled) => {
        // The server's totals hold the counted taps; what it refused leaves the counters here.
        follow(created);
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
        follow(created);
      },
      // The game is briefly unavailable, or serves again: one status, and taps are kept meanwhile.
      onChange: () => {
        follow(created);
        setReconnecting(created.unavailable && !created.offline);
      },
    });
    const writer = new KeptTapsWriter(
      keptTaps(),
      () => created.snapshot(),
      (error) => console.error('Could not keep taps on this device', error),
    );
    // Taps an earlier page kept (a reload, a closed tab, the last visit) go first, with those
    // of this page's former sender, after what that one adopted.
    const adopted = adopting.then(() => writer.adopt());
    adopting = adopted;
    void adopted.then((kept) => {
      if (disposed) {
        // Adopted too late for this sender: kept for the next one, and on the device meanwhile.
        handover = mergeKept([handover ?? emptyKept(), kept]);
        keptTaps()
          .write(handover)
          .catch(() => undefined);
        return;
      }
      const given = handover ?? emptyKept();
      handover = null;
      created.restore(mergeKept([kept, given]));
      if (created.unconfirmed > 0) setSync('sending');
      follow(created);
    });
    sender.current = created;
    return () => {
      disposed = true;
      created.dispose();
      // The next sender of this page (after an unfreeze, say) takes over what this one holds.
      handover = mergeKept([handover ?? emptyKept(), created.snapshot()]);
    };
  }, [refreshAfterTap, frozen, follow]);

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

  /** Counts a tap on the screen when the allowance holds it; answers whether it did. */
  const tap = useCallback((): boolean => {
    if (frozen) return false;
    if (!player) {
      console.error(new Error('User or session not found'));
      setStatus('needs-user');
      return false;
    }
    const current = sender.current;
    setSpent((n) => n + 1);
    // Beyond the allowance (the server would refuse it) or the device's room: not counted.
    if (!current || current.unconfirmed >= MAX_KEPT_TAPS || !bucket.take(1)) return false;
    current.tap(player.user.id, player.session.id);
    setUnconfirmed(current.unconfirmed);
    setWaitingHere(current.unconfirmedIn(player.session.id));
    setSync((state) => (state === 'synced' ? 'live' : state));
    if (soundOn) playTapSound();
    return true;
  }, [player, soundOn, frozen, bucket]);

  // What the counters show never goes back in front of the player: a tap the server refused
  // despite the allowance holds them until the server's figures pass them again.
  const session = player?.session;
  const sessionId = session?.id ?? '';
  const figures = {
    sessionId,
    session: (session?.sessionPoints ?? 0) + (session ? waitingHere : 0),
    total: (player?.user.totalTaps ?? 0) + unconfirmed,
  };
  const [shown, setShown] = useState(figures);
  // A frozen player's taps are not counted: the counters show the server's figures alone.
  if (shown.sessionId !== sessionId || frozen) {
    if (
      shown.sessionId !== sessionId ||
      shown.session !== figures.session ||
      shown.total !== figures.total
    ) {
      setShown(figures);
    }
  } else if (figures.session > shown.session || figures.total > shown.total) {
    setShown({
      sessionId,
      session: Math.max(shown.session, figures.session),
      total: Math.max(shown.total, figures.total),
    });
  }

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
    /** The counters as shown: the server's figures and the taps waiting, never going back. */
    sessionShown: Math.max(shown.session, frozen ? 0 : figures.session),
    totalShown: Math.max(shown.total, frozen ? 0 : figures.total),
    // Offline, the status line says so (and what waits): not also that it is reconnecting.
    reconnecting: (reconnecting || socketDown) && !offline,
    offline,
    sync,
    bucket,
    spent,
    frozen,
    soundOn,
    toggleSound,
    createUser,
    tap,
  };
}
