import type { ModeratedContentType } from '@tapgram/shared';
import type pg from 'pg';
import { withTransaction } from '../../core/db';
import type { Logger } from '../../core/logger';
import type { ContentTypes, ModeratedContent } from './content-types';
import type { QueueRepository } from './queue-repository';

export interface CheckSettings {
  queueThreshold: number;
  holdThreshold: number;
}

const RECHECK_BATCH = 100;

export interface ContentCheckerDeps {
  pool: pg.Pool;
  queue: QueueRepository;
  types: ContentTypes;
  settings: CheckSettings;
  logger: Logger;
}

/**
 * The automatic check of new content, of every type, off the request path. An item is written
 * 'checking' (public nowhere) and leaves that state only here: public, or held at the hold
 * threshold; at the queue threshold, or when a check could not run, it also enters the queue.
 */
export class ContentChecker {
  private readonly running = new Set<Promise<void>>();
  private stopping = false;

  private readonly pool: pg.Pool;
  private readonly queue: QueueRepository;
  private readonly types: ContentTypes;
  private readonly settings: CheckSettings;
  private readonly logger: Logger;

  constructor({ pool, queue, types, settings, logger }: ContentCheckerDeps) {
    this.pool = pool;
    this.queue = queue;
    this.types = types;
    this.settings = settings;
    this.logger = logger;
    for (const type of types.all()) type.checkNew((id) => this.checkNow(type, id));
  }

  /**
   * At start-up, in the background: checks again the items that a stopped server left checking
   * (created before this start; newer ones are being checked).
   */
  start(): void {
    const until = new Date();
    for (const type of this.types.all()) this.track(this.recheck(type, until));
  }

  /** Stops the start-up re-check and resolves when the checks in flight have finished. */
  async settled(): Promise<void> {
    this.stopping = true;
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /** Checks one item; resolves when done (a failure is logged, never thrown). */
  private checkNow(type: ModeratedContent, id: string): Promise<void> {
    return this.track(this.check(type, id));
  }

  private track(work: Promise<void>): Promise<void> {
    const tracked = work
      .catch((err: unknown) => this.logger.error({ err }, 'automatic check failed'))
      .finally(() => this.running.delete(tracked));
    this.running.add(tracked);
    return tracked;
  }

  private async recheck(type: ModeratedContent, until: Date): Promise<void> {
    let after: { at: string; id: string } | null = null;
    while (!this.stopping) {
      const batch = await type.unchecked(until, RECHECK_BATCH, after);
      for (const item of batch) {
        if (this.stopping) return;
        await this.check(type, item.id).catch((err: unknown) =>
          this.logger.error(
            { err, contentType: type.type, contentId: item.id },
            'automatic re-check failed',
          ),
        );
      }
      if (batch.length < RECHECK_BATCH) return;
      const last = batch[batch.length - 1];
      after = { at: last.createdAt, id: last.id };
    }
  }

  private async check(type: ModeratedContent, id: string): Promise<void> {
    const scored = await type.score(id);
    if (!scored) return;
    const { score, reasons, complete, version } = scored;
    const hold = score >= this.settings.holdThreshold;
    const needsLook = !complete || score >= this.settings.queueThreshold;
    const contentType: ModeratedContentType = type.type;
    await withTransaction(this.pool, async (client) => {
      const move = await type.finishCheck(client, { id, score, hold, version });
      // An open item of an edit is of the edit this one replaced: nothing is left to decide there.
      if (move && type.edit) await this.queue.dropPending(contentType, id, client);
      // Only the check that ended the 'checking' state queues: not a late one after a decision.
      if (move && needsLook) {
        const why = reasons.join(', ') || 'score at the queue threshold';
        const what = type.edit ? 'Edit, automatic check' : 'Automatic check';
        const reason = `${what} ${score.toFixed(2)}${hold ? ', held' : ''}: ${why}`;
        await this.queue.enqueue(client, {
          contentType,
          contentId: id,
          aiScore: score,
          reason,
          report: false,
        });
      }
      if (move) await this.types.moved(client, type, id, move);
    });
  }
}
