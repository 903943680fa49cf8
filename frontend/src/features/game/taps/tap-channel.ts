import {
  gameEvents,
  type CompactTapAck,
  type TapBatch,
  type TapBatchAck,
  type TapSync,
  type TapAllowance,
  type TapSyncAck,
} from '@tapgram/shared';
import type { GameSocket } from '../lazy-socket';
import { isAllowance } from './tap-answers';

/** What the tap protocol needs of the game channel's socket. */
export type TapSocket = Pick<GameSocket, 'connected' | 'on' | 'off' | 'timeout'>;

export interface TapChannelListeners {
  /** Every (re)connection: what was on its way may be lost. */
  connected: () => void;
  /** The server's allowance, announced on every connection. */
  allowance: (allowance: TapAllowance) => void;
}

/** The game channel as the tap protocol speaks it: batches and syncs, each answered in time or not. */
export class TapChannel {
  private readonly onAllowance = (allowance: unknown) => {
    if (isAllowance(allowance)) this.listeners.allowance(allowance);
  };

  constructor(
    private readonly socket: TapSocket,
    private readonly ackTimeoutMs: number,
    private readonly listeners: TapChannelListeners,
  ) {
    socket.on('connect', listeners.connected);
    socket.on(gameEvents.allowance, this.onAllowance);
  }

  get connected(): boolean {
    return this.socket.connected;
  }

  /** Sends a batch; rejects when no answer comes in time. */
  sendBatch(batch: TapBatch): Promise<TapBatchAck | CompactTapAck> {
    return this.socket.timeout(this.ackTimeoutMs).emitWithAck(gameEvents.tap, batch);
  }

  /** Asks how far a session's batches are; rejects when no answer comes in time. */
  askSync(request: TapSync): Promise<TapSyncAck> {
    return this.socket.timeout(this.ackTimeoutMs).emitWithAck(gameEvents.sync, request);
  }

  close(): void {
    this.socket.off('connect', this.listeners.connected);
    this.socket.off(gameEvents.allowance, this.onAllowance);
  }
}
