interface Window {
  count: number;
  /** The count drops to zero once this passes: the window runs from the key's latest attempt. */
  expiresAt: number;
}

const DEFAULT_MAX_KEYS = 100_000;

/**
 * Counts attempts per key; a key at its limit is refused until `windowMs` after its latest
 * counted attempt. `take` checks and counts in one synchronous step, so concurrent requests in
 * this process cannot all slip past the check before any of them is counted.
 *
 * Memory stays bounded: every count moves its key to the end of the Map, so the Map is ordered by
 * expiry and pruning only looks at its front; past `maxKeys` the oldest keys are dropped.
 */
export class FailureLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = DEFAULT_MAX_KEYS,
  ) {}

  blocked(key: string): boolean {
    return this.count(key) >= this.limit;
  }

  /** Counts one attempt and answers true, or answers false (counting nothing) at the limit. */
  take(key: string): boolean {
    const count = this.count(key);
    if (count >= this.limit) return false;
    this.windows.delete(key);
    this.windows.set(key, { count: count + 1, expiresAt: this.now() + this.windowMs });
    this.prune();
    return true;
  }

  /** Takes one counted attempt back (it turned out fine). */
  forgive(key: string): void {
    const window = this.windows.get(key);
    if (!window) return;
    if (window.count <= 1) this.windows.delete(key);
    else window.count -= 1;
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  get size(): number {
    return this.windows.size;
  }

  private count(key: string): number {
    const window = this.windows.get(key);
    if (!window) return 0;
    if (window.expiresAt > this.now()) return window.count;
    this.windows.delete(key);
    return 0;
  }

  private prune() {
    const now = this.now();
    for (const [key, window] of this.windows) {
      if (window.expiresAt > now && this.windows.size <= this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}
