import { randomUUID } from 'node:crypto';
import type { Logger } from './logger';
import type { Redis } from './redis';

/**
 * The product's domain events: what happened, by name, with its payload (plain JSON: it may
 * travel to the other nodes). Each module declares the events it emits by merging into this
 * interface, in its own `events.ts`:
 *
 *     declare module '../core/events' {
 *       interface DomainEvents { 'post.created': { postId: string; authorId: string } }
 *     }
 *
 * so that core names none of them, and an emit or a handler with the wrong payload does not compile.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DomainEvents {}

export type EventName = keyof DomainEvents;
export type EventHandler<K extends EventName> = (payload: DomainEvents[K]) => unknown;

export interface HandlerOptions {
  /**
   * Where the handler runs. 'origin' (the default): once, on the node where the event happened,
   * for work that must happen once (a row written; a push to a user's room, which the Socket.IO
   * adapter carries to whichever node holds their socket). 'every-node': on every node, for what
   * each node keeps for itself (a cache to drop); through Redis when it is configured.
   */
  where?: 'origin' | 'every-node';
}

/**
 * Whatever must happen after something else happened goes through here instead of a callback
 * threaded through constructors: the service that made a change emits it, whoever cares handles it.
 * A handler runs after the emit returns (the write that emitted it is done), and one that fails is
 * logged: it never breaks the write, nor the other handlers.
 */
export interface EventBus {
  /** Adds a handler; answers a function that removes it. */
  on<K extends EventName>(name: K, handler: EventHandler<K>, options?: HandlerOptions): () => void;
  /** Tells the handlers of this node, and the every-node handlers of the others. */
  emit<K extends EventName>(name: K, payload: DomainEvents[K]): void;
  /** Resolves when the handlers under way on this node have finished (tests, shutdown). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

interface Registered {
  handler: (payload: unknown) => unknown;
  everyNode: boolean;
}

/** An event as it travels between nodes. */
interface Relayed {
  node: string;
  name: string;
  payload: unknown;
}

class LocalEventBus implements EventBus {
  private readonly handlers = new Map<string, Set<Registered>>();
  private readonly running = new Set<Promise<void>>();

  constructor(protected readonly logger: Logger) {}

  on<K extends EventName>(name: K, handler: EventHandler<K>, options: HandlerOptions = {}) {
    const registered: Registered = {
      handler: handler as (payload: unknown) => unknown,
      everyNode: options.where === 'every-node',
    };
    let set = this.handlers.get(name);
    if (!set) {
      set = new Set();
      this.handlers.set(name, set);
    }
    set.add(registered);
    return () => {
      set.delete(registered);
    };
  }

  emit<K extends EventName>(name: K, payload: DomainEvents[K]): void {
    this.run(name, payload, () => true);
  }

  /** Runs the handlers of `name` that `which` selects, after this turn of the event loop. */
  protected run(name: string, payload: unknown, which: (handler: Registered) => boolean) {
    const selected = [...(this.handlers.get(name) ?? [])].filter(which);
    if (selected.length === 0) return;
    // The handlers run side by side: one that waits (on the database, say) never holds up the
    // others, such as the drop of a cached page that the next request must not be served.
    const work = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      await Promise.all(
        selected.map(async ({ handler }) => {
          try {
            await handler(payload);
          } catch (err) {
            this.logger.error({ err, event: name }, 'event handler failed');
          }
        }),
      );
    });
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  async close(): Promise<void> {
    await this.settled();
  }
}

/**
 * Every node runs its own handlers of an event; the every-node handlers of the other nodes hear of
 * it through a Redis channel. While Redis is away the other nodes miss what happened meanwhile
 * (logged): what every-node handlers keep must be what a node can afford to miss, like a cache
 * that also expires on its own.
 */
class RedisEventBus extends LocalEventBus {
  private readonly node = randomUUID();

  constructor(
    logger: Logger,
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly channel: string,
  ) {
    super(logger);
    subscriber.on('message', (from: string, message: string) => {
      if (from !== channel) return;
      let relayed: Relayed;
      try {
        relayed = JSON.parse(message) as Relayed;
      } catch {
        return;
      }
      if (relayed.node === this.node) return;
      this.run(relayed.name, relayed.payload, (handler) => handler.everyNode);
    });
  }

  async start(): Promise<void> {
    await this.subscriber.subscribe(this.channel);
  }

  override emit<K extends EventName>(name: K, payload: DomainEvents[K]): void {
    super.emit(name, payload);
    const relayed: Relayed = { node: this.node, name, payload };
    this.publisher.publish(this.channel, JSON.stringify(relayed)).catch((err: unknown) => {
      this.logger.warn({ err, event: name }, 'event not relayed to the other nodes');
    });
  }

  override async close(): Promise<void> {
    await super.close();
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}

/** The bus of this node: in memory, and relayed between nodes through Redis when there is one. */
export async function createEventBus({
  redis,
  prefix,
  logger,
}: {
  redis: Redis | null;
  prefix: string;
  logger: Logger;
}): Promise<EventBus> {
  if (!redis) return new LocalEventBus(logger);
  // A subscribed connection takes no other command; it subscribes again by itself after a drop.
  const subscriber = redis.duplicate({ enableOfflineQueue: true, commandTimeout: undefined });
  subscriber.on('error', (err) => logger.debug({ err }, 'events subscriber error'));
  const bus = new RedisEventBus(logger, redis, subscriber, `${prefix}:events`);
  await bus.start();
  return bus;
}
