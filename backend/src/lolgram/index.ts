import { Router, type RequestHandler } from 'express';
import type { Admin } from '../core/admin';
import { createModeration } from './moderation';
import type { Feature, FeatureDeps } from '../core/feature';
import { createExpiryCleanup } from './accounts/expiry-cleanup';
import { FeedCache } from './posts/feed-cache';
import { isImageKey } from './images/image-store';
import { imageStoreFor } from './images/image-store-for';
import { configureImageLibrary } from './images/image-pipeline';
import { ImageUploads } from './images/image-uploads';
import { EXPIRY_CLEANUP_INTERVAL_MS, LOLGRAM_LIMITS } from './limits';
import { LoginGuard } from './accounts/login-guard';
import { PasswordHasher } from './accounts/passwords';
import { PostsRepository } from './posts/posts-repository';
import { feedFastRoute, imagesRouter, postsRouter } from './posts/posts-routes';
import { PostsService } from './posts/posts-service';
import { SessionStore } from './accounts/sessions';
import { PUBLIC_ORIGIN_NOTICE, signInSiteResolver } from './accounts/sign-in-site';
import { UsersRepository } from './accounts/users-repository';
import { usersRouter } from './accounts/users-routes';
import { UsersService } from './accounts/users-service';
import { resolveViewer, viewerOf } from './accounts/viewer';
import { WalletAuth } from './accounts/wallet-auth';
import { NotFoundError } from '../core/errors';
import { createRateLimits } from '../core/limiter';

export interface LolgramFeature extends Feature {
  /**
   * Lets only LOLGram's admins through: for other features' admin calls. The admin is in
   * `adminOf(res)`. (Writes from other sites are refused for the whole API, in core/app.ts.)
   */
  adminOnly: RequestHandler[];
}

/** LOLGram: accounts (password and wallet), posts with their images, follows, LOLs and views. */
export function createLolgramFeature(deps: FeatureDeps): LolgramFeature {
  const { config, db, redis, logger } = deps;
  // Built once: posts, avatars and moderation read and write images in this one store.
  const images = imageStoreFor(config);
  // New posts and moderation decisions both change the feed: they share its cache.
  const feedCache = new FeedCache();
  const usersRepository = new UsersRepository(db.pool);
  const postsRepository = new PostsRepository(db.pool, usersRepository);
  const moderation = createModeration(deps, {
    images,
    posts: postsRepository,
    users: usersRepository,
    feedCache,
  });
  const sessions = new SessionStore(db.pool);
  const wallet = new WalletAuth(db.pool);
  const limits = createRateLimits(redis, config.REDIS_PREFIX);
  configureImageLibrary();
  // Posts and avatars share one queue and one allowance per user.
  const uploads = new ImageUploads(
    limits('upload', {
      ...LOLGRAM_LIMITS.uploadPerUser,
      limit: config.UPLOADS_PER_HOUR ?? LOLGRAM_LIMITS.uploadPerUser.limit,
    }),
  );
  const users = new UsersService({
    pool: db.pool,
    users: usersRepository,
    wallet,
    images,
    uploads,
    loginGuard: new LoginGuard(limits),
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
    postsRepository,
    images,
    uploads,
    feedCache,
    (post, image) => moderation.service.scoreLater(post.id, image, post.caption),
  );

  if (config.isProduction && !config.PUBLIC_ORIGIN) {
    logger.warn(PUBLIC_ORIGIN_NOTICE);
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
  router.use('/lolgram', resolveViewer(sessions));
  router.use(
    '/lolgram',
    usersRouter(users, sessions, signInSiteResolver(config.PUBLIC_ORIGIN), (viewer) =>
      moderation.service.isAdmin(viewer),
    ),
  );
  router.use('/lolgram', postsRouter(posts));
  router.use('/lolgram', moderation.router);
  const adminOnly: RequestHandler[] = [
    resolveViewer(sessions),
    (_req, res, next) => {
      const { id, username } = moderation.service.requireAdmin(viewerOf(res));
      res.locals.admin = { id, username } satisfies Admin;
      next();
    },
  ];
  return {
    name: 'lolgram',
    router,
    adminOnly,
    fastRoutes: feedFastRoute(posts, sessions),
    start: async () => {
      await images.check();
      cleanup.start();
      await moderation.start();
    },
    close: async () => {
      await cleanup.stop();
      await moderation.service.settled();
    },
  };
}
