import type { Post } from '@tapgram/shared';

const TTL_MS = 1000;

/**
 * The feed's first page is the same for every reader but for their own LOLs: it is read from
 * Postgres at most once a second per limit, and concurrent readers share that one read (the same
 * array, which readers must not change). Writes that change what the page shows (a new post, a
 * moderation decision, a post deleted on any node) clear it at once.
 */
export class FeedCache {
  private readonly pages = new Map<number, { at: number; page: Promise<readonly Post[]> }>();

  constructor(private readonly now: () => number = Date.now) {}

  firstPage(limit: number, load: () => Promise<Post[]>): Promise<readonly Post[]> {
    const cached = this.pages.get(limit);
    if (cached && this.now() - cached.at < TTL_MS) return cached.page;
    const page = load().then((posts): readonly Post[] => Object.freeze(posts));
    this.pages.set(limit, { at: this.now(), page });
    page.catch(() => this.pages.delete(limit));
    return page;
  }

  clear(): void {
    this.pages.clear();
  }
}
