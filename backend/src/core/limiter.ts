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

export interface RateLimit {
  /** Counts one attempt for `key`; past the limit, throws a 429 that says when to come back. */
  take(key: string, message: string): Promise<void>;
}

/** Builds the named limits of a feature, all on the store chosen once at start-up. */
export type RateLimits = (name: string, rule: LimitRule) => RateLimit;

/**
 * With Redis, limits are counted there (shared by every process, under `prefix`); while Redis is
 * unreachable each process counts on its own rather than waiting for it. Without Redis they are
 * counted in this process's memory.
 */
export function createRateLimits(redis: Redis | null, prefix: string): RateLimits {
  return (name, { limit, windowMs }) => {
    const options = {
      keyPrefix: `${prefix}:limit:${name}`,
      points: limit,
      duration: Math.ceil(windowMs / 1000),
    };
    const limiter: RateLimiterAbstract = redis
      ? new RateLimiterRedis({
          ...options,
          storeClient: redis,
          rejectIfRedisNotReady: true,
          insuranceLimiter: new RateLimiterMemory(options),
        })
      : new RateLimiterMemory(options);
    return {
      async take(key, message) {
        try {
          await limiter.consume(key);
        } catch (outcome) {
          if (!(outcome instanceof RateLimiterRes)) throw outcome;
          throw new TooManyRequestsError(
            message,
            Math.max(1, Math.ceil(outcome.msBeforeNext / 1000)),
          );
        }
      },
    };
  };
}
