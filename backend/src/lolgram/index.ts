import path from 'node:path';
import { Router } from 'express';
import type { Moderation } from '../admin';
import type { Feature } from '../core/feature';
import type { FeatureDeps } from '../features';
import { createExpiryCleanup } from './expiry-cleanup';
import type { FeedCache } from './feed-cache';
import { isImageKey, LocalImageStore } from './images/image-store';
import { EXPIRY_CLEANUP_INTERVAL_MS, LOLGRAM_LIMITS } from './limits';
import { LoginGuard } from './login-guard';
import { PasswordHasher } from './passwords';
import { PostsRepository } from './posts-repository';
import { feedFastRoute, imagesRouter, postsRouter } from './posts-routes';
import { PostsService } from './posts-service';
import { SessionStore } from './sessions';
import { PUBLIC_ORIGIN_REQUIRED, signInSiteResolver } from './sign-in-site';
import { UsersRepository } from './users-repository';
import { usersRouter } from './users-routes';
import { UsersService } from './users-service';
import { resolveViewer } from './viewer';
import { WalletAuth } from './wallet-auth';
import { NotFoundError } from '../core/errors';
import { createRateLimits } from '../core/limiter';
import { sameOriginWrites } from '../core/origin';

/** LOLGram: accounts (password and wallet), posts with their images, follows, LOLs and views. */
export function createLolgramFeature(
  { config, db, redis, logger }: FeatureDeps,
  moderation: Moderation,
  feedCache: FeedCache,
): Feature {
  const images = new LocalImageStore(path.join(config.DATA_DIR, 'images'));
  const sessions = new SessionStore(db.pool);
  const wallet = new WalletAuth(db.pool);
  const limits = createRateLimits(redis, config.REDIS_PREFIX);
  const users = new UsersService({
    pool: db.pool,
    users: new UsersRepository(db.pool),
    wallet,
    images,
    loginGuard: new LoginGuard(),
    nonceLimit: limits('nonce', LOLGRAM_LIMITS.noncePerClient),
    signupLimit: limits('signup', {
      ...LOLGRAM_LIMITS.signupPerClient,
      limit: config.SIGNUPS_PER_HOUR ?? LOLGRAM_LIMITS.signupPerClient.limit,
    }),
    passwords: new PasswordHasher(),
    adminUsernames: config.ADMIN_USERNAMES,
  });
  const posts = new PostsService(
    db.pool,
    new PostsRepository(db.pool),
    images,
    feedCache,
    (post, image) => moderation.service.scoreLater(post.id, image, post.caption),
  );

  if (config.isProduction && !config.PUBLIC_ORIGIN) {
    logger.warn(
      `PUBLIC_ORIGIN is not set. ${PUBLIC_ORIGIN_REQUIRED}; until then only localhost can.`,
    );
  }
  const cleanup = createExpiryCleanup(
    { nonces: wallet, sessions },
    logger,
    EXPIRY_CLEANUP_INTERVAL_MS,
  );

  const router = Router();
  router.use('/lolgram/images', (req, _res, next) => {
    if (!isImageKey(req.path.slice(1))) throw new NotFoundError('Image not found');
    next();
  });
  router.use('/lolgram', imagesRouter(posts, sessions));
  router.use('/lolgram', sameOriginWrites(config.PUBLIC_ORIGIN), resolveViewer(sessions));
  router.use(
    '/lolgram',
    usersRouter(users, sessions, signInSiteResolver(config.PUBLIC_ORIGIN), (viewer) =>
      moderation.service.isAdmin(viewer),
    ),
  );
  router.use('/lolgram', postsRouter(posts));
  router.use('/lolgram', moderation.router);
  return {
    name: 'lolgram',
    router,
    fastRoutes: feedFastRoute(posts, sessions),
    start: async () => {
      cleanup.start();
      await moderation.start();
    },
    close: async () => {
      await cleanup.stop();
      await moderation.service.settled();
    },
  };
}
