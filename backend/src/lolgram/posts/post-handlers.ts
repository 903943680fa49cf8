import type { EventBus } from '../../core/events';
import type { Live } from '../../live';
import './events';
import type { FeedCache } from './feed-cache';

/** What follows a post's moves: the feed's shared page, and the author's screens. */
export function handlePostEvents(
  events: EventBus,
  { feedCache, live }: { feedCache: FeedCache; live: Live },
): void {
  // Each node keeps its own copy of the feed's first page.
  events.on('post.visibility-changed', () => feedCache.clear(), { where: 'every-node' });
  // Once: the push reaches the author on whichever node holds their socket.
  events.on('post.visibility-changed', ({ postId, authorId, was, now }) =>
    live.toUser(authorId, 'post.moderation', { postId, status: now, previous: was }),
  );
}
