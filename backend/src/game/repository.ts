import type { GameSession, GameUser, SeasonCalendar } from '@tapgram/shared';
import { messages } from '@tapgram/shared';
import { violates, type Queryable } from '../core/db';
import { ConflictError } from '../core/errors';

export const USER_COLUMNS = `id, username, country, total_points AS "totalPoints", total_taps AS "totalTaps"`;
export const SESSION_COLUMNS = `id, user_id AS "userId", session_points AS "sessionPoints", session_taps AS "sessionTaps"`;

export interface FlushedTotals {
  /** With each player's taps on the days Redis holds (today, and the day they tapped before). */
  users: { id: string; points: number; taps: number; days: { day: number; taps: number }[] }[];
  sessions: { id: string; points: number; taps: number; seq: number }[];
  countries: { country: string; points: number; taps: number }[];
  /** Players' points in each season Redis holds. */
  seasons: { season: number; id: string; points: number }[];
  /** The number of the last country change these figures include (see moveCountry). */
  moves: number;
}

/** A player as a country change finds them, their row locked until the change commits. */
export interface PlayerForCountryChange {
  country: string;
  totalPoints: number;
  totalTaps: number;
  frozen: boolean;
  /** When they last changed their country (null: never since the welcome dialog). */
  changedAt: Date | null;
  /** Postgres's clock in the change's transaction: every node measures the wait by it. */
  now: Date;
}

/** A country change to write (see `moveCountry`). */
export interface CountryMove {
  userId: string;
  from: string;
  to: string;
  /** The player's points and taps as Postgres holds them. */
  points: number;
  taps: number;
  /** The change's number with Redis (RebuildRepository.nextCountryMove); null on Postgres alone. */
  moves: number | null;
}

/** A batch of taps as Postgres counts it (see `addTaps`). */
export interface TapsToAdd {
  userId: string;
  sessionId: string;
  count: number;
  /** The batch's number in its session (0: none). */
  seq: number;
  /** The highest number its client holds an answer for (0: none): above the last, it is lost. */
  after: number;
  /** Its tap key (null: none), counted once within `keySeconds`. */
  key: string | null;
  keySeconds: number;
  /** Which season the taps go to, by Postgres's clock as the statement runs. */
  calendar: SeasonCalendar;
}

/**
 * The season running by Postgres's clock at the moment the statement reads it (clock_timestamp(),
 * not the transaction's start): a statement that waited for the archive's lock on the season
 * scores reads a time after it, so it never adds to a season already archived. Parameters: the
 * calendar's start and length (epoch ms).
 */
const seasonNowSql = (start: string, length: string) =>
  `floor((extract(epoch FROM clock_timestamp()) * 1000 - ${start}) / ${length})::int + 1`;

/** The UTC day (days since 1970-01-01) by Postgres's clock as the statement reads it. */
const dayNowSql = `floor(extract(epoch FROM clock_timestamp()) / 86400)::int`;

/** A check-in bonus to add (see `addBonus`). */
export interface BonusToAdd {
  userId: string;
  /** The UTC day it is claimed for. */
  day: number;
  streak: number;
  points: number;
  /** False when another store (Redis) adds the points, and the flush carries them here. */
  addPoints: boolean;
  calendar: SeasonCalendar;
}

export type BonusAdded =
  | { kind: 'claimed'; user: GameUser | null }
  /** `points`: those of the claim already made, when this statement could see it. */
  | { kind: 'already'; points: number | null }
  | { kind: 'frozen' }
  | { kind: 'missing' };

/**
 * The players, their sessions and their counters (players, sessions, countries, tap keys): the
 * one repository that writes them, through a batch of taps (Postgres mode) or a flush (Redis mode).
 */
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

  /** Which of these names players hold already, in lower case (names are unique ignoring case). */
  async takenUsernames(names: string[]): Promise<Set<string>> {
    const { rows } = await this.db.query<{ name: string }>(
      `SELECT lower(username) AS name FROM game_users WHERE lower(username) = ANY($1::text[])`,
      [names.map((name) => name.toLowerCase())],
    );
    return new Set(rows.map((row) => row.name));
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

  /** The session's player and when it started (epoch ms); null for an unknown session. */
  async sessionStart(id: string): Promise<{ userId: string; startedAt: number } | null> {
    const { rows } = await this.db.query<{ userId: string; startedAt: Date }>(
      `SELECT user_id AS "userId", created_at AS "startedAt" FROM game_sessions WHERE id = $1`,
      [id],
    );
    return rows[0] ? { userId: rows[0].userId, startedAt: rows[0].startedAt.getTime() } : null;
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

  /** The player a country change is about, their row locked (FOR UPDATE) until it commits. */
  async lockForCountryChange(userId: string): Promise<PlayerForCountryChange | null> {
    const { rows } = await this.db.query<PlayerForCountryChange>(
      `SELECT country, total_points::float8 AS "totalPoints", total_taps::float8 AS "totalTaps",
              frozen_at IS NOT NULL AS frozen, country_changed_at AS "changedAt", now() AS now
         FROM game_users WHERE id = $1 FOR UPDATE`,
      [userId],
    );
    return rows[0] ?? null;
  }

  /**
   * Moves the player to another country with the points and taps Postgres holds of them: off the
   * old country's totals, onto the new one's, and records when. In the transaction that locked
   * the player's row, so a tap statement waits for it and counts for the country it then finds.
   * A season's countries are read through the players' countries (the running seasons follow at
   * once; an archived season keeps its own rows). With Redis, both rows take the change's number:
   * a flush of figures taken before it no longer writes them, the first after it does.
   */
  async moveCountry({ userId, from, to, points, taps, moves }: CountryMove): Promise<void> {
    await this.db.query(
      `WITH u AS (
         UPDATE game_users SET country = $3::text, country_changed_at = now(), updated_at = now()
          WHERE id = $1 RETURNING id
       ), old AS (
         UPDATE game_countries
            SET total_points = GREATEST(0, total_points - $4::bigint),
                total_taps = GREATEST(0, total_taps - $5::bigint),
                moves = GREATEST(moves, coalesce($6::bigint, 0)), updated_at = now()
          WHERE country = $2::text AND EXISTS (SELECT 1 FROM u)
       )
       INSERT INTO game_countries AS gc (country, total_points, total_taps, moves)
       SELECT $3::text, $4::bigint, $5::bigint, coalesce($6::bigint, 0) FROM u
       ON CONFLICT (country) DO UPDATE
          SET total_points = gc.total_points + EXCLUDED.total_points,
              total_taps = gc.total_taps + EXCLUDED.total_taps,
              moves = GREATEST(gc.moves, EXCLUDED.moves), updated_at = now()`,
      [userId, from, to, points, taps, moves],
    );
  }

  async isFrozen(userId: string): Promise<boolean> {
    const { rows } = await this.db.query<{ frozen: boolean }>(
      'SELECT frozen_at IS NOT NULL AS frozen FROM game_users WHERE id = $1',
      [userId],
    );
    return rows[0]?.frozen ?? false;
  }

  /**
   * Adds a batch of taps to the session, its player, the player's country and the player's score
   * in the running season in one statement, when it counts: the session is the player's, the
   * player is not frozen, a batch numbered `seq` (0: none) is above the session's last one and its
   * client holds no answer above that one (`after`), and a tap `key` was not counted by the
   * session within `keySeconds`. Null when it does not count (the caller reads why). Answers the
   * session's last batch number with the new totals.
   */
  async addTaps({
    userId,
    sessionId,
    count,
    seq,
    after,
    key,
    keySeconds,
    calendar,
  }: TapsToAdd): Promise<{ user: GameUser; session: GameSession; lastSeq: number } | null> {
    const { rows } = await this.db.query<{
      user: GameUser;
      session: GameSession;
      lastSeq: number;
    }>({
      // Prepared once per connection: parsing and planning it for every batch cost about a
      // quarter of a tap's CPU on the embedded database.
      name: 'game-add-taps',
      // The key is taken only for a batch that counts otherwise; a key counted longer ago than
      // keySeconds (not yet pruned) is taken again. The session's row lock settles concurrent
      // re-sends of one number: the second finds the number taken.
      text: `WITH ok AS (
         SELECT 1 FROM game_sessions s JOIN game_users u ON u.id = s.user_id
          WHERE s.id = $2 AND s.user_id = $1 AND u.frozen_at IS NULL
            AND ($4::bigint = 0 OR (s.last_seq < $4::bigint AND s.last_seq >= $9::bigint))
       ), k AS (
         INSERT INTO game_tap_keys AS t (session_id, key)
         SELECT $2, $5 WHERE $5::text IS NOT NULL AND EXISTS (SELECT 1 FROM ok)
         ON CONFLICT (session_id, key) DO UPDATE SET created_at = now()
          WHERE t.created_at <= now() - make_interval(secs => $6)
         RETURNING 1
       ), s AS (
         UPDATE game_sessions
            SET session_points = session_points + $3, session_taps = session_taps + $3,
                last_seq = GREATEST(last_seq, $4), updated_at = now()
          WHERE id = $2 AND EXISTS (SELECT 1 FROM ok) AND ($4::bigint = 0 OR last_seq < $4::bigint)
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
       ), season AS (
         INSERT INTO game_season_scores AS gs (season, user_id, points)
         SELECT ${seasonNowSql('$7', '$8')}, id, $3 FROM u
         ON CONFLICT (season, user_id) DO UPDATE SET points = gs.points + EXCLUDED.points
       ), daily AS (
         INSERT INTO game_daily_taps AS d (user_id, day, taps)
         SELECT id, ${dayNowSql}, $3 FROM u
         ON CONFLICT (user_id, day) DO UPDATE SET taps = d.taps + EXCLUDED.taps
       )
       SELECT row_to_json(u) AS user, s.last_seq AS "lastSeq",
              json_build_object('id', s.id, 'userId', s."userId",
                'sessionPoints', s."sessionPoints", 'sessionTaps', s."sessionTaps") AS session
         FROM u, s`,
      values: [
        userId,
        sessionId,
        count,
        seq,
        key,
        keySeconds,
        calendar.startMs,
        calendar.lengthMs,
        after,
      ],
    });
    return rows[0] ?? null;
  }

  /** Postgres's clock (epoch ms), as the tap statements read it. */
  async clock(): Promise<number> {
    const { rows } = await this.db.query<{ ms: number }>(
      'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms',
    );
    return Math.floor(rows[0].ms);
  }

  /** Forgets the tap keys counted more than `seconds` ago. */
  async pruneTapKeys(seconds: number): Promise<void> {
    await this.db.query(
      'DELETE FROM game_tap_keys WHERE created_at <= now() - make_interval(secs => $1)',
      [seconds],
    );
  }

  /**
   * Writes absolute totals kept elsewhere (Redis), all in one statement: Postgres never holds part
   * of a flush. Totals only grow (taps, and points with them or by a bonus), so a row is written
   * only when the new totals are larger: a retried
   * flush is harmless, and a slow flusher's older figures never overwrite a newer flusher's. A
   * country's totals also go down, when a player leaves it (moveCountry): figures of a later
   * change's number replace the row whatever their size, and those of an earlier one never do.
   * Figures of another Redis generation than Postgres follows (read from a Redis since emptied and
   * rebuilt) are not written: false.
   */
  async writeTotals(totals: FlushedTotals, generation: string): Promise<boolean> {
    const { users, sessions, countries, seasons, moves } = totals;
    const days = users.flatMap(({ id, days }) => days.map(({ day, taps }) => ({ id, day, taps })));
    const { rows } = await this.db.query<{ written: boolean }>(
      `WITH gen AS (
         SELECT 1 FROM game_redis_generation WHERE generation = $11::uuid FOR SHARE
       ), users AS (
         UPDATE game_users AS g SET total_points = v.points, total_taps = v.taps, updated_at = now()
           FROM unnest($1::uuid[], $2::bigint[], $3::bigint[]) AS v(id, points, taps)
          WHERE g.id = v.id AND (g.total_taps, g.total_points) < (v.taps, v.points)
            AND EXISTS (SELECT 1 FROM gen)
       ), sessions AS (
         UPDATE game_sessions AS g
            SET session_points = v.points, session_taps = v.taps,
                last_seq = GREATEST(g.last_seq, v.seq), updated_at = now()
           FROM unnest($4::uuid[], $5::bigint[], $6::bigint[], $7::bigint[]) AS v(id, points, taps, seq)
          WHERE g.id = v.id AND g.session_taps < v.taps AND EXISTS (SELECT 1 FROM gen)
       ), countries AS (
         INSERT INTO game_countries (country, total_points, total_taps, moves)
         SELECT v.*, $18::bigint FROM unnest($8::char(2)[], $9::bigint[], $10::bigint[]) AS v
          WHERE EXISTS (SELECT 1 FROM gen)
         ON CONFLICT (country) DO UPDATE
            SET total_points = EXCLUDED.total_points, total_taps = EXCLUDED.total_taps,
                moves = EXCLUDED.moves, updated_at = now()
          WHERE (game_countries.moves, game_countries.total_taps, game_countries.total_points)
              < (EXCLUDED.moves, EXCLUDED.total_taps, EXCLUDED.total_points)
       ), seasons AS (
         INSERT INTO game_season_scores AS g (season, user_id, points)
         SELECT * FROM unnest($12::int[], $13::uuid[], $14::bigint[])
          WHERE EXISTS (SELECT 1 FROM gen)
         ON CONFLICT (season, user_id) DO UPDATE SET points = EXCLUDED.points
          WHERE g.points < EXCLUDED.points
       ), daily AS (
         INSERT INTO game_daily_taps AS d (user_id, day, taps)
         SELECT * FROM unnest($15::uuid[], $16::int[], $17::bigint[])
          WHERE EXISTS (SELECT 1 FROM gen)
         ON CONFLICT (user_id, day) DO UPDATE SET taps = EXCLUDED.taps
          WHERE d.taps < EXCLUDED.taps
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
        seasons.map((s) => s.season),
        seasons.map((s) => s.id),
        seasons.map((s) => s.points),
        days.map((d) => d.id),
        days.map((d) => d.day),
        days.map((d) => d.taps),
        moves,
      ],
    );
    return rows[0].written;
  }

  /**
   * Records a player's check-in bonus for a day, once: the claim's row (one a player and a day)
   * and, with `addPoints`, its points on the player, their country and the running season, in
   * one statement. A frozen player claims nothing. Taps are not touched: a bonus is points only.
   */
  async addBonus({
    userId,
    day,
    streak,
    points,
    addPoints,
    calendar,
  }: BonusToAdd): Promise<BonusAdded> {
    const { rows } = await this.db.query<{
      found: boolean;
      frozen: boolean;
      claimed: boolean;
      user: GameUser | null;
      existing: number | null;
    }>(
      `WITH player AS (
         SELECT id, frozen_at IS NOT NULL AS frozen FROM game_users WHERE id = $1
       ), claim AS (
         INSERT INTO game_streak_claims (user_id, day, streak, points)
         SELECT id, $2, $3, $4 FROM player WHERE NOT frozen
         ON CONFLICT (user_id, day) DO NOTHING
         RETURNING user_id
       ), u AS (
         UPDATE game_users SET total_points = total_points + $4, updated_at = now()
          WHERE id = $1 AND $5 AND EXISTS (SELECT 1 FROM claim)
          RETURNING ${USER_COLUMNS}
       ), c AS (
         INSERT INTO game_countries AS gc (country, total_points, total_taps)
         SELECT country, $4, 0 FROM u
         ON CONFLICT (country) DO UPDATE
            SET total_points = gc.total_points + EXCLUDED.total_points, updated_at = now()
       ), season AS (
         INSERT INTO game_season_scores AS gs (season, user_id, points)
         SELECT ${seasonNowSql('$6', '$7')}, id, $4 FROM u
         ON CONFLICT (season, user_id) DO UPDATE SET points = gs.points + EXCLUDED.points
       )
       SELECT EXISTS (SELECT 1 FROM player) AS found,
              coalesce((SELECT frozen FROM player), false) AS frozen,
              EXISTS (SELECT 1 FROM claim) AS claimed,
              (SELECT row_to_json(u) FROM u) AS user,
              (SELECT points::float8 FROM game_streak_claims WHERE user_id = $1 AND day = $2)
                AS existing`,
      [userId, day, streak, points, addPoints, calendar.startMs, calendar.lengthMs],
    );
    const { found, frozen, claimed, user, existing } = rows[0];
    if (!found) return { kind: 'missing' };
    if (frozen) return { kind: 'frozen' };
    if (claimed) return { kind: 'claimed', user };
    return { kind: 'already', points: existing };
  }

  /**
   * Adds a bonus's points (a referral's) to the player, their country and the running season, in
   * the caller's transaction, which wrote the row that makes it once. Taps are not touched.
   */
  async addBonusPoints(userId: string, points: number, calendar: SeasonCalendar): Promise<void> {
    await this.db.query(
      `WITH u AS (
         UPDATE game_users SET total_points = total_points + $2, updated_at = now()
          WHERE id = $1 RETURNING id, country
       ), c AS (
         INSERT INTO game_countries AS gc (country, total_points, total_taps)
         SELECT country, $2, 0 FROM u
         ON CONFLICT (country) DO UPDATE
            SET total_points = gc.total_points + EXCLUDED.total_points, updated_at = now()
       )
       INSERT INTO game_season_scores AS gs (season, user_id, points)
       SELECT ${seasonNowSql('$3', '$4')}, id, $2 FROM u
       ON CONFLICT (season, user_id) DO UPDATE SET points = gs.points + EXCLUDED.points`,
      [userId, points, calendar.startMs, calendar.lengthMs],
    );
  }
}
