import {
  gameEvents,
  MAX_TAPS_PER_BATCH,
  TAP_BATCH_WINDOW_MS,
  TapBucket,
  type CompactTapAck,
  type TapBatch,
  type TapBatchAck,
  type TapSync,
  type TapSyncAck,
} from '@tapgram/shared';
import type { Socket } from 'socket.io-client';
import { ApiError } from '../../lib/api';
import type { KeptTaps } from './kept-taps';
import { isAllowance, isUnavailable, totalsOf, type TapSettled } from './tap-answers';
import { TapPosts, type PostTap } from './tap-posts';

export type { TapSettled } from './tap-answers';

export interface TapBatchesOptions {
  socket: Pick<Socket, 'connected' | 'on' | 'off' | 'timeout'>;
  /** The spec's per-tap call, used while the socket is down (see PostTap). */
  postTap: PostTap;
  onSettled: (result: TapSettled) => void;
  /** `sent` taps were not counted. */
  onError: (error: Error, sent: number) => void;
  /** `unconfirmed`, `unavailable` or `offline` changed without an answer to report. */
  onChange?: () => void;
  /** What the device must keep changed (read it with `snapshot`). */
  onKeep?: () => void;
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

type Timer = ReturnType<typeof setTimeout>;

/**
 * A batch arrives a little earlier or later than it left, by the server's clock: new batches
 * leave this much of the bucket's refill in it, so that one sent at the edge is seldom refused.
 */
const CLOCK_SLACK_MS = 100;

/**
 * A wait drawn at random between half of `ms` and `ms`: screens a busy server refused at the same
 * moment ask again spread over time, not together.
 */
const jittered = (ms: number) => ms * (0.5 + Math.random() / 2);

interface SessionNumbers {
  last: number;
  /** The server said batches up to this number are in Postgres. */
  durable: number;
  /** Answered and counted, not yet durable: sent again if the server loses them. */
  held: Batch[];
}

/**
 * The game channel's tap protocol, as the game screen speaks it (and tests of the server, which
 * run it against a real backend): taps batched per short window and numbered per session,
 * acknowledged with the new totals. A session's batches go one at a time, each once the one before
 * is answered, so that the server counts them in their order (one counted above another makes
 * that one look like a re-send). A batch stays with the client until the server says it is
 * durable (written to Postgres), and goes again after a reconnect or when the server says it lost
 * answered batches (its Redis was emptied); the server counts each number once.
 *
 * The client keeps a bucket of the server's tap allowance (announced on every connection): it
 * sends no more than the bucket holds, as it refills, so that taps kept through an outage go in
 * batches the server accepts; a batch refused for the rate all the same (the two clocks differ a
 * little) is kept and sent again when the server says its allowance holds it. While the game is
 * briefly unavailable (503, or 504 when it may still count what it did not answer) taps are kept
 * and sent again when it serves. Without the socket, each tap is one POST named by a key, paced
 * the same way, and a tap posted again keeps its key, so that it counts once.
 */
export class TapBatches {
  private pending: { userId: string; sessionId: string; count: number } | null = null;
  private timer: Timer | null = null;
  /** Numbered batches waiting for an answer that counts them, by session and number. */
  private queue: Batch[] = [];
  /** The batch of each session on its way (sent, not answered). */
  private readonly flying = new Map<string, Batch>();
  private readonly sessions = new Map<string, SessionNumbers>();
  /** The taps posted one by one while the socket is down. */
  private readonly posts: TapPosts;
  private down = false;
  /** The last call did not reach the server at all (no network); cleared by the next answer. */
  private noNetwork = false;
  /** The session tapped last: its numbers are kept even when nothing of it waits. */
  private lastSession: string | null = null;
  private disposed = false;
  private stopped = false;
  private retryTimer: Timer | null = null;
  private syncTimer: Timer | null = null;
  /** Waits for the bucket to hold what goes next, until `paceAt`. */
  private paceTimer: Timer | null = null;
  private paceAt = 0;
  /** The server's allowance as this client spends it: the one definition, in shared/. */
  readonly bucket = new TapBucket();
  private readonly windowMs: number;
  private readonly ackTimeoutMs: number;
  private readonly retryMs: number;
  private readonly syncMs: number;

  constructor(protected readonly options: TapBatchesOptions) {
    this.windowMs = options.windowMs ?? TAP_BATCH_WINDOW_MS;
    this.ackTimeoutMs = options.ackTimeoutMs ?? 5000;
    this.retryMs = options.retryMs ?? 2000;
    this.syncMs = options.syncMs ?? 2000;
    this.posts = new TapPosts({
      bucket: this.bucket,
      postTap: options.postTap,
      onSettled: options.onSettled,
      onError: options.onError,
      served: () => this.setAvailable(),
      unavailable: () => this.setUnavailable(),
      offline: () => this.setOffline(),
      paceFor: (taps) => this.paceFor(taps),
      changed: () => this.keep(),
    });
    options.socket.on('connect', this.onReconnect);
    options.socket.on(gameEvents.allowance, this.onAllowance);
  }

  dispose(): void {
    this.disposed = true;
    this.options.socket.off('connect', this.onReconnect);
    this.options.socket.off(gameEvents.allowance, this.onAllowance);
    for (const timer of [this.timer, this.retryTimer, this.syncTimer, this.paceTimer]) {
      if (timer) clearTimeout(timer);
    }
    this.timer = this.retryTimer = this.syncTimer = this.paceTimer = null;
  }

  /**
   * The server refuses this player's taps for good (a frozen player): what is kept is dropped and
   * nothing more is sent, so that refused taps do not go round again.
   */
  stop(): void {
    this.stopped = true;
    this.pending = null;
    this.queue = [];
    this.posts.stop();
    this.flying.clear();
    this.sessions.clear();
    this.keep();
    this.dispose();
  }

  /** What the device keeps: every tap the server has not made durable, with its numbers. */
  snapshot(): KeptTaps {
    const kept: KeptTaps = { batches: [], loose: [], posts: this.posts.kept(), last: {} };
    const named = new Set<string>(this.lastSession ? [this.lastSession] : []);
    for (const b of this.queue) {
      kept.batches.push({ ...this.keptOf(b), answered: b.answered });
      named.add(b.sessionId);
    }
    for (const [sessionId, numbers] of this.sessions) {
      for (const b of numbers.held) kept.batches.push({ ...this.keptOf(b), answered: true });
      if (numbers.held.length > 0) named.add(sessionId);
    }
    if (this.pending) {
      kept.loose.push({ ...this.pending });
      named.add(this.pending.sessionId);
    }
    for (const sessionId of named) {
      const last = this.sessions.get(sessionId)?.last;
      if (last) kept.last[sessionId] = last;
    }
    return kept;
  }

  private keptOf({ userId, sessionId, seq, count }: Batch) {
    return { userId, sessionId, seq, count };
  }

  /**
   * Takes the taps an earlier page kept (a reload, the next visit): their batches go first, each
   * with its number, which the server counts once; taps not yet numbered get numbers above the
   * last their session used; posts go again with their keys.
   */
  restore(kept: KeptTaps): void {
    if (this.stopped) return;
    for (const [sessionId, last] of Object.entries(kept.last)) {
      const numbers = this.numbers(sessionId);
      numbers.last = Math.max(numbers.last, last);
    }
    const seen = new Set(this.queue.map((b) => `${b.sessionId}#${b.seq}`));
    for (const b of kept.batches) {
      const name = `${b.sessionId}#${b.seq}`;
      if (seen.has(name)) continue;
      seen.add(name);
      const numbers = this.numbers(b.sessionId);
      numbers.last = Math.max(numbers.last, b.seq);
      this.queue.push({ ...b, attempt: 0 });
    }
    // Batches the allowance holds whole (the server refuses for good one above its burst).
    const most = Math.min(MAX_TAPS_PER_BATCH, Math.floor(this.bucket.allowance.burst));
    for (const loose of kept.loose) {
      const numbers = this.numbers(loose.sessionId);
      for (let left = loose.count; left > 0;) {
        const count = Math.min(left, most);
        left -= count;
        numbers.last += 1;
        this.queue.push({ ...loose, count, seq: numbers.last, attempt: 0, answered: false });
      }
    }
    this.queue.sort((a, b) => a.seq - b.seq);
    this.posts.restore(kept.posts);
    this.keep();
    this.options.onChange?.();
    for (const sessionId of new Set(this.queue.map((b) => b.sessionId))) this.pump(sessionId);
    this.postNext();
  }

  /**
   * The network is gone (the browser says so): taps wait on the device until it is back. A socket
   * still open is tried by the next retry, which finds out.
   */
  networkLost(): void {
    this.setOffline();
  }

  /** The network may be back: ask now rather than at the next retry. */
  networkBack(): void {
    if (!this.down || this.disposed) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retry();
  }

  /** The last call did not reach the server: the screen says it is offline. */
  get offline(): boolean {
    return this.down && this.noNetwork;
  }

  /** Taps waiting in `sessionId` (the screen adds them to the session's counter). */
  unconfirmedIn(sessionId: string): number {
    let n = this.pending?.sessionId === sessionId ? this.pending.count : 0;
    n += this.posts.unconfirmedIn(sessionId);
    for (const batch of this.queue) {
      if (!batch.answered && batch.sessionId === sessionId) n += batch.count;
    }
    return n;
  }

  private keep() {
    this.options.onKeep?.();
  }

  /** Taps not yet counted: shown at once, so the counters never lag behind the finger. */
  get unconfirmed(): number {
    let n = (this.pending?.count ?? 0) + this.posts.unconfirmed;
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
    this.lastSession = sessionId;
    if (this.pending && this.pending.sessionId !== sessionId) this.setAside();
    this.pending ??= { userId, sessionId, count: 0 };
    this.pending.count += 1;
    this.keep();
    // Kept while the game is unavailable: the retry sends them.
    if (this.down) return;
    if (!this.options.socket.connected) {
      this.flushPending();
      return;
    }
    this.timer ??= setTimeout(this.flushPending, this.windowMs);
  }

  /**
   * Sends the window's taps: as much of them as the bucket holds, in one batch (the rest in the
   * next windows); after the batch on its way, when there is one; one POST each without the socket.
   */
  protected readonly flushPending = () => {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const pending = this.pending;
    if (!pending || this.disposed) return;
    if (!this.options.socket.connected) {
      this.postPending();
      return;
    }
    // Cut when the session's earlier batches are counted: the answer calls again.
    if (this.down || this.queue.some((b) => b.sessionId === pending.sessionId)) return;
    const room =
      this.bucket.available() - (this.bucket.allowance.perSecond * CLOCK_SLACK_MS) / 1000;
    const count = Math.min(pending.count, MAX_TAPS_PER_BATCH, Math.floor(room));
    if (count < 1) {
      this.timer = setTimeout(this.flushPending, Math.max(this.windowMs, this.bucket.msUntil(1)));
      return;
    }
    this.cut(count);
    this.pump(pending.sessionId);
    if (this.pending) this.timer = setTimeout(this.flushPending, this.windowMs);
  };

  /** Numbers `count` of the pending taps as the session's next batch. */
  private cut(count: number): Batch {
    const pending = this.pending!;
    pending.count -= count;
    if (pending.count === 0) this.pending = null;
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
    this.keep();
    return batch;
  }

  /** Another session begins: the pending taps of the last one go now, as the bucket allows. */
  private setAside() {
    const { sessionId } = this.pending!;
    if (!this.options.socket.connected) {
      this.postPending();
      return;
    }
    const most = Math.min(MAX_TAPS_PER_BATCH, this.bucket.allowance.burst);
    while (this.pending) this.cut(Math.min(this.pending.count, most));
    this.pump(sessionId);
  }

  private numbers(sessionId: string): SessionNumbers {
    let numbers = this.sessions.get(sessionId);
    if (!numbers) {
      numbers = { last: 0, durable: 0, held: [] };
      this.sessions.set(sessionId, numbers);
    }
    return numbers;
  }

  /** Sends the session's next batch when nothing of it is on its way and the bucket holds it. */
  private pump(sessionId: string) {
    if (this.down || this.disposed || !this.options.socket.connected) return;
    if (this.flying.has(sessionId)) return;
    const next = this.queue.find((b) => b.sessionId === sessionId);
    if (!next) {
      // Taps left from a window that ended while a batch was on its way go now.
      if (this.pending?.sessionId === sessionId && !this.timer) this.flushPending();
      return;
    }
    if (this.affords(next)) this.send(next);
    else this.paceFor(next.count);
  }

  /**
   * Takes the batch's taps from the bucket, if it holds them. A batch larger than the burst (cut
   * before the server announced a smaller allowance) goes as it is: the server's answer decides.
   */
  private affords(batch: Batch): boolean {
    return batch.count > this.bucket.allowance.burst || this.bucket.take(batch.count);
  }

  /** Tries again once the bucket holds `taps` (or after `ms`). */
  private paceFor(taps: number, ms = this.bucket.msUntil(taps)) {
    if (this.disposed || !Number.isFinite(ms)) return;
    const at = Date.now() + Math.max(1, ms);
    if (this.paceTimer && this.paceAt <= at) return;
    if (this.paceTimer) clearTimeout(this.paceTimer);
    this.paceAt = at;
    this.paceTimer = setTimeout(this.resume, Math.max(1, ms));
  }

  private readonly resume = () => {
    this.paceTimer = null;
    for (const sessionId of new Set(this.queue.map((b) => b.sessionId))) this.pump(sessionId);
    this.postNext();
  };

  /** Without the socket: the pending taps are posted, each named by a key of its own. */
  private postPending() {
    const { userId, sessionId, count } = this.pending!;
    this.pending = null;
    this.posts.add(userId, sessionId, count);
    this.postNext();
  }

  private postNext() {
    if (!this.down) this.posts.next();
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
    this.flying.set(sessionId, batch);
    const payload: TapBatch = { sessionId, count, seq, after: this.after(batch) };
    const current = () => batch.attempt === attempt && this.queue.includes(batch);
    this.options.socket
      .timeout(this.ackTimeoutMs)
      .emitWithAck(gameEvents.tap, payload)
      .then(
        (ack: TapBatchAck | CompactTapAck) => {
          if (!current()) return;
          this.flying.delete(sessionId);
          this.settle(batch, ack);
        },
        () => {
          // No answer: keep the batch. While connected it goes again now, otherwise on reconnect.
          if (!current()) return;
          this.flying.delete(sessionId);
          this.pump(sessionId);
        },
      );
  }

  private settle(batch: Batch, ack: TapBatchAck | CompactTapAck) {
    const { sessionId } = batch;
    if (this.noNetwork) {
      this.noNetwork = false;
      this.options.onChange?.();
    }
    this.keep();
    if (!ack.ok) {
      // Not counted (but a 504's may yet be): the server spent none of the allowance on it.
      if (ack.status !== 504) this.bucket.refund(batch.count);
      if (isUnavailable(ack.status)) {
        this.setUnavailable();
        return;
      }
      if (ack.status === 409 && ack.seq !== undefined) {
        this.lost(sessionId, ack.seq, ack.durableSeq ?? 0);
        return;
      }
      if (ack.status === 429 && ack.retryAfterMs !== undefined) {
        // Sent as the bucket allowed, and refused all the same: kept, and sent again once the
        // server's allowance holds it (the server counts a refusal sent again and counted so as
        // no refusal).
        this.bucket.holdsIn(batch.count, ack.retryAfterMs);
        this.pump(sessionId);
        return;
      }
      if (ack.status === 429 && batch.answered) {
        // Taps the server counted once and lost: not given up for a rate, sent again a little later.
        this.paceFor(batch.count, this.retryMs);
        return;
      }
      this.queue = this.queue.filter((b) => b !== batch);
      this.options.onError(new ApiError(ack.status, { error: ack.error }, ack.error), batch.count);
      this.pump(sessionId);
      return;
    }
    this.queue = this.queue.filter((b) => b !== batch);
    const wasAnswered = batch.answered;
    batch.answered = true;
    const numbers = this.numbers(sessionId);
    numbers.held.push(batch);
    this.setDurable(sessionId, ack.durableSeq);
    this.setAvailable();
    this.pump(sessionId);
    // A batch answered before (sent again to be safe) was reported then.
    this.options.onSettled({
      userId: batch.userId,
      sessionId,
      totals: totalsOf(ack),
      accepted: ack.accepted,
      sent: wasAnswered ? 0 : batch.count,
    });
  }

  private setDurable(sessionId: string, durable: number) {
    const numbers = this.numbers(sessionId);
    numbers.durable = Math.max(numbers.durable, durable);
    const before = numbers.held.length;
    numbers.held = numbers.held
      .filter((b) => b.seq > numbers.durable)
      .sort((a, b) => a.seq - b.seq);
    if (numbers.held.length !== before) this.keep();
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

  /** Puts `batches` back in the queue, in order, and sends the session's next one. */
  private requeue(sessionId: string, batches: Batch[]) {
    this.queue = [...this.queue, ...batches].sort((a, b) => a.seq - b.seq);
    this.options.onChange?.();
    this.pump(sessionId);
  }

  private setOffline() {
    if (this.disposed) return;
    if (!this.noNetwork) {
      this.noNetwork = true;
      this.options.onChange?.();
    }
    this.setUnavailable();
  }

  private setUnavailable() {
    if (this.disposed) return;
    if (!this.down) {
      this.down = true;
      this.options.onChange?.();
    }
    this.retryTimer ??= setTimeout(this.retry, jittered(this.retryMs));
  }

  private setAvailable() {
    if (this.noNetwork) {
      this.noNetwork = false;
      this.options.onChange?.();
    }
    if (!this.down) return;
    this.down = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.options.onChange?.();
    for (const sessionId of new Set(this.queue.map((b) => b.sessionId))) this.pump(sessionId);
    this.postNext();
    if (this.pending) this.timer ??= setTimeout(this.flushPending, this.windowMs);
  }

  /** While unavailable: one tap or batch, as the bucket allows, asks whether the game serves. */
  private readonly retry = () => {
    this.retryTimer = null;
    if (!this.down || this.disposed) return;
    this.retryTimer = setTimeout(this.retry, jittered(this.retryMs));
    if (this.posts.hasWaiting || !this.options.socket.connected) {
      if (!this.posts.hasWaiting && this.pending) {
        const { userId, sessionId } = this.pending;
        this.pending.count -= 1;
        if (this.pending.count === 0) this.pending = null;
        this.posts.add(userId, sessionId, 1);
      }
      this.posts.probe();
      return;
    }
    let probe = this.queue.find((b) => !this.flying.has(b.sessionId));
    if (!probe && this.queue.length === 0 && this.pending) {
      const count = Math.min(this.pending.count, MAX_TAPS_PER_BATCH);
      probe = this.cut(Math.min(count, Math.max(1, Math.floor(this.bucket.available()))));
    }
    if (probe) {
      if (this.affords(probe)) this.send(probe);
    } else if (this.queue.length === 0 && this.notDurable > 0) this.sync();
    // Nothing waits to be counted: the next tap finds out whether the game serves.
    else if (this.queue.length === 0) this.setAvailable();
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
   * order (the server may have restarted without them, and what was on its way is lost); it
   * counts each number once.
   */
  private readonly onReconnect = () => {
    this.flying.clear();
    // Back after the network was lost: what waits goes now, not at the next retry.
    if (this.down) queueMicrotask(() => this.networkBack());
    for (const [sessionId, numbers] of this.sessions) {
      const again = numbers.held;
      numbers.held = [];
      this.requeue(sessionId, again);
    }
  };

  /** The server's allowance, announced on every connection. */
  private readonly onAllowance = (allowance: unknown) => {
    if (isAllowance(allowance)) this.bucket.setAllowance(allowance);
  };
}
