import type pg from 'pg';
import type { AccountErasure } from '../accounts';
import type { ImageOwner } from '../images';
import type { NotificationsRepository } from './notifications';

/**
 * What LOLGram erases of a deleted account, in the deletion's transaction: its posts (with their
 * comments, LOLs, saves, views, reports and edits), its comments and the replies under them, and
 * its traces in what others read: the LOL and comment counts of their posts, their follower and
 * following counts, the actors of their notifications. Its own LOLs, saves, follows, blocks,
 * notifications and sessions go with its row (the foreign keys cascade). Pending moderation items
 * of what is gone are withdrawn; decided ones stay in the audit, which never held the content.
 * Answers the image folders of its posts.
 */
export function lolgramErasure(notifications: NotificationsRepository): AccountErasure {
  return async (client: pg.PoolClient, userId: string): Promise<ImageOwner[]> => {
    // The rows whose counts move are locked in one order (id), as follows and LOLs lock theirs.
    await client.query(
      `SELECT id FROM lolgram_users
        WHERE id IN (SELECT following_id FROM follows WHERE follower_id = $1
                     UNION SELECT follower_id FROM follows WHERE following_id = $1)
        ORDER BY id FOR NO KEY UPDATE`,
      [userId],
    );
    await client.query(
      `UPDATE lolgram_users SET follower_count = GREATEST(0, follower_count - 1)
        WHERE id IN (SELECT following_id FROM follows WHERE follower_id = $1)`,
      [userId],
    );
    await client.query(
      `UPDATE lolgram_users SET following_count = GREATEST(0, following_count - 1)
        WHERE id IN (SELECT follower_id FROM follows WHERE following_id = $1)`,
      [userId],
    );
    // Others' posts: one LOL fewer for each it gave, and the visible comments and replies it
    // wrote, with the replies others wrote under its comments (they go with them).
    await client.query(
      `WITH lols AS (SELECT post_id, 1 AS n FROM post_lols WHERE user_id = $1),
            comments AS (
              SELECT c.post_id, count(*)::int AS n FROM post_comments c
               WHERE c.status = 'visible'
                 AND (c.user_id = $1
                      OR c.parent_id IN (SELECT id FROM post_comments WHERE user_id = $1))
               GROUP BY c.post_id),
            touched AS (
              SELECT p.id FROM posts p
               WHERE p.user_id <> $1
                 AND p.id IN (SELECT post_id FROM lols UNION SELECT post_id FROM comments)
               ORDER BY p.id FOR NO KEY UPDATE)
       UPDATE posts p
          SET lol_count = GREATEST(0, p.lol_count - COALESCE((SELECT n FROM lols WHERE post_id = p.id), 0)),
              comment_count = GREATEST(0, p.comment_count
                                          - COALESCE((SELECT n FROM comments WHERE post_id = p.id), 0))
        WHERE p.id IN (SELECT id FROM touched)`,
      [userId],
    );
    await notifications.withdrawActor(client, userId);
    const { rows: posts } = await client.query<{ id: string }>(
      'DELETE FROM posts WHERE user_id = $1 RETURNING id',
      [userId],
    );
    await client.query('DELETE FROM post_comments WHERE user_id = $1', [userId]);
    const postIds = posts.map((post) => post.id);
    await client.query(
      `DELETE FROM moderation_queue q
        WHERE q.status = 'pending'
          AND ((q.content_type IN ('post', 'post-edit') AND q.content_id = ANY($1::uuid[]))
               OR (q.content_type = 'comment'
                   AND NOT EXISTS (SELECT 1 FROM post_comments c WHERE c.id = q.content_id)))`,
      [postIds],
    );
    return postIds.map((id) => ({ kind: 'posts', id }));
  };
}
