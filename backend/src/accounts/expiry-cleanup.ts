import type { Logger } from '../core/logger';

/** A table whose rows expire: wallet nonces, sign-in sessions. */
export interface Expiring {
  deleteExpired(now?: Date): Promise<number>;
}

export interface ExpiryCleanup {
  /** Starts the timer (the feature's start-up); it never keeps the process alive. */
  start(): void;
  /** Deletes what has expired now; answers how many rows per table. */
  runOnce(): Promise<Record<string, number>>;
  /** Stops the timer and waits for a run in progress (before the pool closes). */
  stop(): Promise<void>;
}

/**
 * Deletes expired rows every `intervalMs` once started, so that tables written by unauthenticated
 * requests do not grow without limit.
 */
export function createExpiryCleanup(
  tables: Record<string, Expiring>,
  logger: Logger,
  intervalMs: number,
): ExpiryCleanup {
  let running: Promise<Record<string, number>> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const deleteAll = async () => {
    const now = new Date();
    const deleted: Record<string, number> = {};
    for (const [name, table] of Object.entries(tables)) {
      deleted[name] = await table.deleteExpired(now);
    }
    return deleted;
  };
  // One run at a time: a slow run is joined, not doubled.
  const runOnce = () => {
    running ??= deleteAll().finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    start() {
      if (timer) return;
      timer = setInterval(() => {
        runOnce().then(
          (deleted) => logger.debug({ deleted }, 'expired rows deleted'),
          (err: unknown) => logger.warn({ err }, 'expired rows cleanup failed'),
        );
      }, intervalMs);
      timer.unref();
    },
    runOnce,
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}
