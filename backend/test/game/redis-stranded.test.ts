import { DEFAULT_SEASON_CALENDAR } from '@tapgram/shared';
import { describe, expect, it } from 'vitest';
import type { EventBus } from '../../src/core/events';
import { createLogger } from '../../src/core/logger';
import { gameKeys } from '../../src/game/redis-keys';
import { RedisRebuilder } from '../../src/game/redis-rebuild';
import { RedisStrandedTaps } from '../../src/game/redis-stranded';
import { gameRepositories } from '../../src/game/repositories';
import { redisAvailable } from '../../test-support/availability';
import { makePlayer, tap } from './builders';
import { storePartsServer } from './store-parts';

describe.runIf(await redisAvailable())('stranded taps added to the Redis Postgres follows', () => {
  const held = storePartsServer();

  function stranded() {
    const { server, redis } = held;
    const k = gameKeys(server.redisPrefix);
    const repos = gameRepositories(server.db.pool);
    const logger = createLogger('silent');
    const outbox = { events: {} as EventBus, pool: server.db.pool };
    const rebuilder = new RedisRebuilder(redis, repos, k, logger);
    return {
      k,
      taps: new RedisStrandedTaps(
        redis,
        k,
        repos,
        rebuilder,
        DEFAULT_SEASON_CALENDAR,
        outbox,
        logger,
      ),
    };
  }

  it('adds what a Redis counted past what Postgres held, once however often and in whatever order it is delivered', async () => {
    const { server, redis } = held;
    const { k, taps } = stranded();
    const player = await makePlayer(server.url, 'NZ');
    expect((await tap(server.url, player)).status).toBe(200);
    const day = Number(await redis.hget(k.user(player.user.id), 'day'));
    const event = (to: number) => ({
      generation: '00000000-0000-4000-8000-000000000001',
      taps: [{ userId: player.user.id, from: 2, to, day }],
    });

    await taps.add(event(5));
    await taps.add(event(5));
    await taps.add(event(4));
    expect(await redis.hmget(k.user(player.user.id), 'taps', 'points', 'dayTaps')).toEqual([
      '4',
      '4',
      '4',
    ]);
    await taps.add(event(9));
    expect(await redis.hmget(k.user(player.user.id), 'taps', 'dayTaps')).toEqual(['8', '8']);
    expect(await redis.zscore(k.users, player.user.id)).toBe('8');
    expect(await redis.sismember(k.dirtyUsers, player.user.id)).toBe(1);
  });

  it('refuses to add them to a Redis whose generation Postgres no longer follows', async () => {
    const { server, redis } = held;
    const { k, taps } = stranded();
    const player = await makePlayer(server.url, 'NZ');
    const followed = await redis.get(k.generation);
    await redis.set(k.generation, '00000000-0000-4000-8000-000000000002');
    const adding = taps.add({
      generation: '00000000-0000-4000-8000-000000000003',
      taps: [{ userId: player.user.id, from: 0, to: 3, day: 0 }],
    });
    await expect(adding).rejects.toThrow(/behind/);
    await redis.set(k.generation, followed!);
    expect(await redis.hget(k.user(player.user.id), 'taps')).toBe('0');
  });
});
