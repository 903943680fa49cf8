import { Redis, type RedisOptions } from 'ioredis';
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
 *
 * The subscriber keeps a subscription it was asked for until Redis answers it, however long Redis
 * is away, and sends one again that was in flight when the connection dropped (subscribing twice
 * is harmless): a namespace made while Redis is away or restarting still hears the other
 * processes once it is back. Only a subscription Redis has answered is renewed by the client
 * itself after a reconnect.
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
  const open = (options: RedisOptions = {}) => {
    const client = redis.duplicate({
      enableOfflineQueue: true,
      enableAutoPipelining: false,
      commandTimeout: undefined,
      ...options,
    });
    client.on('error', failed);
    return client;
  };
  const publisher = catchRejections(open(), ['publish'], failed);
  const subscriber = catchRejections(
    open({
      maxRetriesPerRequest: null,
      autoResendUnfulfilledCommands: true,
      // The ready check's INFO is no subscriber command: a subscription sent while it was pending
      // (a namespace made between connect and ready) failed it, the connection was dropped, and
      // the subscriptions queued before it were never made. Pub/sub needs no ready check.
      enableReadyCheck: false,
    }),
    ['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe'],
    failed,
  );
  return [publisher, subscriber];
}

/**
 * Resolves once Redis has answered every subscription the adapter asked for so far (a PING sent
 * after them is answered after them) and the publisher is connected, or after `withinMs`: from
 * then on, what the other processes publish reaches this one. A process that starts listening
 * before that would miss the pushes of its first moments.
 */
export async function adapterListening(
  [publisher, subscriber]: readonly [Redis, Redis],
  logger: Logger,
  withinMs = 5000,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), withinMs);
  });
  try {
    const outcome = await Promise.race([Promise.all([publisher.ping(), subscriber.ping()]), late]);
    if (outcome === 'late') {
      logger.warn('the socket adapter is not subscribed yet: it goes on trying');
    }
  } catch (err) {
    logger.warn({ err }, 'the socket adapter is not subscribed yet: it goes on trying');
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The adapter publishes and subscribes without waiting for the answer. One that fails (Redis
 * went away with a publish in flight, or the connection was closed) reaches `failed` instead of
 * becoming an unhandled rejection: a message published while Redis is away is lost to the other
 * processes.
 */
function catchRejections(
  client: Redis,
  commands: readonly ('publish' | 'subscribe' | 'psubscribe' | 'unsubscribe' | 'punsubscribe')[],
  failed: (err: Error) => void,
): Redis {
  for (const name of commands) {
    const command = (client[name] as (...args: unknown[]) => Promise<unknown>).bind(client);
    (client as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      const sent = command(...args);
      sent.catch(failed);
      return sent;
    };
  }
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
