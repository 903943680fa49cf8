import type { FeatureDeps } from '../features';
import type { FeedCache } from '../lolgram/feed-cache';
import { ModerationRepository } from './moderation-repository';
import { moderationRouter } from './moderation-routes';
import { ModerationService } from './moderation-service';
import { NsfwClassifier } from './nsfw-classifier';
import { PostScorer } from './scoring';

/** Moderation: scoring new posts, reports, the queue, decisions, analytics. */
export function createModeration({ config, logger, db, redis }: FeatureDeps, feedCache: FeedCache) {
  const repo = new ModerationRepository(db.pool);
  const scorer = new PostScorer(config.MODERATION_IMAGE_CHECK ? new NsfwClassifier() : null);
  const service = new ModerationService(
    db.pool,
    repo,
    scorer,
    {
      queueThreshold: config.MODERATION_QUEUE_THRESHOLD,
      holdThreshold: config.MODERATION_HOLD_THRESHOLD,
      reportsPerHour: config.MODERATION_REPORTS_PER_HOUR,
      adminUsernames: config.ADMIN_USERNAMES,
    },
    logger,
    () => feedCache.clear(),
  );
  return { service, router: moderationRouter(service, repo, { db: db.pool, redis }) };
}

export type Moderation = ReturnType<typeof createModeration>;
