import type { Notification, UnreadCount } from '@tapgram/shared';
import type pg from 'pg';
import { withTransaction } from '../../core/db';
import { ValidationError } from '../../core/errors';
import type { Delivery } from '../../core/events';
import type { Viewer } from '../../accounts';
import { parseCursor } from '../posts/post-cursor';
import type { NotificationInput, NotificationsRepository } from './notifications-repository';
import type { UnreadPusher } from './unread-pusher';

/**
 * A user's notifications: written by the event handlers, read and marked read by their owner only
 * (every call is about the signed-in viewer's own; there is no way to name another user's).
 */
export class NotificationsService {
  constructor(
    private readonly pool: pg.Pool,
    private readonly notifications: NotificationsRepository,
    private readonly pusher: UnreadPusher,
  ) {}

  /**
   * Writes a notification (or adds to its group) and tells the user's screens; once per event
   * (`delivery`) and user, however often the event is delivered.
   */
  async notify(input: NotificationInput, delivery: Delivery): Promise<void> {
    const written = await withTransaction(
      this.pool,
      async (client) =>
        (await delivery.once(client, `notify:${input.kind}:${input.userId}`)) &&
        this.notifications.record(input, client),
    );
    if (written) this.pusher.changed(input.userId);
  }

  /**
   * Takes `followerId` out of `userId`'s follow notifications (the whole notification when they
   * were its only follower), unless they follow again by now; once per event, and the user's
   * screens hear the new unread count.
   */
  async withdrawFollow(userId: string, followerId: string, delivery: Delivery): Promise<void> {
    const changed = await withTransaction(
      this.pool,
      async (client) =>
        (await delivery.once(client, `withdraw:follow:${userId}`)) &&
        this.notifications.withdrawFollow(userId, followerId, client),
    );
    if (changed) this.pusher.changed(userId);
  }

  list(viewer: Viewer, page: { limit: number; before?: string }): Promise<Notification[]> {
    const before = page.before ? parseCursor(page.before) : null;
    if (page.before && !before) throw new ValidationError('Invalid cursor');
    return this.notifications.list(viewer.id, page.limit, before);
  }

  async unread(viewer: Viewer): Promise<UnreadCount> {
    return { unread: await this.notifications.unreadCount(viewer.id) };
  }

  async markRead(viewer: Viewer, upTo?: string): Promise<UnreadCount> {
    const until = upTo ? parseCursor(upTo) : null;
    if (upTo && !until) throw new ValidationError('Invalid cursor');
    if ((await this.notifications.markRead(viewer.id, until)) > 0) this.pusher.changed(viewer.id);
    return this.unread(viewer);
  }
}
