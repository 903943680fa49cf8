import type { PostEditPreview } from '@tapgram/shared';
import type pg from 'pg';
import type { Queryable } from '../../core/db';
import { imageUrl } from '../../images';
import type { PostsRepository } from './posts-repository';

/**
 * Where an author's edit of a caption stands: checking, held (for a moderator), visible (the
 * post's caption now, or no edit waits) or rejected (dropped; the post keeps its caption).
 */
export type CaptionEditStatus = 'checking' | 'held' | 'visible' | 'rejected';

export interface CaptionEditMove {
  authorId: string;
  was: CaptionEditStatus;
  now: CaptionEditStatus;
  postId: string;
}

/**
 * The edits of captions that wait for their check or a moderator (`post_caption_edits`' one
 * writer): everyone but the author reads the post's caption until its edit is shown. Every write
 * locks the post first, then its edit, as a post's deletion does.
 */
export class CaptionEditsRepository {
  constructor(
    private readonly db: Queryable,
    private readonly posts: PostsRepository,
  ) {}

  /**
   * Records the author's new caption, checking, in place of any edit that waited (a check of that
   * one that ends later finds its version gone). The post is held from deletion meanwhile.
   */
  async propose(client: pg.PoolClient, postId: string, caption: string): Promise<boolean> {
    const { rowCount } = await client.query('SELECT 1 FROM posts WHERE id = $1 FOR KEY SHARE', [
      postId,
    ]);
    if (!rowCount) return false;
    await client.query(
      `INSERT INTO post_caption_edits (post_id, caption) VALUES ($1, $2)
       ON CONFLICT (post_id) DO UPDATE
          SET caption = EXCLUDED.caption, status = 'checking', ai_score = NULL,
              version = gen_random_uuid(), created_at = now()`,
      [postId, caption],
    );
    return true;
  }

  /** The edit still checking (with its version, which a newer edit changes); null when none. */
  async checkInput(postId: string): Promise<{ caption: string; version: string } | null> {
    const { rows } = await this.db.query<{ caption: string; version: string }>(
      "SELECT caption, version FROM post_caption_edits WHERE post_id = $1 AND status = 'checking'",
      [postId],
    );
    return rows[0] ?? null;
  }

  /**
   * Ends the check of one version of an edit: held, or shown (it becomes the post's caption).
   * Null when that version is no longer checking (replaced, or decided) or the post is gone.
   */
  async finishCheck(
    client: pg.PoolClient,
    {
      postId,
      version,
      score,
      hold,
    }: { postId: string; version: string; score: number; hold: boolean },
  ): Promise<CaptionEditMove | null> {
    const { authorId, edit } = (await this.lock(client, postId)) ?? {};
    if (!authorId || !edit || edit.status !== 'checking' || edit.version !== version) return null;
    if (hold) {
      await client.query(
        "UPDATE post_caption_edits SET status = 'held', ai_score = $2 WHERE post_id = $1",
        [postId, score.toFixed(3)],
      );
      return { authorId, was: 'checking', now: 'held', postId };
    }
    await this.show(client, postId, edit.caption);
    return { authorId, was: 'checking', now: 'visible', postId };
  }

  /**
   * A moderator's decision on a held edit: approving shows it, rejecting drops it (the post keeps
   * its caption). An edit that is not held stays where it is; null when the post is gone.
   */
  async decide(
    client: pg.PoolClient,
    postId: string,
    approve: boolean,
  ): Promise<CaptionEditMove | null> {
    const locked = await this.lock(client, postId);
    if (!locked) return null;
    const { authorId, edit } = locked;
    if (!edit || edit.status !== 'held') {
      const stays = edit?.status ?? 'visible';
      return { authorId, was: stays, now: stays, postId };
    }
    if (approve) {
      await this.show(client, postId, edit.caption);
      return { authorId, was: 'held', now: 'visible', postId };
    }
    await client.query('DELETE FROM post_caption_edits WHERE post_id = $1', [postId]);
    return { authorId, was: 'held', now: 'rejected', postId };
  }

  /** Edits still checking that were made up to `until`, oldest first, after `after`. */
  async unchecked(
    until: Date,
    limit: number,
    after: { at: string; id: string } | null,
  ): Promise<{ id: string; createdAt: string }[]> {
    const { rows } = await this.db.query<{ id: string; createdAt: string }>(
      `SELECT post_id AS id, created_at::text AS "createdAt" FROM post_caption_edits
        WHERE status = 'checking' AND created_at <= $1
          AND ($3::timestamptz IS NULL OR (created_at, post_id) > ($3::timestamptz, $4::uuid))
        ORDER BY created_at, post_id LIMIT $2`,
      [until, limit, after?.at ?? null, after?.id ?? null],
    );
    return rows;
  }

  /** What the moderation dashboard shows of each edited post that still exists, by post id. */
  async previews(postIds: string[]): Promise<Map<string, PostEditPreview>> {
    const { rows } = await this.db.query<{
      id: string;
      caption: string;
      edited_caption: string | null;
      thumbnail_key: string;
      username: string;
      status: string | null;
    }>(
      `SELECT p.id, p.caption, e.caption AS edited_caption, p.thumbnail_key, u.username, e.status
         FROM posts p JOIN lolgram_users u ON u.id = p.user_id
         LEFT JOIN post_caption_edits e ON e.post_id = p.id
        WHERE p.id = ANY($1::uuid[])`,
      [postIds],
    );
    return new Map(
      rows.map((row) => [
        row.id,
        {
          caption: row.caption,
          editedCaption: row.edited_caption,
          thumbnailUrl: imageUrl(row.thumbnail_key),
          username: row.username,
          status: row.status ?? 'visible',
        },
      ]),
    );
  }

  /** Locks the post, then its edit: the post's author and its edit (null: none); null: no post. */
  private async lock(client: pg.PoolClient, postId: string) {
    const post = await client.query<{ user_id: string }>(
      'SELECT user_id FROM posts WHERE id = $1 FOR NO KEY UPDATE',
      [postId],
    );
    if (!post.rows[0]) return null;
    const { rows } = await client.query<{
      caption: string;
      version: string;
      status: 'checking' | 'held';
    }>('SELECT caption, version, status FROM post_caption_edits WHERE post_id = $1 FOR UPDATE', [
      postId,
    ]);
    return { authorId: post.rows[0].user_id, edit: rows[0] ?? null };
  }

  private async show(client: pg.PoolClient, postId: string, caption: string): Promise<void> {
    await this.posts.setCaption(client, postId, caption);
    await client.query('DELETE FROM post_caption_edits WHERE post_id = $1', [postId]);
  }
}
