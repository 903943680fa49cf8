import type { FeatureDeps } from '../../core/feature';
import type { Live } from '../../live';
import { ContentChecker } from './content-checker';
import { ContentTypes, type ModeratedContent } from './content-types';
import { closeQueueOfDeletedContent } from './deleted-posts';
import { moderationRouter } from './moderation-routes';
import { ModerationService } from './moderation-service';
import { NsfwClassifier } from './nsfw-classifier';
import { pushOutcomes } from './outcome-pushes';
import { QueueRepository } from './queue-repository';
import type { ImageClassifier } from './scoring';
import { StatsRepository } from './stats-repository';

export { moderatedComments } from './moderated-comments';
export { moderatedPostEdits } from './moderated-post-edits';
export { moderatedPosts } from './moderated-posts';
export { PostScorer, type ImageClassifier } from './scoring';

/** The image classifier MODERATION_IMAGE_CHECK asks for (null: none). */
export function imageClassifierFor(config: FeatureDeps['config']): ImageClassifier | null {
  return config.MODERATION_IMAGE_CHECK ? new NsfwClassifier() : null;
}

export interface ModerationParts {
  /** What this server moderates, each kind with its adapter. */
  contentTypes: ModeratedContent[];
  /** The image check, if any: warmed up at start, its state on the dashboard. */
  imageClassifier: ImageClassifier | null;
  /** Where authors hear of their content's moves. */
  live: Live;
}

/** Moderation: the automatic check of new content, reports, the queue, decisions, analytics. */
export function createModeration(
  { config, logger, db, redis, events }: FeatureDeps,
  { contentTypes, imageClassifier, live }: ModerationParts,
) {
  const queue = new QueueRepository(db.pool);
  const types = new ContentTypes(contentTypes, events);
  const checker = new ContentChecker({
    pool: db.pool,
    queue,
    types,
    settings: {
      queueThreshold: config.MODERATION_QUEUE_THRESHOLD,
      holdThreshold: config.MODERATION_HOLD_THRESHOLD,
    },
    logger,
  });
  const service = new ModerationService({
    pool: db.pool,
    queue,
    types,
    settings: { reportsPerHour: config.MODERATION_REPORTS_PER_HOUR },
    events,
  });
  closeQueueOfDeletedContent(events, queue);
  pushOutcomes(events, live);
  const imageCheckState = () => imageClassifier?.state() ?? 'off';
  /** In the background: the image model loads and unfinished checks run again. */
  function start(): void {
    imageClassifier?.warmUp().then(
      () => logger.info({ imageCheck: imageCheckState() }, 'image check prepared'),
      (err: unknown) => logger.error({ err }, 'image model failed to load; retried later'),
    );
    checker.start();
  }
  return {
    service,
    router: moderationRouter(service, new StatsRepository(db.pool), {
      db: db.pool,
      redis,
      imageCheckState,
    }),
    start,
    /** Resolves when the automatic checks in flight have finished (shutdown). */
    settled: () => checker.settled(),
  };
}
