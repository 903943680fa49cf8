import { randomUUID } from 'node:crypto';
import {
  messages,
  type CommentPreview,
  type Post,
  type PostLocation,
  type PostStatus,
} from '@tapgram/shared';
import type pg from 'pg';
import { violates, withTransaction } from '../../core/db';
import type { EventBus } from '../../core/events';
import {
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
} from '../../core/errors';
import {
  postIdOfImageKey,
  variantKey,
  variantOf,
  type ImageStore,
  type ImageUploads,
} from '../../images';
import './events';
import type { FeedCache } from './feed-cache';
import { parseCursor, type Cursor } from './post-cursor';
import type { ImageAccess, PostsRepository } from './posts-repository';
import { ACCOUNT_GONE, can, listedStatuses, type Viewer } from '../../accounts';
import { isId } from '../../core/ids';

export interface PostsServiceDeps {
  pool: pg.Pool;
  posts: PostsRepository;
  images: ImageStore;
  uploads: ImageUploads;
  feedCache: FeedCache;
  events: EventBus;
  /** What each feed card shows beside its post (its first comments). */
  extras: FeedExtras;
}

/** What a feed card shows beside its post, read for a whole page at once. */
export interface FeedExtras {
  /** The first comments of each post that the reader may see, by post id. */
  firstComments(postIds: string[], viewerId: string | null): Promise<Map<string, CommentPreview[]>>;
}

/** The rules of posts: who may post, the image pipeline, the feed, LOLs and views. */
export class PostsService {
  private readonly pool: pg.Pool;
  private readonly posts: PostsRepository;
  private readonly images: ImageStore;
  private readonly uploads: ImageUploads;
  private readonly feedCache: FeedCache;
  private readonly events: EventBus;
  private readonly extras: FeedExtras;

  constructor({ pool, posts, images, uploads, feedCache, events, extras }: PostsServiceDeps) {
    this.pool = pool;
    this.posts = posts;
    this.images = images;
    this.uploads = uploads;
    this.feedCache = feedCache;
    this.events = events;
    this.extras = extras;
  }

  async create(
    viewer: Viewer,
    fields: { userId: string; caption: string; location?: PostLocation },
    upload: Buffer,
  ): Promise<Post> {
    if (!can(viewer, 'user.self', { userId: fields.userId })) {
      throw new ForbiddenError('You can only post as yourself');
    }
    const { full, thumbnail, copies, thumbnailCopies } = await this.uploads.post(viewer.id, upload);
    const id = randomUUID();
    const imageKey = `posts/${id}/${randomUUID()}-full.jpg`;
    const thumbnailKey = `posts/${id}/${randomUUID()}-thumb.jpg`;
    const files = new Map<string, Buffer>([
      [imageKey, full],
      [thumbnailKey, thumbnail],
      ...copies.map(({ width, bytes }) => [variantKey(imageKey, width), bytes] as const),
      ...thumbnailCopies.map(
        ({ width, bytes }) => [variantKey(thumbnailKey, width), bytes] as const,
      ),
    ]);
    await Promise.all([...files].map(([key, bytes]) => this.images.put(key, bytes)));
    try {
      await withTransaction(this.pool, async (client) => {
        await this.posts.insert(client, {
          id,
          userId: viewer.id,
          caption: fields.caption,
          imageKey,
          thumbnailKey,
          imageWidths: copies.map((copy) => copy.width),
          thumbnailWidths: thumbnailCopies.map((copy) => copy.width),
          location: fields.location,
        });
        await this.events.record(client, 'post.created', { postId: id, authorId: viewer.id });
      });
    } catch (error) {
      // No row, no files: the upload leaves nothing half-written.
      await Promise.all([...files.keys()].map((key) => this.images.delete(key)));
      // The account was deleted while its upload was on the way.
      if (violates(error, 'foreignKey')) throw new UnauthorizedError(ACCOUNT_GONE);
      throw error;
    }
    const post = await this.posts.byId(id, viewer.id);
    if (!post) throw new NotFoundError('Post not found');
    return post;
  }

  /**
   * A feed page, without the posts of anyone the reader blocked or was blocked by. The first page
   * is shared: anonymous readers get the cached page itself (the same array for a second),
   * signed-in readers a copy with their own LOLs and saves read fresh, or a page of their own
   * when the shared one holds a post of someone they and the author have blocked between them.
   */
  async feed(
    viewer: Viewer | null,
    limit: number,
    before: string | undefined,
  ): Promise<readonly Post[]> {
    if (before) return this.pageFor(viewer, limit, cursorOf(before));
    const page = await this.feedCache.firstPage(limit, () => this.pageFor(null, limit, null));
    if (!viewer) return page;
    const ids = page.map((post) => post.id);
    // One query for the reader's LOLs and saves, one for the comments they may see: per page.
    const [states, comments] = await Promise.all([
      this.posts.viewerStateOf(viewer.id, ids),
      this.extras.firstComments(ids, viewer.id),
    ]);
    if ([...states.values()].some((state) => state.blocked)) {
      return this.pageFor(viewer, limit, null);
    }
    return page.map((post) => {
      const state = states.get(post.id);
      const firstComments = comments.get(post.id) ?? [];
      return state
        ? {
            ...post,
            lolCount: state.lolCount,
            commentCount: state.commentCount,
            isLiked: state.isLiked,
            isSaved: state.isSaved,
            // The shared page has the public caption; its author reads their edit that waits.
            ...(state.edit
              ? { caption: state.edit.caption, editModeration: state.edit.status }
              : {}),
            firstComments,
          }
        : { ...post, firstComments };
    });
  }

  /** A feed page with the first comments of its posts (two queries, whatever its length). */
  private async pageFor(
    viewer: Viewer | null,
    limit: number,
    before: Cursor | null,
  ): Promise<Post[]> {
    const page = await this.posts.feed(viewer?.id ?? null, limit, before);
    const comments = await this.extras.firstComments(
      page.map((post) => post.id),
      viewer?.id ?? null,
    );
    return page.map((post) => ({ ...post, firstComments: comments.get(post.id) ?? [] }));
  }

  /** A user's public posts; their author also sees the ones still checking or held. */
  byUser(
    viewer: Viewer | null,
    userId: string,
    page: { limit: number; before?: string },
  ): Promise<Post[]> {
    const before = page.before ? cursorOf(page.before) : null;
    if (!isId(userId)) return Promise.resolve([]);
    const statuses = listedStatuses<PostStatus>(viewer, userId, ['visible', 'checking', 'held']);
    return this.posts.byUser(viewer?.id ?? null, userId, { statuses, limit: page.limit, before });
  }

  /**
   * One post, for its own page: a public post to anyone; one still checking or held to its author
   * and admins only, as its images are; a rejected one to nobody (its images are gone too).
   */
  async one(viewer: Viewer | null, postId: string): Promise<Post> {
    const found = await this.posts.withStatus(postId, viewer?.id ?? null);
    const readable =
      found && can(viewer, 'content.read', { authorId: found.post.userId, status: found.status });
    if (!found || !readable) throw new NotFoundError('Post not found');
    return found.post;
  }

  async setLol(viewer: Viewer, postId: string, lol: boolean) {
    if (lol) await this.refuseBlocked(viewer, postId, messages.cannotLol);
    if (!isId(postId)) throw new NotFoundError('Post not found');
    // The transaction finds the post visible under its lock: one look, not one before it too.
    const changed = await withTransaction(this.pool, async (client) => {
      const set = await this.posts.setLol(client, postId, viewer.id, lol);
      if (set && set.delta > 0) {
        await this.events.record(client, 'lol.added', {
          postId,
          authorId: set.authorId,
          actorId: viewer.id,
        });
      }
      return set;
    }).catch((error: unknown) => {
      // The account was erased while its LOL waited for it: nobody is left to LOL.
      if (violates(error, 'foreignKey')) throw new UnauthorizedError(ACCOUNT_GONE);
      throw error;
    });
    if (!changed) throw new NotFoundError('Post not found');
    const { lolCount, isLiked } = changed;
    return { lolCount, isLiked };
  }

  recordViews(postIds: string[], viewerKey: string): Promise<void> {
    return this.posts.recordViews([...new Set(postIds)], viewerKey);
  }

  /**
   * An image and whether it may be cached publicly: avatars and visible posts' images are public;
   * a post still checking or held shows only to its author and admins, and a rejected one to
   * nobody. The post is found by the id in its key, through the primary key.
   */
  async image(
    key: string,
    viewer: () => Promise<Viewer | null>,
  ): Promise<{ bytes: Buffer; isPublic: boolean }> {
    const notFound = new NotFoundError('Image not found');
    let isPublic = key.startsWith('avatars/');
    if (!isPublic) {
      const postId = postIdOfImageKey(key);
      const post = postId ? await this.posts.imageAccess(postId) : null;
      if (!post || !isImageOf(post, key)) throw notFound;
      isPublic = post.status === 'visible';
      if (post.status === 'rejected') throw notFound;
      if (!isPublic) {
        const subject = { authorId: post.userId, status: post.status };
        if (!can(await viewer(), 'content.read', subject)) throw notFound;
      }
    }
    const bytes = await this.images.get(key);
    if (!bytes) throw notFound;
    return { bytes, isPublic };
  }

  /** Public posts with a location (the map), as `feed` lists them, a page at a time. */
  located(viewer: Viewer | null, page: { limit: number; before?: string }): Promise<Post[]> {
    const before = page.before ? cursorOf(page.before) : null;
    return this.posts.located(viewer?.id ?? null, page.limit, before);
  }

  /** How many posts the map lists in all. */
  async locatedCount(viewer: Viewer | null): Promise<{ count: number }> {
    return { count: await this.posts.locatedCount(viewer?.id ?? null) };
  }

  /** Refuses what a user may not do to the post of someone they blocked or who blocked them. */
  private async refuseBlocked(viewer: Viewer, postId: string, message: string): Promise<void> {
    if (isId(postId) && (await this.posts.blockedFromPost(postId, viewer.id))) {
      throw new ForbiddenError(message);
    }
  }
}

/** Whether `key` is one of the post's images: its full image, its thumbnail or a copy of one. */
function isImageOf(post: ImageAccess, key: string): boolean {
  if (key === post.imageKey || key === post.thumbnailKey) return true;
  const copy = variantOf(key);
  if (!copy) return false;
  if (copy.key === post.imageKey) return post.imageWidths.includes(copy.width);
  return copy.key === post.thumbnailKey && post.thumbnailWidths.includes(copy.width);
}

function cursorOf(before: string) {
  const cursor = parseCursor(before);
  if (!cursor) throw new ValidationError('Invalid cursor');
  return cursor;
}
