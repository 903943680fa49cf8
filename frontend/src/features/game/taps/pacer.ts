type Timer = ReturnType<typeof setTimeout>;

/**
 * One wake-up, at the earliest time asked for: what waits for the allowance's bucket to hold it
 * (or for a server's "later") is tried again then.
 */
export class Pacer {
  private timer: Timer | null = null;
  private at = 0;
  private disposed = false;

  constructor(private readonly wake: () => void) {}

  /** Wakes in `ms` (at least 1), unless a wake-up is due sooner; never for an endless wait. */
  in(ms: number): void {
    if (this.disposed || !Number.isFinite(ms)) return;
    const at = Date.now() + Math.max(1, ms);
    if (this.timer && this.at <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.at = at;
    this.timer = setTimeout(this.fire, Math.max(1, ms));
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private readonly fire = () => {
    this.timer = null;
    this.wake();
  };
}
