import type { Waiting } from './taps/tap-answers';

export type { Waiting } from './taps/tap-answers';

/**
 * Where the player's taps stand, as the screen says it: 'offline' (the server cannot be reached;
 * taps wait on the device), 'sending' (back, or a page that found taps kept: sending what waits),
 * 'synced' (everything that waited is in, as the server said on this connection), 'live'
 * (nothing to say).
 */
export type SyncState = 'live' | 'offline' | 'sending' | 'synced';

/**
 * Whether the server has answered: 'unknown' on a page that has not needed to ask yet, 'lost'
 * once a call did not reach it, 'answered' once it answered after that.
 */
type Contact = 'unknown' | 'lost' | 'answered';

export interface TapStatus extends Waiting {
  /** The server cannot be reached: the status line says so, and the figures are as of before. */
  offline: boolean;
  /** The game said it is briefly unavailable, the network being there: taps are kept meanwhile. */
  reconnecting: boolean;
  sync: SyncState;
  /** The tap sender's own word: its last call did not reach the server. */
  senderOffline: boolean;
  contact: Contact;
}

export type TapStatusEvent =
  /** The sender changed (an answer, a refusal, the network): where its taps stand now. */
  | ({ type: 'followed'; offline: boolean; reconnecting?: boolean } & Waiting)
  /** The screen counted a tap. */
  | ({ type: 'tapped' } & Waiting)
  /** The page found taps an earlier page kept: it is sending them. */
  | { type: 'adopted' }
  /** The game opened without reaching the server. */
  | { type: 'opened-offline' }
  /** The server answered (a tap counted, the player loaded). */
  | { type: 'heard' };

export const initialTapStatus: TapStatus = {
  unconfirmed: 0,
  waitingHere: 0,
  sent: [],
  offline: false,
  reconnecting: false,
  sync: 'live',
  senderOffline: false,
  contact: 'unknown',
};

/**
 * The status with `offline` and the sync line made from its facts: offline while the sender says
 * so or the server has not answered since a call failed; "synced" only once it has.
 */
function settle(status: TapStatus, from: SyncState): TapStatus {
  const offline = status.senderOffline || status.contact === 'lost';
  let sync = from;
  if (offline) sync = 'offline';
  else if (from === 'offline' || from === 'sending') {
    if (status.unconfirmed > 0) sync = 'sending';
    else if (status.contact === 'answered') sync = 'synced';
  }
  return { ...status, offline, sync };
}

export function tapStatusReducer(status: TapStatus, event: TapStatusEvent): TapStatus {
  switch (event.type) {
    case 'followed':
      return settle(
        {
          ...status,
          unconfirmed: event.unconfirmed,
          waitingHere: event.waitingHere,
          sent: event.sent,
          senderOffline: event.offline,
          contact: event.offline ? 'lost' : status.contact,
          reconnecting: event.reconnecting ?? status.reconnecting,
        },
        status.sync,
      );
    case 'tapped':
      return settle(
        {
          ...status,
          unconfirmed: event.unconfirmed,
          waitingHere: event.waitingHere,
          sent: event.sent,
        },
        status.sync === 'synced' ? 'live' : status.sync,
      );
    case 'adopted':
      return settle(status, 'sending');
    case 'opened-offline':
      return settle({ ...status, contact: 'lost' }, status.sync);
    case 'heard':
      return settle({ ...status, contact: 'answered' }, status.sync);
  }
}
