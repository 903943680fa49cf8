import type { EventBus } from '../../core/events';
import type { Live } from '../../live';
import './events';

/**
 * The author's screens hear where their content moved in moderation, of whatever type, as it
 * happens: once, where it happened (the push reaches the node that holds their sockets).
 */
export function pushOutcomes(events: EventBus, live: Live): void {
  events.on('moderation.moved', ({ contentType, contentId, authorId, postId, was, now, edit }) =>
    live.toUser(authorId, 'moderation', {
      contentType,
      contentId,
      postId,
      status: now,
      previous: was,
      edit,
    }),
  );
}
