import { Router, type RequestHandler } from 'express';
import type { Feature, FeatureDeps } from '../core/feature';
import { createRateLimits } from '../core/limiter';
import type { Images } from '../images';
import { accountSettingsRouter } from './account-settings-routes';
import { AccountSettingsService } from './account-settings-service';
import { admitAdmins } from './admin';
import { createExpiryCleanup } from './expiry-cleanup';
import { ACCOUNT_LIMITS, EXPIRY_CLEANUP_INTERVAL_MS } from './limits';
import { LoginGuard } from './login-guard';
import { PasswordHasher } from './passwords';
import { SessionStore } from './sessions';
import { PUBLIC_ORIGIN_NOTICE, signInSiteResolver } from './sign-in-site';
import { UsersRepository } from './users-repository';
import { usersRouter } from './users-routes';
import { UsersService } from './users-service';
import { resolveViewer } from './viewer';
import { WalletAuth } from './wallet-auth';

export { createExpiryCleanup, type ExpiryCleanup } from './expiry-cleanup';
export { EXPIRY_CLEANUP_INTERVAL_MS } from './limits';
export { adminOf, type Admin } from './admin';
export {
  can,
  listedStatuses,
  requireAccess,
  type ContentStatus,
  type ContentSubject,
  type Permission,
} from './access';
export { SESSION_COOKIE, type Session, type SessionStore, type Viewer } from './sessions';
export { ACCOUNT_GONE, requireViewer, signedInOnly, viewerOf, viewKey } from './viewer';
export type { UsersRepository } from './users-repository';
export type { UsersService } from './users-service';
export type { AccountErasure, AccountSettingsService } from './account-settings-service';

/** Accounts, and what the features that act for a signed-in user take from them. */
export interface Accounts extends Feature {
  sessions: SessionStore;
  users: UsersRepository;
  service: UsersService;
  /** The account's own settings; features add what they erase of a deleted account. */
  settings: AccountSettingsService;
  /** Puts who is asking in res.locals.viewer (null when nobody), for `viewerOf(res)`. */
  resolveViewer: RequestHandler;
  /**
   * Lets only admins through; the admin is in `adminOf(res)`. The one guard of every admin call,
   * whichever feature serves it (writes from other sites are refused for the whole API, in core).
   */
  adminOnly: RequestHandler[];
}

/**
 * Who someone is and what they may do: sign-up and sign-in (password and wallet), sessions, the
 * viewer of a request, roles and the admin guard, and the account's public profile. Its calls
 * keep the paths of LOLGram's API (/api/lolgram/users/..., /api/lolgram/auth/...).
 */
export function createAccounts(deps: FeatureDeps, images: Images): Accounts {
  const { config, db, redis, logger } = deps;
  const users = new UsersRepository(db.pool);
  const sessions = new SessionStore(db.pool, deps.events);
  const wallet = new WalletAuth(db.pool);
  const limits = createRateLimits(redis, config.REDIS_PREFIX);
  const loginGuard = new LoginGuard(limits);
  const passwords = new PasswordHasher();
  const service = new UsersService({
    users,
    wallet,
    images: images.store,
    uploads: images.uploads,
    loginGuard,
    nonceLimit: limits('nonce', ACCOUNT_LIMITS.noncePerClient),
    signupLimit: limits('signup', {
      ...ACCOUNT_LIMITS.signupPerClient,
      limit: config.SIGNUPS_PER_HOUR ?? ACCOUNT_LIMITS.signupPerClient.limit,
    }),
    passwords,
    adminUsernames: config.ADMIN_USERNAMES,
  });
  const settings = new AccountSettingsService({
    pool: db.pool,
    users,
    sessions,
    wallet,
    passwords,
    loginGuard,
    images: images.store,
    events: deps.events,
    usernameHoldDays: config.DELETED_USERNAME_HOLD_DAYS,
  });
  if (config.isProduction && !config.PUBLIC_ORIGIN) logger.warn(PUBLIC_ORIGIN_NOTICE);
  const cleanup = createExpiryCleanup(
    { nonces: wallet, sessions, heldUsernames: users },
    logger,
    EXPIRY_CLEANUP_INTERVAL_MS,
  );

  const viewer = resolveViewer(sessions);
  const site = signInSiteResolver(config.PUBLIC_ORIGIN);
  const router = Router();
  router.use('/lolgram', viewer, accountSettingsRouter(settings, sessions, site));
  router.use('/lolgram', viewer, usersRouter(service, sessions, site));

  return {
    name: 'accounts',
    router,
    sessions,
    users,
    service,
    settings,
    resolveViewer: viewer,
    adminOnly: [viewer, admitAdmins],
    /** Before the server listens: ADMIN_USERNAMES become admins in the role column (the only thing checked). */
    async start() {
      if (config.ADMIN_USERNAMES.length > 0) {
        const granted = await users.grantAdmins(config.ADMIN_USERNAMES);
        if (granted.length > 0) logger.info({ usernames: granted }, 'ADMIN_USERNAMES made admins');
      }
      cleanup.start();
    },
    close: () => cleanup.stop(),
  };
}
