import { Router } from 'express';
import type { Accounts } from '../accounts';
import { NotFoundError } from '../core/errors';
import type { Feature, FeatureDeps } from '../core/feature';
import { sameOriginWrites } from '../core/origin';
import { isImageKey, type ImageStore } from '../images';
import { createModeration } from './moderation';
import { closeQueueOfDeletedPosts } from './moderation/deleted-posts';
import { QueueRepository } from './moderation/queue-repository';
import type { ImageClassifier } from './moderation/scoring';
import { FeedCache } from './posts/feed-cache';
import { OwnPostsService } from './posts/own-posts-service';
import { PostsRepository } from './posts/posts-repository';
import { feedFastRoute, imagesRouter, postsRouter } from './posts/posts-routes';
import { PostsService } from './posts/posts-service';
import { FollowsRepository } from './relations/follows-repository';
import { followsRouter } from './relations/follows-routes';
import { FollowsService } from './relations/follows-service';
import { BlocksRepository } from './relations/blocks-repository';
import { blocksRouter } from './relations/blocks-routes';
import { BlocksService } from './relations/blocks-service';
import { SavesRepository } from './saves/saves-repository';
import { savesRouter } from './saves/saves-routes';
import { SavesService } from './saves/saves-service';

export type { ImageClassifier } from './moderation/scoring';

export interface LolgramParts {
  accounts: Accounts;
  images: ImageStore;
  /** Moderation's image classifier; built from MODERATION_IMAGE_CHECK when not given. */
  imageClassifier?: ImageClassifier | null;
}

/** LOLGram: posts with their images, follows and blocks, LOLs, saves and views, and their moderation. */
export function createLolgramFeature(
  deps: FeatureDeps,
  { accounts, images, imageClassifier }: LolgramParts,
): Feature {
  const { config, db } = deps;
  // New posts and moderation decisions both change the feed: they share its cache.
  const feedCache = new FeedCache(deps.now);
  const blocks = new BlocksRepository(db.pool);
  const postsRepository = new PostsRepository(db.pool, accounts.users);
  const moderation = createModeration(deps, {
    images,
    posts: postsRepository,
    feedCache,
    imageClassifier,
  });
  const posts = new PostsService(db.pool, postsRepository, images, feedCache, (post, image) =>
    moderation.service.scoreLater(post.id, image, post.caption),
  );
  const follows = new FollowsService(
    db.pool,
    new FollowsRepository(db.pool),
    blocks,
    accounts.users,
    accounts.service,
  );

  const router = Router();
  router.use('/lolgram/images', (req, _res, next) => {
    if (!isImageKey(req.path.slice(1))) throw new NotFoundError('Image not found');
    next();
  });
  router.use('/lolgram', imagesRouter(posts, accounts.sessions));
  router.use('/lolgram', sameOriginWrites(config.PUBLIC_ORIGIN), accounts.resolveViewer);
  router.use('/lolgram', followsRouter(follows));
  router.use(
    '/lolgram',
    blocksRouter(
      new BlocksService(
        db.pool,
        blocks,
        new FollowsRepository(db.pool),
        accounts.users,
        accounts.service,
      ),
    ),
  );
  router.use(
    '/lolgram',
    savesRouter(new SavesService(new SavesRepository(db.pool), postsRepository)),
  );
  router.use(
    '/lolgram',
    postsRouter(posts, new OwnPostsService(db.pool, postsRepository, images, deps.events)),
  );
  router.use('/lolgram', moderation.router);
  // An author's change shows on every node's copy of the feed's first page at once; a deleted
  // post also leaves the moderation queue.
  for (const change of ['post.deleted', 'post.caption-changed'] as const) {
    deps.events.on(change, () => feedCache.clear(), { where: 'every-node' });
  }
  closeQueueOfDeletedPosts(deps.events, new QueueRepository(db.pool));
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
