/** A rate with a burst: `perSecond` tokens come back a second, up to `burst`. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Token buckets per key in memory: a player's tap rate without Redis, a socket's messages. */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes `wanted` tokens if the bucket holds them all; takes none otherwise. */
  take(key: string, wanted: number): boolean {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.limit.burst, at: now };
    const refilled = Math.min(
      this.limit.burst,
      bucket.tokens + ((now - bucket.at) / 1000) * this.limit.perSecond,
    );
    const granted = refilled >= wanted;
    this.buckets.set(key, { tokens: granted ? refilled - wanted : refilled, at: now });
    return granted;
  }

  /** Gives back tokens taken for taps that were then not counted. */
  refund(key: string, tokens: number): void {
    const bucket = this.buckets.get(key);
    if (bucket) bucket.tokens = Math.min(this.limit.burst, bucket.tokens + tokens);
  }

  /** Drops buckets that have refilled completely; they hold nothing a fresh one would not. */
  prune(): void {
    const now = this.now();
    const fullAfterMs = (this.limit.burst / this.limit.perSecond) * 1000;
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.at > fullAfterMs) this.buckets.delete(key);
    }
  }
}
