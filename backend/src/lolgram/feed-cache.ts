import type { Post } from '@tapgram/shared';

const TTL_MS = 1000;

/**
 * The feed's first page is the same for every reader but for their own LOLs: it is read from
 * Postgres at most once a second per limit, and concurrent readers share that one read. Writes
 * that change what the page shows (a new post, a moderation decision) clear it at once.
 */
export class FeedCache {
  private readonly pages = new Map<number, { at: number; posts: Promise<Post[]> }>();

  firstPage(limit: number, load: () => Promise<Post[]>): Promise<Post[]> {
    const cached = this.pages.get(limit);
    if (cached && Date.now() - cached.at < TTL_MS) return cached.posts;
    const posts = load();
    this.pages.set(limit, { at: Date.now(), posts });
    posts.catch(() => this.pages.delete(limit));
    return posts;
  }

  clear(): void {
    this.pages.clear();
  }
}
