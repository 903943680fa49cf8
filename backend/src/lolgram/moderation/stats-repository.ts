import type { AdminStats, ModerationDecision, PopularItem } from '@tapgram/shared';
import type { Queryable } from '../../core/db';

const WINDOWS = { day: '1 day', week: '7 days', month: '30 days' } as const;

/** The dashboard's figures and the popular-posts analytics, in SQL. Posts count when visible. */
export class StatsRepository {
  constructor(private readonly db: Queryable) {}

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

  async stats(): Promise<Omit<AdminStats, 'health'>> {
    const [totals, decisions, daily, reasons] = await Promise.all([
      this.db.query<{ users: number; posts: number; pending: number }>(
        `SELECT (SELECT count(*)::int FROM lolgram_users) AS users,
                (SELECT count(*)::int FROM posts WHERE status = 'visible') AS posts,
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
                (SELECT count(*)::int FROM posts WHERE status = 'visible' AND created_at >= d.day AND created_at < d.day + interval '1 day') AS posts,
                (SELECT count(*)::int FROM follows WHERE created_at >= d.day AND created_at < d.day + interval '1 day') AS follows
           FROM generate_series(date_trunc('day', now()) - interval '6 days', date_trunc('day', now()), interval '1 day') AS d(day)
          ORDER BY d.day`,
      ),
      this.db.query<{ reason: string; count: number }>(
        `SELECT reason, count(*)::int AS count
           FROM content_reports
          GROUP BY reason ORDER BY count DESC, reason LIMIT 20`,
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
