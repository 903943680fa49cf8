import { Compass } from 'lucide-react';
import { EmptyState } from '../ui/EmptyState';
import { GridSkeleton } from '../ui/GridSkeleton';
import { LoadMoreButton } from '../ui/LoadMoreButton';
import { PostGrid, useFeed } from '../post-lists';

export function ExploreTab() {
  const feed = useFeed();
  if (feed.isPending) return <GridSkeleton />;
  if (feed.posts.length === 0) return <EmptyState icon={Compass} title="No posts to explore yet" />;
  return (
    <section aria-label="Explore" className="flex flex-col">
      <PostGrid posts={feed.posts} showStats />
      <LoadMoreButton pages={feed} className="mx-4 my-6" />
    </section>
  );
}
