import type { Logger } from '../../core/logger';
import type { Live } from '../../live';

/** At most one push of a user's unread count in this many milliseconds (per node). */
export const NOTIFICATION_PUSH_INTERVAL_MS = 1000;
/** A first change waits this long for the ones that come with it. */
const GATHER_MS = 50;

/**
 * Tells a user's screens their unread count after it changed, coalesced: however many changes
 * come in a second (a storm of LOLs), the user gets one push a second at most, with the count read
 * when it goes. The push goes to the user's room, which the live channel's adapter carries to
 * every node.
 */
export class UnreadPusher {
  private readonly due = new Map<string, NodeJS.Timeout>();
  private readonly lastPush = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly unreadCount: (userId: string) => Promise<number>,
    private readonly live: Live,
    private readonly logger: Logger,
    private readonly onPush: () => void = () => undefined,
    private readonly intervalMs = NOTIFICATION_PUSH_INTERVAL_MS,
  ) {}

  /** The user's unread notifications changed. */
  changed(userId: string): void {
    if (this.closed || this.due.has(userId)) return;
    const last = this.lastPush.get(userId);
    const now = performance.now();
    const wait = last === undefined ? GATHER_MS : Math.max(GATHER_MS, last + this.intervalMs - now);
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
    const now = performance.now();
    this.lastPush.set(userId, now);
    this.forgetOld(now);
    try {
      const unread = await this.unreadCount(userId);
      this.live.toUser(userId, 'notifications', { unread });
      this.onPush();
    } catch (err) {
      this.logger.warn({ err }, 'notification push failed');
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
