import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/server';
import { TEST_REDIS_URL } from '../../test-support/services';

/**
 * For a suite that drives parts of the Redis store itself: a Redis-mode server whose own flusher
 * stays out of the way (once an hour), and a client on its Redis, started before the suite and
 * stopped after it.
 */
export function storePartsServer(): { server: TestServer; redis: Redis } {
  const held = {} as { server: TestServer; redis: Redis };
  beforeAll(async () => {
    held.server = await startTestServer({ mode: 'redis', env: { FLUSH_INTERVAL_MS: '3600000' } });
    held.redis = new Redis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    await held.redis?.quit();
    await held.server?.stop();
  });
  return held;
}
