import { Router, type RequestHandler } from 'express';
import type { Feature, FeatureDeps } from '../core/feature';
import { countryRouter } from './country/country-routes';
import { CountryService } from './country/country-service';
import { BonusHistory } from './friends/bonus-history';
import { friendsRouter } from './friends/friends-routes';
import { FriendsService } from './friends/friends-service';
import { invitationsPorts, InvitationsService } from './friends/invitations-service';
import { ReferralPayer } from './friends/referral-payer';
import { ReferralRepository } from './friends/referral-repository';
import { OperatorsRepository } from './operators/operators-repository';
import { operatorsRouter } from './operators/operators-routes';
import { OperatorsService } from './operators/operators-service';
import { suspicionRules } from './operators/suspicion';
import { PostgresGameStore } from './postgres-store';
import { LocalPushClaims, type PushClaims } from './push-claims';
import { RedisPushClaims } from './redis-push';
import { gameKeys } from './redis-keys';
import { RedisGameStore } from './redis-store';
import { gameRepositories } from './repositories';
import { SeasonArchiver } from './seasons/season-archiver';
import { SeasonsRepository } from './seasons/seasons-repository';
import { seasonsRouter } from './seasons/seasons-routes';
import { SeasonsService } from './seasons/seasons-service';
import { SignalsRepository } from './signals-repository';
import { StreakRepository } from './streaks/streak-repository';
import { streakRouter } from './streaks/streak-routes';
import { StreakService } from './streaks/streak-service';
import { gameFastRoutes, gameRouter } from './routes';
import { GameService } from './service';
import { attachGameChannel } from './socket';
import { SignalBuffer } from './signal-buffer';
import type { GameStore } from './store';
import { telegramRouter } from './telegram/telegram-routes';
import { TelegramService } from './telegram/telegram-service';

export interface GameParts {
  /** The accounts' admin guard: only admins reach the operators' calls (401 or 403 for others). */
  adminOnly: RequestHandler[];
}

/**
 * The tap game, on Redis when it is configured, straight on Postgres otherwise; with the
 * operators' side (signals, freezing, the export) for admins.
 */
export async function createGameFeature(
  { config, logger, db, redis, events, metrics, admission, secret, now = Date.now }: FeatureDeps,
  { adminOnly }: GameParts,
): Promise<Feature> {
  const repos = gameRepositories(db.pool);
  const rateLimit = { perSecond: config.TAP_RATE_PER_SECOND, burst: config.TAP_BURST };
  const calendar = { startMs: config.SEASON_START, lengthMs: config.SEASON_LENGTH };
  // Time for a refused batch to be sent again once the allowance holds it (at most a burst's
  // refill), twice over, and a minute at least.
  const refusalHoldMs = Math.max(60_000, ((2 * rateLimit.burst) / rateLimit.perSecond) * 1000);
  const signals = config.SUSPICION_SIGNALS
    ? new SignalBuffer({
        repo: new SignalsRepository(db.pool),
        pauseMs: config.SUSPICION_PAUSE_SECONDS * 1000,
        logger,
        now,
        refusalHoldMs,
      })
    : null;
  signals?.start(config.FLUSH_INTERVAL_MS);
  let store: GameStore;
  let claims: PushClaims;
  let readiness: Feature['readiness'];
  if (redis) {
    const redisStore = new RedisGameStore({
      redis,
      repos,
      rateLimit,
      logger,
      prefix: config.REDIS_PREFIX,
      metrics,
      calendar,
      outbox: { events, pool: db.pool },
    });
    await redisStore.start(config.FLUSH_INTERVAL_MS);
    store = redisStore;
    readiness = () => ({ gameCounters: redisStore.isBehind ? 'behind' : 'ok' });
    claims = new RedisPushClaims(redis, gameKeys(config.REDIS_PREFIX));
  } else {
    const local = new LocalPushClaims();
    store = new PostgresGameStore(repos, rateLimit, () => local.changed(), calendar);
    claims = local;
  }
  const service = new GameService({ store, metrics, signals, admission, now });
  const seasons = new SeasonsService({
    store,
    repo: new SeasonsRepository(db.pool),
    pool: db.pool,
    calendar,
  });
  const archiver = new SeasonArchiver(seasons, logger);
  const streakReads = new StreakRepository(db.pool);
  const streaks = new StreakService({
    store,
    reads: streakReads,
    rules: {
      dailyTaps: config.STREAK_DAILY_TAPS,
      bonusBase: config.STREAK_BONUS_BASE,
      bonusCap: config.STREAK_BONUS_CAP,
    },
  });
  const referrals = new ReferralRepository(db.pool);
  const referralRules = {
    taps: config.REFERRAL_TAPS,
    days: config.REFERRAL_DAYS,
    dailyCap: config.REFERRAL_DAILY_CAP,
    bonus: config.REFERRAL_BONUS,
  };
  const invitations = new InvitationsService({
    store,
    ports: invitationsPorts(db.pool, referrals),
    rules: referralRules,
    calendar,
    logger,
    events,
  });
  const friends = new FriendsService({ pool: db.pool, store, calendar, events });
  const bonuses = new BonusHistory(
    {
      claims: (userId, limit) => streakReads.claims(userId, limit),
      history: (userId, limit) => referrals.history(userId, limit),
    },
    referralRules,
  );
  const payer = new ReferralPayer(invitations, logger, config.REFERRAL_CHECK_MS);
  const today = () => new Date(now()).toISOString().slice(0, 10);
  const audit = new OperatorsRepository(db.pool, suspicionRules(config), today);
  const operators = new OperatorsService({
    pool: db.pool,
    repo: audit,
    store,
    events,
    referrals,
    calendar,
    referralTaps: config.REFERRAL_TAPS,
  });
  const router = Router();
  router.use(
    gameRouter(
      service,
      {
        socialUrl: config.SOCIAL_URL,
        chartUrl: config.CHART_URL,
        contractAddress: config.CONTRACT_ADDRESS,
        countryChangeDays: config.COUNTRY_CHANGE_DAYS,
        ...(config.TELEGRAM_BOT_TOKEN ? { telegramAppUrl: config.TELEGRAM_APP_URL } : {}),
      },
      secret,
      invitations,
    ),
  );
  router.use(countryRouter(new CountryService({ store, audit, days: config.COUNTRY_CHANGE_DAYS })));
  router.use(seasonsRouter(seasons));
  router.use(friendsRouter(friends, invitations, bonuses));
  router.use(streakRouter(streaks));
  router.use(operatorsRouter(operators, adminOnly));
  // Without a bot token the Telegram calls do not exist (404), and nothing else changes.
  if (config.TELEGRAM_BOT_TOKEN && config.TELEGRAM_APP_URL) {
    const telegram = new TelegramService({
      pool: db.pool,
      players: service,
      rules: {
        botToken: config.TELEGRAM_BOT_TOKEN,
        maxAgeSeconds: config.TELEGRAM_AUTH_TTL_SECONDS,
        now,
      },
      appUrl: config.TELEGRAM_APP_URL,
      logger,
      invitations: {
        accept: async (inviteeId, code) => {
          await invitations.accept({ inviteeId, code });
        },
      },
    });
    router.use(telegramRouter(telegram, secret));
  }
  let detach: (() => Promise<void>) | undefined;
  return {
    name: 'game',
    router,
    fastRoutes: gameFastRoutes(service, secret),
    readiness,
    attachSocket(io) {
      detach = attachGameChannel(io, {
        service,
        seasons,
        claims,
        secret,
        logger,
        metrics,
        events,
        allowance: rateLimit,
      });
    },
    async start() {
      archiver.start();
      payer.start();
    },
    async close() {
      await archiver.stop();
      await payer.stop();
      await detach?.();
      await store.close();
      await signals?.close();
    },
  };
}
