import { TapBucket, type TapAllowance } from '@tapgram/shared';

/** Token buckets per key in memory: a player's tap rate without Redis, a socket's messages. */
export class TokenBuckets {
  private readonly buckets = new Map<string, TapBucket>();

  constructor(
    private readonly limit: TapAllowance,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes `wanted` tokens if the bucket holds them all; takes none otherwise. */
  take(key: string, wanted: number): boolean {
    return this.bucket(key).take(wanted);
  }

  /** Milliseconds until `key`'s bucket holds `wanted` tokens (Infinity: never). */
  msUntil(key: string, wanted: number): number {
    return this.bucket(key).msUntil(wanted);
  }

  /** Gives back tokens taken for taps that were then not counted. */
  refund(key: string, tokens: number): void {
    this.buckets.get(key)?.refund(tokens);
  }

  /** Drops buckets that have refilled completely; they hold nothing a fresh one would not. */
  prune(): void {
    for (const [key, bucket] of this.buckets) if (bucket.full) this.buckets.delete(key);
  }

  private bucket(key: string): TapBucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new TapBucket(this.limit, this.now);
      this.buckets.set(key, bucket);
    }
    return bucket;
  }
}
