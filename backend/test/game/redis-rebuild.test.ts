import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger';
import { RedisRebuilder } from '../../src/game/redis-rebuild';
import { gameKeys } from '../../src/game/redis-keys';
import { gameRepositories } from '../../src/game/repositories';
import { redisAvailable } from '../../test-support/availability';
import { storePartsServer } from './store-parts';

describe.runIf(await redisAvailable())('rebuilding an emptied Redis', () => {
  // The server's own flusher stays out of the way: only the test's rebuilder rebuilds.
  const held = storePartsServer();

  it('answers a caller that found Redis emptied once it holds the counters again, though a check under way had found it ready', async () => {
    const { server, redis } = held;
    const k = gameKeys(server.redisPrefix);
    const rebuilder = new RedisRebuilder(
      redis,
      gameRepositories(server.db.pool),
      k,
      createLogger('silent'),
    );
    expect(await redis.exists(k.ready)).toBe(1);
    // A check under way, as each flush makes one: it reads the ready key first...
    const underWay = rebuilder.ensureReady();
    // ...and Redis loses it just after (the same connection, so after that read); a caller finds
    // it gone and asks.
    const emptied = redis.del(k.ready);
    const asked = rebuilder.ensureReady();
    await emptied;
    await asked;
    expect(await redis.exists(k.ready)).toBe(1);
    await underWay;
  });
});
