import type { GameSession, GameUser, TapBucket } from '@tapgram/shared';
import { ApiError } from '../../../lib/api';
import type { KeptPost } from './kept-taps';
import { isUnavailable, totalsOf, type SentTaps, type TapSettled } from './tap-answers';

/**
 * The spec's per-tap call. `key` names the tap (the Idempotency-Key header): a tap posted again
 * with its key counts once.
 */
export type PostTap = (
  userId: string,
  sessionId: string,
  key: string,
) => Promise<{ user: GameUser; session: GameSession }>;

/** What the posts need of the tap protocol they belong to. */
export interface TapPostsHost {
  readonly bucket: TapBucket;
  postTap: PostTap;
  onSettled(result: TapSettled): void;
  onError(error: Error, sent: number): void;
  /** A tap was counted: the game serves. */
  served(): void;
  /** The game could not count (503, 504): the taps wait, and the host asks again later. */
  unavailable(): void;
  /** Calls `next` again once the bucket holds `taps`. */
  paceFor(taps: number): void;
  /** A post did not reach the server (no network): the taps wait, and the host asks again later. */
  offline(): void;
  /** What the posts keep changed (the device keeps it). */
  changed(): void;
  /**
   * Taps were posted for the first time: the server's figures answered from then on may hold
   * them, and the screen must know.
   */
  posted(): void;
}

/** A tap posted over HTTP, with the key that makes a re-post count once. */
type PostedTap = KeptPost;

/** A tap key: random, and made without crypto.randomUUID, which plain-HTTP pages lack. */
function newTapKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The taps of the game screen while its socket is down: one POST each, named by a key, as the
 * allowance's bucket holds them. A tap the game could not count (503, 504) or refused for the rate
 * with a time to try again (429 with Retry-After) is posted again with its key.
 */
export class TapPosts {
  /** Taps to post, oldest first. */
  private waiting: PostedTap[] = [];
  /** Taps on their way: kept on the device until answered. */
  private readonly flying = new Set<PostedTap>();
  private posting = 0;
  private stopped = false;

  constructor(private readonly host: TapPostsHost) {}

  /** Taps waiting or on their way. */
  get unconfirmed(): number {
    return this.waiting.length + this.posting;
  }

  /** Taps of `sessionId` waiting or on their way. */
  unconfirmedIn(sessionId: string): number {
    let n = 0;
    for (const tap of this.waiting) if (tap.sessionId === sessionId) n += 1;
    for (const tap of this.flying) if (tap.sessionId === sessionId) n += 1;
    return n;
  }

  /** Taps posted before and not answered (the server may have counted them already). */
  sent(): SentTaps[] {
    const sent: SentTaps[] = [];
    for (const { sessionId, sentAt } of [...this.flying, ...this.waiting]) {
      if (sentAt !== undefined) sent.push({ sessionId, at: sentAt, count: 1 });
    }
    return sent;
  }

  get hasWaiting(): boolean {
    return this.waiting.length > 0;
  }

  /** `count` new taps, each named by a key of its own. */
  add(userId: string, sessionId: string, count: number): void {
    for (let i = 0; i < count; i += 1) this.waiting.push({ userId, sessionId, key: newTapKey() });
    this.host.changed();
  }

  /** Taps kept by an earlier page, posted again with their keys. */
  restore(posts: KeptPost[]): void {
    this.waiting.push(...posts);
  }

  /** What the device keeps: the taps waiting and those on their way. */
  kept(): KeptPost[] {
    return [...this.flying, ...this.waiting];
  }

  /** Posts the waiting taps the bucket holds now; the others as it refills. */
  next(): void {
    let first = false;
    while (this.waiting.length > 0 && this.host.bucket.take(1)) {
      first = this.post(this.waiting.shift()!) || first;
    }
    if (first) this.host.posted();
    if (this.waiting.length > 0) this.host.paceFor(1);
  }

  /** While the game is unavailable: posts one waiting tap, as the bucket allows, to ask. */
  probe(): void {
    if (this.waiting.length > 0 && this.host.bucket.take(1) && this.post(this.waiting.shift()!)) {
      this.host.posted();
    }
  }

  /** Drops what waits, and ignores what is on its way (a frozen player). */
  stop(): void {
    this.stopped = true;
    this.waiting = [];
    this.flying.clear();
  }

  /** Posts `tap`; answers whether it left for the first time. */
  private post(tap: PostedTap): boolean {
    const first = tap.sentAt === undefined;
    tap.sentAt ??= Date.now();
    this.posting += 1;
    this.flying.add(tap);
    this.host.postTap(tap.userId, tap.sessionId, tap.key).then(
      (answer) => {
        this.posting -= 1;
        this.flying.delete(tap);
        this.host.changed();
        this.host.served();
        this.host.onSettled({
          userId: tap.userId,
          sessionId: tap.sessionId,
          totals: totalsOf(answer),
          accepted: 1,
          sent: 1,
        });
      },
      (error: Error) => {
        this.posting -= 1;
        this.flying.delete(tap);
        if (this.stopped) return;
        if (!(error instanceof ApiError)) {
          // No answer at all (the network gone, the server restarting): the tap waits, key and
          // all, and is posted again; the server counts it once if the first one did reach it.
          this.waiting.unshift(tap);
          this.host.bucket.refund(1);
          this.host.offline();
          return;
        }
        const { status, retryAfterMs } = error;
        // A 503 counted nothing: the server spent none of the allowance.
        if (status === 503) this.host.bucket.refund(1);
        if (isUnavailable(status)) {
          this.waiting.unshift(tap);
          this.host.unavailable();
        } else if (status === 429 && retryAfterMs !== undefined) {
          // Posted as the bucket allowed, and refused all the same: posted again, key and all,
          // once the server's allowance holds it.
          this.waiting.unshift(tap);
          this.host.bucket.holdsIn(1, retryAfterMs);
          this.host.paceFor(1);
        } else {
          this.host.changed();
          this.host.onError(error, 1);
        }
      },
    );
    return first;
  }
}
