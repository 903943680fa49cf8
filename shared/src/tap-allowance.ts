/**
 * How fast a player may tap: `perSecond` taps a second on average, and up to `burst` at once. The
 * server refuses a batch the player's allowance does not hold whole (429); it announces its own
 * allowance on the game channel (`gameEvents.allowance`), so that a client sends no more than it
 * accepts. Plain values, apart from the schemas: the game screen loads no zod for them.
 */
export interface TapAllowance {
  perSecond: number;
  burst: number;
}

/** The allowance of a server that sets none (TAP_RATE_PER_SECOND, TAP_BURST). */
export const DEFAULT_TAP_ALLOWANCE: TapAllowance = { perSecond: 20, burst: 40 };

/**
 * A token bucket: it holds up to `burst` taps and refills at `perSecond`, and a batch takes its
 * size from it whole or not at all. The server keeps one per player (its rule; the Redis tap
 * script computes the same in Lua), and the game screen one of its own, to send what the server's
 * holds, as it refills. Time is epoch milliseconds from `now`.
 */
export class TapBucket {
  private tokens: number;
  private at: number;

  constructor(
    private limit: TapAllowance = DEFAULT_TAP_ALLOWANCE,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = limit.burst;
    this.at = now();
  }

  get allowance(): TapAllowance {
    return this.limit;
  }

  /** Taps the bucket holds now (not always whole). */
  available(): number {
    const now = this.now();
    this.tokens = Math.min(
      this.limit.burst,
      this.tokens + (Math.max(0, now - this.at) * this.limit.perSecond) / 1000,
    );
    this.at = now;
    return this.tokens;
  }

  /** Whether the bucket has refilled to its burst: it holds what a new one would. */
  get full(): boolean {
    return this.available() >= this.limit.burst;
  }

  /** Takes `taps` if the bucket holds them all; takes none otherwise. */
  take(taps: number): boolean {
    if (this.available() < taps) return false;
    this.tokens -= taps;
    return true;
  }

  /** Gives back what was taken for taps that were then not counted. */
  refund(taps: number): void {
    this.tokens = Math.min(this.limit.burst, this.available() + taps);
  }

  /** Milliseconds until the bucket holds `taps`: 0 now, Infinity never (more than the burst). */
  msUntil(taps: number): number {
    if (taps > this.limit.burst) return Infinity;
    const missing = taps - this.available();
    return missing <= 0 ? 0 : Math.ceil((missing * 1000) / this.limit.perSecond);
  }

  /** Follows another holder's word that this bucket will hold `taps` in `ms` (a 429's retry time). */
  holdsIn(taps: number, ms: number): void {
    this.available();
    this.tokens = taps - (ms * this.limit.perSecond) / 1000;
  }

  /** Takes another allowance (the server's), keeping what the bucket holds up to the new burst. */
  setAllowance(allowance: TapAllowance): void {
    this.available();
    this.limit = allowance;
    this.tokens = Math.min(this.tokens, allowance.burst);
  }
}
