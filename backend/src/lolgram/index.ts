import { Router } from 'express';
import type { Accounts } from '../accounts';
import { NotFoundError } from '../core/errors';
import type { Feature, FeatureDeps } from '../core/feature';
import { isImageKey, type Images } from '../images';
import { createModeration } from './moderation';
import type { ImageClassifier } from './moderation/scoring';
import { FeedCache } from './posts/feed-cache';
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
  /** Moderation's image classifier; built from MODERATION_IMAGE_CHECK when not given. */
  imageClassifier?: ImageClassifier | null;
}

/** LOLGram: posts with their images, follows, LOLs and views, and their moderation. */
export function createLolgramFeature(
  deps: FeatureDeps,
  { accounts, images: { store: images, uploads }, imageClassifier }: LolgramParts,
): Feature {
  const { db } = deps;
  // New posts and moderation decisions both change the feed: they share its cache.
  const feedCache = new FeedCache();
  const postsRepository = new PostsRepository(db.pool, accounts.users);
  const moderation = createModeration(deps, {
    images,
    posts: postsRepository,
    feedCache,
    imageClassifier,
  });
  const posts = new PostsService(
    db.pool,
    postsRepository,
    images,
    uploads,
    feedCache,
    (post, image) => moderation.service.scoreLater(post.id, image, post.caption),
  );
  const follows = new FollowsService(
    db.pool,
    new FollowsRepository(db.pool),
    accounts.users,
    accounts.service,
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
    close: () => moderation.service.settled(),
  };
}
