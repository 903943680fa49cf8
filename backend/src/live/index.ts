import type { LiveEventName, LiveEvents } from '@tapgram/shared';
import type { Accounts } from '../accounts';
import type { Feature, FeatureDeps } from '../core/feature';
import { LiveChannel } from './live-channel';

/** The signed-in live channel, and how features push to a user over it. */
export interface Live extends Feature {
  /**
   * Pushes `event` to every live socket of the user, on whichever node holds it (the Socket.IO
   * adapter carries it through Redis); a user who is not connected misses it, and their screen
   * reads what it missed when it connects again.
   */
  toUser<K extends LiveEventName>(userId: string, event: K, payload: LiveEvents[K]): void;
}

export function createLive(
  { logger, events, now = Date.now }: FeatureDeps,
  accounts: Accounts,
): Live {
  const channel = new LiveChannel(accounts.sessions, logger, now);
  // Once, where it happened: the adapter asks every node to drop the session's sockets.
  events.on('session.ended', ({ sessionId }) => channel.endSession(sessionId));
  return {
    name: 'live',
    attachSocket: (io) => channel.attach(io),
    toUser: (userId, event, payload) => channel.toUser(userId, event, payload),
    async close() {
      channel.close();
    },
  };
}
