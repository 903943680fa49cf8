import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TooManyRequestsError } from '../../src/core/errors';
import { createRateLimits, type RateLimit } from '../../src/core/limiter';
import { redisAvailable } from '../../test-support/availability';
import { dropRedisPrefix, TEST_REDIS_URL, uniqueName } from '../../test-support/services';

const MESSAGE = 'Slow down';

/** Whether an attempt went through: a 429 is false, any other error fails the test. */
async function taken(limit: RateLimit, key: string): Promise<boolean> {
  try {
    await limit.take(key, MESSAGE);
    return true;
  } catch (error) {
    if (error instanceof TooManyRequestsError) return false;
    throw error;
  }
}

const takeAll = (limit: RateLimit, key: string, times: number) =>
  Promise.all(Array.from({ length: times }, () => taken(limit, key)));

describe('rate limits in memory', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const memoryLimit = (limit: number, windowMs: number, maxMemoryKeys?: number) =>
    createRateLimits(null, 'test', { maxMemoryKeys })('attempts', { limit, windowMs });

  it('counts up to the limit, refuses with a 429 that says when, and frees the key a window after its first count', async () => {
    const limit = memoryLimit(3, 1000);
    expect(await takeAll(limit, 'k', 3)).toEqual([true, true, true]);
    await expect(limit.take('k', MESSAGE)).rejects.toMatchObject({
      status: 429,
      message: MESSAGE,
      retryAfterSeconds: 1,
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(await taken(limit, 'k')).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await takeAll(limit, 'k', 4)).toEqual([true, true, true, false]);
  });

  it('counts no refused attempt: one forgiven after many refusals frees exactly one place', async () => {
    const limit = memoryLimit(2, 1000);
    expect(await takeAll(limit, 'k', 7)).toEqual([true, true, false, false, false, false, false]);
    await limit.forgive('k');
    expect(await takeAll(limit, 'k', 2)).toEqual([true, false]);
  });

  it('takes one count back on forgive and all on reset', async () => {
    const limit = memoryLimit(2, 1000);
    await takeAll(limit, 'k', 2);
    await limit.forgive('k');
    expect(await taken(limit, 'k')).toBe(true);
    await limit.reset('k');
    expect(await takeAll(limit, 'k', 3)).toEqual([true, true, false]);
  });

  it('gives no credit for forgiving a key with nothing counted', async () => {
    const limit = memoryLimit(2, 1000);
    await limit.forgive('fresh');
    await limit.forgive('fresh');
    expect(await takeAll(limit, 'fresh', 3)).toEqual([true, true, false]);
    await limit.reset('fresh');
    await limit.forgive('fresh');
    expect(await takeAll(limit, 'fresh', 3)).toEqual([true, true, false]);
  });

  it('holds at most its key bound, forgetting the keys whose windows started first; expired keys take no place', async () => {
    const limit = memoryLimit(1, 1000, 100);
    for (let i = 0; i < 100; i += 1) await taken(limit, `old-${i}`);
    await vi.advanceTimersByTimeAsync(1000);
    // The expired keys left no trace: a hundred new ones all fit.
    for (let i = 0; i < 100; i += 1) await taken(limit, `new-${i}`);
    expect(await taken(limit, 'new-0')).toBe(false);
    for (let i = 0; i < 1000; i += 1) await taken(limit, `flood-${i}`);
    // Past the bound the keys whose windows started first are forgotten, the latest are held.
    expect(await taken(limit, 'new-0')).toBe(true);
    expect(await taken(limit, 'flood-0')).toBe(true);
    expect(await taken(limit, 'flood-999')).toBe(false);
  });
});

describe.runIf(await redisAvailable())('rate limits in Redis', () => {
  const WINDOW_MS = 60_000;
  // Two connections, as two processes would hold.
  let first: Redis;
  let second: Redis;
  let prefix: string;
  beforeAll(async () => {
    first = new Redis(TEST_REDIS_URL);
    second = new Redis(TEST_REDIS_URL);
    await Promise.all([first.ping(), second.ping()]);
  });
  beforeEach(() => {
    prefix = uniqueName('tglimit');
  });
  afterEach(async () => {
    await dropRedisPrefix(prefix);
  });
  afterAll(async () => {
    await Promise.all([first?.quit(), second?.quit()]);
  });

  const redisLimit = (redis: Redis, limit: number) =>
    createRateLimits(redis, prefix)('attempts', { limit, windowMs: WINDOW_MS });

  it('shares every count, forgiveness and reset between processes', async () => {
    const a = redisLimit(first, 3);
    const b = redisLimit(second, 3);
    expect(await takeAll(a, 'k', 2)).toEqual([true, true]);
    expect(await takeAll(b, 'k', 2)).toEqual([true, false]);
    expect(await taken(a, 'k')).toBe(false);
    await b.forgive('k');
    expect(await takeAll(a, 'k', 2)).toEqual([true, false]);
    await a.reset('k');
    expect(await takeAll(b, 'k', 4)).toEqual([true, true, true, false]);
    expect(await first.exists(`${prefix}:limit:attempts:k`)).toBe(1);
  });

  it('lets exactly the limit of concurrent attempts through two processes', async () => {
    const a = redisLimit(first, 5);
    const b = redisLimit(second, 5);
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => taken(i % 2 === 0 ? a : b, 'k')),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(5);
  });

  it('counts no refused attempt, says when to come back within the window, and gives no credit for nothing', async () => {
    const limit = redisLimit(first, 2);
    await limit.forgive('k');
    expect(await takeAll(limit, 'k', 6)).toEqual([true, true, false, false, false, false]);
    await limit.forgive('k');
    expect(await taken(limit, 'k')).toBe(true);
    const refusal = await limit.take('k', MESSAGE).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TooManyRequestsError);
    const { retryAfterSeconds } = refusal as TooManyRequestsError;
    expect(retryAfterSeconds).toBeGreaterThan(0);
    expect(retryAfterSeconds).toBeLessThanOrEqual(WINDOW_MS / 1000);
  });

  it('counts in memory while Redis is unreachable, writing nothing there', async () => {
    const down = new Redis(TEST_REDIS_URL);
    await down.ping();
    down.disconnect();
    const limit = redisLimit(down, 2);
    expect(await takeAll(limit, 'k', 3)).toEqual([true, true, false]);
    await limit.forgive('k');
    expect(await takeAll(limit, 'k', 2)).toEqual([true, false]);
    expect(await first.exists(`${prefix}:limit:attempts:k`)).toBe(0);
  });
});
