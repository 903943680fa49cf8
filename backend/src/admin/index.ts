import type { FeatureDeps } from '../features';
import type { FeedCache } from '../lolgram/feed-cache';
import { imageStoreFor } from '../lolgram/images/image-store';
import { moderationRouter } from './moderation-routes';
import { ModerationService } from './moderation-service';
import { NsfwClassifier } from './nsfw-classifier';
import { PostChecker } from './post-checker';
import { PostStatusRepository } from './post-status-repository';
import { QueueRepository } from './queue-repository';
import { PostScorer } from './scoring';
import { StatsRepository } from './stats-repository';

/** Moderation: checking new posts, reports, the queue, decisions, analytics. */
export function createModeration({ config, logger, db, redis }: FeatureDeps, feedCache: FeedCache) {
  const queue = new QueueRepository(db.pool);
  const posts = new PostStatusRepository(db.pool);
  const onVisibilityChange = () => feedCache.clear();
  const checker = new PostChecker(
    db.pool,
    posts,
    queue,
    new PostScorer(config.MODERATION_IMAGE_CHECK ? new NsfwClassifier() : null, logger),
    imageStoreFor(config.DATA_DIR),
    {
      queueThreshold: config.MODERATION_QUEUE_THRESHOLD,
      holdThreshold: config.MODERATION_HOLD_THRESHOLD,
    },
    logger,
    onVisibilityChange,
  );
  const service = new ModerationService(
    db.pool,
    queue,
    posts,
    checker,
    { reportsPerHour: config.MODERATION_REPORTS_PER_HOUR },
    onVisibilityChange,
  );

  /**
   * Before the server listens: ADMIN_USERNAMES become admins in the role column (the only thing
   * checked). Then, in the background, the image model loads and unfinished checks run again.
   */
  async function start(): Promise<void> {
    if (config.ADMIN_USERNAMES.length > 0) {
      const { rows } = await db.pool.query<{ username: string }>(
        `UPDATE lolgram_users SET role = 'admin'
          WHERE lower(username) = ANY($1::text[]) AND role <> 'admin' RETURNING username`,
        [config.ADMIN_USERNAMES],
      );
      if (rows.length > 0) {
        logger.info({ usernames: rows.map((row) => row.username) }, 'ADMIN_USERNAMES made admins');
      }
    }
    checker.start();
  }

  return {
    service,
    router: moderationRouter(service, new StatsRepository(db.pool), { db: db.pool, redis }),
    start,
  };
}

export type Moderation = ReturnType<typeof createModeration>;
