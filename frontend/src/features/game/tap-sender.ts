import { gameEvents, type GameSession, type GameUser, type TapBatchAck } from '@tapgram/shared';
import type { Socket } from 'socket.io-client';

export interface TapSettled {
  user: GameUser;
  session: GameSession;
  /** Taps the server counted, of the `sent` this answer settles. */
  accepted: number;
  sent: number;
}

export interface TapSenderOptions {
  socket: Pick<Socket, 'connected' | 'on' | 'off' | 'timeout'>;
  /** The spec's per-tap call, used while the socket is down. */
  postTap: (userId: string, sessionId: string) => Promise<{ user: GameUser; session: GameSession }>;
  onSettled: (result: TapSettled) => void;
  /** `sent` taps were not counted. */
  onError: (error: Error, sent: number) => void;
  windowMs?: number;
  ackTimeoutMs?: number;
}

interface Batch {
  batchId: string;
  sessionId: string;
  count: number;
}

/**
 * Sends taps: batched over the game socket when it is connected (one message per short window,
 * acknowledged with the new totals), one POST per tap when it is not. A batch whose answer was
 * lost is sent again with the same id on reconnect, and the server counts it once.
 */
export class TapSender {
  private pending: { userId: string; sessionId: string; count: number } | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly unacked = new Map<string, Batch>();
  private readonly windowMs: number;
  private readonly ackTimeoutMs: number;

  constructor(private readonly options: TapSenderOptions) {
    this.windowMs = options.windowMs ?? 150;
    this.ackTimeoutMs = options.ackTimeoutMs ?? 5000;
    options.socket.on('connect', this.resend);
  }

  dispose(): void {
    this.options.socket.off('connect', this.resend);
    if (this.timer) clearTimeout(this.timer);
  }

  /** Taps waiting for an answer: shown at once, so the counters never lag behind the finger. */
  get unconfirmed(): number {
    let n = this.pending?.count ?? 0;
    for (const batch of this.unacked.values()) n += batch.count;
    return n;
  }

  tap(userId: string, sessionId: string): void {
    if (!this.options.socket.connected) {
      this.flushPending();
      this.post(userId, sessionId);
      return;
    }
    if (this.pending && this.pending.sessionId !== sessionId) this.flushPending();
    this.pending ??= { userId, sessionId, count: 0 };
    this.pending.count += 1;
    this.timer ??= setTimeout(() => this.flushPending(), this.windowMs);
  }

  private post(userId: string, sessionId: string) {
    this.options.postTap(userId, sessionId).then(
      ({ user, session }) => this.options.onSettled({ user, session, accepted: 1, sent: 1 }),
      (error: Error) => this.options.onError(error, 1),
    );
  }

  private flushPending() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const pending = this.pending;
    this.pending = null;
    if (!pending) return;
    if (!this.options.socket.connected) {
      for (let i = 0; i < pending.count; i += 1) this.post(pending.userId, pending.sessionId);
      return;
    }
    const batch = {
      batchId: crypto.randomUUID(),
      sessionId: pending.sessionId,
      count: pending.count,
    };
    this.unacked.set(batch.batchId, batch);
    this.send(batch);
  }

  private send(batch: Batch) {
    this.options.socket
      .timeout(this.ackTimeoutMs)
      .emitWithAck(gameEvents.tap, batch)
      .then(
        (ack: TapBatchAck) => {
          this.unacked.delete(batch.batchId);
          if (ack.ok) {
            const { user, session, accepted } = ack;
            this.options.onSettled({ user, session, accepted, sent: batch.count });
          } else {
            this.options.onError(
              new Error(`${ack.status}: ${JSON.stringify({ error: ack.error })}`),
              batch.count,
            );
          }
        },
        () => {
          // No answer: keep the batch; it goes again, with its id, when the socket reconnects.
          if (this.options.socket.connected) this.send(batch);
        },
      );
  }

  private readonly resend = () => {
    for (const batch of this.unacked.values()) this.send(batch);
  };
}
