import type { GameSession, GameUser } from '@tapgram/shared';
import { SOUND_DEFAULT_ON } from '../../lib/ui-constants';

const USER_ID = 'tapgram.game.userId';
const SESSION_ID = 'tapgram.game.sessionId';
const SOUND = 'tapgram.game.sound';
const PLAYER = 'tapgram.game.player';

/** The player and session last loaded: the game opens with them without a network. */
export interface StoredPlayer {
  user: GameUser;
  session: GameSession;
}

export const gameStorage = {
  userId: () => localStorage.getItem(USER_ID),
  save(userId: string, sessionId: string) {
    localStorage.setItem(USER_ID, userId);
    localStorage.setItem(SESSION_ID, sessionId);
  },
  clear() {
    localStorage.removeItem(USER_ID);
    localStorage.removeItem(SESSION_ID);
    localStorage.removeItem(PLAYER);
  },
  /** Remembers the player as last shown, for a visit without a network. */
  savePlayer(player: StoredPlayer) {
    localStorage.setItem(PLAYER, JSON.stringify(player));
  },
  /** The player last shown, when it is the stored player's. */
  player(): StoredPlayer | null {
    try {
      const stored = JSON.parse(localStorage.getItem(PLAYER) ?? 'null') as StoredPlayer | null;
      return stored?.user?.id === localStorage.getItem(USER_ID) && stored?.session?.id
        ? stored
        : null;
    } catch {
      return null;
    }
  },
  sound(): boolean {
    const stored = localStorage.getItem(SOUND);
    return stored === null ? SOUND_DEFAULT_ON : stored === 'true';
  },
  setSound(on: boolean) {
    localStorage.setItem(SOUND, String(on));
  },
};
