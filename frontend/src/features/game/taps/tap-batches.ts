import { MAX_TAPS_PER_BATCH, TAP_BATCH_WINDOW_MS, TapBucket } from '@tapgram/shared';
import { Availability } from './availability';
import type { Batch } from './batch-queue';
import type { KeptTaps } from './kept-taps';
import { NumberedBatches } from './numbered-batches';
import { Pacer } from './pacer';
import type { TapSettled, Waiting } from './tap-answers';
import { TapChannel, type TapSocket } from './tap-channel';
import { TapPosts, type PostTap } from './tap-posts';
import { TapWindow } from './tap-window';

export type { TapSettled } from './tap-answers';

export interface TapBatchesOptions {
  socket: TapSocket;
  /** The spec's per-tap call, used while the socket is down (see PostTap). */
  postTap: PostTap;
  onSettled: (result: TapSettled) => void;
  /** `sent` taps were not counted. */
  onError: (error: Error, sent: number) => void;
  /**
   * `unconfirmed`, `unavailable` or `offline` changed without an answer to report, or taps left
   * for the first time (`waiting().sent`: the server's figures answered from then on may hold them).
   */
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

/**
 * A batch arrives a little earlier or later than it left, by the server's clock: new batches
 * leave this much of the bucket's refill in it, so that one sent at the edge is seldom refused.
 */
const CLOCK_SLACK_MS = 100;

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
 *
 * Its parts: the window gathering taps (TapWindow), the numbered batches on the channel
 * (NumberedBatches, over TapChannel), the posts (TapPosts), whether the game serves (Availability)
 * and the wait for the bucket (Pacer); this class takes the taps and decides which way they go.
 */
export class TapBatches {
  private readonly tapWindow = new TapWindow(() => this.flushPending());
  private readonly batches: NumberedBatches;
  private readonly channel: TapChannel;
  /** The taps posted one by one while the socket is down. */
  private readonly posts: TapPosts;
  private readonly availability: Availability;
  private readonly pacer = new Pacer(() => this.resume());
  /** The session tapped last: its numbers are kept even when nothing of it waits. */
  private lastSession: string | null = null;
  private disposed = false;
  private stopped = false;
  /** The server's allowance as this client spends it: the one definition, in shared/. */
  readonly bucket = new TapBucket();
  private readonly windowMs: number;

  constructor(protected readonly options: TapBatchesOptions) {
    this.windowMs = options.windowMs ?? TAP_BATCH_WINDOW_MS;
    const retryMs = options.retryMs ?? 2000;
    const changed = () => this.options.onChange?.();
    const keep = () => this.options.onKeep?.();
    this.availability = new Availability({ retryMs, onChange: changed, retry: () => this.retry() });
    this.posts = new TapPosts({
      bucket: this.bucket,
      postTap: options.postTap,
      onSettled: options.onSettled,
      onError: options.onError,
      served: () => this.setAvailable(),
      unavailable: () => this.availability.setUnavailable(),
      offline: () => this.availability.setOffline(),
      paceFor: (taps) => this.pacer.in(this.bucket.msUntil(taps)),
      changed: keep,
      posted: changed,
    });
    this.channel = new TapChannel(options.socket, options.ackTimeoutMs ?? 5000, {
      connected: () => {
        // Back after the network was lost: what waits goes now, not at the next retry.
        if (this.availability.unavailable) queueMicrotask(() => this.networkBack());
        this.batches.reconnected();
      },
      allowance: (allowance) => this.bucket.setAllowance(allowance),
    });
    this.batches = new NumberedBatches({
      bucket: this.bucket,
      availability: this.availability,
      pacer: this.pacer,
      channel: this.channel,
      retryMs,
      syncMs: options.syncMs ?? 2000,
      onSettled: options.onSettled,
      onError: options.onError,
      served: () => this.setAvailable(),
      // Taps left from a window that ended while a batch was on its way go now.
      idle: (sessionId) => {
        if (this.tapWindow.taps?.sessionId === sessionId && !this.tapWindow.open) {
          this.flushPending();
        }
      },
      keep,
      changed,
    });
  }

  dispose(): void {
    this.disposed = true;
    this.channel.close();
    this.tapWindow.stop();
    this.availability.dispose();
    this.pacer.dispose();
    this.batches.dispose();
  }

  /**
   * The server refuses this player's taps for good (a frozen player): what is kept is dropped and
   * nothing more is sent, so that refused taps do not go round again.
   */
  stop(): void {
    this.stopped = true;
    this.tapWindow.clear();
    this.batches.clear();
    this.posts.stop();
    this.options.onKeep?.();
    this.dispose();
  }

  /** What the device keeps: every tap the server has not made durable, with its numbers. */
  snapshot(): KeptTaps {
    return this.batches.kept({
      loose: this.tapWindow.taps,
      posts: this.posts.kept(),
      lastSession: this.lastSession,
    });
  }

  /**
   * Takes the taps an earlier page kept (a reload, the next visit): their batches go first, each
   * with its number, which the server counts once; taps not yet numbered get numbers above the
   * last their session used; posts go again with their keys.
   */
  restore(kept: KeptTaps): void {
    if (this.stopped) return;
    // Batches the allowance holds whole (the server refuses for good one above its burst).
    this.batches.restore(
      kept,
      Math.min(MAX_TAPS_PER_BATCH, Math.floor(this.bucket.allowance.burst)),
    );
    this.posts.restore(kept.posts);
    this.options.onKeep?.();
    this.options.onChange?.();
    this.resume();
  }

  /**
   * The network is gone (the browser says so): taps wait on the device until it is back. A socket
   * still open is tried by the next retry, which finds out.
   */
  networkLost(): void {
    this.availability.setOffline();
  }

  /** The network may be back: ask now rather than at the next retry. */
  networkBack(): void {
    if (!this.disposed) this.availability.retryNow();
  }

  /** The last call did not reach the server: the screen says it is offline. */
  get offline(): boolean {
    return this.availability.offline;
  }

  /** The server said the game is briefly unavailable, and has not served a tap since. */
  get unavailable(): boolean {
    return this.availability.unavailable;
  }

  /** Taps not yet counted: shown at once, so the counters never lag behind the finger. */
  get unconfirmed(): number {
    return this.tapWindow.count() + this.posts.unconfirmed + this.batches.unanswered();
  }

  /** Taps waiting in `sessionId` (the screen adds them to the session's counter). */
  unconfirmedIn(sessionId: string): number {
    return (
      this.tapWindow.count(sessionId) +
      this.posts.unconfirmedIn(sessionId) +
      this.batches.unanswered(sessionId)
    );
  }

  /**
   * Where the taps not yet counted stand, for the screen: all of them, those of `sessionId` (the
   * session on show), and those sent before (the server's figures read since may hold them).
   */
  waiting(sessionId: string | null): Waiting {
    return {
      unconfirmed: this.unconfirmed,
      waitingHere: sessionId ? this.unconfirmedIn(sessionId) : 0,
      sent: [...this.batches.sent(), ...this.posts.sent()],
    };
  }

  /** Answered batches the server has not yet said are durable. */
  get notDurable(): number {
    return this.batches.notDurable;
  }

  tap(userId: string, sessionId: string): void {
    if (this.stopped) return;
    this.lastSession = sessionId;
    const gathered = this.tapWindow.taps;
    if (gathered && gathered.sessionId !== sessionId) this.setAside();
    this.tapWindow.add(userId, sessionId);
    this.options.onKeep?.();
    // Kept while the game is unavailable: the retry sends them.
    if (this.availability.unavailable) return;
    if (!this.channel.connected) {
      this.flushPending();
      return;
    }
    this.tapWindow.start(this.windowMs);
  }

  /**
   * Sends the window's taps: as much of them as the bucket holds, in one batch (the rest in the
   * next windows); after the batch on its way, when there is one; one POST each without the socket.
   */
  protected readonly flushPending = () => {
    this.tapWindow.stop();
    const pending = this.tapWindow.taps;
    if (!pending || this.disposed) return;
    if (!this.channel.connected) {
      this.postPending();
      return;
    }
    // Cut when the session's earlier batches are counted: the answer calls again.
    if (this.availability.unavailable || this.batches.hasSession(pending.sessionId)) return;
    const room =
      this.bucket.available() - (this.bucket.allowance.perSecond * CLOCK_SLACK_MS) / 1000;
    const count = Math.min(pending.count, MAX_TAPS_PER_BATCH, Math.floor(room));
    if (count < 1) {
      this.tapWindow.start(Math.max(this.windowMs, this.bucket.msUntil(1)));
      return;
    }
    const { sessionId } = this.cut(count);
    this.batches.pump(sessionId);
    if (this.tapWindow.taps) this.tapWindow.start(this.windowMs);
  };

  /** Numbers `count` of the window's taps as the session's next batch. */
  private cut(count: number): Batch {
    const { userId, sessionId } = this.tapWindow.take(count);
    return this.batches.number(userId, sessionId, count);
  }

  /** Another session begins: the window's taps of the last one go now, as the bucket allows. */
  private setAside() {
    if (!this.channel.connected) {
      this.postPending();
      return;
    }
    const { sessionId } = this.tapWindow.taps!;
    const most = Math.min(MAX_TAPS_PER_BATCH, this.bucket.allowance.burst);
    while (this.tapWindow.taps) this.cut(Math.min(this.tapWindow.taps.count, most));
    this.batches.pump(sessionId);
  }

  /** Every session's next batch, and the posts. */
  private resume() {
    this.batches.pumpAll();
    this.postNext();
  }

  /** Without the socket: the window's taps are posted, each named by a key of its own. */
  private postPending() {
    const { userId, sessionId, count } = this.tapWindow.takeAll()!;
    this.posts.add(userId, sessionId, count);
    this.postNext();
  }

  private postNext() {
    if (!this.availability.unavailable) this.posts.next();
  }

  private setAvailable() {
    if (!this.availability.setServed()) return;
    this.resume();
    if (this.tapWindow.taps) this.tapWindow.start(this.windowMs);
  }

  /** While unavailable: one tap or batch, as the bucket allows, asks whether the game serves. */
  private retry() {
    if (this.posts.hasWaiting || !this.channel.connected) {
      if (!this.posts.hasWaiting && this.tapWindow.taps) {
        const { userId, sessionId } = this.tapWindow.take(1);
        this.posts.add(userId, sessionId, 1);
      }
      this.posts.probe();
      return;
    }
    const asked = this.batches.probe(() => {
      const gathered = this.tapWindow.taps;
      if (!gathered) return null;
      const count = Math.min(gathered.count, MAX_TAPS_PER_BATCH);
      return this.cut(Math.min(count, Math.max(1, Math.floor(this.bucket.available()))));
    });
    // Nothing waits to be counted: the next tap finds out whether the game serves.
    if (!asked) this.setAvailable();
  }
}
