import type { GameSession, GameUser } from '@tapgram/shared';
import { SOUND_DEFAULT_ON } from '../../lib/ui-constants';

const USER_ID = 'tapgram.game.userId';
const SESSION_ID = 'tapgram.game.sessionId';
const SOUND = 'tapgram.game.sound';
const PLAYER = 'tapgram.game.player';
const SEEN = 'tapgram.game.seen';
/** What the server last answered for the screen's other figures (the milestone, a rank...). */
const KNOWN = 'tapgram.game.known.';

/**
 * The player and session as the server last answered them, and when: the game opens with them
 * without a network, and says as of when.
 */
export interface StoredPlayer {
  user: GameUser;
  session: GameSession;
  /** When the server answered these figures (ms since the epoch); absent in older copies. */
  savedAt?: number;
}

/** The counters as the player last saw them: a later visit never shows them lower. */
export interface SeenCounters {
  userId: string;
  sessionId: string;
  session: number;
  total: number;
}

function read<T>(key: string): T | null {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null') as T | null;
  } catch {
    return null;
  }
}

export const gameStorage = {
  userId: () => localStorage.getItem(USER_ID),
  save(userId: string, sessionId: string) {
    localStorage.setItem(USER_ID, userId);
    localStorage.setItem(SESSION_ID, sessionId);
  },
  /** Plays as `userId` from now on (a Mini App launch's player): another's copies are forgotten. */
  adopt(userId: string) {
    if (localStorage.getItem(USER_ID) === userId) return;
    gameStorage.clear();
    localStorage.setItem(USER_ID, userId);
  },
  /** Forgets the player: only once the server has said for certain that it cannot play as them. */
  clear() {
    localStorage.removeItem(USER_ID);
    localStorage.removeItem(SESSION_ID);
    localStorage.removeItem(PLAYER);
    localStorage.removeItem(SEEN);
  },
  /** Remembers the player as the server last answered, for a visit without a network. */
  savePlayer(player: StoredPlayer) {
    localStorage.setItem(PLAYER, JSON.stringify(player));
  },
  /** The player last answered, when it is the stored player's. */
  player(): StoredPlayer | null {
    const stored = read<StoredPlayer>(PLAYER);
    return stored?.user?.id === localStorage.getItem(USER_ID) && stored?.session?.id
      ? stored
      : null;
  },
  /** The counters last shown to the stored player. */
  seen(): SeenCounters | null {
    const seen = read<SeenCounters>(SEEN);
    return seen?.userId === localStorage.getItem(USER_ID) &&
      typeof seen.session === 'number' &&
      typeof seen.total === 'number'
      ? seen
      : null;
  },
  saveSeen(seen: SeenCounters) {
    localStorage.setItem(SEEN, JSON.stringify(seen));
  },
  /** What the server last answered for `name`, if it has the expected kind. */
  known<T>(name: string, is: (value: unknown) => value is T): T | null {
    const value = read<unknown>(KNOWN + name);
    return is(value) ? value : null;
  },
  remember(name: string, value: unknown) {
    localStorage.setItem(KNOWN + name, JSON.stringify(value));
  },
  sound(): boolean {
    const stored = localStorage.getItem(SOUND);
    return stored === null ? SOUND_DEFAULT_ON : stored === 'true';
  },
  setSound(on: boolean) {
    localStorage.setItem(SOUND, String(on));
  },
};
