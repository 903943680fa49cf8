import {
  moderationNotes,
  type ModerationDecision,
  type ModerationQueueEntry,
} from '@tapgram/shared';
import type pg from 'pg';
import { withTransaction } from '../core/db';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
} from '../core/errors';
import type { Logger } from '../core/logger';
import type { Viewer } from '../lolgram/sessions';
import type { ModerationRepository } from './moderation-repository';
import type { ContentScorer } from './scoring';

export interface ModerationSettings {
  queueThreshold: number;
  holdThreshold: number;
  reportsPerHour: number;
  adminUsernames: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who may moderate, what enters the queue, and decisions with their audit trail. */
export class ModerationService {
  private readonly scoring = new Set<Promise<void>>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly repo: ModerationRepository,
    private readonly scorer: ContentScorer,
    private readonly settings: ModerationSettings,
    private readonly logger: Logger,
    /** Called when a post's visibility changed (held, approved, rejected). */
    private readonly onVisibilityChange: () => void = () => undefined,
  ) {}

  isAdmin(viewer: Viewer): boolean {
    return (
      viewer.role === 'admin' ||
      this.settings.adminUsernames.includes(viewer.username.toLowerCase())
    );
  }

  requireAdmin(viewer: Viewer | null): Viewer {
    if (!viewer) throw new UnauthorizedError('Not signed in');
    if (!this.isAdmin(viewer)) throw new ForbiddenError('Admins only');
    return viewer;
  }

  /**
   * Scores a new post off the request path; at the queue threshold it enters the queue, at the
   * hold threshold it is also held out of every listing until a moderator approves it.
   */
  scoreLater(postId: string, image: Buffer, caption: string): void {
    const work = this.score(postId, image, caption)
      .catch((err: unknown) => this.logger.error({ err, postId }, 'scoring failed'))
      .finally(() => this.scoring.delete(work));
    this.scoring.add(work);
  }

  /** Resolves when every scoring started so far has finished (tests and shutdown). */
  async settled(): Promise<void> {
    while (this.scoring.size > 0) await Promise.all([...this.scoring]);
  }

  private async score(postId: string, image: Buffer, caption: string): Promise<void> {
    const { score, reasons } = await this.scorer.score(image, caption);
    const hold = score >= this.settings.holdThreshold;
    await this.repo.setScore(postId, score, hold);
    if (hold) this.onVisibilityChange();
    if (score >= this.settings.queueThreshold) {
      const reason = `Automatic check ${score.toFixed(2)}${hold ? ', held' : ''}: ${reasons.join(', ')}`;
      await this.repo.enqueue(this.pool, { postId, aiScore: score, reason, report: false });
    }
  }

  async report(viewer: Viewer, postId: string, reason: string): Promise<void> {
    if (!UUID.test(postId)) throw new NotFoundError('Post not found');
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    if ((await this.repo.reportsSince(viewer.id, hourAgo)) >= this.settings.reportsPerHour) {
      throw new TooManyRequestsError('Too many reports: try again later');
    }
    await withTransaction(this.pool, async (client) => {
      const { rowCount } = await client.query(
        "SELECT 1 FROM posts WHERE id = $1 AND status <> 'rejected'",
        [postId],
      );
      if (!rowCount) throw new NotFoundError('Post not found');
      if (!(await this.repo.addReport(client, postId, viewer.id, reason))) {
        throw new ConflictError('You already reported this post');
      }
      await this.repo.enqueue(client, {
        postId,
        aiScore: 0,
        reason: `Reported: ${reason}`,
        report: true,
      });
    });
  }

  queue(viewer: Viewer | null): Promise<ModerationQueueEntry[]> {
    this.requireAdmin(viewer);
    return this.repo.pending();
  }

  async decide(
    viewer: Viewer | null,
    queueId: string,
    decision: ModerationDecision,
    notes?: string,
  ) {
    const moderator = this.requireAdmin(viewer);
    if (!UUID.test(queueId)) throw new NotFoundError('Queue item not found');
    const outcome = await withTransaction(this.pool, (client) =>
      this.repo.decide(
        client,
        queueId,
        moderator.id,
        decision,
        notes?.trim() || moderationNotes[decision],
      ),
    );
    this.onVisibilityChange();
    if (outcome === 'missing') throw new NotFoundError('Queue item not found');
    if (outcome === 'already-decided')
      throw new ConflictError('This item has already been decided');
    return { id: queueId, decision, moderatorId: moderator.id };
  }
}
