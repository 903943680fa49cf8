import type { Post } from '@tapgram/shared';
import type pg from 'pg';
import { withTransaction } from '../../core/db';
import type { EventBus } from '../../core/events';
import { ForbiddenError, NotFoundError } from '../../core/errors';
import { isId } from '../../core/ids';
import type { ImageStore } from '../../images';
import { can, type Viewer } from '../../accounts';
import './events';
import type { CaptionEditsRepository } from './caption-edits-repository';
import type { PostsRepository } from './posts-repository';

export interface OwnPostsServiceDeps {
  pool: pg.Pool;
  posts: PostsRepository;
  captionEdits: CaptionEditsRepository;
  images: ImageStore;
  events: EventBus;
}

/**
 * What an author does with their own posts once they are up: change the caption, delete them.
 * Nobody else may, admins included (they reject through moderation). Someone else's post is
 * "forbidden" only where its author's post is public; otherwise it is not found, as it is to them
 * everywhere else.
 */
export class OwnPostsService {
  private readonly pool: pg.Pool;
  private readonly posts: PostsRepository;
  private readonly captionEdits: CaptionEditsRepository;
  private readonly images: ImageStore;
  private readonly events: EventBus;

  constructor({ pool, posts, captionEdits, images, events }: OwnPostsServiceDeps) {
    this.pool = pool;
    this.posts = posts;
    this.captionEdits = captionEdits;
    this.images = images;
    this.events = events;
  }

  /**
   * Records the new caption as an edit that waits for moderation's automatic check, as a new post
   * does: the answer and the author's own reads show it ("checking"), everyone else reads the
   * caption before it until the check passes. Recorded with its event before the answer, so that
   * a check a crash interrupted runs again.
   */
  async editCaption(viewer: Viewer, postId: string, caption: string): Promise<Post> {
    await this.ownPost(viewer, postId, 'You can only edit your own posts');
    const proposed = await withTransaction(this.pool, async (client) => {
      if (!(await this.captionEdits.propose(client, postId, caption))) return false;
      await this.events.record(client, 'post.caption-edited', { postId, authorId: viewer.id });
      return true;
    });
    if (!proposed) throw new NotFoundError('Post not found');
    const post = await this.posts.byId(postId, viewer.id);
    if (!post) throw new NotFoundError('Post not found');
    return post;
  }

  /**
   * Deletes the post with everything that hangs on it, then its image files. Every node drops it
   * from its feed cache, and moderation closes its queue items, on the event.
   */
  async delete(viewer: Viewer, postId: string): Promise<void> {
    await this.ownPost(viewer, postId, 'You can only delete your own posts');
    const deleted = await withTransaction(this.pool, async (client) => {
      const gone = await this.posts.delete(client, postId, viewer.id);
      if (gone) await this.events.record(client, 'post.deleted', { postId, authorId: viewer.id });
      return gone;
    });
    if (!deleted) throw new NotFoundError('Post not found');
    // The row is gone, so the files are no longer served: one that a failing store left behind
    // is unreachable, and does not fail the deletion.
    await Promise.allSettled(deleted.imageKeys.map((key) => this.images.delete(key)));
  }

  /** The viewer's own post, unless it was rejected (then it is gone for its author too). */
  private async ownPost(viewer: Viewer, postId: string, refusal: string): Promise<void> {
    const found = isId(postId) ? await this.posts.withStatus(postId, viewer.id) : null;
    if (!found || found.status === 'rejected') throw new NotFoundError('Post not found');
    if (can(viewer, 'content.manage', { authorId: found.post.userId })) return;
    if (found.status === 'visible') throw new ForbiddenError(refusal);
    throw new NotFoundError('Post not found');
  }
}
