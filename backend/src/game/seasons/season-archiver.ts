import { seasonAt } from '@tapgram/shared';
import { HttpError } from '../../core/errors';
import type { Logger } from '../../core/logger';
import type { SeasonsService } from './seasons-service';

/** How often a process looks at its own clock for a season that has ended. */
const CHECK_MS = 1000;

/**
 * Archives each season as it ends. Every process looks once a second at its own clock, which
 * costs nothing; when a season has ended by it, the service checks the store's clock and archives
 * it, once across every process. A process that dies half-way leaves the archive to the next look,
 * its own after a restart or another process's.
 */
export class SeasonArchiver {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  /** The season this process last saw running by the store's clock. */
  private seen = 0;

  constructor(
    private readonly seasons: SeasonsService,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Archives what has ended (and, at the first start, begins with the running season) in the
   * background: the server does not wait for an archive to listen.
   */
  start(): void {
    void this.check();
    this.timer = setInterval(() => {
      if (seasonAt(this.now(), this.seasons.calendar) > this.seen) void this.check();
    }, CHECK_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  check(): Promise<void> {
    this.running ??= this.archive().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async archive(): Promise<void> {
    try {
      const archived = await this.seasons.archiveEnded();
      for (const season of archived) this.logger.info({ season }, 'season archived');
      this.seen = await this.seasons.currentId();
    } catch (err) {
      // Unavailable storage is said elsewhere; the next look tries again.
      if (!(err instanceof HttpError)) this.logger.error({ err }, 'season archive failed');
    }
  }
}
