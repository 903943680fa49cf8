import { Compass } from 'lucide-react';
import { EmptyState } from '../components/EmptyState';
import { GridSkeleton } from '../components/GridSkeleton';
import { LoadMoreButton } from '../components/LoadMoreButton';
import { PostGrid } from '../components/PostGrid';
import { useFeed } from '../hooks/useFeed';

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
