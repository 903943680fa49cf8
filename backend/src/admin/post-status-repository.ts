import type { PostStatus } from '@tapgram/shared';
import type pg from 'pg';
import type { Queryable } from '../core/db';

export interface Move {
  userId: string;
  was: PostStatus;
  now: PostStatus;
}

export interface UncheckedPost {
  id: string;
  caption: string;
  imageKey: string;
  createdAt: string;
}

/**
 * A post's moderation status and what follows from it: the author's post count is the number of
 * their visible posts, kept in step with every move in the same transaction.
 */
export class PostStatusRepository {
  constructor(private readonly db: Queryable) {}

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
    if (delta !== 0) {
      await client.query('UPDATE lolgram_users SET post_count = post_count + $2 WHERE id = $1', [
        post.user_id,
        delta,
      ]);
    }
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

  /** Posts still checking that were created up to `until`, oldest first, after `after`. */
  async unchecked(
    until: Date,
    limit: number,
    after: { at: string; id: string } | null,
  ): Promise<UncheckedPost[]> {
    const { rows } = await this.db.query<UncheckedPost>(
      `SELECT id, caption, image_key AS "imageKey", created_at::text AS "createdAt"
         FROM posts
        WHERE status = 'checking' AND created_at <= $1
          AND ($3::timestamptz IS NULL OR (created_at, id) > ($3::timestamptz, $4::uuid))
        ORDER BY created_at, id
        LIMIT $2`,
      [until, limit, after?.at ?? null, after?.id ?? null],
    );
    return rows;
  }
}
