import type { Feature, FeatureDeps } from '../core/feature';
import { PostgresGameStore } from './postgres-store';
import { LocalPushClaims, type PushClaims } from './push-claims';
import { RedisPushClaims } from './redis-push';
import { gameKeys } from './redis-keys';
import { RedisGameStore } from './redis-store';
import { GameRepository } from './repository';
import { gameFastRoutes, gameRouter } from './routes';
import { GameService } from './service';
import { attachGameChannel } from './socket';
import type { GameStore } from './store';

/** The tap game, on Redis when it is configured, straight on Postgres otherwise. */
export async function createGameFeature({
  config,
  logger,
  db,
  redis,
  metrics,
  secret,
}: FeatureDeps): Promise<Feature> {
  const repo = new GameRepository(db.pool);
  const rateLimit = { perSecond: config.TAP_RATE_PER_SECOND, burst: config.TAP_BURST };
  let store: GameStore;
  let claims: PushClaims;
  if (redis) {
    const redisStore = new RedisGameStore(
      redis,
      repo,
      rateLimit,
      logger,
      config.REDIS_PREFIX,
      metrics,
    );
    await redisStore.start(config.FLUSH_INTERVAL_MS);
    store = redisStore;
    claims = new RedisPushClaims(redis, gameKeys(config.REDIS_PREFIX));
  } else {
    const local = new LocalPushClaims();
    store = new PostgresGameStore(repo, rateLimit, () => local.changed());
    claims = local;
  }
  const service = new GameService(store, metrics);
  let detach: (() => Promise<void>) | undefined;
  return {
    name: 'game',
    router: gameRouter(service, {
      socialUrl: config.SOCIAL_URL,
      chartUrl: config.CHART_URL,
      contractAddress: config.CONTRACT_ADDRESS,
    }),
    fastRoutes: gameFastRoutes(service, secret),
    attachSocket(io) {
      detach = attachGameChannel(io, { service, claims, secret, logger, metrics });
    },
    async close() {
      await detach?.();
      await store.close();
    },
  };
}
