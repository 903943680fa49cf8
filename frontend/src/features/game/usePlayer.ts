import { gameEvents, type PlayerFrozenPush, type TapTotals } from '@tapgram/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type Dispatch } from 'react';
import { ApiError, errorMessage } from '../../lib/api';
import { newestOf } from '../../lib/newest-of';
import { toast } from '../../hooks/use-toast';
import {
  createTelegramPlayer,
  inTelegram,
  telegramSignIn,
  type TelegramOutcome,
} from '../telegram';
import { createPlayer, fetchPlayer, openSession, withDeadline, type Player } from './game-api';
import { inviteRef } from './friends/invite-ref';
import { gameSocket } from './game-socket';
import { gameKeys } from './queries';
import { gameStorage } from './storage';
import type { TapStatusEvent } from './tap-status';

export type GameStatus = 'loading' | 'needs-user' | 'ready';

interface PlayerState {
  status: GameStatus;
  player: Player | null;
  /** The figures are what the device last knew: the server has not answered them on this page. */
  fromDevice: boolean;
  /** When the server answered the figures shown (ms since the epoch), when known. */
  asOf: number | null;
}

/** What the welcome dialog asks of a Mini App launch: a country for `username`, or nothing. */
export interface TelegramWelcome {
  /** The name a first launch plays under, once the player chose a country. */
  username?: string;
  /** Why the launch could not sign in (the dialog says it instead of asking for a name). */
  problem?: string;
}

/** Totals the server answered for a player's session. */
export interface Answered {
  userId: string;
  sessionId: string;
  totals: TapTotals;
}

/** A call to the server that has not answered by then is taken as not reaching it. */
const LOAD_DEADLINE_MS = 8_000;
/** While the server cannot be reached: the first wait before asking again, and the longest. */
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 10_000;

/** A wait drawn between half of `ms` and `ms`: pages cut off together ask again spread out. */
const jittered = (ms: number) => ms * (0.5 + Math.random() / 2);

/**
 * The server said for certain that this browser cannot play as the stored player: it does not
 * exist (404), or this browser is not it (403), in the server's own `{error}`. No answer, a
 * timeout, a 429, a 5xx or a proxy's page is not that: the device keeps its player.
 */
export function isDefiniteRefusal(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.serverMessage !== null &&
    (error.status === 404 || error.status === 403)
  );
}

/**
 * The player after an answer with `totals` for `sessionId`: older totals do not go back. An
 * answer for an earlier session (taps kept from a former visit) moves the player's totals only.
 */
export function withTotals(current: Player, sessionId: string, totals: TapTotals): Player {
  if (current.user.totalTaps > totals.totalTaps) return current;
  const { totalPoints, totalTaps, sessionPoints, sessionTaps } = totals;
  const user = { ...current.user, totalPoints, totalTaps };
  if (current.session.id !== sessionId) return { ...current, user };
  return { user, session: { ...current.session, sessionPoints, sessionTaps } };
}

/** The player as just loaded, its totals not below those the page holds already. */
export function merged(current: Player | null, loaded: Player): Player {
  if (!current || current.user.id !== loaded.user.id) return loaded;
  if (current.user.totalTaps <= loaded.user.totalTaps) {
    return { user: loaded.user, session: current.session };
  }
  const { totalPoints, totalTaps } = current.user;
  return { user: { ...loaded.user, totalPoints, totalTaps }, session: current.session };
}

const welcome = (username: string) =>
  toast({ title: `Welcome, ${username}!`, description: 'Start tapping to earn points.' });

const notCreated = (error: unknown) =>
  toast({
    title: 'Error',
    description: errorMessage(error) || 'Failed to create user',
    variant: 'destructive',
  });

/**
 * A Mini App launch signed in: its player is this device's from now on (the answer set the cookie,
 * so the game channel opens again with it). False when there is no player to play as yet: a first
 * launch asks for a country; refused data with no player on the device says why.
 */
function adoptTelegramPlayer(outcome: TelegramOutcome): boolean {
  // Data Telegram signed too long ago (a reload an hour later): the player signed in before plays on.
  if (outcome.kind === 'refused') return gameStorage.userId() !== null;
  if (outcome.kind === 'needs-country') return false;
  if (gameStorage.userId() !== outcome.user.id) {
    gameStorage.adopt(outcome.user.id);
    gameSocket().disconnect().connect();
  }
  return true;
}

/**
 * The player of this device: the stored one, loaded with a fresh session, or, while the server
 * cannot be reached, as the device last knew it (and asked for again until the server answers);
 * or one created in the welcome dialog. Only a definite answer that this browser cannot play as
 * the stored player forgets it. Also whether the server freezes its taps.
 */
export function usePlayer(report: Dispatch<TapStatusEvent>, offline: boolean) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<PlayerState>(() => ({
    // A Mini App launch signs in as its Telegram user's player before anything is asked.
    status: gameStorage.userId() || inTelegram() ? 'loading' : 'needs-user',
    player: null,
    fromDevice: false,
    asOf: null,
  }));
  const [frozen, setFrozenShown] = useState(false);
  /**
   * Whether the player is frozen, as the server last told: a read on load or at each connection,
   * a push, a refused tap. A read asked before a push and answered after it does not undo it.
   */
  const [frozenNews] = useState(() => newestOf(setFrozenShown));
  const setFrozen = useCallback((isFrozen: boolean) => frozenNews.told(isFrozen), [frozenNews]);
  const [telegram, setTelegram] = useState<TelegramWelcome | null>(null);
  /** The player on show, for the asks below (which run outside renders). */
  const current = useRef(state.player);
  useEffect(() => {
    current.current = state.player;
  }, [state.player]);
  // An invite link's code waits on the device for the player it brings (friends/invite-ref.ts).
  useEffect(() => {
    inviteRef.keep(window.location.search, gameStorage.userId() !== null);
  }, []);
  /** The newest totals answered, kept for a player not loaded yet (a page's first seconds). */
  const newest = useRef<Answered | null>(null);

  // The figures the server answered are the device's from now on (a visit without a network
  // opens with them).
  useEffect(() => {
    const { player, fromDevice, asOf } = state;
    if (player && !fromDevice) gameStorage.savePlayer({ ...player, savedAt: asOf ?? Date.now() });
  }, [state]);

  const answered = useCallback(
    (loaded: Player) => {
      const asOf = Date.now();
      const early = newest.current;
      setState((s) => {
        let player = merged(s.player, loaded);
        if (early?.userId === player.user.id) {
          player = withTotals(player, early.sessionId, early.totals);
        }
        return { status: 'ready', player, fromDevice: false, asOf };
      });
      report({ type: 'heard' });
    },
    [report],
  );

  /**
   * An answer that counted taps: the player's totals, never going back. One that comes before the
   * player is loaded (taps an earlier page kept, sent at once) is applied when it is.
   */
  const applyTotals = useCallback((answer: Answered) => {
    const early = newest.current;
    if (early?.userId !== answer.userId || early.totals.totalTaps <= answer.totals.totalTaps) {
      newest.current = answer;
    }
    const asOf = Date.now();
    setState((s) =>
      s.player?.user.id === answer.userId
        ? {
            ...s,
            player: withTotals(s.player, answer.sessionId, answer.totals),
            fromDevice: false,
            asOf,
          }
        : s,
    );
  }, []);

  // While the stored player is not loaded from the server, or the server cannot be reached, ask
  // for it now and then, and at once when the network or the game channel is back.
  const asking =
    state.status === 'loading' || (state.status === 'ready' && (state.fromDevice || offline));
  useEffect(() => {
    if (!asking || (!gameStorage.userId() && !inTelegram())) return;
    let cancelled = false;
    let running = false;
    let wait = FIRST_RETRY_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      if (running || cancelled) return;
      running = true;
      clearTimeout(timer);
      try {
        const signingIn = telegramSignIn();
        if (signingIn) {
          const outcome = await withDeadline(signingIn, LOAD_DEADLINE_MS);
          if (cancelled) return;
          if (!adoptTelegramPlayer(outcome)) {
            setTelegram(
              outcome.kind === 'needs-country'
                ? { username: outcome.username }
                : outcome.kind === 'refused'
                  ? { problem: outcome.message }
                  : {},
            );
            setState({ status: 'needs-user', player: null, fromDevice: false, asOf: null });
            return;
          }
        }
        const userId = gameStorage.userId();
        if (!userId) return;
        const asked = frozenNews.ask();
        const { frozen: isFrozen, ...user } = await withDeadline(
          fetchPlayer(userId),
          LOAD_DEADLINE_MS,
        );
        // A page already playing goes on in its session; a new page opens one.
        const playing = current.current;
        const loaded =
          playing?.user.id === user.id
            ? { user, session: playing.session }
            : await withDeadline(openSession(user), LOAD_DEADLINE_MS);
        if (cancelled) return;
        if (isFrozen !== undefined) frozenNews.answer(asked, isFrozen);
        gameStorage.save(loaded.user.id, loaded.session.id);
        answered(loaded);
      } catch (error) {
        if (cancelled) return;
        if (isDefiniteRefusal(error)) {
          gameStorage.clear();
          setState({ status: 'needs-user', player: null, fromDevice: false, asOf: null });
          return;
        }
        openFromDevice();
        const later = error instanceof ApiError ? (error.retryAfterMs ?? 0) : 0;
        timer = setTimeout(() => void ask(), Math.max(later, jittered(wait)));
        wait = Math.min(wait * 2, LONGEST_RETRY_MS);
      } finally {
        running = false;
      }
    };
    /** The server cannot be reached: the game opens with the player the device last knew. */
    const openFromDevice = () => {
      const stored = gameStorage.player();
      if (current.current || !stored) return;
      const { savedAt, ...player } = stored;
      current.current = player;
      setState({ status: 'ready', player, fromDevice: true, asOf: savedAt ?? null });
      report({ type: 'opened-offline' });
    };
    const now = () => {
      wait = FIRST_RETRY_MS;
      void ask();
    };
    void ask();
    const socket = gameSocket();
    window.addEventListener('online', now);
    socket.on('connect', now);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      window.removeEventListener('online', now);
      socket.off('connect', now);
    };
  }, [asking, answered, report, frozenNews]);

  // A freeze or an unfreeze, live; and read again at each connection of the channel: one made
  // while it was closed (or before it first opened, once the page was idle) was pushed to no one.
  useEffect(() => {
    const socket = gameSocket();
    let closed = false;
    const onFrozen = (push: PlayerFrozenPush) => frozenNews.told(push.frozen === true);
    const onConnect = async () => {
      const userId = gameStorage.userId();
      if (!userId) return;
      const asked = frozenNews.ask();
      try {
        const { frozen: isFrozen } = await withDeadline(fetchPlayer(userId), LOAD_DEADLINE_MS);
        if (!closed && isFrozen !== undefined) frozenNews.answer(asked, isFrozen);
      } catch {
        // The load above asks until it is answered; a refused tap says so too.
      }
    };
    socket.on(gameEvents.frozen, onFrozen);
    socket.on('connect', onConnect);
    return () => {
      closed = true;
      socket.off(gameEvents.frozen, onFrozen);
      socket.off('connect', onConnect);
    };
  }, [frozenNews]);

  const createUser = useCallback(
    async (username: string, country: string) => {
      try {
        const user = await createPlayer(username, country, inviteRef.read());
        inviteRef.forget();
        const created = await openSession(user);
        // Kept whole at once: a reload without the server (or a closed tab) finds the player.
        gameStorage.save(created.user.id, created.session.id);
        gameStorage.savePlayer({ ...created, savedAt: Date.now() });
        // The channel identifies the player by the cookie of its handshake: open it again with it.
        gameSocket().disconnect().connect();
        answered(created);
        welcome(user.username);
        void queryClient.invalidateQueries({ queryKey: gameKeys.users });
      } catch (error) {
        notCreated(error);
      }
    },
    [queryClient, answered],
  );

  /** A Mini App's first launch: the player is made with the name Telegram gave and this country. */
  const createTelegramUser = useCallback(
    async (_username: string, country: string) => {
      try {
        const user = await createTelegramPlayer(country);
        gameStorage.adopt(user.id);
        gameSocket().disconnect().connect();
        setTelegram(null);
        setState((s) => ({ ...s, status: 'loading' }));
        welcome(user.username);
        void queryClient.invalidateQueries({ queryKey: gameKeys.users });
      } catch (error) {
        notCreated(error);
      }
    },
    [queryClient],
  );

  /**
   * The server moved the player to another country: shown at once, and kept with the player on
   * the device, so that a reload without a network shows it too.
   */
  const countryChanged = useCallback((country: string) => {
    const playing = current.current;
    if (!playing) return;
    const player = { ...playing, user: { ...playing.user, country } };
    current.current = player;
    gameStorage.savePlayer({ ...player, savedAt: gameStorage.player()?.savedAt ?? Date.now() });
    setState((s) =>
      s.player ? { ...s, player: { ...s.player, user: { ...s.player.user, country } } } : s,
    );
  }, []);

  /** A tap without a player: the welcome dialog asks for one. */
  const needUser = useCallback(() => setState((s) => ({ ...s, status: 'needs-user' })), []);

  return {
    ...state,
    frozen,
    setFrozen,
    applyTotals,
    createUser: telegram?.username ? createTelegramUser : createUser,
    countryChanged,
    needUser,
    telegram,
  };
}
