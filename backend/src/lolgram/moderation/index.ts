import type { FeatureDeps } from '../../core/feature';
import type { ImageStore } from '../../images';
import type { FeedCache } from '../posts/feed-cache';
import type { PostsRepository } from '../posts/posts-repository';
import { moderationRouter } from './moderation-routes';
import { ModerationService } from './moderation-service';
import { NsfwClassifier } from './nsfw-classifier';
import { PostChecker } from './post-checker';
import { QueueRepository } from './queue-repository';
import { PostScorer, type ImageClassifier } from './scoring';
import { StatsRepository } from './stats-repository';

export interface ModerationParts {
  images: ImageStore;
  posts: PostsRepository;
  /** Moderation decisions change what the feed shows: its shared first page is dropped. */
  feedCache: FeedCache;
  /** Built from MODERATION_IMAGE_CHECK when not given; null: none. */
  imageClassifier?: ImageClassifier | null;
}

/** Moderation: checking new posts, reports, the queue, decisions, analytics. */
export function createModeration(
  { config, logger, db, redis }: FeatureDeps,
  { images, posts, feedCache, imageClassifier }: ModerationParts,
) {
  const queue = new QueueRepository(db.pool);
  const onVisibilityChange = () => feedCache.clear();
  const classifier =
    imageClassifier !== undefined
      ? imageClassifier
      : config.MODERATION_IMAGE_CHECK
        ? new NsfwClassifier()
        : null;
  const checker = new PostChecker(
    db.pool,
    posts,
    queue,
    new PostScorer(classifier, logger),
    images,
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

  /** In the background: the image model loads and unfinished checks run again. */
  function start(): void {
    checker.start();
  }

  return {
    service,
    router: moderationRouter(service, new StatsRepository(db.pool), { db: db.pool, redis }),
    start,
  };
}
