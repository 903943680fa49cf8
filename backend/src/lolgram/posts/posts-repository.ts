import type { Post, PostLocation, PostPreview, PostStatus } from '@tapgram/shared';
import type pg from 'pg';
import { toggleRow, type Queryable } from '../../core/db';
import type { UsersRepository } from '../../accounts';
import { encodeCursor, type Cursor } from './post-cursor';
import { imageUrl, srcsetOf, variantKey } from '../../images';
import { blockedEitherWay, blockedEitherWaySet } from '../relations/blocks-repository';

export interface ImageAccess {
  userId: string;
  status: PostStatus;
  imageKey: string;
  thumbnailKey: string;
  imageWidths: number[];
  thumbnailWidths: number[];
}

interface PostRow {
  id: string;
  user_id: string;
  username: string;
  avatar_key: string | null;
  wallet_address: string | null;
  image_key: string;
  thumbnail_key: string;
  image_widths: number[];
  thumbnail_widths: number[];
  avatar_widths: number[];
  caption: string;
  location_name: string | null;
  location_lat: number | null;
  location_lng: number | null;
  lol_count: number;
  comment_count: number;
  comments_off: boolean;
  is_liked: boolean;
  is_saved: boolean;
  status: PostStatus;
  edit_status: 'checking' | 'held' | null;
  created_at: Date;
  cursor_at: string;
}

function toPost(row: PostRow): Post {
  return {
    id: row.id,
    userId: row.user_id,
    username: row.username,
    userAvatar: row.avatar_key ? imageUrl(row.avatar_key) : null,
    imageUrl: imageUrl(row.image_key),
    thumbnailUrl: imageUrl(row.thumbnail_key),
    ...srcsets(row),
    caption: row.caption,
    location:
      row.location_name === null
        ? null
        : { name: row.location_name, lat: row.location_lat ?? 0, lng: row.location_lng ?? 0 },
    lolCount: row.lol_count,
    isLiked: row.is_liked,
    isSaved: row.is_saved,
    commentCount: row.comment_count,
    commentsOff: row.comments_off,
    createdAt: row.created_at.toISOString(),
    canMintNFT: row.wallet_address !== null,
    cursor: encodeCursor(row.cursor_at, row.id),
    // Only the author (and the create answer) ever sees a post that is not public yet.
    ...(row.status === 'checking' || row.status === 'held' ? { moderation: row.status } : {}),
    ...(row.edit_status ? { editModeration: row.edit_status } : {}),
  };
}

/** The answer's srcsets: only of the images that have copies (those uploaded since they are made). */
function srcsets(row: PostRow): Pick<Post, 'imageSrcset' | 'thumbnailSrcset' | 'userAvatarSrcset'> {
  const image = srcsetOf(row.image_key, row.image_widths);
  const thumbnail = srcsetOf(row.thumbnail_key, row.thumbnail_widths);
  const avatar = row.avatar_key ? srcsetOf(row.avatar_key, row.avatar_widths) : undefined;
  return {
    ...(image ? { imageSrcset: image } : {}),
    ...(thumbnail ? { thumbnailSrcset: thumbnail } : {}),
    ...(avatar ? { userAvatarSrcset: avatar } : {}),
  };
}

/**
 * A post `p`'s count of comments as `reader` may read them: its public comments and replies but
 * those by users blocked either way (found from the reader's blocks, a handful), so that the
 * count agrees with the thread they are shown.
 */
export const readableCommentCount = (reader: string) => `p.comment_count - (
  SELECT count(*)::int FROM ${blockedEitherWaySet(reader)} b
    JOIN post_comments c ON c.user_id = b.id
   WHERE c.post_id = p.id AND c.status = 'visible')`;

/**
 * The author's current name and avatar, and whether the viewer ($1) LOLed and saved it; a page
 * goes on after the post's `cursorAt` (when it was posted, or when it was saved for the Saved grid).
 * The author alone reads their edit of the caption while it waits for its check or a moderator.
 */
const selectPosts = (cursorAt: string) => `
  SELECT p.id, p.user_id, u.username, u.avatar_key, u.avatar_widths, u.wallet_address,
         p.image_key, p.thumbnail_key, p.image_widths, p.thumbnail_widths,
         COALESCE(e.caption, p.caption) AS caption, e.status AS edit_status,
         p.location_name, p.location_lat, p.location_lng, p.lol_count,
         ${readableCommentCount('$1::uuid')} AS comment_count,
         p.comments_off, p.status, p.created_at, ${cursorAt}::text AS cursor_at,
         EXISTS (SELECT 1 FROM post_lols l WHERE l.post_id = p.id AND l.user_id = $1) AS is_liked,
         EXISTS (SELECT 1 FROM post_saves s WHERE s.user_id = $1 AND s.post_id = p.id) AS is_saved
    FROM posts p JOIN lolgram_users u ON u.id = p.user_id
    LEFT JOIN post_caption_edits e ON e.post_id = p.id AND p.user_id = $1`;
const SELECT = selectPosts('p.created_at');

/** Listings leave out the posts of whoever the viewer ($1) blocked or was blocked by. */
const UNBLOCKED = `NOT ${blockedEitherWay('$1::uuid', 'p.user_id')}`;

const NOBODY = '00000000-0000-0000-0000-000000000000';

/** A move of a post's status: from what it was to what it is now (the same when it stayed). */
export interface Move {
  userId: string;
  was: PostStatus;
  now: PostStatus;
}

/** What one reader sees of a post on the shared feed page that differs from reader to reader. */
export interface ViewerState {
  lolCount: number;
  /** Of what the reader may read. */
  commentCount: number;
  isLiked: boolean;
  isSaved: boolean;
  /** The reader and the author have blocked one another (either way). */
  blocked: boolean;
  /** The reader's own edit of the caption, while it is not public yet. */
  edit: { caption: string; status: 'checking' | 'held' } | null;
}

/** What is left to clean up of a deleted post: its author and its image files. */
export interface DeletedPost {
  userId: string;
  imageKeys: string[];
}

export interface UncheckedPost {
  id: string;
  createdAt: string;
}

/**
 * The posts table's one writer: posts, their LOL counts and their moderation status. The author's
 * post count (the number of their visible posts) moves with every status move, in the same
 * transaction.
 */
export class PostsRepository {
  constructor(
    private readonly db: Queryable,
    private readonly users: UsersRepository,
  ) {}

  /** A new post is 'checking' (public nowhere, not counted) until its automatic check ends. */
  async insert(
    client: pg.PoolClient,
    post: {
      id: string;
      userId: string;
      caption: string;
      imageKey: string;
      thumbnailKey: string;
      imageWidths: number[];
      thumbnailWidths: number[];
      location?: PostLocation;
    },
  ): Promise<void> {
    await client.query(
      `INSERT INTO posts (id, user_id, caption, image_key, thumbnail_key, image_widths, thumbnail_widths,
                          location_name, location_lat, location_lng, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'checking')`,
      [
        post.id,
        post.userId,
        post.caption,
        post.imageKey,
        post.thumbnailKey,
        post.imageWidths,
        post.thumbnailWidths,
        post.location?.name ?? null,
        post.location?.lat ?? null,
        post.location?.lng ?? null,
      ],
    );
  }

  async byId(id: string, viewerId: string | null): Promise<Post | null> {
    const { rows } = await this.db.query<PostRow>(`${SELECT} WHERE p.id = $2`, [
      viewerId ?? NOBODY,
      id,
    ]);
    return rows[0] ? toPost(rows[0]) : null;
  }

  /** A post as `viewerId` sees it, with its status, whatever that is; null when there is none. */
  async withStatus(
    id: string,
    viewerId: string | null,
  ): Promise<{ post: Post; status: PostStatus } | null> {
    const { rows } = await this.db.query<PostRow>(`${SELECT} WHERE p.id = $2`, [
      viewerId ?? NOBODY,
      id,
    ]);
    return rows[0] ? { post: toPost(rows[0]), status: rows[0].status } : null;
  }

  /**
   * The feed page: a named statement, so each connection plans it once, and one statement per
   * shape (first page, next pages) so that both keep their index scan.
   */
  async feed(viewerId: string | null, limit: number, before: Cursor | null): Promise<Post[]> {
    const viewer = viewerId ?? NOBODY;
    const { rows } = before
      ? await this.db.query<PostRow>({
          name: 'lolgram-feed-after',
          text: `${SELECT} WHERE p.status = 'visible' AND (p.created_at, p.id) < ($3::timestamptz, $4::uuid)
                    AND ${UNBLOCKED}
                  ORDER BY p.created_at DESC, p.id DESC LIMIT $2`,
          values: [viewer, limit, before.at, before.id],
        })
      : await this.db.query<PostRow>({
          name: 'lolgram-feed',
          text: `${SELECT} WHERE p.status = 'visible' AND ${UNBLOCKED}
                  ORDER BY p.created_at DESC, p.id DESC LIMIT $2`,
          values: [viewer, limit],
        });
    return rows.map(toPost);
  }

  /**
   * A reader's LOLs and saves on some posts and those posts' counts, read together (the shared
   * feed page may be a second old, and a reader who just LOLed must see their LOL and its count
   * agree), and whether the reader and each author have blocked one another.
   */
  async viewerStateOf(viewerId: string, postIds: string[]): Promise<Map<string, ViewerState>> {
    if (postIds.length === 0) return new Map();
    const { rows } = await this.db.query<{
      id: string;
      lol_count: number;
      comment_count: number;
      is_liked: boolean;
      is_saved: boolean;
      blocked: boolean;
      edit_caption: string | null;
      edit_status: 'checking' | 'held' | null;
    }>({
      name: 'lolgram-viewer-state-of',
      text: `SELECT p.id, p.lol_count, ${readableCommentCount('$1::uuid')} AS comment_count,
                    EXISTS (SELECT 1 FROM post_lols l WHERE l.post_id = p.id AND l.user_id = $1)
                      AS is_liked,
                    EXISTS (SELECT 1 FROM post_saves s WHERE s.user_id = $1 AND s.post_id = p.id)
                      AS is_saved,
                    ${blockedEitherWay('$1::uuid', 'p.user_id')} AS blocked,
                    e.caption AS edit_caption, e.status AS edit_status
               FROM posts p
               LEFT JOIN post_caption_edits e ON e.post_id = p.id AND p.user_id = $1
              WHERE p.id = ANY($2::uuid[])`,
      values: [viewerId, postIds],
    });
    return new Map(
      rows.map((row) => [
        row.id,
        {
          lolCount: row.lol_count,
          commentCount: row.comment_count,
          isLiked: row.is_liked,
          isSaved: row.is_saved,
          blocked: row.blocked,
          edit:
            row.edit_caption !== null && row.edit_status !== null
              ? { caption: row.edit_caption, status: row.edit_status }
              : null,
        },
      ]),
    );
  }

  /** A user's posts with one of `statuses`, newest first, a page at a time. */
  async byUser(
    viewerId: string | null,
    userId: string,
    page: { statuses: PostStatus[]; limit: number; before: Cursor | null },
  ): Promise<Post[]> {
    const { rows } = await this.db.query<PostRow>(
      `${SELECT} WHERE p.user_id = $2 AND p.status = ANY($3::text[])
          AND ($5::timestamptz IS NULL OR (p.created_at, p.id) < ($5::timestamptz, $6::uuid))
        ORDER BY p.created_at DESC, p.id DESC LIMIT $4`,
      [viewerId ?? NOBODY, userId, page.statuses, page.limit, page.before?.at, page.before?.id],
    );
    return rows.map(toPost);
  }

  /**
   * The author of a visible post; null when there is no such post or it is not public. Inside a
   * transaction the post cannot be deleted until it ends (what is recorded about it stays valid).
   */
  async visibleAuthor(client: Queryable, id: string): Promise<string | null> {
    const { rows } = await client.query<{ user_id: string }>(
      "SELECT user_id FROM posts WHERE id = $1 AND status = 'visible' FOR KEY SHARE",
      [id],
    );
    return rows[0]?.user_id ?? null;
  }

  async isVisible(id: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      "SELECT 1 FROM posts WHERE id = $1 AND status = 'visible'",
      [id],
    );
    return (rowCount ?? 0) > 0;
  }

  /**
   * Adds or removes a LOL on a visible post (null when there is none: it may have been deleted
   * since it was found); the count moves only when a row really changed.
   */
  async setLol(client: pg.PoolClient, postId: string, userId: string, lol: boolean) {
    const { rowCount } = await client.query(
      "SELECT 1 FROM posts WHERE id = $1 AND status = 'visible' FOR NO KEY UPDATE",
      [postId],
    );
    if (!rowCount) return null;
    const delta = await toggleRow(
      client,
      lol,
      {
        insert: 'INSERT INTO post_lols (post_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        remove: 'DELETE FROM post_lols WHERE post_id = $1 AND user_id = $2',
      },
      [postId, userId],
    );
    const { rows } = await client.query<{ lol_count: number; user_id: string }>(
      'UPDATE posts SET lol_count = lol_count + $2 WHERE id = $1 RETURNING lol_count, user_id',
      [postId, delta],
    );
    return { lolCount: rows[0].lol_count, isLiked: lol, delta, authorId: rows[0].user_id };
  }

  /**
   * Records views of visible posts, once per viewer, post and hour. The posts are locked as they
   * are read (as the foreign key's check would lock them): one being deleted is waited for and
   * then left out, where the check would fail the whole statement.
   */
  async recordViews(postIds: string[], viewerKey: string): Promise<void> {
    await this.db.query(
      `INSERT INTO post_views (post_id, viewer_key, view_hour)
       SELECT p.id, $2, date_trunc('hour', now()) FROM posts p
        WHERE p.id = ANY($1::uuid[]) AND p.status = 'visible'
          FOR KEY SHARE
       ON CONFLICT DO NOTHING`,
      [postIds, viewerKey],
    );
  }

  /**
   * Who may see a post's images: its author and status, its two keys and the widths of their
   * copies (by primary key).
   */
  async imageAccess(postId: string): Promise<ImageAccess | null> {
    const { rows } = await this.db.query<ImageAccess>(
      `SELECT user_id AS "userId", status, image_key AS "imageKey", thumbnail_key AS "thumbnailKey",
              image_widths AS "imageWidths", thumbnail_widths AS "thumbnailWidths"
         FROM posts WHERE id = $1`,
      [postId],
    );
    return rows[0] ?? null;
  }

  /**
   * Moves a post to `to` when its status is one of `from`; otherwise it stays where it is (a
   * rejected post is never approved back, a late score does not move a decided post). Answers
   * null when the post does not exist.
   */
  async move(
    client: pg.PoolClient,
    postId: string,
    from: PostStatus[],
    to: PostStatus,
  ): Promise<Move | null> {
    // NO KEY UPDATE: a concurrent LOL (which holds KEY SHARE on the post) is not blocked by it.
    const { rows } = await client.query<{ user_id: string; status: PostStatus }>(
      'SELECT user_id, status FROM posts WHERE id = $1 FOR NO KEY UPDATE',
      [postId],
    );
    const post = rows[0];
    if (!post) return null;
    if (!from.includes(post.status) || post.status === to) {
      return { userId: post.user_id, was: post.status, now: post.status };
    }
    await client.query('UPDATE posts SET status = $2 WHERE id = $1', [postId, to]);
    const delta = Number(to === 'visible') - Number(post.status === 'visible');
    if (delta !== 0) await this.users.addToPostCount(client, post.user_id, delta);
    return { userId: post.user_id, was: post.status, now: to };
  }

  /** Records the automatic score and ends the check: visible or held, if it is still checking. */
  async finishCheck(
    client: pg.PoolClient,
    postId: string,
    score: number,
    hold: boolean,
  ): Promise<Move | null> {
    await client.query('UPDATE posts SET ai_score = $2 WHERE id = $1', [postId, score.toFixed(3)]);
    return this.move(client, postId, ['checking'], hold ? 'held' : 'visible');
  }

  /** What the automatic check reads of a post, whatever its status; null when it is gone. */
  async checkInput(id: string): Promise<{ caption: string; imageKey: string } | null> {
    const { rows } = await this.db.query<{ caption: string; imageKey: string }>(
      'SELECT caption, image_key AS "imageKey" FROM posts WHERE id = $1',
      [id],
    );
    return rows[0] ?? null;
  }

  /** What the moderation dashboard shows of each post that still exists, by id. */
  async previews(ids: string[]): Promise<Map<string, PostPreview>> {
    const { rows } = await this.db.query<{
      id: string;
      caption: string;
      thumbnail_key: string;
      image_key: string;
      username: string;
      status: string;
    }>(
      `SELECT p.id, p.caption, p.thumbnail_key, p.image_key, u.username, p.status
         FROM posts p JOIN lolgram_users u ON u.id = p.user_id
        WHERE p.id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(
      rows.map((row) => [
        row.id,
        {
          caption: row.caption,
          thumbnailUrl: imageUrl(row.thumbnail_key),
          imageUrl: imageUrl(row.image_key),
          username: row.username,
          status: row.status,
        },
      ]),
    );
  }

  /** Posts still checking that were created up to `until`, oldest first, after `after`. */
  async unchecked(
    until: Date,
    limit: number,
    after: { at: string; id: string } | null,
  ): Promise<UncheckedPost[]> {
    const { rows } = await this.db.query<UncheckedPost>(
      `SELECT id, created_at::text AS "createdAt"
         FROM posts
        WHERE status = 'checking' AND created_at <= $1
          AND ($3::timestamptz IS NULL OR (created_at, id) > ($3::timestamptz, $4::uuid))
        ORDER BY created_at, id
        LIMIT $2`,
      [until, limit, after?.at ?? null, after?.id ?? null],
    );
    return rows;
  }

  /** Whether the viewer and the author of public post `id` have blocked one another (either way). */
  async blockedFromPost(id: string, viewerId: string): Promise<boolean> {
    const { rows } = await this.db.query<{ blocked: boolean }>(
      `SELECT ${blockedEitherWay('$2::uuid', 'p.user_id')} AS blocked
         FROM posts p WHERE p.id = $1 AND p.status = 'visible'`,
      [id, viewerId],
    );
    return rows[0]?.blocked ?? false;
  }

  /** Public posts with a location, newest first, a page at a time (the map). */
  async located(viewerId: string | null, limit: number, before: Cursor | null): Promise<Post[]> {
    const viewer = viewerId ?? NOBODY;
    const located = `${SELECT} WHERE p.status = 'visible' AND p.location_name IS NOT NULL
                        AND ${UNBLOCKED}`;
    const { rows } = before
      ? await this.db.query<PostRow>(
          `${located} AND (p.created_at, p.id) < ($3::timestamptz, $4::uuid)
            ORDER BY p.created_at DESC, p.id DESC LIMIT $2`,
          [viewer, limit, before.at, before.id],
        )
      : await this.db.query<PostRow>(`${located} ORDER BY p.created_at DESC, p.id DESC LIMIT $2`, [
          viewer,
          limit,
        ]);
    return rows.map(toPost);
  }

  /** How many posts the map lists in all, whatever has been loaded of them. */
  async locatedCount(viewerId: string | null): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM posts p
        WHERE p.status = 'visible' AND p.location_name IS NOT NULL AND ${UNBLOCKED}`,
      [viewerId ?? NOBODY],
    );
    return rows[0].n;
  }

  /** The public posts `userId` saved, the latest saved first, a page at a time. */
  async savedBy(userId: string, limit: number, before: Cursor | null): Promise<Post[]> {
    const { rows } = await this.db.query<PostRow>(
      `${selectPosts('s.created_at')} JOIN post_saves s ON s.post_id = p.id AND s.user_id = $1
        WHERE p.status = 'visible'
          AND ($3::timestamptz IS NULL OR (s.created_at, s.post_id) < ($3::timestamptz, $4::uuid))
        ORDER BY s.created_at DESC, s.post_id DESC LIMIT $2`,
      [userId, limit, before?.at ?? null, before?.id ?? null],
    );
    return rows.map(toPost);
  }

  /** What commenting on a post asks: its author, status and whether comments are off. */
  async commentable(
    client: Queryable,
    id: string,
  ): Promise<{ userId: string; status: PostStatus; commentsOff: boolean } | null> {
    const { rows } = await client.query<{
      userId: string;
      status: PostStatus;
      commentsOff: boolean;
    }>(
      'SELECT user_id AS "userId", status, comments_off AS "commentsOff" FROM posts WHERE id = $1',
      [id],
    );
    return rows[0] ?? null;
  }

  /** Moves the count of a post's visible comments and replies, in the comment's transaction. */
  async addToCommentCount(client: Queryable, id: string, delta: number): Promise<void> {
    if (delta === 0) return;
    await client.query(
      'UPDATE posts SET comment_count = GREATEST(0, comment_count + $2) WHERE id = $1',
      [id, delta],
    );
  }

  async setCommentsOff(id: string, off: boolean): Promise<void> {
    await this.db.query('UPDATE posts SET comments_off = $2 WHERE id = $1', [id, off]);
  }

  async setCaption(client: Queryable, id: string, caption: string): Promise<void> {
    await client.query('UPDATE posts SET caption = $2 WHERE id = $1', [id, caption]);
  }

  /**
   * Deletes one of `userId`'s posts; its LOLs, views, saves and reports go with it, and the
   * author's post count drops when it was public. Null when they have no such post.
   */
  async delete(client: pg.PoolClient, id: string, userId: string): Promise<DeletedPost | null> {
    const { rows } = await client.query<{
      status: PostStatus;
      image_key: string;
      thumbnail_key: string;
      image_widths: number[];
      thumbnail_widths: number[];
    }>(
      `DELETE FROM posts WHERE id = $1 AND user_id = $2
       RETURNING status, image_key, thumbnail_key, image_widths, thumbnail_widths`,
      [id, userId],
    );
    const row = rows[0];
    if (!row) return null;
    if (row.status === 'visible') await this.users.addToPostCount(client, userId, -1);
    return {
      userId,
      imageKeys: [
        row.image_key,
        row.thumbnail_key,
        ...row.image_widths.map((width) => variantKey(row.image_key, width)),
        ...row.thumbnail_widths.map((width) => variantKey(row.thumbnail_key, width)),
      ],
    };
  }
}
