import { Redis } from 'ioredis';
import type { Logger } from './logger';

export type { Redis };

// A command Redis does not answer in this time after it was sent fails. With auto-pipelining a
// command issued while the previous pipeline is unanswered waits for that one to end (at most
// this time) before it is sent: a hung Redis costs a caller two seconds at most, never the
// client's whole patience.
const COMMAND_TIMEOUT_MS = 1000;

/** `onError` is told of each error event of a connection (it fails, drops or cannot reconnect). */
export async function openRedis(
  url: string,
  logger: Logger,
  onError?: (err: Error) => void,
): Promise<Redis> {
  // Commands issued in the same tick go out in one write: many concurrent taps, few syscalls.
  // A command in flight when the connection drops fails rather than being sent again on
  // reconnect: a tap script that already ran would count twice. While the connection is down,
  // commands fail at once instead of waiting in a queue for a Redis that may take minutes.
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableAutoPipelining: true,
    autoResendUnfulfilledCommands: false,
    enableOfflineQueue: false,
    commandTimeout: COMMAND_TIMEOUT_MS,
  });
  redis.on('error', (err) => logger.warn({ err }, 'redis error'));
  if (onError) redis.on('error', onError);
  await redis.connect();
  return redis;
}

/**
 * Connections for the Socket.IO adapter's publishing and subscribing. Unlike the main client they
 * queue their commands while Redis is away: the adapter subscribes before they have connected,
 * and subscribes again by itself after a reconnect. Each command goes out when it is issued (no
 * auto-pipelining): a push published just before shutdown leaves before the connection's QUIT.
 */
export function openAdapterClients(
  redis: Redis,
  logger: Logger,
  onError?: (err: Error) => void,
): [Redis, Redis] {
  const failed = (err: Error) => {
    logger.debug({ err }, 'redis adapter connection error');
    onError?.(err);
  };
  const open = () => {
    const client = redis.duplicate({
      enableOfflineQueue: true,
      enableAutoPipelining: false,
      commandTimeout: undefined,
    });
    client.on('error', failed);
    return client;
  };
  return [catchPublishes(open(), failed), open()];
}

/**
 * The adapter publishes without waiting for the answer. A publish that fails (Redis went away
 * with it in flight) reaches `failed` instead of becoming an unhandled rejection: the message is
 * lost to the other processes, as any sent while Redis is away.
 */
function catchPublishes(client: Redis, failed: (err: Error) => void): Redis {
  const publish = client.publish.bind(client) as (...args: unknown[]) => Promise<number>;
  client.publish = ((...args: unknown[]) => {
    const sent = publish(...args);
    sent.catch(failed);
    return sent;
  }) as Redis['publish'];
  return client;
}

const CONNECTION_FAILURE = /^(Command timed out|Connection is closed|Stream isn't writeable)/;

/** Whether `error` says that Redis could not be reached (rather than that it refused a command). */
export function isRedisUnreachable(redis: Redis, error: unknown): boolean {
  if (redis.status !== 'ready') return true;
  return (
    error instanceof Error &&
    (error.name === 'MaxRetriesPerRequestError' || CONNECTION_FAILURE.test(error.message))
  );
}
