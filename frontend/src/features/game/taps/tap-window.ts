type Timer = ReturnType<typeof setTimeout>;

/** Taps counted on the screen and not yet numbered into a batch: all of one session. */
export interface LooseTaps {
  userId: string;
  sessionId: string;
  count: number;
}

/**
 * The taps of the current window: gathered for a short while, then numbered into a batch when
 * the window ends (`onEnd`), or at once when the page goes.
 */
export class TapWindow {
  private loose: LooseTaps | null = null;
  private timer: Timer | null = null;

  constructor(private readonly onEnd: () => void) {}

  /** The taps gathered, if any. */
  get taps(): Readonly<LooseTaps> | null {
    return this.loose;
  }

  /** Whether a window is running (its end will take the taps). */
  get open(): boolean {
    return this.timer !== null;
  }

  /** Taps gathered (of `sessionId` only, if given). */
  count(sessionId?: string): number {
    if (!this.loose || (sessionId !== undefined && this.loose.sessionId !== sessionId)) return 0;
    return this.loose.count;
  }

  add(userId: string, sessionId: string): void {
    this.loose ??= { userId, sessionId, count: 0 };
    this.loose.count += 1;
  }

  /** Takes `count` of the taps gathered (there must be as many). */
  take(count: number): LooseTaps {
    const loose = this.loose!;
    loose.count -= count;
    if (loose.count === 0) this.loose = null;
    return { userId: loose.userId, sessionId: loose.sessionId, count };
  }

  /** Takes every tap gathered. */
  takeAll(): LooseTaps | null {
    const loose = this.loose;
    this.loose = null;
    return loose;
  }

  /** Starts a window of `ms` unless one runs. */
  start(ms: number): void {
    this.timer ??= setTimeout(this.end, ms);
  }

  /** Ends the running window now, without `onEnd`. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Drops the taps gathered and the window. */
  clear(): void {
    this.stop();
    this.loose = null;
  }

  private readonly end = () => {
    this.timer = null;
    this.onEnd();
  };
}
