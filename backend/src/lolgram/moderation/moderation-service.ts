import {
  moderationNotes,
  type ModerationDecision,
  type ModerationDecisionAnswer,
  type ModerationQueueEntry,
  type ReportBody,
} from '@tapgram/shared';
import type pg from 'pg';
import { withTransaction } from '../../core/db';
import {
  ConflictError,
  NotFoundError,
  TooManyRequestsError,
  ValidationError,
} from '../../core/errors';
import { requireAdmin, type Viewer } from '../../accounts';
import type { PostChecker } from './post-checker';
import type { Move, PostsRepository } from '../posts/posts-repository';
import type { QueueRepository } from './queue-repository';
import { isId } from '../../core/ids';

/** Who may moderate, reports, and decisions with their audit trail. */
export class ModerationService {
  constructor(
    private readonly pool: pg.Pool,
    private readonly queueRepo: QueueRepository,
    private readonly posts: PostsRepository,
    readonly checker: PostChecker,
    private readonly settings: { reportsPerHour: number },
    /** Called when a post's visibility changed (approved, rejected). */
    private readonly onVisibilityChange: () => void = () => undefined,
  ) {}

  /** Hands a new post to the automatic check, which runs after the answer. */
  scoreLater(postId: string, image: Buffer, caption: string): void {
    this.checker.checkLater(postId, image, caption);
  }

  /** Resolves when the automatic checks in flight have finished (shutdown). */
  settled(): Promise<void> {
    return this.checker.settled();
  }

  async report(viewer: Viewer, postId: string, { reason, details }: ReportBody): Promise<void> {
    if (!isId(postId)) throw new NotFoundError('Post not found');
    await withTransaction(this.pool, async (client) => {
      const author = await this.posts.visibleAuthor(client, postId);
      if (!author) throw new NotFoundError('Post not found');
      if (author === viewer.id) throw new ValidationError('You cannot report your own post');
      const recent = await this.queueRepo.lockReporterAndCount(client, viewer.id);
      if (recent >= this.settings.reportsPerHour) {
        throw new TooManyRequestsError('Too many reports: try again later');
      }
      const added = await this.queueRepo.addReport(client, {
        postId,
        reporterId: viewer.id,
        reason,
        details,
      });
      if (!added) throw new ConflictError('You already reported this post');
      await this.queueRepo.enqueue(client, {
        postId,
        aiScore: 0,
        reason: `Reported: ${reason}`,
        report: true,
      });
    });
  }

  queue(viewer: Viewer | null): Promise<ModerationQueueEntry[]> {
    requireAdmin(viewer);
    return this.queueRepo.pending();
  }

  /**
   * Approving shows a held post (a visible one stays, a rejected one never comes back); rejecting
   * removes the post from every listing. The answer carries where the post ended up.
   */
  async decide(
    viewer: Viewer | null,
    queueId: string,
    decision: ModerationDecision,
    notes?: string,
  ): Promise<ModerationDecisionAnswer> {
    const moderator = requireAdmin(viewer);
    if (!isId(queueId)) throw new NotFoundError('Queue item not found');
    const result = await withTransaction(this.pool, async (client) => {
      const decided = await this.queueRepo.decide(client, queueId, {
        moderatorId: moderator.id,
        decision,
        notes: notes?.trim() || moderationNotes[decision],
      });
      if (decided.outcome !== 'decided') return { outcome: decided.outcome, move: null };
      let move: Move | null = null;
      if (decided.contentType === 'post') {
        move =
          decision === 'approved'
            ? await this.posts.move(client, decided.contentId, ['held'], 'visible')
            : await this.posts.move(
                client,
                decided.contentId,
                ['checking', 'visible', 'held'],
                'rejected',
              );
      }
      return { outcome: decided.outcome, move };
    });
    if (result.outcome === 'missing') throw new NotFoundError('Queue item not found');
    if (result.outcome === 'already-decided') {
      throw new ConflictError('This item has already been decided');
    }
    if (result.move && result.move.was !== result.move.now) this.onVisibilityChange();
    return {
      id: queueId,
      decision,
      moderatorId: moderator.id,
      postStatus: result.move?.now ?? null,
      previousPostStatus: result.move?.was ?? null,
    };
  }
}
