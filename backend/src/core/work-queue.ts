import { ServiceUnavailableError } from './errors';

/** How much of one kind of heavy work a process takes on at once. */
export interface WorkLimits {
  /** Jobs running at once. */
  running: number;
  /** Jobs queued in order behind them; more are refused at once. */
  waiting: number;
  /** Sent as Retry-After with a refusal (1 when unset). */
  retryAfterSeconds?: number;
}

/**
 * Runs jobs at most `running` at once in this process with `waiting` more queued in order; past
 * that a caller is refused at once (503 with Retry-After), so that a flood of heavy requests
 * cannot take every CPU, thread and megabyte from taps and reads.
 */
export class WorkQueue {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly limits: WorkLimits,
    private readonly busyMessage: string,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.limits.running) {
      this.running += 1;
    } else if (this.queue.length < this.limits.waiting) {
      // The slot is handed over by the work that ends (see below): `running` stays as it is.
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else {
      throw new ServiceUnavailableError(this.busyMessage, this.limits.retryAfterSeconds ?? 1);
    }
    try {
      return await work();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
