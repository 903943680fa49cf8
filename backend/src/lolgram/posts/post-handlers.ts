import type { EventBus } from '../../core/events';
import './events';
import '../comments/events';
import type { FeedCache } from './feed-cache';

/** What follows a post's changes: the feed's shared page. */
export function handlePostEvents(events: EventBus, { feedCache }: { feedCache: FeedCache }): void {
  // Each node keeps its own copy of the feed's first page: a change shows on every node at once.
  for (const change of [
    'post.visibility-changed',
    'post.deleted',
    'post.caption-changed',
    'comment.changed',
    'account.deleted',
  ] as const) {
    events.on(change, () => feedCache.clear(), { where: 'every-node' });
  }
}
