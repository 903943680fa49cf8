type Timer = ReturnType<typeof setTimeout>;

/**
 * A wait drawn at random between half of `ms` and `ms`: screens a busy server refused at the same
 * moment ask again spread over time, not together.
 */
const jittered = (ms: number) => ms * (0.5 + Math.random() / 2);

export interface AvailabilityOptions {
  /** While the game is unavailable: how long before trying again. */
  retryMs: number;
  /** `unavailable` or `offline` changed. */
  onChange: () => void;
  /** While unavailable, every `retryMs` or so: ask whether the game serves. */
  retry: () => void;
}

/**
 * Whether the game serves this page's taps: unavailable (a 503 or 504, or no network) until an
 * answer says it serves again, asking every so often meanwhile.
 */
export class Availability {
  private down = false;
  /** The last call did not reach the server at all (no network); cleared by the next answer. */
  private noNetwork = false;
  private retryTimer: Timer | null = null;
  private disposed = false;

  constructor(private readonly options: AvailabilityOptions) {}

  /** The server said the game is briefly unavailable, and has not served a tap since. */
  get unavailable(): boolean {
    return this.down;
  }

  /** The last call did not reach the server. */
  get offline(): boolean {
    return this.down && this.noNetwork;
  }

  /** A call did not reach the server: unavailable, and offline. */
  setOffline(): void {
    if (this.disposed) return;
    if (!this.noNetwork) {
      this.noNetwork = true;
      this.options.onChange();
    }
    this.setUnavailable();
  }

  setUnavailable(): void {
    if (this.disposed) return;
    if (!this.down) {
      this.down = true;
      this.options.onChange();
    }
    this.retryTimer ??= setTimeout(this.tick, jittered(this.options.retryMs));
  }

  /** An answer came: the network is there (whatever the answer says of the game). */
  reached(): void {
    if (!this.noNetwork) return;
    this.noNetwork = false;
    this.options.onChange();
  }

  /** The game served: answers whether it was unavailable until now. */
  setServed(): boolean {
    this.reached();
    if (!this.down) return false;
    this.down = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.options.onChange();
    return true;
  }

  /** While unavailable: ask now rather than at the next retry. */
  retryNow(): void {
    if (!this.down || this.disposed) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.tick();
  }

  dispose(): void {
    this.disposed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private readonly tick = () => {
    this.retryTimer = null;
    if (!this.down || this.disposed) return;
    this.retryTimer = setTimeout(this.tick, jittered(this.options.retryMs));
    this.options.retry();
  };
}
