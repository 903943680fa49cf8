import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger';
import { PostgresGameStore } from '../../src/game/postgres-store';
import { RedisGameStore } from '../../src/game/redis-store';
import { GameRepository } from '../../src/game/repository';
import type { GameStore } from '../../src/game/store';
import { startTestServer, type TestServer } from '../helpers/server';
import { dropRedisPrefix, TEST_REDIS_URL, uniqueName } from '../helpers/services';
import { makeUsername } from './builders';
import { storageModes } from './modes';

describe.each(storageModes)('leaderboard push claims (%s mode)', (mode) => {
  let server: TestServer;
  let store: GameStore;
  let redis: Redis | undefined;
  // A prefix of its own: the server's push loop claims on the server's prefix.
  const prefix = uniqueName('tgtest');
  beforeAll(async () => {
    server = await startTestServer({ mode });
    const repo = new GameRepository(server.db.pool);
    const rate = { perSecond: 20, burst: 40 };
    if (mode === 'redis') {
      redis = new Redis(TEST_REDIS_URL);
      store = new RedisGameStore(redis, repo, rate, createLogger('silent'), prefix);
    } else {
      store = new PostgresGameStore(repo, rate);
    }
  });
  afterAll(async () => {
    await store?.close();
    redis?.disconnect();
    if (mode === 'redis') await dropRedisPrefix(prefix);
    await server?.stop();
  });

  it('claims at most one push a second, and only after a change', async () => {
    await store.createUser(makeUsername(), 'GB');
    expect(await store.claimPush()).toBe(true);
    expect(await store.claimPush()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await store.claimPush()).toBe(false);
    await store.createUser(makeUsername(), 'GB');
    expect(await store.claimPush()).toBe(true);
  });

  it('takes back a claim whose push failed, so that the next check pushes at once', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await store.createUser(makeUsername(), 'GB');
    expect(await store.claimPush()).toBe(true);
    await store.releasePush();
    expect(await store.claimPush()).toBe(true);
    expect(await store.claimPush()).toBe(false);
  });
});
