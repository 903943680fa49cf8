/**
 * Where the player's taps stand, as the screen says it: 'offline' (the network is gone; taps
 * wait on the device), 'sending' (back, or a page that found taps kept: sending what waits),
 * 'synced' (everything that waited is in), 'live' (nothing to say).
 */
export type SyncState = 'live' | 'offline' | 'sending' | 'synced';

export interface TapStatus {
  /** Taps counted on the screen, not yet by the server. */
  unconfirmed: number;
  /** Of them, the taps of the session on show (the Session counter adds them). */
  waitingHere: number;
  /** The last call did not reach the server. */
  offline: boolean;
  /** The game said it is briefly unavailable, the network being there: taps are kept meanwhile. */
  reconnecting: boolean;
  sync: SyncState;
}

/** What the tap sender reports. */
export interface Waiting {
  unconfirmed: number;
  waitingHere: number;
}

export type TapStatusEvent =
  /** The sender changed (an answer, a refusal, the network): where its taps stand now. */
  | ({ type: 'followed'; offline: boolean; reconnecting?: boolean } & Waiting)
  /** The screen counted a tap. */
  | ({ type: 'tapped' } & Waiting)
  /** The page found taps an earlier page kept: it is sending them. */
  | { type: 'adopted' }
  /** The game opened without reaching the server. */
  | { type: 'opened-offline' };

export const initialTapStatus: TapStatus = {
  unconfirmed: 0,
  waitingHere: 0,
  offline: false,
  reconnecting: false,
  sync: 'live',
};

/** The sync line's state after the sender's news. */
function syncAfter(state: SyncState, offline: boolean, waiting: number): SyncState {
  if (offline) return 'offline';
  if (waiting > 0) return state === 'live' || state === 'synced' ? state : 'sending';
  return state === 'offline' || state === 'sending' ? 'synced' : state;
}

export function tapStatusReducer(status: TapStatus, event: TapStatusEvent): TapStatus {
  switch (event.type) {
    case 'followed':
      return {
        unconfirmed: event.unconfirmed,
        waitingHere: event.waitingHere,
        offline: event.offline,
        reconnecting: event.reconnecting ?? status.reconnecting,
        sync: syncAfter(status.sync, event.offline, event.unconfirmed),
      };
    case 'tapped':
      return {
        ...status,
        unconfirmed: event.unconfirmed,
        waitingHere: event.waitingHere,
        sync: status.sync === 'synced' ? 'live' : status.sync,
      };
    case 'adopted':
      return { ...status, sync: 'sending' };
    case 'opened-offline':
      return { ...status, offline: true, sync: 'offline' };
  }
}
