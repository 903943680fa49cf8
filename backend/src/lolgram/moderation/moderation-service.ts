import {
  moderationNotes,
  type ModerationDecision,
  type ModeratedContentType,
  type ModerationDecisionAnswer,
  type ModerationQueueEntry,
  type PostStatus,
  type ReportBody,
} from '@tapgram/shared';
import type pg from 'pg';
import { can, requireAccess, type Viewer } from '../../accounts';
import { withTransaction } from '../../core/db';
import {
  ConflictError,
  NotFoundError,
  TooManyRequestsError,
  ValidationError,
} from '../../core/errors';
import type { EventBus } from '../../core/events';
import { isId } from '../../core/ids';
import type { ContentMove, ContentTypes } from './content-types';
import './events';
import type { QueueRepository } from './queue-repository';

export interface ModerationServiceDeps {
  pool: pg.Pool;
  queue: QueueRepository;
  /** The content types moderated: each reports, previews and decides through its adapter. */
  types: ContentTypes;
  settings: { reportsPerHour: number };
  events: EventBus;
}

/** Who may moderate, reports, and decisions on content of every type with their audit trail. */
export class ModerationService {
  private readonly pool: pg.Pool;
  private readonly queueRepo: QueueRepository;
  private readonly types: ContentTypes;
  private readonly settings: { reportsPerHour: number };
  private readonly events: EventBus;

  constructor({ pool, queue, types, settings, events }: ModerationServiceDeps) {
    this.pool = pool;
    this.queueRepo = queue;
    this.types = types;
    this.settings = settings;
    this.events = events;
  }

  /**
   * A user reports an item they can read, of any type whose adapter takes reports: it joins the
   * queue (or the item already waiting there), once per user and item, within the hourly limit.
   */
  async report(
    viewer: Viewer,
    contentType: ModeratedContentType,
    contentId: string,
    { reason, details }: ReportBody,
  ): Promise<void> {
    const reportable = this.types.of(contentType)?.reports;
    if (!reportable) throw new NotFoundError('Not found');
    const { words } = reportable;
    if (!isId(contentId)) throw new NotFoundError(words.notFound);
    await withTransaction(this.pool, async (client) => {
      const author = await reportable.authorOf(client, contentId, viewer.id);
      if (!author) throw new NotFoundError(words.notFound);
      if (!can(viewer, 'content.report', { authorId: author })) {
        throw new ValidationError(words.own);
      }
      const recent = await this.queueRepo.lockReporterAndCount(client, viewer.id);
      if (recent >= this.settings.reportsPerHour) {
        throw new TooManyRequestsError('Too many reports: try again later');
      }
      const queueId = await this.queueRepo.enqueue(client, {
        contentType,
        contentId,
        aiScore: 0,
        reason: `Reported: ${reason}`,
        report: true,
      });
      const added = await this.queueRepo.addReport(client, {
        contentType,
        contentId,
        reporterId: viewer.id,
        reason,
        details,
        queueId,
      });
      // Thrown inside the transaction: the queue item takes nothing of a repeated report.
      if (!added) throw new ConflictError(words.repeated);
    });
  }

  /** The pending items, each with what the dashboard shows of its content (null when gone). */
  async queue(viewer: Viewer | null): Promise<ModerationQueueEntry[]> {
    requireAccess(viewer, 'admin', null);
    const pending = await this.queueRepo.pending();
    const previews = new Map(
      await Promise.all(
        this.types.all().map(async (type) => {
          const items = pending.filter((item) => item.contentType === type.type);
          const found =
            items.length > 0 ? await type.previews(items.map((item) => item.contentId)) : new Map();
          return [type.type, found] as const;
        }),
      ),
    );
    return pending.flatMap((item) => {
      const ofType = previews.get(item.contentType);
      // An item of a type this server does not moderate is left for a server that does.
      if (!ofType) return [];
      const entry = { ...item, [item.contentType]: ofType.get(item.contentId) ?? null };
      return [entry as ModerationQueueEntry];
    });
  }

  /**
   * Records a decision once, and does to the content what its type's adapter says; the answer
   * carries where a post ended up.
   */
  async decide(
    viewer: Viewer | null,
    queueId: string,
    decision: ModerationDecision,
    notes?: string,
  ): Promise<ModerationDecisionAnswer> {
    const moderator = requireAccess(viewer, 'admin', null);
    if (!isId(queueId)) throw new NotFoundError('Queue item not found');
    const result = await withTransaction(this.pool, async (client) => {
      const decided = await this.queueRepo.decide(client, queueId, {
        moderatorId: moderator.id,
        decision,
        notes: notes?.trim() || moderationNotes[decision],
      });
      if (decided.outcome !== 'decided') return decided;
      const { contentType, contentId } = decided;
      const type = this.types.of(contentType);
      const move = (await type?.decide(client, contentId, decision)) ?? null;
      if (type && move) await this.types.moved(client, type, contentId, move);
      await this.events.record(client, 'moderation.decided', {
        queueId,
        contentType,
        contentId,
        postId: contentType === 'post' ? contentId : (move?.postId ?? null),
        decision,
        moderatorId: moderator.id,
        reporterIds: await this.queueRepo.reporters(client, queueId),
      });
      return { ...decided, move };
    });
    if (result.outcome !== 'decided') {
      throw result.outcome === 'missing'
        ? new NotFoundError('Queue item not found')
        : new ConflictError('This item has already been decided');
    }
    const { contentType, move } = result;
    // The answer names the statuses of a post, as it always has (null for other content).
    const post = contentType === 'post' ? (move as ContentMove<PostStatus> | null) : null;
    return {
      id: queueId,
      decision,
      moderatorId: moderator.id,
      postStatus: post?.now ?? null,
      previousPostStatus: post?.was ?? null,
      status: move?.now ?? null,
      previousStatus: move?.was ?? null,
    };
  }
}
