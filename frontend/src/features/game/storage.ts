import type { GameSession, GameUser } from '@tapgram/shared';
import { SOUND_DEFAULT_ON } from '../../lib/ui-constants';

const USER_ID = 'tapgram.game.userId';
const SESSION_ID = 'tapgram.game.sessionId';
const SOUND = 'tapgram.game.sound';
const PLAYER = 'tapgram.game.player';

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
  /** Forgets the player: only once the server has said for certain that it cannot play as them. */
  clear() {
    localStorage.removeItem(USER_ID);
    localStorage.removeItem(SESSION_ID);
    localStorage.removeItem(PLAYER);
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
  sound(): boolean {
    const stored = localStorage.getItem(SOUND);
    return stored === null ? SOUND_DEFAULT_ON : stored === 'true';
  },
  setSound(on: boolean) {
    localStorage.setItem(SOUND, String(on));
  },
};
