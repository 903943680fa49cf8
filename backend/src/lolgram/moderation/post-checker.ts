import type pg from 'pg';
import { withTransaction } from '../../core/db';
import type { Logger } from '../../core/logger';
import type { ImageStore } from '../../images';
import type { PostsRepository } from '../posts/posts-repository';
import type { QueueRepository } from './queue-repository';
import type { ContentScorer } from './scoring';

export interface CheckSettings {
  queueThreshold: number;
  holdThreshold: number;
}

const RECHECK_BATCH = 100;

/**
 * The automatic check of new posts, off the request path. A post is inserted 'checking' (public
 * nowhere) and leaves that state only here: visible, or held at the hold threshold; at the queue
 * threshold, or when a check could not run, it also enters the queue.
 */
export class PostChecker {
  private readonly running = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly posts: PostsRepository,
    private readonly queue: QueueRepository,
    private readonly scorer: ContentScorer,
    private readonly images: ImageStore,
    private readonly settings: CheckSettings,
    private readonly logger: Logger,
    /** Called when a post became visible or was held. */
    private readonly onVisibilityChange: () => void,
  ) {}

  checkLater(postId: string, image: Buffer, caption: string): void {
    this.track(this.check(postId, image, caption));
  }

  /**
   * At start-up, in the background: loads the image model, and checks again the posts that a
   * stopped server left checking (created before this start; newer ones are being checked).
   */
  start(): void {
    this.scorer.warmUp().then(
      () => this.logger.info({ imageCheck: this.scorer.imageCheckState() }, 'image check prepared'),
      (err: unknown) => this.logger.error({ err }, 'image model failed to load; retried later'),
    );
    this.track(this.recheck(new Date()));
  }

  imageCheckState() {
    return this.scorer.imageCheckState();
  }

  /** Stops the start-up re-check and resolves when the checks in flight have finished. */
  async settled(): Promise<void> {
    this.stopping = true;
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  private track(work: Promise<void>): void {
    const tracked = work
      .catch((err: unknown) => this.logger.error({ err }, 'automatic check failed'))
      .finally(() => this.running.delete(tracked));
    this.running.add(tracked);
  }

  private async recheck(until: Date): Promise<void> {
    let after: { at: string; id: string } | null = null;
    while (!this.stopping) {
      const batch = await this.posts.unchecked(until, RECHECK_BATCH, after);
      for (const post of batch) {
        if (this.stopping) return;
        const image = await this.images.get(post.imageKey);
        await this.check(post.id, image, post.caption).catch((err: unknown) =>
          this.logger.error({ err, postId: post.id }, 'automatic re-check failed'),
        );
      }
      if (batch.length < RECHECK_BATCH) return;
      const last = batch[batch.length - 1];
      after = { at: last.createdAt, id: last.id };
    }
  }

  private async check(postId: string, image: Buffer | null, caption: string): Promise<void> {
    const { score, reasons, complete } = await this.scorer.score(image, caption);
    const hold = score >= this.settings.holdThreshold;
    const needsLook = !complete || score >= this.settings.queueThreshold;
    const moved = await withTransaction(this.pool, async (client) => {
      const move = await this.posts.finishCheck(client, postId, score, hold);
      // Only the check that ended the 'checking' state queues: not a late one after a decision.
      if (move?.was === 'checking' && needsLook) {
        const why = reasons.join(', ') || 'score at the queue threshold';
        const reason = `Automatic check ${score.toFixed(2)}${hold ? ', held' : ''}: ${why}`;
        await this.queue.enqueue(client, { postId, aiScore: score, reason, report: false });
      }
      return move;
    });
    if (moved && moved.was !== moved.now) this.onVisibilityChange();
  }
}
