import type { GameUser } from '@tapgram/shared';
import type { Queryable } from '../core/db';
import { USER_COLUMNS } from './repository';

/** A player as a rebuild puts them back: `day` and `dayTaps` are null before their first tap. */
export type RebuiltUser = GameUser & {
  frozen: boolean;
  day: number | null;
  dayTaps: number | null;
};

/**
 * What rebuilding an emptied Redis reads from Postgres, and the Redis generation Postgres follows
 * (game_redis_generation): a flush of figures read from a Redis since emptied is not written.
 */
export class RebuildRepository {
  constructor(private readonly db: Queryable) {}

  async redisGeneration(): Promise<string> {
    const { rows } = await this.db.query<{ generation: string }>(
      'SELECT generation FROM game_redis_generation',
    );
    return rows[0].generation;
  }

  /**
   * The generation Postgres follows, held for the caller's transaction: no Redis is rebuilt (its
   * generation started) until it ends, so what the caller adds to a Redis of this generation is
   * either read by that rebuild's flush or never in a Redis of an older one.
   */
  async heldRedisGeneration(): Promise<string> {
    const { rows } = await this.db.query<{ generation: string }>(
      'SELECT generation FROM game_redis_generation FOR SHARE',
    );
    return rows[0].generation;
  }

  /**
   * Starts a new Redis generation, before an emptied Redis is rebuilt from Postgres. It waits for
   * the flushes of the old generation under way (and a country change under way), and any later
   * one is not written. Answers the number of the last country change, from which the rebuilt
   * Redis counts on.
   */
  async startRedisGeneration(generation: string): Promise<number> {
    const { rows } = await this.db.query<{ moves: number }>(
      `UPDATE game_redis_generation SET generation = $1 RETURNING country_moves::float8 AS moves`,
      [generation],
    );
    return rows[0].moves;
  }

  /**
   * The next country change's number (see GameRepository.moveCountry), in the change's
   * transaction: the generation's row stays locked until it commits, so no flush writes in the
   * meantime and a rebuild that starts reads the change whole. A number taken and not used (the
   * change refused) is harmless: only order matters.
   */
  async nextCountryMove(): Promise<number> {
    const { rows } = await this.db.query<{ moves: number }>(
      `UPDATE game_redis_generation SET country_moves = country_moves + 1
       RETURNING country_moves::float8 AS moves`,
    );
    return rows[0].moves;
  }

  /**
   * Streams every player in pages, for rebuilding an empty Redis, with their taps on the last day
   * they tapped (null: never), from which the day's count goes on.
   */
  async *allUsers(pageSize = 5000): AsyncGenerator<RebuiltUser[]> {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const { rows } = await this.db.query<RebuiltUser>(
        `SELECT ${USER_COLUMNS}, frozen_at IS NOT NULL AS frozen, d.day, d.taps::float8 AS "dayTaps"
           FROM game_users
           LEFT JOIN LATERAL (
             SELECT day, taps FROM game_daily_taps
              WHERE user_id = game_users.id ORDER BY day DESC LIMIT 1
           ) d ON true
          WHERE id > $1 ORDER BY id LIMIT $2`,
        [after, pageSize],
      );
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1].id;
    }
  }

  /** A player's taps on the last day they tapped, as Postgres holds them; null: never. */
  async lastDayTaps(userId: string): Promise<{ day: number; taps: number } | null> {
    const { rows } = await this.db.query<{ day: number; taps: number }>(
      `SELECT day, taps::float8 AS taps FROM game_daily_taps
        WHERE user_id = $1 ORDER BY day DESC LIMIT 1`,
      [userId],
    );
    return rows[0] ?? null;
  }

  async frozenUsers(): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(
      'SELECT id FROM game_users WHERE frozen_at IS NOT NULL',
    );
    return rows.map((row) => row.id);
  }

  /** Streams the players' scores in every season not yet archived, in pages. */
  async *liveSeasonScores(
    pageSize = 5000,
  ): AsyncGenerator<{ season: number; userId: string; points: number }[]> {
    let after = { season: 0, userId: '00000000-0000-0000-0000-000000000000' };
    for (;;) {
      const { rows } = await this.db.query<{ season: number; userId: string; points: number }>(
        `SELECT season, user_id AS "userId", points FROM game_season_scores
          WHERE season >= (SELECT coalesce(next_season, 0) FROM game_season_cursor)
            AND (season, user_id) > ($1, $2::uuid)
          ORDER BY season, user_id LIMIT $3`,
        [after.season, after.userId, pageSize],
      );
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1];
    }
  }

  /**
   * Every country's points in each season not yet archived, frozen players' included: the season
   * boards take those off as they are read.
   */
  async liveSeasonCountries(): Promise<{ season: number; country: string; points: number }[]> {
    const { rows } = await this.db.query<{ season: number; country: string; points: number }>(
      `SELECT s.season, u.country, sum(s.points)::bigint AS points
         FROM game_season_scores s JOIN game_users u ON u.id = s.user_id
        WHERE s.season >= (SELECT coalesce(next_season, 0) FROM game_season_cursor)
        GROUP BY s.season, u.country`,
    );
    return rows;
  }

  async allCountries(): Promise<{ country: string; totalPoints: number; totalTaps: number }[]> {
    const { rows } = await this.db.query<{
      country: string;
      totalPoints: number;
      totalTaps: number;
    }>(
      `SELECT country, total_points AS "totalPoints", total_taps AS "totalTaps" FROM game_countries`,
    );
    return rows;
  }
}
