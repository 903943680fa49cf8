import { Redis } from 'ioredis';
import type { Logger } from './logger';

export type { Redis };

export async function openRedis(url: string, logger: Logger): Promise<Redis> {
  // Commands issued in the same tick go out in one write: many concurrent taps, few syscalls.
  // A command in flight when the connection drops fails rather than being sent again on
  // reconnect: a tap script that already ran would count twice.
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 3,
    enableAutoPipelining: true,
    autoResendUnfulfilledCommands: false,
  });
  redis.on('error', (err) => logger.warn({ err }, 'redis error'));
  await redis.connect();
  return redis;
}
