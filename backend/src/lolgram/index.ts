import { FEED_CARD_COMMENTS } from '@tapgram/shared';
import { Router } from 'express';
import type { Accounts } from '../accounts';
import { NotFoundError } from '../core/errors';
import type { Feature, FeatureDeps } from '../core/feature';
import { isImageKey, type Images } from '../images';
import type { Live } from '../live';
import { lolgramErasure } from './account-erasure';
import { createNotifications, NotificationsRepository } from './notifications';
import { LinkPreviews } from './previews/link-previews';
import { commentSignals, CommentSignalsRepository } from './comments/comment-signals';
import { CommentsRepository } from './comments/comments-repository';
import { commentsRouter } from './comments/comments-routes';
import { CommentsService } from './comments/comments-service';
import { COMMENT_LIMITS } from './comments/limits';
import {
  createModeration,
  imageClassifierFor,
  moderatedComments,
  moderatedPostEdits,
  moderatedPosts,
  PostScorer,
} from './moderation';
import { createRateLimits } from '../core/limiter';
import type { ImageClassifier } from './moderation/scoring';
import { CaptionEditsRepository } from './posts/caption-edits-repository';
import { FeedCache } from './posts/feed-cache';
import { feedPageHead } from './posts/feed-head';
import { OwnPostsService } from './posts/own-posts-service';
import { handlePostEvents } from './posts/post-handlers';
import { PostsRepository } from './posts/posts-repository';
import { feedFastRoute, imagesRouter, postsRouter } from './posts/posts-routes';
import { PostsService } from './posts/posts-service';
import { BlocksRepository } from './relations/blocks-repository';
import { blocksRouter } from './relations/blocks-routes';
import { BlocksService } from './relations/blocks-service';
import { FollowsRepository } from './relations/follows-repository';
import { followsRouter } from './relations/follows-routes';
import { FollowsService } from './relations/follows-service';
import { SavesRepository } from './saves/saves-repository';
import { savesRouter } from './saves/saves-routes';
import { SavesService } from './saves/saves-service';

export type { ImageClassifier } from './moderation/scoring';

export interface LolgramParts {
  accounts: Accounts;
  images: Images;
  live: Live;
  /** Moderation's image classifier; built from MODERATION_IMAGE_CHECK when not given. */
  imageClassifier?: ImageClassifier | null;
}

/** LOLGram: posts with their images, follows and blocks, LOLs, saves and views, and their moderation. */
export function createLolgramFeature(
  deps: FeatureDeps,
  { accounts, images: { store: images, uploads }, live, imageClassifier }: LolgramParts,
): Feature {
  const { config, db, events, logger } = deps;
  const feedCache = new FeedCache(deps.now);
  const blocks = new BlocksRepository(db.pool);
  const follows = new FollowsRepository(db.pool);
  const postsRepository = new PostsRepository(db.pool, accounts.users);
  const commentsRepository = new CommentsRepository(db.pool, postsRepository);
  const captionEdits = new CaptionEditsRepository(db.pool, postsRepository);
  const classifier = imageClassifier !== undefined ? imageClassifier : imageClassifierFor(config);
  const moderation = createModeration(deps, {
    // What LOLGram moderates: its posts, checked by their image and caption, its comments, and
    // the edits of captions.
    contentTypes: [
      moderatedPosts({
        posts: postsRepository,
        images,
        scorer: new PostScorer(classifier, logger),
        events,
      }),
      moderatedComments({ comments: commentsRepository, events }),
      moderatedPostEdits({ edits: captionEdits, events }),
    ],
    imageClassifier: classifier,
    live,
  });
  const posts = new PostsService({
    pool: db.pool,
    posts: postsRepository,
    images,
    uploads,
    feedCache,
    events,
    extras: {
      firstComments: (postIds, viewerId) =>
        commentsRepository.firstComments(postIds, viewerId, FEED_CARD_COMMENTS),
    },
  });
  handlePostEvents(events, { feedCache });
  accounts.settings.addErasure(lolgramErasure(new NotificationsRepository(db.pool)));
  const notifications = createNotifications(deps, live);
  const previews = new LinkPreviews(db.pool, images, logger, deps.now);
  const feedHead = feedPageHead(posts);
  previews.listen(events);
  const limits = createRateLimits(deps.redis, config.REDIS_PREFIX);
  const commentSignalsRepository = new CommentSignalsRepository(db.pool);
  const comments = new CommentsService({
    pool: db.pool,
    comments: commentsRepository,
    posts: postsRepository,
    blocks,
    follows,
    limits: {
      perUser: limits('comment-user', {
        ...COMMENT_LIMITS.perUser,
        limit: config.COMMENTS_PER_MINUTE ?? COMMENT_LIMITS.perUser.limit,
      }),
      perPost: limits('comment-post', {
        ...COMMENT_LIMITS.perPost,
        limit: config.COMMENTS_PER_POST_PER_MINUTE ?? COMMENT_LIMITS.perPost.limit,
      }),
      windowMs: COMMENT_LIMITS.perPost.windowMs,
    },
    events,
    signals: commentSignals({
      repo: commentSignalsRepository,
      windowMs: COMMENT_LIMITS.perPost.windowMs,
      onRefused: () => deps.metrics.commentsRefusedForPost(),
      logger,
    }),
    now: deps.now,
  });

  const router = Router();
  router.use('/lolgram/images', (req, _res, next) => {
    if (!isImageKey(req.path.slice(1))) throw new NotFoundError('Image not found');
    next();
  });
  router.use('/lolgram', imagesRouter(posts, accounts.sessions));
  router.use('/lolgram', accounts.resolveViewer);
  router.use(
    '/lolgram',
    followsRouter(
      new FollowsService({
        pool: db.pool,
        follows,
        blocks,
        users: accounts.users,
        accounts: accounts.service,
        events,
      }),
    ),
  );
  router.use(
    '/lolgram',
    blocksRouter(
      new BlocksService({
        pool: db.pool,
        blocks,
        follows,
        users: accounts.users,
        accounts: accounts.service,
        events,
      }),
    ),
  );
  router.use(
    '/lolgram',
    savesRouter(new SavesService(new SavesRepository(db.pool), postsRepository)),
  );
  router.use(
    '/lolgram',
    postsRouter(
      posts,
      new OwnPostsService({
        pool: db.pool,
        posts: postsRepository,
        captionEdits,
        images,
        events,
      }),
    ),
  );
  router.use('/lolgram', commentsRouter(comments, commentSignalsRepository));
  router.use('/lolgram', moderation.router);
  router.use('/lolgram', notifications.router);
  return {
    name: 'lolgram',
    router,
    fastRoutes: feedFastRoute(posts, accounts.sessions),
    pageHead: async (page) => (await feedHead(page)) ?? previews.headFor(page),
    start: async () => {
      await images.check();
      moderation.start();
      notifications.start();
    },
    close: async () => {
      await moderation.settled();
      await notifications.close();
    },
  };
}
