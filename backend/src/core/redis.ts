import { Redis } from 'ioredis';
import type { Logger } from './logger';

export type { Redis };

export async function openRedis(url: string, logger: Logger): Promise<Redis> {
  // Commands issued in the same tick go out in one write: many concurrent taps, few syscalls.
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 3,
    enableAutoPipelining: true,
  });
  redis.on('error', (err) => logger.warn({ err }, 'redis error'));
  await redis.connect();
  return redis;
}
