import type { ModerationDecision, ModerationQueueEntry, ReportReason } from '@tapgram/shared';
import type pg from 'pg';
import type { Queryable } from '../../core/db';
import { imageUrl } from '../../images';

interface PendingRow {
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
}

/** The moderation queue, the reports that feed it, and the decisions of its audit trail, in SQL. */
export class QueueRepository {
  constructor(private readonly db: Queryable) {}

  /** Opens a queue item for a post, or adds to the open one (a reason is added once). */
  async enqueue(
    client: Queryable,
    item: { postId: string; aiScore: number; reason: string; report: boolean },
  ): Promise<void> {
    await client.query(
      `INSERT INTO moderation_queue (content_type, content_id, ai_score, reason, report_count)
       VALUES ('post', $1, $2, $3, $4)
       ON CONFLICT (content_type, content_id) WHERE status = 'pending' DO UPDATE
          SET ai_score = GREATEST(moderation_queue.ai_score, EXCLUDED.ai_score),
              reason = CASE WHEN strpos(moderation_queue.reason, EXCLUDED.reason) > 0
                            THEN moderation_queue.reason
                            ELSE moderation_queue.reason || '; ' || EXCLUDED.reason END,
              report_count = moderation_queue.report_count + EXCLUDED.report_count`,
      [item.postId, item.aiScore.toFixed(3), item.reason, item.report ? 1 : 0],
    );
  }

  /**
   * The reporter's reports in the last hour, counted under a lock on the reporter that lasts until
   * the transaction ends: their parallel reports are counted one after the other.
   */
  async lockReporterAndCount(client: pg.PoolClient, reporterId: string): Promise<number> {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('post-report:' || $1))", [
      reporterId,
    ]);
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM post_reports
        WHERE reporter_id = $1 AND created_at > now() - interval '1 hour'`,
      [reporterId],
    );
    return rows[0].n;
  }

  /** Records a report once per user and post; false when this user already reported it. */
  async addReport(
    client: pg.PoolClient,
    report: { postId: string; reporterId: string; reason: ReportReason; details?: string },
  ): Promise<boolean> {
    const { rowCount } = await client.query(
      `INSERT INTO post_reports (post_id, reporter_id, reason, details) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING`,
      [report.postId, report.reporterId, report.reason, report.details || null],
    );
    return (rowCount ?? 0) > 0;
  }

  async pending(): Promise<ModerationQueueEntry[]> {
    const { rows } = await this.db.query<PendingRow>(
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
   * Records a decision on a pending item once: the row lock makes a second, concurrent decision
   * wait and then find the item decided. Answers the item's content when it was decided now.
   */
  async decide(
    client: pg.PoolClient,
    queueId: string,
    decision: { moderatorId: string; decision: ModerationDecision; notes: string },
  ): Promise<
    | { outcome: 'decided'; contentType: string; contentId: string }
    | { outcome: 'missing' | 'already-decided' }
  > {
    const { rows } = await client.query<{
      status: string;
      content_type: string;
      content_id: string;
    }>('SELECT status, content_type, content_id FROM moderation_queue WHERE id = $1 FOR UPDATE', [
      queueId,
    ]);
    const item = rows[0];
    if (!item) return { outcome: 'missing' };
    if (item.status !== 'pending') return { outcome: 'already-decided' };
    await client.query(
      'INSERT INTO moderation_decisions (queue_id, moderator_id, decision, notes) VALUES ($1, $2, $3, $4)',
      [queueId, decision.moderatorId, decision.decision, decision.notes],
    );
    await client.query(
      'UPDATE moderation_queue SET status = $2, decided_at = now() WHERE id = $1',
      [queueId, decision.decision],
    );
    return { outcome: 'decided', contentType: item.content_type, contentId: item.content_id };
  }

  /**
   * Withdraws the undecided items of content that is gone (its author deleted it): there is
   * nothing left to decide. Decided items stay, with their audit.
   */
  async dropPending(contentType: string, contentId: string): Promise<void> {
    await this.db.query(
      `DELETE FROM moderation_queue
        WHERE content_type = $1 AND content_id = $2 AND status = 'pending'`,
      [contentType, contentId],
    );
  }
}
