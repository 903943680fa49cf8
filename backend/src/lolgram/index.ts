import { Router } from 'express';
import type { Accounts } from '../accounts';
import { NotFoundError } from '../core/errors';
import type { Feature, FeatureDeps } from '../core/feature';
import { isImageKey, type Images } from '../images';
import type { Live } from '../live';
import { createModeration, imageClassifierFor, moderatedPosts, PostScorer } from './moderation';
import type { ImageClassifier } from './moderation/scoring';
import { FeedCache } from './posts/feed-cache';
import { handlePostEvents } from './posts/post-handlers';
import { PostsRepository } from './posts/posts-repository';
import { feedFastRoute, imagesRouter, postsRouter } from './posts/posts-routes';
import { PostsService } from './posts/posts-service';
import { FollowsRepository } from './relations/follows-repository';
import { followsRouter } from './relations/follows-routes';
import { FollowsService } from './relations/follows-service';

export type { ImageClassifier } from './moderation/scoring';

export interface LolgramParts {
  accounts: Accounts;
  images: Images;
  live: Live;
  /** Moderation's image classifier; built from MODERATION_IMAGE_CHECK when not given. */
  imageClassifier?: ImageClassifier | null;
}

/** LOLGram: posts with their images, follows, LOLs and views, and their moderation. */
export function createLolgramFeature(
  deps: FeatureDeps,
  { accounts, images: { store: images, uploads }, live, imageClassifier }: LolgramParts,
): Feature {
  const { config, db, events, logger } = deps;
  const feedCache = new FeedCache();
  const postsRepository = new PostsRepository(db.pool, accounts.users);
  const classifier = imageClassifier !== undefined ? imageClassifier : imageClassifierFor(config);
  const moderation = createModeration(deps, {
    posts: postsRepository,
    // What LOLGram moderates: its posts, checked by their image and caption.
    contentTypes: [
      moderatedPosts({
        posts: postsRepository,
        images,
        scorer: new PostScorer(classifier, logger),
        events,
      }),
    ],
    imageClassifier: classifier,
  });
  const posts = new PostsService(db.pool, postsRepository, images, uploads, feedCache, events);
  handlePostEvents(events, { feedCache, live });
  const follows = new FollowsService(
    db.pool,
    new FollowsRepository(db.pool),
    accounts.users,
    accounts.service,
    events,
  );
  const router = Router();
  router.use('/lolgram/images', (req, _res, next) => {
    if (!isImageKey(req.path.slice(1))) throw new NotFoundError('Image not found');
    next();
  });
  router.use('/lolgram', imagesRouter(posts, accounts.sessions));
  router.use('/lolgram', accounts.resolveViewer);
  router.use('/lolgram', followsRouter(follows));
  router.use('/lolgram', postsRouter(posts));
  router.use('/lolgram', moderation.router);
  return {
    name: 'lolgram',
    router,
    fastRoutes: feedFastRoute(posts, accounts.sessions),
    start: async () => {
      await images.check();
      moderation.start();
    },
    close: () => moderation.settled(),
  };
}
