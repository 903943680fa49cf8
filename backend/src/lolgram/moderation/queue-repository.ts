import type { ModeratedContentType, ModerationDecision, ReportReason } from '@tapgram/shared';
import type pg from 'pg';
import type { Queryable } from '../../core/db';

/** A pending item, before its content type's adapter adds what the dashboard shows of it. */
export interface PendingItem {
  id: string;
  contentType: ModeratedContentType;
  contentId: string;
  aiScore: string;
  reason: string;
  createdAt: string;
  reportCount: number;
}

interface PendingRow {
  id: string;
  content_type: ModeratedContentType;
  content_id: string;
  ai_score: string;
  reason: string;
  created_at: Date;
  report_count: number;
}

/** The moderation queue, the reports that feed it, and the decisions of its audit trail, in SQL. */
export class QueueRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Opens a queue item for a piece of content, or adds to the open one (a reason is added once);
   * answers the item's id.
   */
  async enqueue(
    client: Queryable,
    item: {
      contentType: ModeratedContentType;
      contentId: string;
      aiScore: number;
      reason: string;
      report: boolean;
    },
  ): Promise<string> {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO moderation_queue (content_type, content_id, ai_score, reason, report_count)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (content_type, content_id) WHERE status = 'pending' DO UPDATE
          SET ai_score = GREATEST(moderation_queue.ai_score, EXCLUDED.ai_score),
              reason = CASE WHEN strpos(moderation_queue.reason, EXCLUDED.reason) > 0
                            THEN moderation_queue.reason
                            ELSE moderation_queue.reason || '; ' || EXCLUDED.reason END,
              report_count = moderation_queue.report_count + EXCLUDED.report_count
       RETURNING id`,
      [item.contentType, item.contentId, item.aiScore.toFixed(3), item.reason, item.report ? 1 : 0],
    );
    return rows[0].id;
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
      `SELECT count(*)::int AS n FROM content_reports
        WHERE reporter_id = $1 AND created_at > now() - interval '1 hour'`,
      [reporterId],
    );
    return rows[0].n;
  }

  /**
   * Records a report once per user and piece of content, with the queue item it joined; false
   * when this user already reported it.
   */
  async addReport(
    client: pg.PoolClient,
    report: {
      contentType: ModeratedContentType;
      contentId: string;
      reporterId: string;
      reason: ReportReason;
      details?: string;
      queueId: string;
    },
  ): Promise<boolean> {
    const { rowCount } = await client.query(
      `INSERT INTO content_reports (content_type, content_id, reporter_id, reason, details, queue_id)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      [
        report.contentType,
        report.contentId,
        report.reporterId,
        report.reason,
        report.details || null,
        report.queueId,
      ],
    );
    return (rowCount ?? 0) > 0;
  }

  /** The users whose reports a queue item gathered. */
  async reporters(client: Queryable, queueId: string): Promise<string[]> {
    const { rows } = await client.query<{ reporter_id: string }>(
      `SELECT reporter_id FROM content_reports WHERE queue_id = $1
        ORDER BY created_at, reporter_id`,
      [queueId],
    );
    return rows.map((row) => row.reporter_id);
  }

  /** The pending items, oldest first. */
  async pending(): Promise<PendingItem[]> {
    const { rows } = await this.db.query<PendingRow>(
      `SELECT id, content_type, content_id, ai_score::text, reason, created_at, report_count
         FROM moderation_queue
        WHERE status = 'pending'
        ORDER BY created_at, id`,
    );
    return rows.map((row) => ({
      id: row.id,
      contentType: row.content_type,
      contentId: row.content_id,
      aiScore: row.ai_score,
      reason: row.reason,
      createdAt: row.created_at.toISOString(),
      reportCount: row.report_count,
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
    | { outcome: 'decided'; contentType: ModeratedContentType; contentId: string }
    | { outcome: 'missing' | 'already-decided' }
  > {
    const { rows } = await client.query<{
      status: string;
      content_type: ModeratedContentType;
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

  /** Withdraws the undecided comment items whose comments are gone (their post was deleted). */
  async dropPendingOfGoneComments(): Promise<void> {
    await this.db.query(
      `DELETE FROM moderation_queue q
        WHERE q.content_type = 'comment' AND q.status = 'pending'
          AND NOT EXISTS (SELECT 1 FROM post_comments c WHERE c.id = q.content_id)`,
    );
  }

  /**
   * Withdraws the undecided items of content that is gone (its author deleted it): there is
   * nothing left to decide. Decided items stay, with their audit.
   */
  async dropPending(
    contentType: string,
    contentId: string,
    client: Queryable = this.db,
  ): Promise<void> {
    await client.query(
      `DELETE FROM moderation_queue
        WHERE content_type = $1 AND content_id = $2 AND status = 'pending'`,
      [contentType, contentId],
    );
  }
}
