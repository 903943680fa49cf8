import type { LeaderboardCountry, LeaderboardUser } from '@tapgram/shared';
import type { Queryable } from '../core/db';
import type { BoardStretch } from './ranking';
import type { BoardKey } from './store';

/** Players off the boards: frozen by an operator. */
const ON_BOARD = 'frozen_at IS NULL';

/** The boards as Postgres holds them: what the Postgres store serves, and what Redis falls back on. */
export class BoardsRepository {
  constructor(private readonly db: Queryable) {}

  async rankOf(points: number): Promise<number> {
    const { rows } = await this.db.query<{ above: number }>(
      `SELECT count(*)::int AS above FROM game_users WHERE total_points > $1 AND ${ON_BOARD}`,
      [points],
    );
    return rows[0].above + 1;
  }

  async topUsers(limit: number): Promise<LeaderboardUser[]> {
    const { rows } = await this.db.query<LeaderboardUser>(
      `SELECT id, username, total_points AS "totalPoints" FROM game_users WHERE ${ON_BOARD}
        ORDER BY total_points DESC, id DESC LIMIT $1`,
      [limit],
    );
    return rows;
  }

  /** `count` players of the board from position `start` (0: the top). */
  async board(start: number, count: number): Promise<LeaderboardUser[]> {
    const { rows } = await this.db.query<LeaderboardUser>(
      `SELECT id, username, total_points AS "totalPoints" FROM game_users WHERE ${ON_BOARD}
        ORDER BY total_points DESC, id DESC OFFSET $1 LIMIT $2`,
      [start, count],
    );
    return rows;
  }

  /**
   * The player and up to `span` players either side of them, in board order, with the board
   * position and the rank (SQL's rank(): 1 + the players with more points) of the first one.
   */
  async around(userId: string, span: number): Promise<BoardStretch | null> {
    const { rows } = await this.db.query<LeaderboardUser & { position: number; rank: number }>(
      `WITH board AS (
         SELECT id, username, total_points,
                row_number() OVER (ORDER BY total_points DESC, id DESC) AS position,
                rank() OVER (ORDER BY total_points DESC) AS rank
           FROM game_users WHERE ${ON_BOARD}
       ), player AS (
         SELECT position FROM board WHERE id = $1
       )
       SELECT board.id, board.username, board.total_points AS "totalPoints",
              board.position::int AS position, board.rank::int AS rank
         FROM board, player
        WHERE board.position BETWEEN player.position - $2 AND player.position + $2
        ORDER BY board.position`,
      [userId, span],
    );
    if (rows.length === 0) return null;
    return {
      start: rows[0].position - 1,
      firstRank: rows[0].rank,
      entries: rows.map(({ id, username, totalPoints }) => ({ id, username, totalPoints })),
    };
  }

  async topCountries(): Promise<LeaderboardCountry[]> {
    const { rows } = await this.db.query<LeaderboardCountry>(
      `SELECT c.country, c.total_points - coalesce(f.points, 0) AS "totalPoints"
         FROM game_countries c
         LEFT JOIN (SELECT country, sum(total_points)::bigint AS points FROM game_users
                     WHERE frozen_at IS NOT NULL GROUP BY country) f USING (country)
        WHERE c.total_points - coalesce(f.points, 0) > 0
        ORDER BY 2 DESC, c.country DESC`,
    );
    return rows;
  }

  /** The top of a season's board (game_season_scores), frozen players left out. */
  async seasonTopUsers(season: number, limit: number): Promise<LeaderboardUser[]> {
    const { rows } = await this.db.query<LeaderboardUser>(
      `SELECT u.id, u.username, s.points AS "totalPoints"
         FROM game_season_scores s JOIN game_users u ON u.id = s.user_id
        WHERE s.season = $1 AND s.points > 0 AND u.${ON_BOARD}
        ORDER BY s.points DESC, s.user_id DESC LIMIT $2`,
      [season, limit],
    );
    return rows;
  }

  /** Every country's points in a season, frozen players' left out. */
  async seasonCountries(season: number): Promise<LeaderboardCountry[]> {
    const { rows } = await this.db.query<LeaderboardCountry>(
      `SELECT u.country, sum(s.points)::bigint AS "totalPoints"
         FROM game_season_scores s JOIN game_users u ON u.id = s.user_id
        WHERE s.season = $1 AND u.${ON_BOARD}
        GROUP BY u.country HAVING sum(s.points) > 0
        ORDER BY 2 DESC, u.country DESC`,
      [season],
    );
    return rows;
  }

  /** A player's points in a season and rank there (null: frozen); null for an unknown player. */
  async seasonStanding(
    season: number,
    userId: string,
  ): Promise<{ rank: number | null; points: number } | null> {
    const { rows } = await this.db.query<{ rank: number | null; points: number }>(
      `WITH me AS (
         SELECT u.frozen_at IS NOT NULL AS frozen, coalesce(s.points, 0) AS points
           FROM game_users u
           LEFT JOIN game_season_scores s ON s.user_id = u.id AND s.season = $1
          WHERE u.id = $2
       )
       SELECT CASE WHEN me.frozen THEN NULL ELSE 1 + (
                SELECT count(*)::int FROM game_season_scores o JOIN game_users u ON u.id = o.user_id
                 WHERE o.season = $1 AND o.points > me.points AND u.${ON_BOARD}) END AS rank,
              me.points
         FROM me`,
      [season, userId],
    );
    return rows[0] ?? null;
  }

  /** The points on a board of each of these players; frozen and unknown players left out. */
  async scores(board: BoardKey, userIds: string[]): Promise<Map<string, number>> {
    const { rows } = await this.db.query<{ id: string; points: number }>(
      board === 'all'
        ? `SELECT id, total_points AS points FROM game_users
            WHERE id = ANY($1::uuid[]) AND ${ON_BOARD}`
        : `SELECT u.id, coalesce(s.points, 0) AS points FROM game_users u
             LEFT JOIN game_season_scores s ON s.user_id = u.id AND s.season = $2
            WHERE u.id = ANY($1::uuid[]) AND u.${ON_BOARD}`,
      board === 'all' ? [userIds] : [userIds, board],
    );
    return new Map(rows.map((row) => [row.id, row.points]));
  }

  async usersOver(points: number): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM game_users WHERE total_points >= $1 AND ${ON_BOARD}`,
      [points],
    );
    return rows[0].n;
  }
}
