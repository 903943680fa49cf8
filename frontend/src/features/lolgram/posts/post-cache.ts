import type { Post } from '@tapgram/shared';
import type { InfiniteData } from '@tanstack/react-query';

export type PostsData = Post | Post[] | InfiniteData<Post[], string | null>;

function isInfinite(data: PostsData): data is InfiniteData<Post[], string | null> {
  return 'pages' in data;
}

/** Applies `change` to the post with `postId` in a plain list, the paged feed or a single post. */
export function patchPost(
  data: PostsData | undefined,
  postId: string,
  change: (post: Post) => Post,
): PostsData | undefined {
  if (!data) return data;
  const patchOne = (post: Post) => (post.id === postId ? change(post) : post);
  if (Array.isArray(data)) return data.map(patchOne);
  return isInfinite(data)
    ? { ...data, pages: data.pages.map((page) => page.map(patchOne)) }
    : patchOne(data);
}

/** Whether a plain list, the paged feed or a single post holds a post that `test` takes. */
export function somePost(data: PostsData | undefined, test: (post: Post) => boolean): boolean {
  if (!data) return false;
  if (Array.isArray(data)) return data.some(test);
  return isInfinite(data) ? data.pages.some((page) => page.some(test)) : test(data);
}

/** Takes the post with `postId` out of a plain list or a paged one (a single post stays). */
export function removePost(data: PostsData | undefined, postId: string): PostsData | undefined {
  if (!data) return data;
  const keep = (post: Post) => post.id !== postId;
  if (Array.isArray(data)) return data.filter(keep);
  return isInfinite(data) ? { ...data, pages: data.pages.map((page) => page.filter(keep)) } : data;
}
