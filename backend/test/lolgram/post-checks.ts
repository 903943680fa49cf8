import { expect } from 'vitest';
import { makeJpeg, makePost, type Account } from './builders';

type Where = 'checking' | 'held' | 'visible' | 'not listed';

/** Where a post stands, as its author sees it in their own listing. */
export async function statusForAuthor(author: Account, postId: string): Promise<Where> {
  const own = await author.agent.get(`/api/lolgram/posts/user/${author.user.id}?limit=50`);
  const post = (own.body as { id: string; moderation?: 'checking' | 'held' }[]).find(
    (p) => p.id === postId,
  );
  return post ? (post.moderation ?? 'visible') : 'not listed';
}

/** Waits for the automatic check of a post to end, and answers where it left the post. */
export async function checked(author: Account, postId: string): Promise<Where> {
  await expect
    .poll(() => statusForAuthor(author, postId), { timeout: 30_000 })
    .not.toBe('checking');
  return statusForAuthor(author, postId);
}

/** Posts, then waits until the automatic check has made the post public. */
export async function makeVisiblePost(
  author: Account,
  fields: Record<string, string> = {},
  image?: Buffer,
) {
  const res = await makePost(author, image ?? (await makeJpeg()), fields);
  if (res.status !== 201) throw new Error(`post: ${res.status} ${res.text}`);
  expect(await checked(author, res.body.id)).toBe('visible');
  return res.body as { id: string; imageUrl: string; thumbnailUrl: string; cursor: string };
}
