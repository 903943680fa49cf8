import type { GameSession, GameUser, LeaderboardCountry, LeaderboardUser } from '@tapgram/shared';
import { messages } from '@tapgram/shared';
import { violates, type Queryable } from '../core/db';
import { ConflictError } from '../core/errors';
import type { BoardStretch } from './ranking';

const USER_COLUMNS = `id, username, country, total_points AS "totalPoints", total_taps AS "totalTaps"`;
const SESSION_COLUMNS = `id, user_id AS "userId", session_points AS "sessionPoints", session_taps AS "sessionTaps"`;

/** A player's signals of one day (epoch day: days since 1970-01-01, UTC), as Redis keeps them. */
export interface DaySignals {
  userId: string;
  day: number;
  taps: number;
  refused: number;
  batches: number;
  sizeMean: number;
  sizeM2: number;
  gapN: number;
  gapMean: number;
  gapM2: number;
  activeMs: number;
  longestMs: number;
  streakStartMs: number | null;
  lastMs: number | null;
}

export interface FlushedTotals {
  users: { id: string; points: number; taps: number }[];
  sessions: { id: string; points: number; taps: number; seq: number }[];
  countries: { country: string; points: number; taps: number }[];
}

/** The columns of DaySignals rows sent as JSON. */
const SIGNAL_COLUMNS = `"userId" uuid, day int, taps bigint, refused bigint, batches int,
  "sizeMean" float8, "sizeM2" float8, "gapN" int, "gapMean" float8, "gapM2" float8,
  "activeMs" bigint, "longestMs" bigint, "streakStartMs" bigint, "lastMs" bigint`;

/** Players off the boards: frozen by an operator. */
const ON_BOARD = 'frozen_at IS NULL';

/** The game's SQL. Both stores write through it; the Postgres store also reads through it. */
export class GameRepository {
  constructor(private readonly db: Queryable) {}

  async insertUser(username: string, country: string, network: string | null): Promise<GameUser> {
    try {
      const { rows } = await this.db.query<GameUser>(
        `INSERT INTO game_users (username, country, network) VALUES ($1, $2, $3)
         RETURNING ${USER_COLUMNS}`,
        [username, country, network],
      );
      return rows[0];
    } catch (error) {
      if (violates(error, 'unique')) {
        throw new ConflictError(messages.usernameTaken);
      }
      throw error;
    }
  }

  async findUser(id: string): Promise<GameUser | null> {
    const { rows } = await this.db.query<GameUser>(
      `SELECT ${USER_COLUMNS} FROM game_users WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  async insertSession(userId: string): Promise<GameSession> {
    const { rows } = await this.db.query<GameSession>(
      `INSERT INTO game_sessions (user_id) VALUES ($1) RETURNING ${SESSION_COLUMNS}`,
      [userId],
    );
    return rows[0];
  }

  /**
   * The session, the number of the last tap batch counted for it, whether its player is frozen,
   * and whether it counted the tap `key` within `keySeconds`.
   */
  async findSessionState(
    id: string,
    key: string | null = null,
    keySeconds = 0,
  ): Promise<{
    session: GameSession;
    lastSeq: number;
    frozen: boolean;
    keyCounted: boolean;
  } | null> {
    const { rows } = await this.db.query<
      GameSession & { lastSeq: number; frozen: boolean; keyCounted: boolean }
    >(
      `SELECT s.id, s.user_id AS "userId", s.session_points AS "sessionPoints",
              s.session_taps AS "sessionTaps", s.last_seq AS "lastSeq",
              u.frozen_at IS NOT NULL AS frozen,
              $2::text IS NOT NULL AND EXISTS (
                SELECT 1 FROM game_tap_keys k
                 WHERE k.session_id = s.id AND k.key = $2
                   AND k.created_at > now() - make_interval(secs => $3)
              ) AS "keyCounted"
         FROM game_sessions s JOIN game_users u ON u.id = s.user_id
        WHERE s.id = $1`,
      [id, key, keySeconds],
    );
    if (!rows[0]) return null;
    const { lastSeq, frozen, keyCounted, ...session } = rows[0];
    return { session, lastSeq, frozen, keyCounted };
  }

  /**
   * Freezes a player with a reason, or unfreezes them: 'changed', 'unchanged' when they already
   * were so, 'missing' for an unknown player.
   */
  async setFrozen(
    userId: string,
    frozen: boolean,
    reason: string,
  ): Promise<'changed' | 'unchanged' | 'missing'> {
    const { rows } = await this.db.query<{ changed: boolean }>(
      `WITH changed AS (
         UPDATE game_users
            SET frozen_at = CASE WHEN $2 THEN now() END,
                frozen_reason = CASE WHEN $2 THEN $3 END
          WHERE id = $1 AND (frozen_at IS NOT NULL) <> $2
          RETURNING id
       )
       SELECT EXISTS (SELECT 1 FROM changed) AS changed FROM game_users WHERE id = $1`,
      [userId, frozen, reason],
    );
    if (!rows[0]) return 'missing';
    return rows[0].changed ? 'changed' : 'unchanged';
  }

  /** The country of each of these players. */
  async countriesOf(ids: string[]): Promise<Map<string, string>> {
    const { rows } = await this.db.query<{ id: string; country: string }>(
      'SELECT id, country FROM game_users WHERE id = ANY($1::uuid[])',
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row.country]));
  }

  async isFrozen(userId: string): Promise<boolean> {
    const { rows } = await this.db.query<{ frozen: boolean }>(
      'SELECT frozen_at IS NOT NULL AS frozen FROM game_users WHERE id = $1',
      [userId],
    );
    return rows[0]?.frozen ?? false;
  }

  /**
   * Adds a batch of taps to the session, its player and the player's country in one statement.
   * A batch numbered `seq` (0: none) counts only above the session's last one, and one with a tap
   * `key` only when the session did not count that key within `keySeconds`; null otherwise.
   * Answers the session's last batch number with the new totals.
   */
  async addTaps(
    userId: string,
    sessionId: string,
    count: number,
    seq: number,
    key: string | null = null,
    keySeconds = 0,
  ): Promise<{ user: GameUser; session: GameSession; lastSeq: number } | null> {
    const { rows } = await this.db.query<{
      user: GameUser;
      session: GameSession;
      lastSeq: number;
    }>(
      // A key counted longer ago than keySeconds (not yet pruned) is taken again.
      `WITH k AS (
         INSERT INTO game_tap_keys AS t (session_id, key)
         SELECT $2, $5 WHERE $5::text IS NOT NULL
         ON CONFLICT (session_id, key) DO UPDATE SET created_at = now()
          WHERE t.created_at <= now() - make_interval(secs => $6)
         RETURNING 1
       ), s AS (
         UPDATE game_sessions
            SET session_points = session_points + $3, session_taps = session_taps + $3,
                last_seq = GREATEST(last_seq, $4), updated_at = now()
          WHERE id = $2 AND user_id = $1 AND ($4::bigint = 0 OR last_seq < $4::bigint)
            AND ($5::text IS NULL OR EXISTS (SELECT 1 FROM k))
          RETURNING ${SESSION_COLUMNS}, last_seq
       ), u AS (
         UPDATE game_users
            SET total_points = total_points + $3, total_taps = total_taps + $3, updated_at = now()
          WHERE id = $1 AND EXISTS (SELECT 1 FROM s)
          RETURNING ${USER_COLUMNS}
       ), c AS (
         INSERT INTO game_countries AS gc (country, total_points, total_taps)
         SELECT country, $3, $3 FROM u
         ON CONFLICT (country) DO UPDATE
            SET total_points = gc.total_points + EXCLUDED.total_points,
                total_taps = gc.total_taps + EXCLUDED.total_taps,
                updated_at = now()
       )
       SELECT row_to_json(u) AS user, s.last_seq AS "lastSeq",
              json_build_object('id', s.id, 'userId', s."userId",
                'sessionPoints', s."sessionPoints", 'sessionTaps', s."sessionTaps") AS session
         FROM u, s`,
      [userId, sessionId, count, seq, key, keySeconds],
    );
    return rows[0] ?? null;
  }

  /** Forgets the tap keys counted more than `seconds` ago. */
  async pruneTapKeys(seconds: number): Promise<void> {
    await this.db.query(
      'DELETE FROM game_tap_keys WHERE created_at <= now() - make_interval(secs => $1)',
      [seconds],
    );
  }

  /**
   * Adds what players' days gained (kept in memory by the single-node store) to their rows: counts
   * add up, the running means and squared deviations merge (the parallel form of Welford's method),
   * the longest streak and the last batch keep the larger.
   */
  async mergeSignals(gains: DaySignals[]): Promise<void> {
    const merged = (n: string, mean: string, m2: string) => `
      ${n} = d.${n} + EXCLUDED.${n},
      ${mean} = CASE WHEN d.${n} + EXCLUDED.${n} = 0 THEN 0
        ELSE d.${mean} + (EXCLUDED.${mean} - d.${mean}) * EXCLUDED.${n} / (d.${n} + EXCLUDED.${n}) END,
      ${m2} = d.${m2} + EXCLUDED.${m2} + CASE WHEN d.${n} + EXCLUDED.${n} = 0 THEN 0
        ELSE (EXCLUDED.${mean} - d.${mean}) ^ 2 * d.${n}::float8 * EXCLUDED.${n}
             / (d.${n} + EXCLUDED.${n}) END`;
    await this.db.query(
      `INSERT INTO game_player_days AS d
              (user_id, day, taps, refused, batches, size_mean, size_m2, gap_n, gap_mean, gap_m2,
               active_ms, longest_ms, streak_start_ms, last_ms)
       SELECT v."userId", date '1970-01-01' + v.day, v.taps, v.refused, v.batches, v."sizeMean",
              v."sizeM2", v."gapN", v."gapMean", v."gapM2", v."activeMs", v."longestMs",
              v."streakStartMs", v."lastMs"
         FROM jsonb_to_recordset($1::jsonb) AS v(${SIGNAL_COLUMNS})
        WHERE EXISTS (SELECT 1 FROM game_users WHERE id = v."userId")
       ON CONFLICT (user_id, day) DO UPDATE SET
         taps = d.taps + EXCLUDED.taps,
         refused = d.refused + EXCLUDED.refused,
         ${merged('batches', 'size_mean', 'size_m2')},
         ${merged('gap_n', 'gap_mean', 'gap_m2')},
         active_ms = d.active_ms + EXCLUDED.active_ms,
         longest_ms = greatest(d.longest_ms, EXCLUDED.longest_ms),
         streak_start_ms = coalesce(EXCLUDED.streak_start_ms, d.streak_start_ms),
         last_ms = greatest(d.last_ms, EXCLUDED.last_ms)`,
      [JSON.stringify(gains)],
    );
  }

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

  /**
   * Writes absolute totals kept elsewhere (Redis), all in one statement: Postgres never holds part
   * of a flush. Totals only grow, so a row is written only when the new total is larger: a retried
   * flush is harmless, and a slow flusher's older figures never overwrite a newer flusher's.
   * Figures of another Redis generation than Postgres follows (read from a Redis since emptied and
   * rebuilt) are not written: false.
   */
  async writeTotals(totals: FlushedTotals, generation: string): Promise<boolean> {
    const { users, sessions, countries } = totals;
    const { rows } = await this.db.query<{ written: boolean }>(
      `WITH gen AS (
         SELECT 1 FROM game_redis_generation WHERE generation = $11::uuid FOR SHARE
       ), users AS (
         UPDATE game_users AS g SET total_points = v.points, total_taps = v.taps, updated_at = now()
           FROM unnest($1::uuid[], $2::bigint[], $3::bigint[]) AS v(id, points, taps)
          WHERE g.id = v.id AND g.total_taps < v.taps AND EXISTS (SELECT 1 FROM gen)
       ), sessions AS (
         UPDATE game_sessions AS g
            SET session_points = v.points, session_taps = v.taps,
                last_seq = GREATEST(g.last_seq, v.seq), updated_at = now()
           FROM unnest($4::uuid[], $5::bigint[], $6::bigint[], $7::bigint[]) AS v(id, points, taps, seq)
          WHERE g.id = v.id AND g.session_taps < v.taps AND EXISTS (SELECT 1 FROM gen)
       ), countries AS (
         INSERT INTO game_countries (country, total_points, total_taps)
         SELECT * FROM unnest($8::char(2)[], $9::bigint[], $10::bigint[])
          WHERE EXISTS (SELECT 1 FROM gen)
         ON CONFLICT (country) DO UPDATE
            SET total_points = EXCLUDED.total_points, total_taps = EXCLUDED.total_taps, updated_at = now()
          WHERE game_countries.total_taps < EXCLUDED.total_taps
       )
       SELECT EXISTS (SELECT 1 FROM gen) AS written`,
      [
        users.map((u) => u.id),
        users.map((u) => u.points),
        users.map((u) => u.taps),
        sessions.map((s) => s.id),
        sessions.map((s) => s.points),
        sessions.map((s) => s.taps),
        sessions.map((s) => s.seq),
        countries.map((c) => c.country),
        countries.map((c) => c.points),
        countries.map((c) => c.taps),
        generation,
      ],
    );
    return rows[0].written;
  }

  async redisGeneration(): Promise<string> {
    const { rows } = await this.db.query<{ generation: string }>(
      'SELECT generation FROM game_redis_generation',
    );
    return rows[0].generation;
  }

  /**
   * Starts a new Redis generation, before an emptied Redis is rebuilt from Postgres. It waits for
   * the flushes of the old generation under way, and any later one is not written.
   */
  async startRedisGeneration(generation: string): Promise<void> {
    await this.db.query('UPDATE game_redis_generation SET generation = $1', [generation]);
  }

  /** Streams every player in pages, for rebuilding an empty Redis. */
  async *allUsers(pageSize = 5000): AsyncGenerator<(GameUser & { frozen: boolean })[]> {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const { rows } = await this.db.query<GameUser & { frozen: boolean }>(
        `SELECT ${USER_COLUMNS}, frozen_at IS NOT NULL AS frozen FROM game_users
          WHERE id > $1 ORDER BY id LIMIT $2`,
        [after, pageSize],
      );
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1].id;
    }
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
