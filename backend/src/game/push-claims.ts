/** The changed boards are pushed at most this often, across every process. */
export const PUSH_INTERVAL_MS = 1000;

/**
 * Who pushes the changed leaderboards, and when. A claim holds the push for one interval; the
 * change counts as pushed only once the claimant says so. A claimant that never does (its answer
 * from Redis was lost, its push failed, it died) holds nothing back: once the interval has passed,
 * the next claim carries the change.
 */
export interface PushClaims {
  /**
   * At most once a push interval across every process, when something changed since the last
   * push done: the change counter claimed, to give to `pushed`. Null: not this time.
   */
  claim(): Promise<number | null>;
  /** The push of a claim is done: nothing up to `version` is claimed again. */
  pushed(version: number): Promise<void>;
  /** Gives back this process's last claim when its push failed, so that the next check retries. */
  release(): Promise<void>;
  /** A counter that moves whenever something the boards show may have changed. */
  version(): Promise<number>;
}

/** Claims of one process (the single-node store): changes are counted where they happen. */
export class LocalPushClaims implements PushClaims {
  private changes = 0;
  private pushedVersion = 0;
  private claimedAt = -Infinity;

  constructor(private readonly now: () => number = Date.now) {}

  /** Something the boards show changed. */
  changed(): void {
    this.changes += 1;
  }

  async claim(): Promise<number | null> {
    const now = this.now();
    if (this.changes === this.pushedVersion || now - this.claimedAt < PUSH_INTERVAL_MS) {
      return null;
    }
    this.claimedAt = now;
    return this.changes;
  }

  async pushed(version: number): Promise<void> {
    this.pushedVersion = version;
  }

  async release(): Promise<void> {
    this.claimedAt = -Infinity;
  }

  async version(): Promise<number> {
    return this.changes;
  }
}
