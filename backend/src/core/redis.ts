import { Redis } from 'ioredis';
import type { Logger } from './logger';

export type { Redis };

export async function openRedis(url: string, logger: Logger): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  redis.on('error', (err) => logger.warn({ err }, 'redis error'));
  await redis.connect();
  return redis;
}
