import type { Post } from '@tapgram/shared';
import { apiRequest } from '../../../lib/api';

export type CheckOutcome = 'visible' | 'held' | 'gone' | 'unknown';

const POLL_MS = 1000;
const GIVE_UP_MS = 60_000;

/**
 * Waits for the automatic check of the author's new post to end, by asking for the author's own
 * list (the only place a post under check shows): visible, held for a moderator, or gone.
 */
export async function waitForPostCheck(userId: string, postId: string): Promise<CheckOutcome> {
  const deadline = Date.now() + GIVE_UP_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    try {
      const res = await apiRequest('GET', `/api/lolgram/posts/user/${userId}`);
      const post = ((await res.json()) as Post[]).find((p) => p.id === postId);
      if (!post) return 'gone';
      if (post.moderation !== 'checking') return post.moderation ?? 'visible';
    } catch {
      // A blip: ask again on the next round.
    }
  }
  return 'unknown';
}
