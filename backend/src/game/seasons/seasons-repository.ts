import type { LeaderboardCountry, LeaderboardUser } from '@tapgram/shared';
import type pg from 'pg';
import { withTransaction, type Queryable } from '../../core/db';
import type { SeasonScore } from '../store';

/** An archived season as Postgres keeps it. */
export interface ArchivedSeason {
  id: number;
  startsAt: Date;
  endsAt: Date;
  players: number;
  points: number;
  winner: { id: string; username: string; points: number } | null;
}

/** A player's result in an archived season. */
export interface SeasonResult {
  season: number;
  points: number;
  /** Null: the player was frozen as the season was archived. */
  rank: number | null;
}

/** Players off the boards: frozen by an operator. */
const ON_BOARD = 'u.frozen_at IS NULL';

/**
 * The archived seasons: which season comes next, the archive itself (final ranks, the season's
 * row, its countries), and the reads of past seasons. It alone writes game_seasons,
 * game_season_countries, the cursor and the final ranks.
 */
export class SeasonsRepository {
  constructor(private readonly db: Queryable) {}

  /** The next season to archive; null before the first start that knows seasons. */
  async nextToArchive(): Promise<number | null> {
    const { rows } = await this.db.query<{ next: number | null }>(
      'SELECT next_season AS next FROM game_season_cursor',
    );
    return rows[0].next;
  }

  /** At the first start: archiving starts with `season`, the one running. Answers the cursor. */
  async startArchiving(season: number): Promise<number> {
    const { rows } = await this.db.query<{ next: number }>(
      `UPDATE game_season_cursor SET next_season = coalesce(next_season, $1)
       RETURNING next_season AS next`,
      [season],
    );
    return rows[0].next;
  }

  /**
   * Archives `season` once, in one transaction: false when it is not the next to archive (another
   * process did it). It holds the cursor, then the season scores against every writer (a tap
   * statement under way finishes first; one that waits reads the time after this one, and counts
   * in the next season), writes `finals` when the store kept them apart (Redis), ranks the
   * players who are not frozen, and records the season and its countries. A process that dies
   * half-way leaves nothing: the next attempt starts over.
   */
  archive(
    pool: pg.Pool,
    season: { id: number; startsAt: number; endsAt: number },
    finals: AsyncIterable<SeasonScore[]> | null,
  ): Promise<boolean> {
    return withTransaction(pool, async (client) => {
      const { rows } = await client.query<{ next: number | null }>(
        'SELECT next_season AS next FROM game_season_cursor FOR UPDATE',
      );
      if (rows[0].next !== season.id) return false;
      await client.query('LOCK TABLE game_season_scores IN SHARE ROW EXCLUSIVE MODE');
      if (finals) {
        for await (const page of finals) {
          await client.query(
            `INSERT INTO game_season_scores AS g (season, user_id, points)
             SELECT $1, v.user_id, v.points
               FROM unnest($2::uuid[], $3::bigint[]) AS v(user_id, points)
               JOIN game_users u ON u.id = v.user_id
             ON CONFLICT (season, user_id) DO UPDATE SET points = EXCLUDED.points
              WHERE g.points < EXCLUDED.points`,
            [season.id, page.map((s) => s.userId), page.map((s) => s.points)],
          );
        }
      }
      await client.query(
        `UPDATE game_season_scores s SET final_rank = r.rank
           FROM (SELECT s.user_id, rank() OVER (ORDER BY s.points DESC)::int AS rank
                   FROM game_season_scores s JOIN game_users u ON u.id = s.user_id
                  WHERE s.season = $1 AND s.points > 0 AND ${ON_BOARD}) r
          WHERE s.season = $1 AND s.user_id = r.user_id`,
        [season.id],
      );
      await client.query(
        `INSERT INTO game_seasons (id, starts_at, ends_at, players, points)
         SELECT $1, to_timestamp($2 / 1000.0), to_timestamp($3 / 1000.0), count(*),
                coalesce(sum(points), 0)
           FROM game_season_scores WHERE season = $1 AND final_rank IS NOT NULL`,
        [season.id, season.startsAt, season.endsAt],
      );
      await client.query(
        `INSERT INTO game_season_countries (season, country, points, rank)
         SELECT $1, u.country, sum(s.points),
                rank() OVER (ORDER BY sum(s.points) DESC)::int
           FROM game_season_scores s JOIN game_users u ON u.id = s.user_id
          WHERE s.season = $1 AND s.final_rank IS NOT NULL
          GROUP BY u.country`,
        [season.id],
      );
      await client.query('UPDATE game_season_cursor SET next_season = $1', [season.id + 1]);
      return true;
    });
  }

  /** Archived seasons, newest first, before season `before` (all when absent). */
  async archived(limit: number, before?: number): Promise<ArchivedSeason[]> {
    const { rows } = await this.db.query<ArchivedSeason>(
      `SELECT g.id, g.starts_at AS "startsAt", g.ends_at AS "endsAt", g.players, g.points,
              (SELECT json_build_object('id', u.id, 'username', u.username, 'points', s.points)
                 FROM game_season_scores s JOIN game_users u ON u.id = s.user_id
                WHERE s.season = g.id AND s.final_rank = 1
                ORDER BY s.user_id DESC LIMIT 1) AS winner
         FROM game_seasons g
        WHERE $2::int IS NULL OR g.id < $2
        ORDER BY g.id DESC LIMIT $1`,
      [limit, before ?? null],
    );
    return rows;
  }

  async findArchived(id: number): Promise<ArchivedSeason | null> {
    const [season] = await this.archived(1, id + 1);
    return season?.id === id ? season : null;
  }

  /** An archived season's final board: its ranked players, best first. */
  async finalUsers(season: number, limit: number): Promise<(LeaderboardUser & { rank: number })[]> {
    const { rows } = await this.db.query<LeaderboardUser & { rank: number }>(
      `SELECT u.id, u.username, s.points AS "totalPoints", s.final_rank AS rank
         FROM game_season_scores s JOIN game_users u ON u.id = s.user_id
        WHERE s.season = $1 AND s.final_rank IS NOT NULL
        ORDER BY s.final_rank, s.user_id DESC LIMIT $2`,
      [season, limit],
    );
    return rows;
  }

  async finalCountries(season: number): Promise<LeaderboardCountry[]> {
    const { rows } = await this.db.query<LeaderboardCountry>(
      `SELECT country, points AS "totalPoints" FROM game_season_countries
        WHERE season = $1 ORDER BY rank, country DESC`,
      [season],
    );
    return rows;
  }

  /** A player's results in archived seasons, newest first. */
  async results(userId: string, limit: number): Promise<SeasonResult[]> {
    const { rows } = await this.db.query<SeasonResult>(
      `SELECT s.season, s.points, s.final_rank AS rank
         FROM game_season_scores s JOIN game_seasons g ON g.id = s.season
        WHERE s.user_id = $1 AND s.points > 0
        ORDER BY s.season DESC LIMIT $2`,
      [userId, limit],
    );
    return rows;
  }
}
