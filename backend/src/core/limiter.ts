import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { TooManyRequestsError } from './errors';
import type { Redis } from './redis';

/** At most `limit` attempts per key in each window of `windowMs`. */
export interface LimitRule {
  limit: number;
  windowMs: number;
}

/**
 * Attempts counted per key. A key's window starts at its first counted attempt and the count
 * drops to zero when it ends.
 */
export interface RateLimit {
  /**
   * Counts one attempt for `key`; at the limit, counts nothing and throws a 429 that says when to
   * come back. Concurrent attempts are counted one after the other, in every process.
   */
  take(key: string, message: string): Promise<void>;
  /** Takes one counted attempt back (it turned out fine); a key with none counted stays at none. */
  forgive(key: string): Promise<void>;
  /** Forgets every attempt counted for `key`. */
  reset(key: string): Promise<void>;
}

/** Builds the named limits of a feature, all on the store chosen once at start-up. */
export type RateLimits = (name: string, rule: LimitRule) => RateLimit;

/** Keys one limit holds at most in this process's memory, whatever clients send. */
export const MEMORY_LIMIT_MAX_KEYS = 100_000;

/**
 * With Redis, limits are counted there (shared by every process, under `prefix`); while Redis is
 * unreachable each process counts on its own rather than waiting for it. Without Redis they are
 * counted in this process's memory.
 */
export function createRateLimits(
  redis: Redis | null,
  prefix: string,
  { maxMemoryKeys = MEMORY_LIMIT_MAX_KEYS }: { maxMemoryKeys?: number } = {},
): RateLimits {
  return (name, { limit, windowMs }) => {
    const options = {
      keyPrefix: `${prefix}:limit:${name}`,
      points: limit,
      duration: Math.ceil(windowMs / 1000),
    };
    const memory = new BoundedMemoryLimiter(options, maxMemoryKeys);
    const limiter: RateLimiterAbstract = redis
      ? new RateLimiterRedis({
          ...options,
          storeClient: redis,
          rejectIfRedisNotReady: true,
          insuranceLimiter: memory,
        })
      : memory;
    const giveBack = async (key: string) => {
      const res = await limiter.reward(key);
      // Below zero (the key had expired, or was reset meanwhile) it would be credit: undo it.
      if (res.consumedPoints < 0) await limiter.penalty(key);
    };
    return {
      async take(key, message) {
        try {
          await limiter.consume(key);
        } catch (outcome) {
          if (!(outcome instanceof RateLimiterRes)) throw outcome;
          // The store counted the refused attempt too: give it back, so that only attempts that
          // went through are counted and a forgiven one frees a place.
          await giveBack(key);
          throw new TooManyRequestsError(
            message,
            Math.max(1, Math.ceil(outcome.msBeforeNext / 1000)),
          );
        }
      },
      forgive: giveBack,
      async reset(key) {
        await limiter.delete(key);
      },
    };
  };
}

type Key = string | number;
type Options = Record<string, unknown>;

/**
 * RateLimiterMemory that holds at most `maxKeys` keys: past the bound it forgets the key whose
 * window started first (the one that would expire first). Expired keys go by the library's timers.
 */
class BoundedMemoryLimiter extends RateLimiterMemory {
  /** Keys in the order their windows started, with the time each window ends. */
  private readonly windows = new Map<Key, number>();

  constructor(
    options: ConstructorParameters<typeof RateLimiterMemory>[0],
    private readonly maxKeys: number,
  ) {
    super(options);
  }

  override consume(key: Key, points?: number, options?: Options) {
    return this.track(key, super.consume(key, points, options));
  }

  override penalty(key: Key, points?: number, options?: Options) {
    return this.track(key, super.penalty(key, points, options));
  }

  override reward(key: Key, points?: number, options?: Options) {
    return this.track(key, super.reward(key, points, options));
  }

  override delete(key: Key, options?: Options) {
    this.windows.delete(key);
    return super.delete(key, options);
  }

  private async track(key: Key, outcome: Promise<RateLimiterRes>): Promise<RateLimiterRes> {
    try {
      const res = await outcome;
      this.started(key, res);
      return res;
    } catch (refused) {
      if (refused instanceof RateLimiterRes) this.started(key, refused);
      throw refused;
    }
  }

  private started(key: Key, res: RateLimiterRes) {
    if (!res.isFirstInDuration) return;
    const now = Date.now();
    this.windows.delete(key);
    this.windows.set(key, now + res.msBeforeNext);
    for (const [oldest, endsAt] of this.windows) {
      if (endsAt > now && this.windows.size <= this.maxKeys) break;
      this.windows.delete(oldest);
      if (endsAt > now) void super.delete(oldest);
    }
  }
}
