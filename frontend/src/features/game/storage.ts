import { SOUND_DEFAULT_ON } from '../../lib/ui-constants';

const USER_ID = 'tapgram.game.userId';
const SESSION_ID = 'tapgram.game.sessionId';
const SOUND = 'tapgram.game.sound';

export const gameStorage = {
  userId: () => localStorage.getItem(USER_ID),
  save(userId: string, sessionId: string) {
    localStorage.setItem(USER_ID, userId);
    localStorage.setItem(SESSION_ID, sessionId);
  },
  clear() {
    localStorage.removeItem(USER_ID);
    localStorage.removeItem(SESSION_ID);
  },
  sound(): boolean {
    const stored = localStorage.getItem(SOUND);
    return stored === null ? SOUND_DEFAULT_ON : stored === 'true';
  },
  setSound(on: boolean) {
    localStorage.setItem(SOUND, String(on));
  },
};
