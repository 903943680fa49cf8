import type { LeaderboardCountry, LeaderboardUser } from '@tapgram/shared';
import type { Queryable } from '../core/db';
import type { BoardStretch } from './ranking';

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

  async usersOver(points: number): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM game_users WHERE total_points >= $1 AND ${ON_BOARD}`,
      [points],
    );
    return rows[0].n;
  }
}
