import type {
  Comment,
  CommentModerationPreview,
  CommentPreview,
  PostStatus,
} from '@tapgram/shared';
import type pg from 'pg';
import type { Queryable } from '../../core/db';
import { imageUrl } from '../../images';
import { readableCommentCount, type PostsRepository } from '../posts/posts-repository';
import { blockedEitherWay } from '../relations/blocks-repository';

export type CommentStatus = 'checking' | 'visible' | 'held' | 'rejected' | 'deleted';

/** Where a comment's status moved, with who and what it concerns (for `comment.added`). */
export interface CommentMove {
  authorId: string;
  was: CommentStatus;
  now: CommentStatus;
  postId: string;
  postAuthorId: string;
  parentId: string | null;
  parentAuthorId: string | null;
}

/** A comment as the rules about it see it: whose, on which post, where it stands. */
export interface CommentAccess {
  id: string;
  postId: string;
  userId: string;
  parentId: string | null;
  threadSeq: string;
  status: CommentStatus;
  postAuthorId: string;
  postStatus: string;
  createdAt: Date;
}

interface ThreadRow {
  id: string;
  post_id: string;
  parent_id: string | null;
  user_id: string;
  username: string;
  avatar_key: string | null;
  body: string;
  status: CommentStatus;
  created_at: Date;
  thread_seq: string;
  seq: string;
  shown: boolean;
  /** The reader blocked its author. */
  blocked_author: boolean;
}

/** What a thread's page says of its post. */
export interface ThreadPost {
  status: PostStatus;
  userId: string;
  commentCount: number;
  commentsOff: boolean;
}

interface ThreadPostRow {
  post_status: PostStatus;
  post_user_id: string;
  comment_count: number;
  comments_off: boolean;
}

const NOBODY = '00000000-0000-0000-0000-000000000000';

function toComment(row: ThreadRow): Comment {
  const base = {
    id: row.id,
    postId: row.post_id,
    parentId: row.parent_id,
    createdAt: row.created_at.toISOString(),
  };
  if (!row.shown) {
    const hidden = { ...base, userId: null, username: null, userAvatar: null, text: null };
    return row.status === 'visible' && row.blocked_author
      ? { ...hidden, deleted: true, blockedAuthor: true }
      : { ...hidden, deleted: true };
  }
  return {
    ...base,
    userId: row.user_id,
    username: row.username,
    userAvatar: row.avatar_key ? imageUrl(row.avatar_key) : null,
    text: row.body,
    deleted: false,
    ...(row.status === 'checking' || row.status === 'held' ? { moderation: row.status } : {}),
  };
}

/** What the reader ($2) may read of a comment `c`: public, or their own not public yet. */
const READABLE = `(c.status = 'visible' OR (c.user_id = $2 AND c.status IN ('checking', 'held')))
                   AND NOT ${blockedEitherWay('$2::uuid', 'c.user_id')}`;

const SELECT_THREAD = `
  SELECT c.id, c.post_id, c.parent_id, c.user_id, u.username, u.avatar_key, c.body, c.status,
         c.created_at, c.thread_seq::text, c.seq::text, ${READABLE} AS shown,
         EXISTS (SELECT 1 FROM user_blocks ub WHERE ub.blocker_id = $2 AND ub.blocked_id = c.user_id)
           AS blocked_author
    FROM post_comments c JOIN lolgram_users u ON u.id = c.user_id`;

/**
 * The post_comments table's one writer. The post's comment count (its visible comments and
 * replies) moves with every status move, in the same transaction.
 */
export class CommentsRepository {
  constructor(
    private readonly db: Queryable,
    private readonly posts: PostsRepository,
  ) {}

  /** A new comment is 'checking' (only its author sees it) until its automatic check ends. */
  async insert(
    client: pg.PoolClient,
    comment: {
      postId: string;
      userId: string;
      parentId: string | null;
      threadSeq: string | null;
      text: string;
    },
  ): Promise<string> {
    const { rows } = await client.query<{ id: string }>(
      `WITH s AS (SELECT nextval('post_comments_seq') AS seq)
       INSERT INTO post_comments (post_id, user_id, parent_id, seq, thread_seq, body, status)
       SELECT $1, $2, $3, s.seq, COALESCE($4::bigint, s.seq), $5, 'checking' FROM s
       RETURNING id`,
      [comment.postId, comment.userId, comment.parentId, comment.threadSeq, comment.text],
    );
    return rows[0].id;
  }

  /** A comment with its post's author and status; null when there is none. */
  async access(client: Queryable, id: string): Promise<CommentAccess | null> {
    const { rows } = await client.query<CommentAccess>(
      `SELECT c.id, c.post_id AS "postId", c.user_id AS "userId", c.parent_id AS "parentId",
              c.thread_seq::text AS "threadSeq", c.status,
              p.user_id AS "postAuthorId", p.status AS "postStatus", c.created_at AS "createdAt"
         FROM post_comments c JOIN posts p ON p.id = c.post_id
        WHERE c.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /**
   * The author of a public comment on a public post that the reader may read (not between users
   * who blocked one another); null otherwise. Inside a transaction the comment cannot be deleted
   * until it ends.
   */
  async readableAuthor(client: Queryable, id: string, viewerId: string): Promise<string | null> {
    const { rows } = await client.query<{ user_id: string }>(
      `SELECT c.user_id FROM post_comments c JOIN posts p ON p.id = c.post_id
        WHERE c.id = $1 AND c.status = 'visible' AND p.status = 'visible'
          AND NOT ${blockedEitherWay('$2::uuid', 'c.user_id')}
          FOR KEY SHARE OF c`,
      [id, viewerId],
    );
    return rows[0]?.user_id ?? null;
  }

  /** One comment as `viewerId` reads it (the answer to its creation). */
  async one(id: string, viewerId: string): Promise<Comment | null> {
    const { rows } = await this.db.query<ThreadRow>(`${SELECT_THREAD} WHERE c.id = $1`, [
      id,
      viewerId,
    ]);
    return rows[0] ? toComment(rows[0]) : null;
  }

  /**
   * A page of a thread after `after` (thread sequence, sequence): what the reader may read, and
   * the top comments they may not that keep replies they may (shown as "deleted", or as hidden
   * when the reader blocked their author); with the post as the same statement saw it (its count,
   * of what the reader may read, agrees with the page), null when there is none.
   */
  async thread(
    postId: string,
    viewerId: string | null,
    limit: number,
    after: { threadSeq: string; seq: string } | null,
  ): Promise<{ post: ThreadPost | null; comments: Comment[]; nextCursor: string | null }> {
    const { rows } = await this.db.query<ThreadPostRow & Partial<ThreadRow>>({
      name: 'lolgram-comment-thread',
      text: `SELECT p.status AS post_status, p.user_id AS post_user_id,
                    ${readableCommentCount('$2::uuid')} AS comment_count, p.comments_off, t.*
               FROM posts p
               LEFT JOIN LATERAL (${SELECT_THREAD}
                  WHERE c.post_id = p.id AND (c.thread_seq, c.seq) > ($4::bigint, $5::bigint)
                    AND (${READABLE}
                         OR (c.parent_id IS NULL AND c.status <> 'checking' AND EXISTS (
                               SELECT 1 FROM post_comments r
                                WHERE r.parent_id = c.id AND r.status = 'visible'
                                  AND NOT ${blockedEitherWay('$2::uuid', 'r.user_id')}
                                -- LIMIT keeps it a probe of the replies index, never a hash of
                                -- every reply.
                                LIMIT 1)))
                  ORDER BY c.thread_seq, c.seq LIMIT $3) t ON true
              WHERE p.id = $1
              ORDER BY t.thread_seq::bigint, t.seq::bigint`,
      values: [postId, viewerId ?? NOBODY, limit + 1, after?.threadSeq ?? '0', after?.seq ?? '0'],
    });
    const head = rows[0];
    if (!head) return { post: null, comments: [], nextCursor: null };
    const found = rows.filter((row): row is ThreadPostRow & ThreadRow => row.id != null);
    const page = found.slice(0, limit);
    const last = page[page.length - 1];
    return {
      post: {
        status: head.post_status,
        userId: head.post_user_id,
        commentCount: head.comment_count,
        commentsOff: head.comments_off,
      },
      comments: page.map(toComment),
      nextCursor: found.length > limit && last ? `${last.thread_seq}.${last.seq}` : null,
    };
  }

  /** The first public top comments of each post that the reader may see, in one query. */
  async firstComments(
    postIds: string[],
    viewerId: string | null,
    perPost: number,
  ): Promise<Map<string, CommentPreview[]>> {
    const found = new Map<string, CommentPreview[]>();
    if (postIds.length === 0) return found;
    const { rows } = await this.db.query<{
      post_id: string;
      id: string;
      username: string;
      body: string;
    }>({
      name: 'lolgram-first-comments',
      text: `SELECT x.post_id, x.id, x.username, x.body
               FROM unnest($1::uuid[]) WITH ORDINALITY AS p(id, n)
               CROSS JOIN LATERAL (
                 SELECT c.post_id, c.id, u.username, c.body
                   FROM post_comments c JOIN lolgram_users u ON u.id = c.user_id
                  WHERE c.post_id = p.id AND c.status = 'visible' AND c.parent_id IS NULL
                    AND NOT ${blockedEitherWay('$2::uuid', 'c.user_id')}
                  ORDER BY c.seq LIMIT $3) x
              ORDER BY p.n`,
      values: [postIds, viewerId ?? NOBODY, perPost],
    });
    for (const row of rows) {
      const list = found.get(row.post_id) ?? [];
      list.push({ id: row.id, username: row.username, text: row.body });
      found.set(row.post_id, list);
    }
    return found;
  }

  /**
   * Moves a comment to `to` when its status is one of `from` (otherwise it stays), and the post's
   * count with it. Null when the comment is gone.
   */
  async move(
    client: pg.PoolClient,
    id: string,
    from: CommentStatus[],
    to: CommentStatus,
  ): Promise<CommentMove | null> {
    const { rows } = await client.query<{
      user_id: string;
      status: CommentStatus;
      post_id: string;
      post_author_id: string;
      parent_id: string | null;
      parent_author_id: string | null;
    }>(
      `SELECT c.user_id, c.status, c.post_id, p.user_id AS post_author_id, c.parent_id,
              pc.user_id AS parent_author_id
         FROM post_comments c JOIN posts p ON p.id = c.post_id
         LEFT JOIN post_comments pc ON pc.id = c.parent_id
        WHERE c.id = $1
          FOR NO KEY UPDATE OF c`,
      [id],
    );
    const row = rows[0];
    if (!row) return null;
    const move: CommentMove = {
      authorId: row.user_id,
      was: row.status,
      now: row.status,
      postId: row.post_id,
      postAuthorId: row.post_author_id,
      parentId: row.parent_id,
      parentAuthorId: row.parent_author_id,
    };
    if (!from.includes(row.status) || row.status === to) return move;
    await client.query('UPDATE post_comments SET status = $2 WHERE id = $1', [id, to]);
    const delta = Number(to === 'visible') - Number(row.status === 'visible');
    await this.posts.addToCommentCount(client, row.post_id, delta);
    return { ...move, now: to };
  }

  /** Records the automatic score and ends the check: visible or held, if it is still checking. */
  async finishCheck(
    client: pg.PoolClient,
    id: string,
    score: number,
    hold: boolean,
  ): Promise<CommentMove | null> {
    await client.query('UPDATE post_comments SET ai_score = $2 WHERE id = $1', [
      id,
      score.toFixed(3),
    ]);
    return this.move(client, id, ['checking'], hold ? 'held' : 'visible');
  }

  /**
   * Deletes a comment: one with replies stays as "deleted" (its text emptied) above them; a reply
   * that was the last of a deleted comment takes that comment with it. Answers the post's count
   * change.
   */
  async delete(client: pg.PoolClient, id: string): Promise<{ postId: string } | null> {
    const move = await this.move(
      client,
      id,
      ['checking', 'visible', 'held', 'rejected'],
      'deleted',
    );
    if (!move) return null;
    const { rows } = await client.query<{ has_replies: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM post_comments WHERE parent_id = $1) AS has_replies',
      [id],
    );
    if (rows[0].has_replies) {
      await client.query("UPDATE post_comments SET body = '' WHERE id = $1", [id]);
    } else {
      await client.query('DELETE FROM post_comments WHERE id = $1', [id]);
      if (move.parentId) {
        await client.query(
          `DELETE FROM post_comments c
            WHERE c.id = $1 AND c.status = 'deleted'
              AND NOT EXISTS (SELECT 1 FROM post_comments r WHERE r.parent_id = c.id)`,
          [move.parentId],
        );
      }
    }
    return { postId: move.postId };
  }

  /** What the automatic check reads of a comment; null when it is gone. */
  async checkInput(id: string): Promise<string | null> {
    const { rows } = await this.db.query<{ body: string }>(
      "SELECT body FROM post_comments WHERE id = $1 AND status <> 'deleted'",
      [id],
    );
    return rows[0]?.body ?? null;
  }

  /** Comments still checking that were created up to `until`, oldest first, after `after`. */
  async unchecked(
    until: Date,
    limit: number,
    after: { at: string; id: string } | null,
  ): Promise<{ id: string; createdAt: string }[]> {
    const { rows } = await this.db.query<{ id: string; createdAt: string }>(
      `SELECT id, created_at::text AS "createdAt" FROM post_comments
        WHERE status = 'checking' AND created_at <= $1
          AND ($3::timestamptz IS NULL OR (created_at, id) > ($3::timestamptz, $4::uuid))
        ORDER BY created_at, id LIMIT $2`,
      [until, limit, after?.at ?? null, after?.id ?? null],
    );
    return rows;
  }

  /** What the moderation dashboard shows of each comment that still exists: with its post. */
  async previews(ids: string[]): Promise<Map<string, CommentModerationPreview>> {
    const { rows } = await this.db.query<{
      id: string;
      body: string;
      username: string;
      status: string;
      post_id: string;
      caption: string;
      thumbnail_key: string;
    }>(
      `SELECT c.id, c.body, u.username, c.status, c.post_id, p.caption, p.thumbnail_key
         FROM post_comments c JOIN lolgram_users u ON u.id = c.user_id
         JOIN posts p ON p.id = c.post_id
        WHERE c.id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(
      rows.map((row) => [
        row.id,
        {
          text: row.body,
          username: row.username,
          status: row.status,
          postId: row.post_id,
          postCaption: row.caption,
          postThumbnailUrl: imageUrl(row.thumbnail_key),
        },
      ]),
    );
  }
}
