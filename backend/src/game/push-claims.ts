/** The changed boards are pushed at most this often, across every process. */
export const PUSH_INTERVAL_MS = 1000;

/** Who pushes the changed leaderboards, and when. */
export interface PushClaims {
  /** True at most once a push interval across every process, when something changed since. */
  claim(): Promise<boolean>;
  /** Gives back this process's last claim when its push failed, so that the next check retries. */
  release(): Promise<void>;
  /** A counter that moves whenever something the boards show may have changed. */
  version(): Promise<number>;
}

/** Claims of one process (the single-node store): changes are counted where they happen. */
export class LocalPushClaims implements PushClaims {
  private changes = 0;
  private pushed = { version: 0, at: -Infinity };
  private beforeClaim: { version: number; at: number } | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** Something the boards show changed. */
  changed(): void {
    this.changes += 1;
  }

  async claim(): Promise<boolean> {
    const now = this.now();
    if (this.changes === this.pushed.version || now - this.pushed.at < PUSH_INTERVAL_MS) {
      return false;
    }
    this.beforeClaim = this.pushed;
    this.pushed = { version: this.changes, at: now };
    return true;
  }

  async release(): Promise<void> {
    if (this.beforeClaim) this.pushed = this.beforeClaim;
    this.beforeClaim = undefined;
  }

  async version(): Promise<number> {
    return this.changes;
  }
}
