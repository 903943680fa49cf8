import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { Counter, type Registry } from 'prom-client';
import type { Queryable } from './database';
import { onCommit } from './db';
import type { Logger } from './logger';
import { OutboxRepository, type RecordedEvent } from './outbox';
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
export type EventHandler<K extends EventName> = (
  payload: DomainEvents[K],
  delivery: Delivery,
) => unknown;

/** What a handler knows of the delivery it runs in. */
export interface Delivery {
  /**
   * In the transaction of the handler's write: whether to do `key` now. A recorded event is
   * delivered at least once (again after a crash, or after another of its handlers failed): this
   * answers true only the first time `key` is done for the event, so that the write is made once.
   * Always true for an event that was only emitted.
   */
  once(client: Queryable, key: string): Promise<boolean>;
}

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
 * threaded through constructors: the service that made a change emits or records it, whoever
 * cares handles it. A handler runs after the write that caused it is done, side by side with the
 * event's other handlers, and one that fails is logged: it never breaks the write, nor the others.
 */
export interface EventBus {
  /** Adds a handler; answers a function that removes it. */
  on<K extends EventName>(name: K, handler: EventHandler<K>, options?: HandlerOptions): () => void;
  /**
   * Tells the handlers of this node, and the every-node handlers of the others, once this turn of
   * the event loop ends. What they do is lost if the process dies first: for what may be lost.
   */
  emit<K extends EventName>(name: K, payload: DomainEvents[K]): void;
  /**
   * Records the event in the transaction of the change that caused it (`client`, of
   * `withTransaction`), in the outbox: once the transaction commits, its origin handlers run on
   * this node, and again on any node after a crash or a failure, until they have all succeeded (at
   * least once: a handler makes its write once with `delivery.once`). Every-node handlers run as
   * for `emit`. An event nobody handles at its origin is not written.
   */
  record<K extends EventName>(
    client: pg.PoolClient,
    name: K,
    payload: DomainEvents[K],
  ): Promise<void>;
  /**
   * Begins delivering the recorded events left undelivered (a node died, a handler failed), by
   * this node or another, and goes on looking for them; called once every handler is added.
   */
  start(): void;
  /** Resolves when the handlers under way on this node have finished (tests, shutdown). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

interface Registered {
  handler: (payload: unknown, delivery: Delivery) => unknown;
  everyNode: boolean;
}

/** An event as it travels between nodes. */
interface Relayed {
  node: string;
  name: string;
  payload: unknown;
}

export interface DeliverySettings {
  /**
   * How long a node has to deliver a recorded event before another node may take it over: the
   * longest a crashed node's events wait, and the first wait before a failed one is retried.
   */
  leaseSeconds: number;
  /** Where failed handlers and events given up are counted (absent in unit tests). */
  registry?: Registry;
}

/** Recorded events taken at once by a node looking for undelivered ones. */
const DELIVERY_BATCH = 50;
/** A recorded event whose handlers failed this many times is given up (kept, and logged). */
const MAX_ATTEMPTS = 10;
const MAX_RETRY_SECONDS = 3600;

interface LocalBusDeps {
  logger: Logger;
  /** The outbox's database: durable events are written there with the change that raised them. */
  pool: pg.Pool;
  settings: DeliverySettings;
}

interface RedisBusDeps extends LocalBusDeps {
  /** Publishes this node's events to the others. */
  publisher: Redis;
  /** A connection of its own: a subscribed connection takes no other command. */
  subscriber: Redis;
  channel: string;
}

/** The delivery of an event that was only emitted: nothing to do once. */
const EMITTED: Delivery = { once: async () => true };

class LocalEventBus implements EventBus {
  private readonly handlers = new Map<string, Set<Registered>>();
  private readonly running = new Set<Promise<void>>();
  private readonly outbox: OutboxRepository;
  private readonly handlerFailures?: Counter<'event'>;
  private readonly givenUp?: Counter<'event'>;
  private polling: NodeJS.Timeout | undefined;
  private started = false;
  private stopped = false;

  protected readonly logger: Logger;
  private readonly settings: DeliverySettings;

  constructor({ logger, pool, settings }: LocalBusDeps) {
    this.logger = logger;
    this.settings = settings;
    this.outbox = new OutboxRepository(pool);
    if (settings.registry) {
      const registers = [settings.registry];
      this.handlerFailures = new Counter({
        name: 'tapgram_event_handler_failures_total',
        help: 'Domain event handlers that failed, by event (a recorded event is retried)',
        labelNames: ['event'],
        registers,
      });
      this.givenUp = new Counter({
        name: 'tapgram_events_given_up_total',
        help: 'Recorded domain events given up after their handlers kept failing, by event',
        labelNames: ['event'],
        registers,
      });
    }
  }

  on<K extends EventName>(name: K, handler: EventHandler<K>, options: HandlerOptions = {}) {
    const registered: Registered = {
      handler: handler as Registered['handler'],
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
    this.relay(name, payload);
  }

  async record<K extends EventName>(
    client: pg.PoolClient,
    name: K,
    payload: DomainEvents[K],
  ): Promise<void> {
    if (this.selected(name, (handler) => !handler.everyNode).length === 0) {
      onCommit(client, () => this.emit(name, payload));
      return;
    }
    const id = await this.outbox.add(client, name, payload, this.settings.leaseSeconds);
    onCommit(client, () => {
      this.run(name, payload, (handler) => handler.everyNode);
      this.relay(name, payload);
      this.track(nextTurn().then(() => this.deliver({ id, name, payload, attempts: 1 })));
    });
  }

  /** Tells the other nodes' every-node handlers (none without Redis). */
  protected relay(_name: string, _payload: unknown): void {}

  private selected(name: string, which: (handler: Registered) => boolean): Registered[] {
    return [...(this.handlers.get(name) ?? [])].filter(which);
  }

  /** Runs the handlers of `name` that `which` selects, after this turn of the event loop. */
  protected run(name: string, payload: unknown, which: (handler: Registered) => boolean) {
    const selected = this.selected(name, which);
    if (selected.length === 0) return;
    this.track(nextTurn().then(() => this.runHandlers(name, payload, selected, EMITTED)));
  }

  /** Runs handlers side by side; answers how many failed (each is logged). */
  private async runHandlers(
    name: string,
    payload: unknown,
    handlers: Registered[],
    delivery: Delivery,
  ): Promise<number> {
    // Side by side: one that waits (on the database, say) never holds up the others, such as the
    // drop of a cached page that the next request must not be served.
    const failed = await Promise.all(
      handlers.map(async ({ handler }) => {
        try {
          await handler(payload, delivery);
          return 0;
        } catch (err) {
          this.logger.error({ err, event: name }, 'event handler failed');
          this.handlerFailures?.inc({ event: name });
          return 1;
        }
      }),
    );
    return failed.reduce<number>((sum, n) => sum + n, 0);
  }

  /** Runs a recorded event's origin handlers, then drops it, or leaves it for a retry. */
  private async deliver(event: RecordedEvent): Promise<void> {
    const failed =
      event.attempts > MAX_ATTEMPTS
        ? 1
        : await this.runHandlers(
            event.name,
            event.payload,
            this.selected(event.name, (handler) => !handler.everyNode),
            { once: (client, key) => this.outbox.once(client, event.id, key) },
          );
    try {
      if (failed === 0) {
        await this.outbox.done(event.id);
      } else if (event.attempts >= MAX_ATTEMPTS) {
        await this.outbox.retryAfter(event.id, null);
        this.logger.error(
          { event: event.name, eventId: event.id, attempts: event.attempts },
          'recorded event given up: its handlers kept failing',
        );
        this.givenUp?.inc({ event: event.name });
      } else {
        const wait = this.settings.leaseSeconds * 2 ** (event.attempts - 1);
        await this.outbox.retryAfter(event.id, Math.min(wait, MAX_RETRY_SECONDS));
      }
    } catch (err) {
      // The event stays leased: it is delivered again once the lease runs out.
      this.logger.warn({ err, event: event.name }, 'recorded event not marked: delivered again');
    }
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    const every = Math.min(5000, Math.max(250, (this.settings.leaseSeconds * 1000) / 4));
    const look = () => {
      void this.track(this.deliverDue()).finally(() => {
        if (!this.stopped) this.polling = setTimeout(look, every).unref();
      });
    };
    look();
  }

  /** Delivers, one after another, the recorded events whose lease ran out. */
  private async deliverDue(): Promise<void> {
    try {
      for (;;) {
        const due = await this.outbox.takeDue(DELIVERY_BATCH, this.settings.leaseSeconds);
        for (const event of due) {
          // Those taken and not delivered are delivered after their lease, by whoever looks.
          if (this.stopped) return;
          await this.deliver(event);
        }
        if (due.length < DELIVERY_BATCH) return;
      }
    } catch (err) {
      this.logger.warn({ err }, 'recorded events could not be read: looked for again later');
    }
  }

  private track(work: Promise<unknown>): Promise<void> {
    const tracked = work.then(() => undefined);
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked));
    return tracked;
  }

  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.polling);
    await this.settled();
  }
}

function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Every node runs its own handlers of an event; the every-node handlers of the other nodes hear of
 * it through a Redis channel. While Redis is away the other nodes miss what happened meanwhile
 * (logged): what every-node handlers keep must be what a node can afford to miss, like a cache
 * that also expires on its own.
 */
class RedisEventBus extends LocalEventBus {
  private readonly node = randomUUID();

  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly channel: string;

  constructor({ publisher, subscriber, channel, ...local }: RedisBusDeps) {
    super(local);
    this.publisher = publisher;
    this.subscriber = subscriber;
    this.channel = channel;
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

  async subscribe(): Promise<void> {
    await this.subscriber.subscribe(this.channel);
  }

  protected override relay(name: string, payload: unknown): void {
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

/**
 * The bus of this node: in memory, relayed between nodes through Redis when there is one, and its
 * recorded events in the database's outbox (`pool`).
 */
export async function createEventBus({
  redis,
  prefix,
  logger,
  pool,
  ...settings
}: {
  redis: Redis | null;
  prefix: string;
  logger: Logger;
  pool: pg.Pool;
} & DeliverySettings): Promise<EventBus> {
  if (!redis) return new LocalEventBus({ logger, pool, settings });
  // A subscribed connection takes no other command; it subscribes again by itself after a drop.
  const subscriber = redis.duplicate({ enableOfflineQueue: true, commandTimeout: undefined });
  subscriber.on('error', (err) => logger.debug({ err }, 'events subscriber error'));
  const bus = new RedisEventBus({
    logger,
    pool,
    settings,
    publisher: redis,
    subscriber,
    channel: `${prefix}:events`,
  });
  await bus.subscribe();
  return bus;
}
