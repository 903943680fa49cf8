import { Camera } from 'lucide-react';
import type { useUserPosts } from '../hooks/useUserPosts';
import { EmptyState } from './EmptyState';
import { GridSkeleton } from './GridSkeleton';
import { LoadMoreButton } from './LoadMoreButton';
import { PostGrid } from './PostGrid';

/** A profile's grid: skeleton tiles while loading, the posts a page at a time, or "No posts yet". */
export function UserPostsGrid({ posts }: { posts: ReturnType<typeof useUserPosts> }) {
  if (posts.isPending) return <GridSkeleton />;
  if (posts.isError && posts.posts.length === 0) {
    return (
      <p role="alert" className="px-4 py-6 text-center text-sm text-red-400">
        Failed to fetch user posts
      </p>
    );
  }
  if (posts.posts.length === 0) return <EmptyState icon={Camera} title="No posts yet" />;
  return (
    <div className="flex flex-col">
      <PostGrid posts={posts.posts} showStats />
      <LoadMoreButton pages={posts} className="mx-4 my-4" />
    </div>
  );
}
