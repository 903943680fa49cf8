import type { Logger } from '../../core/logger';
import type { Redis } from '../../core/redis';
import type { Live } from '../../live';

/** At most one push of a user's unread count in this many milliseconds. */
export const NOTIFICATION_PUSH_INTERVAL_MS = 1000;
/** A first change waits this long for the ones that come with it. */
const GATHER_MS = 50;

/**
 * Takes the user's push slot for the interval on every node together: answers 0 when taken, else
 * how long until it is free. Without one, each node keeps to the interval by itself.
 */
export type PushSlot = (userId: string, intervalMs: number) => Promise<number>;

/** The push slot in Redis: one key per user that lives for the interval. */
export function redisPushSlot(redis: Redis, prefix: string): PushSlot {
  return async (userId, intervalMs) => {
    const key = `${prefix}:notifications:push:${userId}`;
    if ((await redis.set(key, '1', 'PX', intervalMs, 'NX')) === 'OK') return 0;
    const left = await redis.pttl(key);
    return left > 0 ? left : GATHER_MS;
  };
}

export interface UnreadPusherDeps {
  /** The user's unread count, read when a push is due. */
  unreadCount: (userId: string) => Promise<number>;
  live: Live;
  logger: Logger;
  /** Called on each push sent (a metric). */
  onPush?: () => void;
  /** With Redis: one node pushes a user's count per interval. */
  slot?: PushSlot | null;
  intervalMs?: number;
}

/**
 * Tells a user's screens their unread count after it changed, coalesced: however many changes
 * come in a second (a storm of LOLs), the user gets one push a second at most, with the count read
 * when it goes (with Redis, one a second on all the nodes together). The push goes to the user's
 * room, which the live channel's adapter carries to every node.
 */
export class UnreadPusher {
  private readonly due = new Map<string, NodeJS.Timeout>();
  private readonly lastPush = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  private readonly unreadCount: (userId: string) => Promise<number>;
  private readonly live: Live;
  private readonly logger: Logger;
  private readonly onPush: () => void;
  private readonly slot: PushSlot | null;
  private readonly intervalMs: number;

  constructor({
    unreadCount,
    live,
    logger,
    onPush = () => undefined,
    slot = null,
    intervalMs = NOTIFICATION_PUSH_INTERVAL_MS,
  }: UnreadPusherDeps) {
    this.unreadCount = unreadCount;
    this.live = live;
    this.logger = logger;
    this.onPush = onPush;
    this.slot = slot;
    this.intervalMs = intervalMs;
  }

  /** The user's unread notifications changed. */
  changed(userId: string): void {
    if (this.closed || this.due.has(userId)) return;
    const last = this.lastPush.get(userId);
    const now = performance.now();
    const wait = last === undefined ? GATHER_MS : Math.max(GATHER_MS, last + this.intervalMs - now);
    this.schedule(userId, wait);
  }

  private schedule(userId: string, wait: number): void {
    const timer = setTimeout(() => {
      const work = this.push(userId);
      this.running.add(work);
      void work.finally(() => this.running.delete(work));
    }, wait);
    timer.unref();
    this.due.set(userId, timer);
  }

  private async push(userId: string): Promise<void> {
    this.due.delete(userId);
    try {
      // Another node pushed to this user within the interval: this change goes with the next.
      const later = await this.takeSlot(userId);
      if (later > 0) {
        if (!this.closed && !this.due.has(userId)) this.schedule(userId, later);
        return;
      }
      const now = performance.now();
      this.lastPush.set(userId, now);
      this.forgetOld(now);
      const unread = await this.unreadCount(userId);
      this.live.toUser(userId, 'notifications', { unread });
      this.onPush();
    } catch (err) {
      this.logger.warn({ err }, 'notification push failed');
    }
  }

  /** 0 when this node may push now; a slot that cannot be asked does not hold the push back. */
  private async takeSlot(userId: string): Promise<number> {
    if (!this.slot) return 0;
    try {
      return await this.slot(userId, this.intervalMs);
    } catch (err) {
      this.logger.debug({ err }, 'notification push slot unavailable');
      return 0;
    }
  }

  /** Keeps the times of recent pushes only. */
  private forgetOld(now: number): void {
    if (this.lastPush.size < 10_000) return;
    for (const [userId, at] of this.lastPush) {
      if (now - at > this.intervalMs) this.lastPush.delete(userId);
    }
  }

  /** Drops the pushes due and waits for those under way (shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.due.values()) clearTimeout(timer);
    this.due.clear();
    await Promise.all([...this.running]);
  }
}
