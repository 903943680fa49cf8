import {
  gameEvents,
  MAX_TAPS_PER_BATCH,
  TAP_BATCH_WINDOW_MS,
  type CompactTapAck,
  type GameSession,
  type GameUser,
  type TapBatch,
  type TapBatchAck,
  type TapSync,
  type TapSyncAck,
  type TapTotals,
} from '@tapgram/shared';
import type { Socket } from 'socket.io-client';
import { ApiError } from '../../lib/api';

export interface TapSettled {
  userId: string;
  sessionId: string;
  /** The player's and the session's totals after the answer. */
  totals: TapTotals;
  /** Taps the server counted, of the `sent` this answer settles. */
  accepted: number;
  sent: number;
}

export interface TapBatchesOptions {
  socket: Pick<Socket, 'connected' | 'on' | 'off' | 'timeout'>;
  /**
   * The spec's per-tap call, used while the socket is down. `key` names the tap (the
   * Idempotency-Key header): a tap posted again with its key counts once.
   */
  postTap: (
    userId: string,
    sessionId: string,
    key: string,
  ) => Promise<{ user: GameUser; session: GameSession }>;
  onSettled: (result: TapSettled) => void;
  /** `sent` taps were not counted. */
  onError: (error: Error, sent: number) => void;
  /** `unconfirmed` or `unavailable` changed without an answer to report. */
  onChange?: () => void;
  windowMs?: number;
  ackTimeoutMs?: number;
  /** While the game is unavailable: how long before trying again. */
  retryMs?: number;
  /** While answered batches are not yet durable: how often to ask how far they are. */
  syncMs?: number;
}

interface Batch {
  userId: string;
  sessionId: string;
  count: number;
  seq: number;
  /** Only the newest emit of a batch may settle it; older ones are superseded. */
  attempt: number;
  /** Counted once already (then lost by the server, or re-sent to make sure). */
  answered: boolean;
}

interface SessionNumbers {
  last: number;
  /** The server said batches up to this number are in Postgres. */
  durable: number;
  /** Answered and counted, not yet durable: sent again if the server loses them. */
  held: Batch[];
}

/** A tap posted over HTTP, with the key that makes a re-post count once. */
interface PostedTap {
  userId: string;
  sessionId: string;
  key: string;
}

/**
 * The game cannot count now: 503 (nothing was counted) or 504 (the server's store did not answer
 * in time, and may still count it). Either way the taps are kept and sent again with their
 * number or key, which the server counts once.
 */
const isUnavailable = (status: number) => status === 503 || status === 504;

/** A tap key: random, and made without crypto.randomUUID, which plain-HTTP pages lack. */
function newTapKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The totals of an answer: compact (the channel's handshake asks for it) or full. */
function totalsOf(answer: { user: GameUser; session: GameSession } | TapTotals): TapTotals {
  if (!('user' in answer)) {
    const { totalPoints, totalTaps, sessionPoints, sessionTaps } = answer;
    return { totalPoints, totalTaps, sessionPoints, sessionTaps };
  }
  const { user, session } = answer;
  return {
    totalPoints: user.totalPoints,
    totalTaps: user.totalTaps,
    sessionPoints: session.sessionPoints,
    sessionTaps: session.sessionTaps,
  };
}

/**
 * The game channel's tap protocol, as the game screen speaks it (and tests of the server, which
 * run it against a real backend): taps batched per short window and numbered per session,
 * acknowledged with the new totals. A batch stays with the client until the server says it is
 * durable (written to Postgres), and goes again after a reconnect or when the server says it lost
 * answered batches (its Redis was emptied); the server counts each number once. While the game is
 * briefly unavailable (503, or 504 when it may still count what it did not answer) taps are kept
 * and sent again when it serves. Without the socket, each tap is one POST named by a key, and a
 * tap posted again keeps its key, so that it counts once.
 */
export class TapBatches {
  private pending: { userId: string; sessionId: string; count: number } | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Numbered batches waiting for an answer that counts them, oldest first. */
  private queue: Batch[] = [];
  private readonly sessions = new Map<string, SessionNumbers>();
  /**
   * Sessions whose batches go one at a time, each after the previous one is counted: batches sent
   * again, which must be counted in their order (one counted above another makes that one look
   * like a re-send), until the queue is empty.
   */
  private readonly inOrder = new Set<string>();
  private posting = 0;
  /** Posted taps the game could not count (503, 504): posted again with their keys. */
  private kept: PostedTap[] = [];
  private down = false;
  private disposed = false;
  private stopped = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private syncTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly windowMs: number;
  private readonly ackTimeoutMs: number;
  private readonly retryMs: number;
  private readonly syncMs: number;

  constructor(protected readonly options: TapBatchesOptions) {
    this.windowMs = options.windowMs ?? TAP_BATCH_WINDOW_MS;
    this.ackTimeoutMs = options.ackTimeoutMs ?? 5000;
    this.retryMs = options.retryMs ?? 2000;
    this.syncMs = options.syncMs ?? 2000;
    options.socket.on('connect', this.onReconnect);
  }

  dispose(): void {
    this.disposed = true;
    this.options.socket.off('connect', this.onReconnect);
    for (const timer of [this.timer, this.retryTimer, this.syncTimer]) {
      if (timer) clearTimeout(timer);
    }
    this.timer = this.retryTimer = this.syncTimer = null;
  }

  /**
   * The server refuses this player's taps for good (a frozen player): what is kept is dropped and
   * nothing more is sent, so that refused taps do not go round again.
   */
  stop(): void {
    this.stopped = true;
    this.pending = null;
    this.queue = [];
    this.kept = [];
    this.sessions.clear();
    this.inOrder.clear();
    this.dispose();
  }

  /** Taps not yet counted: shown at once, so the counters never lag behind the finger. */
  get unconfirmed(): number {
    let n = (this.pending?.count ?? 0) + this.posting + this.kept.length;
    for (const batch of this.queue) if (!batch.answered) n += batch.count;
    return n;
  }

  /** The server said the game is briefly unavailable, and has not served a tap since. */
  get unavailable(): boolean {
    return this.down;
  }

  /** Answered batches the server has not yet said are durable. */
  get notDurable(): number {
    let n = 0;
    for (const numbers of this.sessions.values()) n += numbers.held.length;
    return n;
  }

  tap(userId: string, sessionId: string): void {
    if (this.stopped) return;
    if (this.pending && this.pending.sessionId !== sessionId) this.flushPending();
    this.pending ??= { userId, sessionId, count: 0 };
    this.pending.count += 1;
    // Kept while the game is unavailable: the retry sends them.
    if (this.down) return;
    if (!this.options.socket.connected) {
      this.flushPending();
      return;
    }
    this.timer ??= setTimeout(this.flushPending, this.windowMs);
  }

  protected readonly flushPending = () => {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const pending = this.pending;
    if (!pending) return;
    if (!this.options.socket.connected) {
      this.pending = null;
      for (let i = 0; i < pending.count; i += 1) this.post(pending.userId, pending.sessionId);
      return;
    }
    // What a batch may hold; more (taps kept through an outage) goes in the next windows.
    const count = Math.min(pending.count, MAX_TAPS_PER_BATCH);
    pending.count -= count;
    if (pending.count === 0) this.pending = null;
    else if (!this.down) this.timer = setTimeout(this.flushPending, this.windowMs);
    const numbers = this.numbers(pending.sessionId);
    numbers.last += 1;
    const batch: Batch = {
      userId: pending.userId,
      sessionId: pending.sessionId,
      count,
      seq: numbers.last,
      attempt: 0,
      answered: false,
    };
    this.queue.push(batch);
    if (!this.down && !this.inOrder.has(batch.sessionId)) this.send(batch);
  };

  private numbers(sessionId: string): SessionNumbers {
    let numbers = this.sessions.get(sessionId);
    if (!numbers) {
      numbers = { last: 0, durable: 0, held: [] };
      this.sessions.set(sessionId, numbers);
    }
    return numbers;
  }

  private post(userId: string, sessionId: string, key = newTapKey()) {
    this.posting += 1;
    this.options.postTap(userId, sessionId, key).then(
      (answer) => {
        this.posting -= 1;
        this.setAvailable();
        this.options.onSettled({
          userId,
          sessionId,
          totals: totalsOf(answer),
          accepted: 1,
          sent: 1,
        });
      },
      (error: Error) => {
        this.posting -= 1;
        if (error instanceof ApiError && isUnavailable(error.status) && !this.stopped) {
          this.kept.push({ userId, sessionId, key });
          this.setUnavailable();
        } else {
          this.options.onError(error, 1);
        }
      },
    );
  }

  /** The highest number below the batch's that the server answered: it must still hold it. */
  private after(batch: Batch): number {
    const numbers = this.numbers(batch.sessionId);
    let after = numbers.durable < batch.seq ? numbers.durable : 0;
    for (const held of numbers.held) if (held.seq < batch.seq) after = Math.max(after, held.seq);
    return after;
  }

  private send(batch: Batch) {
    batch.attempt += 1;
    const attempt = batch.attempt;
    const { sessionId, count, seq } = batch;
    const payload: TapBatch = { sessionId, count, seq, after: this.after(batch) };
    this.options.socket
      .timeout(this.ackTimeoutMs)
      .emitWithAck(gameEvents.tap, payload)
      .then(
        (ack: TapBatchAck | CompactTapAck) => {
          if (batch.attempt === attempt && this.queue.includes(batch)) this.settle(batch, ack);
        },
        () => {
          // No answer: keep the batch. While connected it goes again now, otherwise on reconnect.
          const current = this.queue.includes(batch) && batch.attempt === attempt;
          if (current && this.options.socket.connected && !this.down) this.send(batch);
        },
      );
  }

  private settle(batch: Batch, ack: TapBatchAck | CompactTapAck) {
    if (!ack.ok && isUnavailable(ack.status)) {
      this.setUnavailable();
      return;
    }
    if (!ack.ok && ack.status === 409 && ack.seq !== undefined) {
      this.lost(batch.sessionId, ack.seq, ack.durableSeq ?? 0);
      return;
    }
    if (!ack.ok && ack.status === 429 && batch.answered) {
      // Taps the server counted once and lost: not given up for a rate, sent again a little later.
      setTimeout(() => {
        if (!this.disposed && this.queue.includes(batch) && !this.down) this.send(batch);
      }, this.retryMs);
      return;
    }
    this.queue = this.queue.filter((b) => b !== batch);
    if (!ack.ok) {
      if (this.inOrder.has(batch.sessionId)) this.sendNextInOrder(batch.sessionId);
      this.options.onError(new ApiError(ack.status, { error: ack.error }, ack.error), batch.count);
      return;
    }
    const wasAnswered = batch.answered;
    batch.answered = true;
    const numbers = this.numbers(batch.sessionId);
    numbers.held.push(batch);
    this.setDurable(batch.sessionId, ack.durableSeq);
    if (this.inOrder.has(batch.sessionId)) this.sendNextInOrder(batch.sessionId);
    this.setAvailable();
    // A batch answered before (sent again to be safe) was reported then.
    this.options.onSettled({
      userId: batch.userId,
      sessionId: batch.sessionId,
      totals: totalsOf(ack),
      accepted: ack.accepted,
      sent: wasAnswered ? 0 : batch.count,
    });
  }

  private setDurable(sessionId: string, durable: number) {
    const numbers = this.numbers(sessionId);
    numbers.durable = Math.max(numbers.durable, durable);
    numbers.held = numbers.held
      .filter((b) => b.seq > numbers.durable)
      .sort((a, b) => a.seq - b.seq);
    if (numbers.held.length > 0) this.scheduleSync();
  }

  /** The server's session stands at `seq`: answered batches above it are sent again, in order. */
  private lost(sessionId: string, seq: number, durable: number) {
    const numbers = this.numbers(sessionId);
    const again = numbers.held.filter((b) => b.seq > seq);
    numbers.held = numbers.held.filter((b) => b.seq <= seq);
    this.setDurable(sessionId, durable);
    this.requeue(sessionId, again);
  }

  /** Puts `batches` back in the queue and sends the session's queued batches, one by one. */
  private requeue(sessionId: string, batches: Batch[]) {
    this.queue = [...this.queue, ...batches].sort((a, b) => a.seq - b.seq);
    this.options.onChange?.();
    this.sendInOrder(sessionId);
  }

  private sendInOrder(sessionId: string) {
    this.inOrder.add(sessionId);
    if (!this.down) this.sendNextInOrder(sessionId);
  }

  private sendNextInOrder(sessionId: string) {
    const next = this.queue.find((b) => b.sessionId === sessionId);
    if (!next) this.inOrder.delete(sessionId);
    else if (!this.down) this.send(next);
  }

  private setUnavailable() {
    if (this.disposed) return;
    if (!this.down) {
      this.down = true;
      this.options.onChange?.();
    }
    this.retryTimer ??= setTimeout(this.retry, this.retryMs);
  }

  private setAvailable() {
    if (!this.down) return;
    this.down = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.options.onChange?.();
    for (const sessionId of new Set(this.queue.map((b) => b.sessionId)))
      this.sendInOrder(sessionId);
    for (const tap of this.kept.splice(0)) this.post(tap.userId, tap.sessionId, tap.key);
    if (this.pending) this.timer ??= setTimeout(this.flushPending, this.windowMs);
  }

  /** While unavailable: one message asks whether the game serves again. */
  private readonly retry = () => {
    this.retryTimer = null;
    if (!this.down || this.disposed) return;
    this.retryTimer = setTimeout(this.retry, this.retryMs);
    const keptTap = this.kept.shift();
    if (keptTap) {
      this.post(keptTap.userId, keptTap.sessionId, keptTap.key);
      return;
    }
    if (!this.options.socket.connected) {
      if (!this.pending) return;
      const { userId, sessionId } = this.pending;
      this.pending.count -= 1;
      if (this.pending.count === 0) this.pending = null;
      this.post(userId, sessionId);
      return;
    }
    if (this.queue.length === 0) this.flushPending();
    const probe = this.queue[0];
    if (probe) this.send(probe);
    else if (this.notDurable > 0) this.sync();
    // Nothing waits to be counted: the next tap finds out whether the game serves.
    else this.setAvailable();
  };

  private scheduleSync() {
    if (this.disposed) return;
    this.syncTimer ??= setTimeout(this.sync, this.syncMs);
  }

  /** Asks how far the held batches are: durable ones are dropped, lost ones sent again. */
  private readonly sync = () => {
    this.syncTimer = null;
    if (this.notDurable === 0) return;
    this.scheduleSync();
    if (!this.options.socket.connected) return;
    for (const [sessionId, numbers] of this.sessions) {
      if (numbers.held.length === 0) continue;
      const request: TapSync = { sessionId };
      this.options.socket
        .timeout(this.ackTimeoutMs)
        .emitWithAck(gameEvents.sync, request)
        .then(
          (ack: TapSyncAck) => {
            if (!ack.ok) {
              if (isUnavailable(ack.status)) this.setUnavailable();
              return;
            }
            this.setAvailable();
            const highest = numbers.held.at(-1)?.seq ?? 0;
            if (ack.seq < highest) this.lost(sessionId, ack.seq, ack.durableSeq);
            else this.setDurable(sessionId, ack.durableSeq);
          },
          () => undefined,
        );
    }
  };

  /**
   * After a reconnect: the unanswered batches and the answered ones not yet durable go again, in
   * order (the server may have restarted without them); it counts each number once.
   */
  private readonly onReconnect = () => {
    for (const [sessionId, numbers] of this.sessions) {
      const again = numbers.held;
      numbers.held = [];
      this.requeue(sessionId, again);
    }
  };
}
