import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger';
import { PostgresGameStore } from '../../src/game/postgres-store';
import { LocalPushClaims, PUSH_INTERVAL_MS, type PushClaims } from '../../src/game/push-claims';
import { RedisPushClaims } from '../../src/game/redis-push';
import { gameKeys } from '../../src/game/redis-keys';
import { RedisGameStore } from '../../src/game/redis-store';
import { gameRepositories } from '../../src/game/repositories';
import type { GameStore } from '../../src/game/store';
import { startTestServer, type TestServer } from '../../test-support/server';
import { dropRedisPrefix, TEST_REDIS_URL, uniqueName } from '../../test-support/services';
import { makeUsername } from './builders';
import { storageModes } from './modes';

describe.each(storageModes)('leaderboard push claims (%s mode)', (mode) => {
  let server: TestServer;
  let store: GameStore;
  let claims: PushClaims;
  /** Lets the push interval pass: the clock moves on, or Redis's lock expires. */
  let intervalPasses: () => Promise<void>;
  let redis: Redis | undefined;
  // A prefix of its own: the server's push loop claims on the server's prefix.
  const prefix = uniqueName('tgtest');
  beforeAll(async () => {
    server = await startTestServer({ mode });
    const repo = gameRepositories(server.db.pool);
    const rate = { perSecond: 20, burst: 40 };
    if (mode === 'redis') {
      const client = new Redis(TEST_REDIS_URL);
      redis = client;
      store = new RedisGameStore({
        redis: client,
        repos: repo,
        rateLimit: rate,
        logger: createLogger('silent'),
        prefix,
      });
      claims = new RedisPushClaims(client, gameKeys(prefix));
      const lock = gameKeys(prefix).pushLock;
      intervalPasses = async () => {
        // The lock lives as long as the interval; its expiry is what lets the next claim through.
        const ttl = await client.pttl(lock);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(PUSH_INTERVAL_MS);
        await client.del(lock);
      };
    } else {
      let now = 1_000_000;
      const local = new LocalPushClaims(() => now);
      store = new PostgresGameStore(repo, rate, () => local.changed());
      claims = local;
      intervalPasses = async () => {
        now += PUSH_INTERVAL_MS;
      };
    }
  });
  afterAll(async () => {
    await store?.close();
    redis?.disconnect();
    if (mode === 'redis') await dropRedisPrefix(prefix);
    await server?.stop();
  });

  /** Claims a push and does it, as the push loop does: true when this call pushed. */
  async function push(): Promise<boolean> {
    const claimed = await claims.claim();
    if (claimed === null) return false;
    await claims.pushed(claimed);
    return true;
  }

  it('claims at most one push an interval, and only after a change', async () => {
    await store.createUser(makeUsername(), 'GB', null);
    expect(await push()).toBe(true);
    await store.createUser(makeUsername(), 'GB', null);
    expect(await push()).toBe(false);
    await intervalPasses();
    // The change above is pushed now; without another change, nothing more is.
    expect(await push()).toBe(true);
    await intervalPasses();
    expect(await push()).toBe(false);
    await store.createUser(makeUsername(), 'GB', null);
    expect(await push()).toBe(true);
  });

  it('takes back a claim whose push failed, so that the next check pushes at once', async () => {
    await intervalPasses();
    await store.createUser(makeUsername(), 'GB', null);
    expect(await claims.claim()).not.toBeNull();
    await claims.release();
    expect(await push()).toBe(true);
    expect(await push()).toBe(false);
  });

  it('pushes a change whose claim was never done (its answer lost, its process dead) once the interval passes', async () => {
    await intervalPasses();
    await store.createUser(makeUsername(), 'GB', null);
    const version = await claims.version();
    // Claimed, and nothing more: not pushed, not released.
    expect(await claims.claim()).toBe(version);
    expect(await claims.claim()).toBeNull();
    await intervalPasses();
    expect(await claims.claim()).toBe(version);
    await claims.pushed(version);
    await intervalPasses();
    expect(await claims.claim()).toBeNull();
  });
});
