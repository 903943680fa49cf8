import type { StreakClaim } from '@tapgram/shared';
import { dayDate } from '@tapgram/shared';
import type { Queryable } from '../../core/db';
import type { DayTaps } from '../store';

/**
 * What the streak reads: a player's daily tap counts and their check-in bonuses. The tap
 * statement and the flush write the counts, and the bonus statement the claims (GameRepository,
 * the one writer of the players' counters).
 */
export class StreakRepository {
  constructor(private readonly db: Queryable) {}

  /** The days that hold at least `dailyTaps` taps, and every day from `since` whatever it holds. */
  async days(userId: string, dailyTaps: number, since: number): Promise<DayTaps[]> {
    const { rows } = await this.db.query<DayTaps>(
      `SELECT day, taps::float8 AS taps FROM game_daily_taps
        WHERE user_id = $1 AND (taps >= $2 OR day >= $3) ORDER BY day`,
      [userId, dailyTaps, since],
    );
    return rows;
  }

  /** The player's last `limit` bonuses, newest first. */
  async claims(userId: string, limit: number): Promise<StreakClaim[]> {
    const { rows } = await this.db.query<{
      day: number;
      streak: number;
      points: number;
      claimedAt: Date;
    }>(
      `SELECT day, streak, points::float8 AS points, claimed_at AS "claimedAt"
         FROM game_streak_claims WHERE user_id = $1 ORDER BY day DESC LIMIT $2`,
      [userId, limit],
    );
    return rows.map((row) => ({
      day: dayDate(row.day),
      streak: row.streak,
      points: row.points,
      claimedAt: row.claimedAt.toISOString(),
    }));
  }
}

/** The reads the streak's rules need (the repository above, or one in memory in tests). */
export type StreakReads = Pick<StreakRepository, 'days' | 'claims'>;
