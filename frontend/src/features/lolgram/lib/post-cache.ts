import type { Post } from '@tapgram/shared';
import type { InfiniteData } from '@tanstack/react-query';

export type PostsData = Post[] | InfiniteData<Post[], string | null>;

function isInfinite(data: PostsData): data is InfiniteData<Post[], string | null> {
  return !Array.isArray(data);
}

/** Applies `change` to the post with `postId` in either a plain list or the paged feed. */
export function patchPost(
  data: PostsData | undefined,
  postId: string,
  change: (post: Post) => Post,
): PostsData | undefined {
  if (!data) return data;
  const patchList = (posts: Post[]) =>
    posts.map((post) => (post.id === postId ? change(post) : post));
  return isInfinite(data) ? { ...data, pages: data.pages.map(patchList) } : patchList(data);
}
