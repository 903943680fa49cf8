import type { EventBus } from '../../core/events';
import './events';
import type { FeedCache } from './feed-cache';

/** What follows a post's moves: the feed's shared page. */
export function handlePostEvents(events: EventBus, { feedCache }: { feedCache: FeedCache }): void {
  // Each node keeps its own copy of the feed's first page.
  events.on('post.visibility-changed', () => feedCache.clear(), { where: 'every-node' });
}
