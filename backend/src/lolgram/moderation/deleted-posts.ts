import type { EventBus } from '../../core/events';
import '../posts/events';
import type { QueueRepository } from './queue-repository';

/** A post its author deleted leaves the moderation queue: nothing is left to decide about it. */
export function closeQueueOfDeletedPosts(events: EventBus, queue: QueueRepository): void {
  events.on('post.deleted', ({ postId }) => queue.dropPending('post', postId));
}
