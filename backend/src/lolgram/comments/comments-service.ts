import {
  commentMessages,
  type Comment,
  type CommentPage,
  type CommentsOffState,
  type CreateCommentBody,
} from '@tapgram/shared';
import type pg from 'pg';
import { can, type Viewer } from '../../accounts';
import { violates, withTransaction } from '../../core/db';
import { ForbiddenError, NotFoundError } from '../../core/errors';
import type { EventBus } from '../../core/events';
import { isId } from '../../core/ids';
import type { RateLimit } from '../../core/limiter';
import type { PostsRepository } from '../posts/posts-repository';
import type { BlocksRepository } from '../relations/blocks-repository';
import type { FollowsRepository } from '../relations/follows-repository';
import type { CommentSignals } from './comment-signals';
import type { CommentsRepository } from './comments-repository';
import './events';

const NO_SIGNALS: CommentSignals = {
  refusedOnPost: async () => {},
  deletedSoon: async () => {},
};
const postNotFound = () => new NotFoundError('Post not found');
const commentNotFound = () => new NotFoundError(commentMessages.notFound);

/**
 * The rules of comments: who may comment where (not between users who blocked one another, not
 * where its author turned comments off), one level of replies, who may delete, the thread.
 */
export interface CommentsServiceDeps {
  pool: pg.Pool;
  comments: CommentsRepository;
  posts: PostsRepository;
  blocks: BlocksRepository;
  follows: FollowsRepository;
  /**
   * Comments one user may write, and one post may get, in `windowMs`. The post's own limit never
   * refuses its author or those the author follows, and a comment deleted within the window gives
   * its place back: throw-away accounts cannot spend it to silence a post.
   */
  limits: { perUser: RateLimit; perPost: RateLimit; windowMs: number };
  events: EventBus;
  /** Told of a comment the post's own limit refused, and of one deleted soon (operators' signals). */
  signals?: CommentSignals;
  now?: () => number;
}

export class CommentsService {
  private readonly pool: pg.Pool;
  private readonly comments: CommentsRepository;
  private readonly posts: PostsRepository;
  private readonly blocks: BlocksRepository;
  private readonly follows: FollowsRepository;
  private readonly limits: CommentsServiceDeps['limits'];
  private readonly events: EventBus;
  private readonly signals: CommentSignals;
  private readonly now: () => number;

  constructor(deps: CommentsServiceDeps) {
    this.pool = deps.pool;
    this.comments = deps.comments;
    this.posts = deps.posts;
    this.blocks = deps.blocks;
    this.follows = deps.follows;
    this.limits = deps.limits;
    this.events = deps.events;
    this.signals = deps.signals ?? NO_SIGNALS;
    this.now = deps.now ?? Date.now;
  }

  /** A new comment or reply; 'checking' until its automatic check ends (then `comment.added`). */
  async create(viewer: Viewer, postId: string, body: CreateCommentBody): Promise<Comment> {
    if (!isId(postId)) throw postNotFound();
    const post = await this.posts.commentable(this.pool, postId);
    if (!post || post.status !== 'visible') throw postNotFound();
    if (await this.blocks.isBlockedEitherWay(viewer.id, post.userId)) {
      throw new ForbiddenError(commentMessages.cannotComment);
    }
    if (post.commentsOff) throw new ForbiddenError(commentMessages.commentsOff);
    let parentId: string | null = null;
    let threadSeq: string | null = null;
    if (body.parentId) {
      const parent = await this.comments.access(this.pool, body.parentId);
      if (!parent || parent.postId !== postId || parent.status !== 'visible') {
        throw commentNotFound();
      }
      // One level: a reply to a reply answers the same top comment.
      const top = parent.parentId ? await this.comments.access(this.pool, parent.parentId) : parent;
      if (!top) throw commentNotFound();
      for (const author of new Set([parent.userId, top.userId])) {
        if (author !== viewer.id && (await this.blocks.isBlockedEitherWay(viewer.id, author))) {
          throw new ForbiddenError(commentMessages.cannotReply);
        }
      }
      parentId = top.id;
      threadSeq = top.threadSeq;
    }
    await this.limits.perUser.take(viewer.id, commentMessages.tooManyByUser);
    const trusted =
      viewer.id === post.userId || (await this.follows.isFollowing(post.userId, viewer.id));
    if (!trusted) {
      try {
        await this.limits.perPost.take(postId, commentMessages.tooManyOnPost);
      } catch (error) {
        await this.signals.refusedOnPost(postId, post.userId);
        throw error;
      }
    }
    let id: string;
    try {
      id = await withTransaction(this.pool, async (client) => {
        const commentId = await this.comments.insert(client, {
          postId,
          userId: viewer.id,
          parentId,
          threadSeq,
          text: body.text,
        });
        await this.events.record(client, 'comment.created', {
          commentId,
          postId,
          authorId: viewer.id,
        });
        return commentId;
      });
    } catch (error) {
      // The post or the comment answered was deleted meanwhile.
      if (violates(error, 'foreignKey')) throw postNotFound();
      throw error;
    }
    const comment = await this.comments.one(id, viewer.id);
    if (!comment) throw commentNotFound();
    return comment;
  }

  /** A page of a public post's thread, as the reader may see it. */
  async thread(
    viewer: Viewer | null,
    postId: string,
    page: { limit: number; after?: string },
  ): Promise<CommentPage> {
    if (!isId(postId)) throw postNotFound();
    const { post, ...found } = await this.comments.thread(
      postId,
      viewer?.id ?? null,
      page.limit,
      cursorOf(page.after),
    );
    const readable =
      post && can(viewer, 'content.read', { authorId: post.userId, status: post.status });
    if (!post || !readable) throw postNotFound();
    return { ...found, commentCount: post.commentCount, commentsOff: post.commentsOff };
  }

  /** Its author, or the author of the post it is on, deletes a comment. */
  async delete(viewer: Viewer, commentId: string): Promise<void> {
    if (!isId(commentId)) throw commentNotFound();
    const comment = await this.comments.access(this.pool, commentId);
    if (!comment || comment.status === 'deleted' || comment.postStatus === 'rejected') {
      throw commentNotFound();
    }
    const subject = { authorId: comment.userId, postAuthorId: comment.postAuthorId };
    if (!can(viewer, 'comment.delete', subject)) {
      // Someone else's comment is "forbidden" only where they could read it.
      const readable =
        comment.status === 'visible' &&
        !(await this.blocks.isBlockedEitherWay(viewer.id, comment.userId));
      throw readable ? new ForbiddenError(commentMessages.onlyOwnOrPostAuthor) : commentNotFound();
    }
    const deleted = await withTransaction(this.pool, async (client) => {
      const gone = await this.comments.delete(client, commentId);
      if (gone) {
        await this.events.record(client, 'comment.deleted', { commentId, postId: gone.postId });
        await this.events.record(client, 'comment.changed', { postId: gone.postId });
      }
      return gone;
    });
    if (!deleted) throw commentNotFound();
    // Deleted within the window it was counted in: its place on the post is given back.
    if (this.now() - comment.createdAt.getTime() < this.limits.windowMs) {
      await this.limits.perPost.forgive(comment.postId);
      if (viewer.id === comment.userId) await this.signals.deletedSoon(viewer.id, comment.postId);
    }
  }

  /** The post's author turns its comments off (no new comment or reply) or on again. */
  async setCommentsOff(viewer: Viewer, postId: string, off: boolean): Promise<CommentsOffState> {
    const post = isId(postId) ? await this.posts.commentable(this.pool, postId) : null;
    if (!post || post.status === 'rejected') throw postNotFound();
    if (!can(viewer, 'content.manage', { authorId: post.userId })) {
      if (post.status === 'visible') throw new ForbiddenError(commentMessages.onlyPostAuthor);
      throw postNotFound();
    }
    await this.posts.setCommentsOff(postId, off);
    this.events.emit('comment.changed', { postId });
    return { commentsOff: off };
  }
}

function cursorOf(after: string | undefined) {
  if (!after) return null;
  const [threadSeq, seq] = after.split('.');
  return { threadSeq, seq };
}
