import type { EventBus } from '../../core/events';
import type { Live } from '../../live';
import './events';
import '../comments/events';
import type { FeedCache } from './feed-cache';

/** What follows a post's changes: the feed's shared page, and the author's screens. */
export function handlePostEvents(
  events: EventBus,
  { feedCache, live }: { feedCache: FeedCache; live: Live },
): void {
  // Each node keeps its own copy of the feed's first page: a change shows on every node at once.
  for (const change of [
    'post.visibility-changed',
    'post.deleted',
    'post.caption-changed',
    'comment.changed',
  ] as const) {
    events.on(change, () => feedCache.clear(), { where: 'every-node' });
  }
  // Once: the push reaches the author on whichever node holds their socket.
  events.on('post.visibility-changed', ({ postId, authorId, was, now }) =>
    live.toUser(authorId, 'post.moderation', { postId, status: now, previous: was }),
  );
}
