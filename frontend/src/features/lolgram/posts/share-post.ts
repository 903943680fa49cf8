import type { Post } from '@tapgram/shared';
import { postPath } from './post-path';

/** The address of a post's own page, which opens it directly. */
export function postLink(postId: string): string {
  return new URL(postPath(postId), window.location.origin).href;
}

/** Puts the post's link on the clipboard; false when the browser refused. */
export async function copyPostLink(postId: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(postLink(postId));
    return true;
  } catch {
    return false;
  }
}

/**
 * What sharing did: the system share sheet took the post ('shared'), the user closed the sheet
 * ('cancelled'), or there was no sheet and the link was copied ('copied') or could not be.
 */
export type ShareOutcome = 'shared' | 'cancelled' | 'copied' | 'failed';

/** Opens the system share sheet where the browser has one, else copies the link. */
export async function sharePost(post: Post): Promise<ShareOutcome> {
  const data = {
    title: `${post.username} on LOLGram`,
    text: post.caption,
    url: postLink(post.id),
  };
  if (typeof navigator.share === 'function' && (navigator.canShare?.(data) ?? true)) {
    try {
      await navigator.share(data);
      return 'shared';
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
      // A sheet that cannot open here (not allowed, no target): the link still can be copied.
    }
  }
  return (await copyPostLink(post.id)) ? 'copied' : 'failed';
}
