import type { ModerationDecision, ModerationQueueEntry, PopularItem } from '@tapgram/shared';
import type pg from 'pg';
import type { Queryable } from '../core/db';
import { imageUrl } from '../lolgram/users-repository';

const WINDOWS = { day: '1 day', week: '7 days', month: '30 days' } as const;

/** The moderation queue, its audit trail, reports and analytics, in SQL. */
export class ModerationRepository {
  constructor(private readonly db: Queryable) {}

  /** Opens a queue item for a post, or adds to the open one. */
  async enqueue(
    client: Queryable,
    item: { postId: string; aiScore: number; reason: string; report: boolean },
  ): Promise<void> {
    await client.query(
      `INSERT INTO moderation_queue (content_type, content_id, ai_score, reason, report_count)
       VALUES ('post', $1, $2, $3, $4)
       ON CONFLICT (content_type, content_id) WHERE status = 'pending' DO UPDATE
          SET ai_score = GREATEST(moderation_queue.ai_score, EXCLUDED.ai_score),
              reason = CASE WHEN moderation_queue.reason LIKE '%' || EXCLUDED.reason || '%'
                            THEN moderation_queue.reason
                            ELSE moderation_queue.reason || '; ' || EXCLUDED.reason END,
              report_count = moderation_queue.report_count + EXCLUDED.report_count`,
      [item.postId, item.aiScore.toFixed(3), item.reason, item.report ? 1 : 0],
    );
  }

  async setScore(postId: string, score: number, hold: boolean): Promise<void> {
    await this.db.query(
      `UPDATE posts SET ai_score = $2, status = CASE WHEN $3 AND status = 'visible' THEN 'held' ELSE status END
        WHERE id = $1`,
      [postId, score.toFixed(3), hold],
    );
  }

  /** Records a report once per user and post; false when this user already reported it. */
  async addReport(
    client: pg.PoolClient,
    postId: string,
    reporterId: string,
    reason: string,
  ): Promise<boolean> {
    const { rowCount } = await client.query(
      'INSERT INTO post_reports (post_id, reporter_id, reason) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [postId, reporterId, reason],
    );
    return (rowCount ?? 0) > 0;
  }

  async reportsSince(reporterId: string, since: Date): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM post_reports WHERE reporter_id = $1 AND created_at > $2',
      [reporterId, since],
    );
    return rows[0].n;
  }

  async pending(): Promise<ModerationQueueEntry[]> {
    const { rows } = await this.db.query<{
      id: string;
      content_type: string;
      content_id: string;
      ai_score: string;
      reason: string;
      created_at: Date;
      report_count: number;
      caption: string | null;
      thumbnail_key: string | null;
      image_key: string | null;
      username: string | null;
      status: string | null;
    }>(
      `SELECT q.id, q.content_type, q.content_id, q.ai_score::text, q.reason, q.created_at, q.report_count,
              p.caption, p.thumbnail_key, p.image_key, u.username, p.status
         FROM moderation_queue q
         LEFT JOIN posts p ON q.content_type = 'post' AND p.id = q.content_id
         LEFT JOIN lolgram_users u ON u.id = p.user_id
        WHERE q.status = 'pending'
        ORDER BY q.created_at, q.id`,
    );
    return rows.map((row) => ({
      id: row.id,
      contentType: row.content_type,
      contentId: row.content_id,
      aiScore: row.ai_score,
      reason: row.reason,
      createdAt: row.created_at.toISOString(),
      reportCount: row.report_count,
      post:
        row.caption !== null && row.thumbnail_key && row.image_key
          ? {
              caption: row.caption,
              thumbnailUrl: imageUrl(row.thumbnail_key),
              imageUrl: imageUrl(row.image_key),
              username: row.username ?? '',
              status: row.status ?? '',
            }
          : null,
    }));
  }

  /**
   * Decides a pending item once: the row lock makes a second, concurrent decision wait and then
   * find the item decided. Answers false when it was not pending (or does not exist).
   */
  async decide(
    client: pg.PoolClient,
    queueId: string,
    moderatorId: string,
    decision: ModerationDecision,
    notes: string,
  ): Promise<'decided' | 'already-decided' | 'missing'> {
    const { rows } = await client.query<{
      status: string;
      content_type: string;
      content_id: string;
    }>('SELECT status, content_type, content_id FROM moderation_queue WHERE id = $1 FOR UPDATE', [
      queueId,
    ]);
    const item = rows[0];
    if (!item) return 'missing';
    if (item.status !== 'pending') return 'already-decided';
    await client.query(
      'INSERT INTO moderation_decisions (queue_id, moderator_id, decision, notes) VALUES ($1, $2, $3, $4)',
      [queueId, moderatorId, decision, notes],
    );
    await client.query(
      'UPDATE moderation_queue SET status = $2, decided_at = now() WHERE id = $1',
      [queueId, decision],
    );
    if (item.content_type === 'post') {
      const { rows: changed } = await client.query<{ user_id: string; was: string }>(
        `UPDATE posts p SET status = $2 FROM (SELECT status AS was FROM posts WHERE id = $1) old
          WHERE p.id = $1 RETURNING p.user_id, old.was`,
        [item.content_id, decision === 'rejected' ? 'rejected' : 'visible'],
      );
      const post = changed[0];
      if (post && decision === 'rejected' && post.was !== 'rejected') {
        await client.query('UPDATE lolgram_users SET post_count = post_count - 1 WHERE id = $1', [
          post.user_id,
        ]);
      }
    }
    return 'decided';
  }

  async popular(timeframe: keyof typeof WINDOWS, limit: number): Promise<PopularItem[]> {
    const { rows } = await this.db.query<PopularItem>(
      `SELECT v.post_id, count(*)::int AS view_count
         FROM post_views v JOIN posts p ON p.id = v.post_id AND p.status = 'visible'
        WHERE v.view_hour >= date_trunc('hour', now() - $1::interval)
        GROUP BY v.post_id
        ORDER BY view_count DESC, v.post_id
        LIMIT $2`,
      [WINDOWS[timeframe], limit],
    );
    return rows;
  }

  async stats() {
    const [totals, decisions, daily, reasons] = await Promise.all([
      this.db.query<{ users: number; posts: number; pending: number }>(
        `SELECT (SELECT count(*)::int FROM lolgram_users) AS users,
                (SELECT count(*)::int FROM posts WHERE status <> 'rejected') AS posts,
                (SELECT count(*)::int FROM moderation_queue WHERE status = 'pending') AS pending`,
      ),
      this.db.query<{
        decision: ModerationDecision;
        moderator: string;
        content_id: string;
        notes: string;
        decided_at: Date;
      }>(
        `SELECT d.decision, u.username AS moderator, q.content_id, d.notes, d.decided_at
           FROM moderation_decisions d
           JOIN moderation_queue q ON q.id = d.queue_id
           JOIN lolgram_users u ON u.id = d.moderator_id
          ORDER BY d.decided_at DESC LIMIT 10`,
      ),
      this.db.query<{ day: string; lols: number; posts: number; follows: number }>(
        `SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
                (SELECT count(*)::int FROM post_lols WHERE created_at >= d.day AND created_at < d.day + interval '1 day') AS lols,
                (SELECT count(*)::int FROM posts WHERE created_at >= d.day AND created_at < d.day + interval '1 day') AS posts,
                (SELECT count(*)::int FROM follows WHERE created_at >= d.day AND created_at < d.day + interval '1 day') AS follows
           FROM generate_series(date_trunc('day', now()) - interval '6 days', date_trunc('day', now()), interval '1 day') AS d(day)
          ORDER BY d.day`,
      ),
      this.db.query<{ reason: string; count: number }>(
        'SELECT reason, count(*)::int AS count FROM post_reports GROUP BY reason ORDER BY count DESC, reason LIMIT 20',
      ),
    ]);
    return {
      users: totals.rows[0].users,
      posts: totals.rows[0].posts,
      pendingModeration: totals.rows[0].pending,
      recentDecisions: decisions.rows.map((d) => ({
        decision: d.decision,
        moderator: d.moderator,
        contentId: d.content_id,
        notes: d.notes,
        decidedAt: d.decided_at.toISOString(),
      })),
      daily: daily.rows,
      reportsByReason: reasons.rows,
    };
  }
}
