import { Counter } from 'prom-client';
import { createExpiryCleanup, EXPIRY_CLEANUP_INTERVAL_MS } from '../../accounts';
import type { FeatureDeps } from '../../core/feature';
import type { Live } from '../../live';
import { handleNotificationEvents } from './notification-handlers';
import { NotificationsRepository } from './notifications-repository';
import { notificationsRouter } from './notifications-routes';
import { NotificationsService } from './notifications-service';
import { redisPushSlot, UnreadPusher } from './unread-pusher';

export { NotificationsRepository } from './notifications-repository';

/**
 * Notifications: written from the domain events, read by their owner, pushed live (coalesced) over
 * the signed-in channel, pruned after the retention period.
 */
export function createNotifications(
  { config, db, events, logger, metrics, redis }: FeatureDeps,
  live: Live,
) {
  const repository = new NotificationsRepository(db.pool);
  const pushes = new Counter({
    name: 'tapgram_notification_pushes_total',
    help: 'Pushes of an unread notification count sent by this node (coalesced per user)',
    registers: [metrics.registry],
  });
  const pusher = new UnreadPusher({
    unreadCount: (userId) => repository.unreadCount(userId),
    live,
    logger,
    onPush: () => pushes.inc(),
    slot: redis ? redisPushSlot(redis, config.REDIS_PREFIX) : null,
  });
  const service = new NotificationsService(db.pool, repository, pusher);
  if (config.NOTIFICATIONS) handleNotificationEvents(events, service);
  const pruning = createExpiryCleanup(
    { notifications: repository },
    logger,
    EXPIRY_CLEANUP_INTERVAL_MS,
  );
  return {
    router: notificationsRouter(service),
    pusher,
    pruning,
    start: () => pruning.start(),
    async close() {
      await pruning.stop();
      await pusher.close();
    },
  };
}
