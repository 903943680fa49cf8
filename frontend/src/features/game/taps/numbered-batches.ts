import type {
  CompactTapAck,
  TapBatchAck,
  TapBucket,
  TapRefusal,
  TapSyncAck,
} from '@tapgram/shared';
import { ApiError } from '../../../lib/api';
import type { Availability } from './availability';
import { BatchQueue, type Batch } from './batch-queue';
import { batchesOf, keptFrom, type HeldTaps } from './kept-state';
import type { KeptTaps } from './kept-taps';
import type { Pacer } from './pacer';
import { SessionLedger } from './session-ledger';
import { isUnavailable, totalsOf, type SentTaps, type TapSettled } from './tap-answers';
import type { TapChannel } from './tap-channel';

/** What the numbered batches need of the tap protocol they belong to. */
export interface NumberedBatchesHost {
  readonly bucket: TapBucket;
  readonly availability: Availability;
  readonly pacer: Pacer;
  readonly channel: TapChannel;
  /** How long before a lost batch refused for a rate goes again. */
  readonly retryMs: number;
  /** While answered batches are not yet durable: how often to ask how far they are. */
  readonly syncMs: number;
  onSettled(result: TapSettled): void;
  onError(error: Error, sent: number): void;
  /** A batch was counted: the game serves. */
  served(): void;
  /** Nothing of the session waits to be sent: taps gathered meanwhile may go. */
  idle(sessionId: string): void;
  /** What the batches keep changed (the device keeps it). */
  keep(): void;
  /**
   * The taps waiting changed without an answer to report (a batch that left for the first time
   * included: the server's figures answered from then on may hold it, and the screen must know).
   */
  changed(): void;
}

/**
 * The sessions' numbered batches on the game channel: a session's batches go one at a time, each
 * once the one before is answered, as the allowance's bucket holds them; an answered batch is held
 * until the server says it is durable, and goes again, with its number, after a reconnect or when
 * the server says it lost it. The server counts each number once.
 */
export class NumberedBatches {
  private readonly queue = new BatchQueue();
  private readonly ledger = new SessionLedger();
  private syncTimer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;

  constructor(private readonly host: NumberedBatchesHost) {}

  /** Numbers `count` taps as the session's next batch, queued to go after its earlier ones. */
  number(userId: string, sessionId: string, count: number): Batch {
    const seq = this.ledger.next(sessionId);
    const batch: Batch = { userId, sessionId, count, seq, attempt: 0, answered: false };
    this.queue.push(batch);
    this.host.keep();
    return batch;
  }

  /** Takes the batches an earlier page kept, and numbers its taps in batches of at most `most`. */
  restore(kept: KeptTaps, most: number): void {
    this.queue.add(batchesOf(kept, this.ledger, this.queue, most));
  }

  /** What the device keeps of the batches, with the window's and the posts' taps. */
  kept(rest: Omit<HeldTaps, 'queue' | 'ledger'>): KeptTaps {
    return keptFrom({ ...rest, queue: this.queue, ledger: this.ledger });
  }

  /** Taps in batches the server has not counted yet (of `sessionId` only, if given). */
  unanswered(sessionId?: string): number {
    return this.queue.unanswered(sessionId);
  }

  /** The taps not yet counted that were sent before (the server may hold them already). */
  sent(): SentTaps[] {
    return this.queue.sent();
  }

  /** Batches waiting to be counted. */
  get waiting(): number {
    return this.queue.length;
  }

  hasSession(sessionId: string): boolean {
    return this.queue.hasSession(sessionId);
  }

  /** Answered batches the server has not yet said are durable. */
  get notDurable(): number {
    return this.ledger.notDurable;
  }

  /** Drops every batch (a frozen player), keeping the numbers its sessions used. */
  clear(): void {
    this.queue.clear();
    this.ledger.dropHeld();
  }

  dispose(): void {
    this.disposed = true;
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncTimer = null;
  }

  /** Sends each session's next batch, as the bucket holds them. */
  pumpAll(): void {
    for (const sessionId of this.queue.sessions()) this.pump(sessionId);
  }

  /** Sends the session's next batch when nothing of it is on its way and the bucket holds it. */
  pump(sessionId: string): void {
    const { availability, channel, bucket, pacer } = this.host;
    if (availability.unavailable || this.disposed || !channel.connected) return;
    if (this.queue.isFlying(sessionId)) return;
    const next = this.queue.nextOf(sessionId);
    if (!next) {
      this.host.idle(sessionId);
      return;
    }
    if (this.affords(next)) this.send(next);
    else pacer.in(bucket.msUntil(next.count));
  }

  /**
   * While the game is unavailable: the first batch that may go, or a new one of `count` taps
   * numbered by `cut` when none waits, is sent as the bucket allows, to ask whether it serves.
   * Answers false when nothing waits to be counted.
   */
  probe(cut: () => Batch | null): boolean {
    const probe = this.queue.firstSendable() ?? (this.queue.length === 0 ? cut() : null);
    if (probe) {
      if (this.affords(probe)) this.send(probe);
      return true;
    }
    if (this.queue.length > 0) return true;
    if (this.notDurable > 0) {
      this.sync();
      return true;
    }
    return false;
  }

  /**
   * Takes the batch's taps from the bucket, if it holds them. A batch larger than the burst (cut
   * before the server announced a smaller allowance) goes as it is: the server's answer decides.
   */
  private affords(batch: Batch): boolean {
    const { bucket } = this.host;
    return batch.count > bucket.allowance.burst || bucket.take(batch.count);
  }

  private send(batch: Batch) {
    batch.attempt += 1;
    const first = batch.sentAt === undefined;
    batch.sentAt ??= Date.now();
    const attempt = batch.attempt;
    const { sessionId, count, seq } = batch;
    this.queue.flown(batch);
    if (first) this.host.changed();
    const current = () => batch.attempt === attempt && this.queue.includes(batch);
    this.host.channel.sendBatch({ sessionId, count, seq, after: this.ledger.after(batch) }).then(
      (ack) => {
        if (!current()) return;
        this.queue.landed(sessionId);
        this.settle(batch, ack);
      },
      () => {
        // No answer: keep the batch. While connected it goes again now, otherwise on reconnect.
        if (!current()) return;
        this.queue.landed(sessionId);
        this.pump(sessionId);
      },
    );
  }

  private settle(batch: Batch, ack: TapBatchAck | CompactTapAck) {
    const { sessionId } = batch;
    this.host.availability.reached();
    this.host.keep();
    if (!ack.ok) {
      this.refused(batch, ack);
      return;
    }
    this.queue.remove(batch);
    const wasAnswered = batch.answered;
    batch.answered = true;
    this.ledger.hold(batch);
    this.setDurable(sessionId, ack.durableSeq);
    this.host.served();
    this.pump(sessionId);
    // A batch answered before (sent again to be safe) was reported then.
    this.host.onSettled({
      userId: batch.userId,
      sessionId,
      totals: totalsOf(ack),
      accepted: ack.accepted,
      sent: wasAnswered ? 0 : batch.count,
    });
  }

  /** A batch the server did not count: kept to go again, or given up and reported. */
  private refused(batch: Batch, ack: TapRefusal) {
    const { sessionId } = batch;
    const { bucket } = this.host;
    // Not counted (but a 504's may yet be): the server spent none of the allowance on it.
    if (ack.status !== 504) bucket.refund(batch.count);
    if (isUnavailable(ack.status)) {
      this.host.availability.setUnavailable();
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
      bucket.holdsIn(batch.count, ack.retryAfterMs);
      this.pump(sessionId);
      return;
    }
    if (ack.status === 429 && batch.answered) {
      // Taps the server counted once and lost: not given up for a rate, sent again a little later.
      this.host.pacer.in(this.host.retryMs);
      return;
    }
    this.queue.remove(batch);
    this.host.onError(new ApiError(ack.status, { error: ack.error }, ack.error), batch.count);
    this.pump(sessionId);
  }

  private setDurable(sessionId: string, durable: number) {
    const { dropped, holding } = this.ledger.setDurable(sessionId, durable);
    if (dropped) this.host.keep();
    if (holding) this.scheduleSync();
  }

  /** The server's session stands at `seq`: answered batches above it are sent again, in order. */
  private lost(sessionId: string, seq: number, durable: number) {
    const again = this.ledger.takeAbove(sessionId, seq);
    this.setDurable(sessionId, durable);
    this.requeue(sessionId, again);
  }

  /** Puts `batches` back in the queue, in order, and sends the session's next one. */
  private requeue(sessionId: string, batches: Batch[]) {
    this.queue.add(batches);
    this.host.changed();
    this.pump(sessionId);
  }

  private scheduleSync() {
    if (this.disposed) return;
    this.syncTimer ??= setTimeout(this.sync, this.host.syncMs);
  }

  /** Asks how far the held batches are: durable ones are dropped, lost ones sent again. */
  private readonly sync = () => {
    this.syncTimer = null;
    if (this.notDurable === 0) return;
    this.scheduleSync();
    if (!this.host.channel.connected) return;
    for (const sessionId of this.ledger.holding()) {
      this.host.channel.askSync({ sessionId }).then(
        (ack) => this.synced(sessionId, ack),
        () => undefined,
      );
    }
  };

  private synced(sessionId: string, ack: TapSyncAck) {
    if (!ack.ok) {
      if (isUnavailable(ack.status)) this.host.availability.setUnavailable();
      return;
    }
    this.host.served();
    if (ack.seq < this.ledger.highestHeld(sessionId)) {
      this.lost(sessionId, ack.seq, ack.durableSeq);
    } else this.setDurable(sessionId, ack.durableSeq);
  }

  /**
   * After a reconnect: the unanswered batches and the answered ones not yet durable go again, in
   * order (the server may have restarted without them, and what was on its way is lost); it
   * counts each number once.
   */
  reconnected(): void {
    this.queue.grounded();
    for (const [sessionId, again] of this.ledger.takeAll()) this.requeue(sessionId, again);
  }
}
