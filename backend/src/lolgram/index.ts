import path from 'node:path';
import { Router } from 'express';
import type { Moderation } from '../admin';
import type { Feature } from '../core/feature';
import type { FeatureDeps } from '../features';
import { FailureLimiter } from './failure-limiter';
import type { FeedCache } from './feed-cache';
import { isImageKey, LocalImageStore } from './images/image-store';
import { PostsRepository } from './posts-repository';
import { feedFastRoute, imagesRouter, postsRouter } from './posts-routes';
import { PostsService } from './posts-service';
import { SessionStore } from './sessions';
import { UsersRepository } from './users-repository';
import { usersRouter } from './users-routes';
import { UsersService } from './users-service';
import { resolveViewer, sameOriginWrites } from './viewer';
import { WalletAuth } from './wallet-auth';
import { NotFoundError } from '../core/errors';

const LOGIN_FAILURES = { limit: 5, windowMs: 15 * 60 * 1000 };

/** LOLGram: accounts (password and wallet), posts with their images, follows, LOLs and views. */
export function createLolgramFeature(
  { config, db }: FeatureDeps,
  moderation: Moderation,
  feedCache: FeedCache,
): Feature {
  const images = new LocalImageStore(path.join(config.DATA_DIR, 'images'));
  const sessions = new SessionStore(db.pool);
  const wallet = new WalletAuth(db.pool);
  const users = new UsersService({
    pool: db.pool,
    users: new UsersRepository(db.pool),
    wallet,
    images,
    loginFailures: new FailureLimiter(LOGIN_FAILURES.limit, LOGIN_FAILURES.windowMs),
    adminUsernames: config.ADMIN_USERNAMES,
  });
  const posts = new PostsService(
    db.pool,
    new PostsRepository(db.pool),
    images,
    feedCache,
    (post, image) => moderation.service.scoreLater(post.id, image, post.caption),
  );

  const router = Router();
  router.use('/lolgram/images', (req, _res, next) => {
    if (!isImageKey(req.path.slice(1))) throw new NotFoundError('Image not found');
    next();
  });
  router.use('/lolgram', imagesRouter(posts));
  router.use('/lolgram', sameOriginWrites, resolveViewer(sessions));
  router.use(
    '/lolgram',
    usersRouter(users, sessions, wallet, (viewer) => moderation.service.isAdmin(viewer)),
  );
  router.use('/lolgram', postsRouter(posts));
  router.use('/lolgram', moderation.router);
  return {
    name: 'lolgram',
    router,
    fastRoutes: feedFastRoute(posts, sessions),
    close: () => moderation.service.settled(),
  };
}
