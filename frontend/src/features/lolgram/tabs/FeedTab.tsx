import type { Post } from '@tapgram/shared';
import { Camera, Loader2 } from 'lucide-react';
import { useDeferredValue } from 'react';
import { Button } from '../../../components/ui/button';
import { useHydrated } from '../../../lib/hydration';
import { EmptyState } from '../ui/EmptyState';
import { LoadMoreButton } from '../ui/LoadMoreButton';
import { FOCUS_TARGETS } from '../lib/focus-targets';
import { PostCard } from '../posts';
import { StoryBubbles, useFeed } from '../post-lists';

export function FeedTab({ onCreatePost }: { onCreatePost: () => void }) {
  const feed = useFeed();
  // The feed's first page may come while React hydrates the page's HTML (it is asked for with the
  // HTML): it shows in the render after, so that hydration finds the markup it expects.
  const hydrated = useHydrated();

  if (feed.isPending || !hydrated) {
    return (
      <p role="status" className="flex items-center justify-center gap-2 py-16 text-slate-400">
        <Loader2 className="h-5 w-5 animate-spin" aria-hidden="true" />
        Loading your LOLGram feed...
      </p>
    );
  }

  return (
    <section
      id={FOCUS_TARGETS.feed}
      aria-label="Feed"
      // Focusable by script only: the focus lands here when one's post is deleted.
      tabIndex={-1}
      className="flex flex-col"
    >
      <StoryBubbles posts={feed.posts} onYourStory={onCreatePost} />
      {feed.isError && (
        <p role="alert" className="px-4 py-3 text-center text-sm text-red-400">
          Failed to fetch posts
        </p>
      )}
      {feed.posts.length === 0 && !feed.isError ? (
        <EmptyState icon={Camera} title="No posts yet">
          <Button onClick={onCreatePost}>Share the first LOL</Button>
        </EmptyState>
      ) : (
        <FeedCards posts={feed.posts} />
      )}
      <LoadMoreButton pages={feed} className="mx-4 my-6" />
    </section>
  );
}

/** The cards a phone's screen shows when the feed opens. */
const FIRST_CARDS = 2;

/**
 * The feed's cards: those on the screen at once, the others (and those of a page loaded later) in
 * a render after it that yields to input (a page of cards in one render holds a phone's main
 * thread for a few hundred ms).
 */
function FeedCards({ posts }: { posts: Post[] }) {
  // Only the number of cards is deferred: a change of a card shown (a LOL) renders at once.
  const count = useDeferredValue(posts.length, FIRST_CARDS);
  return (
    <div className="flex flex-col gap-4 pt-2 sm:gap-6 sm:pt-4">
      {posts.slice(0, count).map((post, index) => (
        <PostCard key={post.id} post={post} priority={index === 0} />
      ))}
    </div>
  );
}
