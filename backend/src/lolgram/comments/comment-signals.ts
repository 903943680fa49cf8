import { COMMENT_SIGNAL_DAYS, type CommentSignal } from '@tapgram/shared';
import type { Queryable } from '../../core/db';
import type { Logger } from '../../core/logger';

/** Accounts listed at most. */
const LISTED = 100;
/**
 * Comments deleted soon after writing them that list an account without a wave: one or two are
 * someone mending a typo.
 */
const DELETED_SOON_LISTED = 3;

/**
 * The comment-wave signals on accounts (comment_signals): what operators see of a wave that a
 * post's comment limit refused, and of comments deleted soon after writing them (the way to take
 * a post's places again and again). Written only when either happens, never on the plain path.
 */
export class CommentSignalsRepository {
  constructor(private readonly db: Queryable) {}

  /** Its author deleted a comment on `postId` within the post limit's window. */
  async deletedSoon(userId: string, postId: string): Promise<void> {
    await this.db.query(
      `INSERT INTO comment_signals (user_id, post_id, deleted_soon) VALUES ($1, $2, 1)
       ON CONFLICT (user_id, post_id)
       DO UPDATE SET deleted_soon = comment_signals.deleted_soon + 1, last_at = now()`,
      [userId, postId],
    );
  }

  /**
   * A post's limit refused a comment: every account whose comments on it count against that limit
   * in the window (not the post's author nor those the author follows; deleted comments by the
   * signals they left) took part in a wave, counted once a window.
   */
  async wave(postId: string, postAuthorId: string, windowMs: number): Promise<void> {
    await this.db.query(
      `WITH since AS (SELECT now() - make_interval(secs => $3::float8 / 1000) AS at),
       counted AS (
         SELECT c.user_id FROM post_comments c, since
          WHERE c.post_id = $1 AND c.created_at > since.at
         UNION
         SELECT s.user_id FROM comment_signals s, since
          WHERE s.post_id = $1 AND s.deleted_soon > 0 AND s.last_at > since.at
       )
       INSERT INTO comment_signals AS s (user_id, post_id, waves, last_wave_at)
       SELECT counted.user_id, $1, 1, now() FROM counted
        WHERE counted.user_id <> $2
          AND NOT EXISTS (SELECT 1 FROM follows f
                           WHERE f.follower_id = $2 AND f.following_id = counted.user_id)
       ON CONFLICT (user_id, post_id) DO UPDATE
          SET waves = s.waves + 1, last_wave_at = now(), last_at = now()
        WHERE s.last_wave_at IS NULL OR s.last_wave_at <= (SELECT at FROM since)`,
      [postId, postAuthorId, windowMs],
    );
  }

  /**
   * The accounts with signals in the last COMMENT_SIGNAL_DAYS days (a wave, or DELETED_SOON_LISTED
   * comments deleted soon), the latest first.
   */
  async recent(): Promise<CommentSignal[]> {
    const { rows } = await this.db.query<{
      id: string;
      username: string;
      created_at: Date;
      waves: number;
      deleted_soon: number;
      posts: number;
      last_at: Date;
    }>(
      `SELECT u.id, u.username, u.created_at, SUM(s.waves)::int AS waves,
              SUM(s.deleted_soon)::int AS deleted_soon, COUNT(*)::int AS posts,
              MAX(s.last_at) AS last_at
         FROM comment_signals s JOIN lolgram_users u ON u.id = s.user_id
        WHERE s.last_at > now() - make_interval(days => $1)
        GROUP BY u.id
       HAVING SUM(s.waves) > 0 OR SUM(s.deleted_soon) >= $3
        ORDER BY MAX(s.last_at) DESC, u.id
        LIMIT $2`,
      [COMMENT_SIGNAL_DAYS, LISTED, DELETED_SOON_LISTED],
    );
    return rows.map((row) => ({
      user: { id: row.id, username: row.username, createdAt: row.created_at.toISOString() },
      waves: row.waves,
      deletedSoon: row.deleted_soon,
      posts: row.posts,
      lastAt: row.last_at.toISOString(),
    }));
  }
}

/** What the comments service tells of a wave; a signal that cannot be written never fails it. */
export interface CommentSignals {
  /** A post's own limit refused a comment on `postId` (by `postAuthorId`). */
  refusedOnPost(postId: string, postAuthorId: string): Promise<void>;
  /** `userId` deleted their comment on `postId` within the post limit's window. */
  deletedSoon(userId: string, postId: string): Promise<void>;
}

/** The signals in comment_signals and the refusals in a metric; a failed write is logged. */
export function commentSignals(deps: {
  repo: CommentSignalsRepository;
  windowMs: number;
  onRefused: () => void;
  logger: Logger;
}): CommentSignals {
  const kept = async (write: Promise<void>) => {
    try {
      await write;
    } catch (err) {
      deps.logger.error({ err }, 'comment wave signal not written');
    }
  };
  return {
    refusedOnPost: (postId, postAuthorId) => {
      deps.onRefused();
      return kept(deps.repo.wave(postId, postAuthorId, deps.windowMs));
    },
    deletedSoon: (userId, postId) => kept(deps.repo.deletedSoon(userId, postId)),
  };
}
