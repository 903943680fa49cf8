import {
  gameEvents,
  TAP_BATCH_WINDOW_MS,
  type GameSession,
  type GameUser,
  type TapBatch,
  type TapBatchAck,
} from '@tapgram/shared';
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

interface Batch extends Required<TapBatch> {
  /** Only the newest emit of a batch may re-send it on a timeout; older ones are superseded. */
  attempt: number;
}

/**
 * Sends taps: batched over the game socket when it is connected (one message per short window,
 * acknowledged with the new totals), one POST per tap when it is not. Batches are numbered per
 * session; one whose answer was lost is sent again with its number on reconnect, and the server
 * counts it once. The first answer settles a batch; any later answer to it is a duplicate.
 */
export class TapSender {
  private pending: { userId: string; sessionId: string; count: number } | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly unacked = new Set<Batch>();
  private readonly lastSeq = new Map<string, number>();
  private posting = 0;
  private readonly windowMs: number;
  private readonly ackTimeoutMs: number;

  constructor(private readonly options: TapSenderOptions) {
    this.windowMs = options.windowMs ?? TAP_BATCH_WINDOW_MS;
    this.ackTimeoutMs = options.ackTimeoutMs ?? 5000;
    options.socket.on('connect', this.resend);
    // A hidden page may be frozen or closed before the window ends: send its taps now.
    window.addEventListener('pagehide', this.flushPending);
    document.addEventListener('visibilitychange', this.onVisibilityChange);
  }

  dispose(): void {
    this.options.socket.off('connect', this.resend);
    window.removeEventListener('pagehide', this.flushPending);
    document.removeEventListener('visibilitychange', this.onVisibilityChange);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Taps not yet answered: shown at once, so the counters never lag behind the finger. */
  get unconfirmed(): number {
    let n = (this.pending?.count ?? 0) + this.posting;
    for (const batch of this.unacked) n += batch.count;
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
    this.timer ??= setTimeout(this.flushPending, this.windowMs);
  }

  private post(userId: string, sessionId: string) {
    this.posting += 1;
    this.options.postTap(userId, sessionId).then(
      ({ user, session }) => {
        this.posting -= 1;
        this.options.onSettled({ user, session, accepted: 1, sent: 1 });
      },
      (error: Error) => {
        this.posting -= 1;
        this.options.onError(error, 1);
      },
    );
  }

  private readonly flushPending = () => {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const pending = this.pending;
    this.pending = null;
    if (!pending) return;
    if (!this.options.socket.connected) {
      for (let i = 0; i < pending.count; i += 1) this.post(pending.userId, pending.sessionId);
      return;
    }
    const seq = (this.lastSeq.get(pending.sessionId) ?? 0) + 1;
    this.lastSeq.set(pending.sessionId, seq);
    const batch: Batch = { sessionId: pending.sessionId, count: pending.count, seq, attempt: 0 };
    this.unacked.add(batch);
    this.send(batch);
  };

  private readonly onVisibilityChange = () => {
    if (document.visibilityState === 'hidden') this.flushPending();
  };

  private send(batch: Batch) {
    batch.attempt += 1;
    const attempt = batch.attempt;
    const { sessionId, count, seq } = batch;
    this.options.socket
      .timeout(this.ackTimeoutMs)
      .emitWithAck(gameEvents.tap, { sessionId, count, seq } satisfies TapBatch)
      .then(
        (ack: TapBatchAck) => this.settle(batch, ack),
        () => {
          // No answer: keep the batch. While connected it goes again now, otherwise on reconnect.
          const current = this.unacked.has(batch) && batch.attempt === attempt;
          if (current && this.options.socket.connected) this.send(batch);
        },
      );
  }

  private settle(batch: Batch, ack: TapBatchAck) {
    if (!this.unacked.delete(batch)) return;
    if (ack.ok) {
      const { user, session, accepted } = ack;
      this.options.onSettled({ user, session, accepted, sent: batch.count });
    } else {
      this.options.onError(
        new Error(`${ack.status}: ${JSON.stringify({ error: ack.error })}`),
        batch.count,
      );
    }
  }

  private readonly resend = () => {
    for (const batch of this.unacked) this.send(batch);
  };
}
