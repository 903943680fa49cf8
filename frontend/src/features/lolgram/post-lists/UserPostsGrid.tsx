import type { Post } from '@tapgram/shared';
import { Camera, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { EmptyState } from '../ui/EmptyState';
import { GridSkeleton } from '../ui/GridSkeleton';
import { LoadMoreButton } from '../ui/LoadMoreButton';
import { PostGrid } from './PostGrid';

interface PagedPosts {
  posts: Post[];
  isPending: boolean;
  isError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * A profile's grid (its posts, or one's Saved posts): skeleton tiles while loading, the posts a
 * page at a time, or what an empty one says ("No posts yet").
 */
export function UserPostsGrid({
  posts,
  failed = 'Failed to fetch user posts',
  empty = { icon: Camera, title: 'No posts yet' },
}: {
  posts: PagedPosts;
  failed?: string;
  empty?: { icon: LucideIcon; title: string; children?: ReactNode };
}) {
  if (posts.isPending) return <GridSkeleton />;
  if (posts.isError && posts.posts.length === 0) {
    return (
      <p role="alert" className="px-4 py-6 text-center text-sm text-red-400">
        {failed}
      </p>
    );
  }
  if (posts.posts.length === 0) {
    return (
      <EmptyState icon={empty.icon} title={empty.title}>
        {empty.children}
      </EmptyState>
    );
  }
  return (
    <div className="flex flex-col">
      <PostGrid posts={posts.posts} showStats />
      <LoadMoreButton pages={posts} className="mx-4 my-4" />
    </div>
  );
}
