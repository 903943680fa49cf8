import type { EventBus } from '../../core/events';
import '../comments/events';
import '../posts/events';
import type { QueueRepository } from './queue-repository';

/**
 * Content its author deleted leaves the moderation queue: nothing is left to decide about it. A
 * deleted post takes its comments, and their items, with it.
 */
export function closeQueueOfDeletedContent(events: EventBus, queue: QueueRepository): void {
  events.on('post.deleted', async ({ postId }) => {
    await queue.dropPending('post', postId);
    await queue.dropPending('post-edit', postId);
    await queue.dropPendingOfGoneComments();
  });
  events.on('comment.deleted', ({ commentId }) => queue.dropPending('comment', commentId));
}
