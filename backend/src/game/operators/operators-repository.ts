import {
  dayDate,
  REFERRAL_FARM_NETWORK_INVITEES,
  REFERRAL_FARM_STOP_MARGIN,
  type OperatorPlayer,
  type PlayerAction,
  type PlayerDay,
  type PlayerSession,
  type PlayerSort,
  type ReferralEvidence,
} from '@tapgram/shared';
import type { Queryable } from '../../core/db';
import { sharedTimingReason, sharedTimings, type InviteeDay } from './farm-timing';
import { scoreParams, scoreSql, suspicionOf, type SuspicionRules } from './suspicion';

/** Below this many, a variation says nothing. */
const MIN_FOR_VARIATION = 2;
/** Invited players' days read for the timing rule at most (the latest first). */
const INVITEE_DAYS_READ = 5000;

const ORDER: Record<PlayerSort, string> = {
  suspicion: 'score DESC, u.total_points DESC, u.id DESC',
  points: 'u.total_points DESC, u.id DESC',
  refused: 'refused_total DESC, score DESC, u.id DESC',
};

interface PlayerRow {
  id: string;
  username: string;
  country: string;
  totalPoints: number;
  totalTaps: number;
  createdAt: Date;
  frozen: boolean;
  frozenAt: Date | null;
  frozenReason: string | null;
  refused_total: number;
  refused_max: number | null;
  refused_day: string | null;
  longest_ms: number | null;
  longest_day: string | null;
  even_day: string | null;
  even_batches: number | null;
  size_cv: number | null;
  gap_cv: number | null;
  network_players: number | null;
  total: number;
}

/**
 * The players as operators see them, with the window's signals, in one statement. Parameters:
 * $1 today, $2 the window's days, then the score's (scoreParams) from $3; `where` and `tail` add
 * their own after those.
 */
function playersSql(where: string, tail: string): string {
  const variation = (m2: string, n: string, mean: string) =>
    `CASE WHEN ${n} >= ${MIN_FOR_VARIATION} THEN
       CASE WHEN ${mean} > 0 THEN sqrt(greatest(${m2}, 0) / ${n}) / ${mean} ELSE 0 END END`;
  return `
    WITH days AS (
      SELECT user_id, day, refused, longest_ms, batches, gap_n,
             ${variation('size_m2', 'batches', 'size_mean')} AS size_cv,
             ${variation('gap_m2', 'gap_n', 'gap_mean')} AS gap_cv
        FROM game_player_days WHERE day > $1::date - $2::int
    ), refused AS (
      SELECT DISTINCT ON (user_id) user_id, refused AS refused_max, day AS refused_day,
             sum(refused) OVER (PARTITION BY user_id) AS refused_total
        FROM days ORDER BY user_id, refused DESC, day DESC
    ), streak AS (
      SELECT DISTINCT ON (user_id) user_id, longest_ms, day AS longest_day
        FROM days ORDER BY user_id, longest_ms DESC, day DESC
    ), even AS (
      SELECT DISTINCT ON (user_id) user_id, day AS even_day, batches AS even_batches, size_cv, gap_cv
        FROM days WHERE gap_n >= $7
       ORDER BY user_id, greatest(size_cv, coalesce(gap_cv, 0)) ASC, day DESC
    ), networks AS (
      SELECT network, count(*)::int AS network_players
        FROM game_users WHERE network IS NOT NULL GROUP BY network
    ), players AS (
      SELECT u.id, u.username, u.country, u.total_points AS "totalPoints",
             u.total_taps AS "totalTaps", u.created_at AS "createdAt",
             u.frozen_at IS NOT NULL AS frozen, u.frozen_at AS "frozenAt",
             u.frozen_reason AS "frozenReason",
             coalesce(r.refused_total, 0)::bigint AS refused_total, r.refused_max,
             to_char(r.refused_day, 'YYYY-MM-DD') AS refused_day, s.longest_ms,
             to_char(s.longest_day, 'YYYY-MM-DD') AS longest_day,
             to_char(e.even_day, 'YYYY-MM-DD') AS even_day, e.even_batches, e.size_cv, e.gap_cv,
             n.network_players, u.total_points
        FROM game_users u
        LEFT JOIN refused r ON r.user_id = u.id
        LEFT JOIN streak s ON s.user_id = u.id
        LEFT JOIN even e ON e.user_id = u.id
        LEFT JOIN networks n ON n.network = u.network
       ${where}
    )
    SELECT u.*, ${scoreSql(3)} AS score, count(*) OVER ()::int AS total
      FROM players u
     ${tail}`;
}

/**
 * Reads for the operators' screens, and the audit trail of freezes and players' country changes,
 * which it alone writes.
 */
export class OperatorsRepository {
  constructor(
    private readonly db: Queryable,
    private readonly rules: SuspicionRules,
    private readonly today: () => string,
  ) {}

  /** The same reads and writes on another client (one in a transaction). */
  on(db: Queryable): OperatorsRepository {
    return new OperatorsRepository(db, this.rules, this.today);
  }

  /** A page of the players whose username contains `search` (any case), sorted. */
  async players(
    search: string,
    sort: PlayerSort,
    limit: number,
    offset: number,
  ): Promise<{ players: OperatorPlayer[]; total: number }> {
    const params = this.baseParams();
    const where = search
      ? `WHERE lower(u.username) LIKE '%' || $${params.length + 1} || '%' ESCAPE '\\'`
      : '';
    if (search) params.push(search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`));
    params.push(limit, offset);
    const { rows } = await this.db.query<PlayerRow>(
      playersSql(
        where,
        `ORDER BY ${ORDER[sort]} LIMIT $${params.length - 1} OFFSET $${params.length}`,
      ),
      params,
    );
    return { players: rows.map((row) => this.toPlayer(row)), total: rows[0]?.total ?? 0 };
  }

  /** One player, with when and why they were frozen; null when unknown. */
  async findPlayer(id: string): Promise<(OperatorPlayer & FrozenState) | null> {
    const params = this.baseParams();
    const { rows } = await this.db.query<PlayerRow>(
      playersSql(`WHERE u.id = $${params.length + 1}`, ''),
      [...params, id],
    );
    if (!rows[0]) return null;
    return {
      ...this.toPlayer(rows[0]),
      frozenAt: rows[0].frozenAt?.toISOString() ?? null,
      frozenReason: rows[0].frozenReason,
    };
  }

  /** The window's days of a player, oldest first, zeros for days without play. */
  async days(id: string): Promise<PlayerDay[]> {
    const { rows } = await this.db.query<PlayerDay>(
      `SELECT to_char(g.day, 'YYYY-MM-DD') AS day, coalesce(d.taps, 0)::bigint AS taps,
              coalesce(d.refused, 0)::bigint AS refused, coalesce(d.batches, 0) AS batches,
              (coalesce(d.active_ms, 0) / 1000)::bigint AS "activeSeconds",
              (coalesce(d.longest_ms, 0) / 1000)::bigint AS "longestStreakSeconds",
              CASE WHEN d.batches >= ${MIN_FOR_VARIATION} AND d.size_mean > 0
                   THEN sqrt(greatest(d.size_m2, 0) / d.batches) / d.size_mean END
                AS "sizeVariation",
              CASE WHEN d.gap_n >= ${MIN_FOR_VARIATION} AND d.gap_mean > 0
                   THEN sqrt(greatest(d.gap_m2, 0) / d.gap_n) / d.gap_mean END
                AS "intervalVariation"
         FROM generate_series($2::date - ($3::int - 1), $2::date, interval '1 day') AS g(day)
         LEFT JOIN game_player_days d ON d.user_id = $1 AND d.day = g.day::date
        ORDER BY g.day`,
      [id, this.today(), this.rules.days],
    );
    return rows;
  }

  async sessions(id: string, limit = 20): Promise<PlayerSession[]> {
    const { rows } = await this.db.query<PlayerSession & { createdAt: Date; updatedAt: Date }>(
      `SELECT id, session_points AS "sessionPoints", session_taps AS "sessionTaps",
              created_at AS "createdAt", updated_at AS "updatedAt"
         FROM game_sessions WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      [id, limit],
    );
    return rows.map((row) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }));
  }

  /** How many players came from the player's network, and the others with the most points. */
  async network(id: string, limit = 20) {
    const { rows } = await this.db.query<{
      id: string;
      username: string;
      totalPoints: number;
      frozen: boolean;
      players: number;
    }>(
      `SELECT o.id, o.username, o.total_points AS "totalPoints",
              o.frozen_at IS NOT NULL AS frozen, count(*) OVER ()::int + 1 AS players
         FROM game_users p JOIN game_users o ON o.network = p.network AND o.id <> p.id
        WHERE p.id = $1
        ORDER BY o.total_points DESC, o.id DESC LIMIT $2`,
      [id, limit],
    );
    return {
      players: rows[0]?.players ?? 1,
      others: rows.map(({ players: _players, ...other }) => other),
    };
  }

  /**
   * What each player's points are made of, for the export: their taps (as Postgres holds them:
   * with Redis, as of the last flush), the check-in and referral bonuses paid them, and their
   * points and final rank in season `lastSeason` (null: not on it).
   */
  async payoutParts(ids: string[], lastSeason: number): Promise<Map<string, PayoutParts>> {
    const { rows } = await this.db.query<PayoutParts & { id: string }>(
      `SELECT u.id, u.country, u.total_taps::float8 AS taps,
              coalesce((SELECT sum(points) FROM game_streak_claims s WHERE s.user_id = u.id), 0)::float8
                AS streak,
              coalesce((SELECT sum(points) FROM game_referral_bonuses r WHERE r.user_id = u.id), 0)::float8
                AS referral,
              ls.points::float8 AS "lastPoints", ls.final_rank AS "lastRank"
         FROM game_users u
         LEFT JOIN game_season_scores ls ON ls.user_id = u.id AND ls.season = $2
        WHERE u.id = ANY($1::uuid[])`,
      [ids, lastSeason],
    );
    return new Map(rows.map(({ id, ...parts }) => [id, parts]));
  }

  /**
   * The player's invitations as evidence of an invitation farm (see referralEvidenceSchema):
   * `threshold` is REFERRAL_TAPS.
   */
  async referralEvidence(inviterId: string, threshold: number): Promise<ReferralEvidence> {
    const [counts, networks, stopped, timings] = await Promise.all([
      this.db.query<{ invited: number; paid: number; cancelled: number }>(
        `SELECT count(*)::int AS invited,
                count(*) FILTER (WHERE state = 'paid')::int AS paid,
                count(*) FILTER (WHERE state = 'cancelled')::int AS cancelled
           FROM game_invitations WHERE inviter_id = $1`,
        [inviterId],
      ),
      this.db.query<{ network: string; invitees: number }>(
        `SELECT left(u.network, 10) AS network, count(*)::int AS invitees
           FROM game_invitations i JOIN game_users u ON u.id = i.invitee_id
          WHERE i.inviter_id = $1 AND u.network IS NOT NULL
          GROUP BY u.network HAVING count(*) >= $2
          ORDER BY invitees DESC LIMIT 5`,
        [inviterId, REFERRAL_FARM_NETWORK_INVITEES],
      ),
      this.db.query<{ id: string; username: string; taps: number; lastDay: number }>(
        `SELECT u.id, u.username, coalesce(sum(d.taps), 0)::float8 AS taps,
                coalesce(max(d.day), 0) AS "lastDay"
           FROM game_invitations i
           JOIN game_users u ON u.id = i.invitee_id
           LEFT JOIN game_daily_taps d ON d.user_id = u.id AND d.taps > 0
          WHERE i.inviter_id = $1 AND i.state = 'paid'
          GROUP BY u.id, u.username, i.settled_at
         HAVING coalesce(sum(d.taps), 0) < $2
            AND coalesce(max(d.day), 0) <= floor(extract(epoch FROM i.settled_at) / 86400)
          ORDER BY u.username LIMIT 50`,
        [inviterId, threshold * (1 + REFERRAL_FARM_STOP_MARGIN)],
      ),
      this.inviteeDays(inviterId),
    ]);
    const { invited, paid, cancelled } = counts.rows[0];
    const reasons: string[] = networks.rows.map(
      (n) => `${n.invitees.toLocaleString('en-US')} invited players from one network`,
    );
    if (stopped.rows.length > 0) {
      reasons.push(
        `${stopped.rows.length.toLocaleString('en-US')} of ${paid.toLocaleString('en-US')} paid invited players stopped right after the threshold`,
      );
    }
    const timing = sharedTimings(timings, this.rules);
    reasons.push(...timing.map((group) => sharedTimingReason(group, this.today())));
    return {
      invited,
      paid,
      cancelled,
      reasons,
      networks: networks.rows,
      stopped: stopped.rows.map((row) => ({
        ...row,
        lastDay: row.lastDay ? dayDate(row.lastDay) : '',
      })),
      timing,
    };
  }

  /** The signals of the inviter's invited players' days in the window, as the timing rule reads them. */
  private async inviteeDays(inviterId: string): Promise<InviteeDay[]> {
    const { rows } = await this.db.query<InviteeDay>(
      `SELECT u.id, u.username, to_char(d.day, 'YYYY-MM-DD') AS day, d.batches, d.gap_n AS "gapN",
              d.gap_mean AS "gapMean", d.gap_m2 AS "gapM2",
              d.streak_start_ms::float8 AS "streakStartMs", d.last_ms::float8 AS "lastMs"
         FROM game_invitations i
         JOIN game_users u ON u.id = i.invitee_id
         JOIN game_player_days d ON d.user_id = i.invitee_id
        WHERE i.inviter_id = $1 AND d.day > $2::date - $3::int AND d.batches >= $4
        ORDER BY d.day DESC LIMIT ${INVITEE_DAYS_READ}`,
      [inviterId, this.today(), this.rules.days, this.rules.minBatches],
    );
    return rows;
  }

  /** Appends an action on a player to the audit trail (no moderator: the player's own). */
  async recordAction(
    playerId: string,
    moderatorId: string | null,
    action: PlayerAction['action'],
    reason: string,
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO game_player_actions (player_id, moderator_id, action, reason)
       VALUES ($1, $2, $3, $4)`,
      [playerId, moderatorId, action, reason],
    );
  }

  /** The latest actions on players, of one player or of all. */
  async actions(playerId: string | null, limit: number): Promise<PlayerAction[]> {
    const { rows } = await this.db.query<PlayerAction & { at: Date }>(
      `SELECT a.id, a.player_id AS "playerId", p.username AS player, a.action,
              m.username AS moderator, a.reason, a.created_at AS at
         FROM game_player_actions a
         JOIN game_users p ON p.id = a.player_id
         LEFT JOIN lolgram_users m ON m.id = a.moderator_id
        WHERE $1::uuid IS NULL OR a.player_id = $1
        ORDER BY a.created_at DESC, a.id DESC LIMIT $2`,
      [playerId, limit],
    );
    return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
  }

  private baseParams(): unknown[] {
    return [this.today(), this.rules.days, ...scoreParams(this.rules)];
  }

  private toPlayer(row: PlayerRow): OperatorPlayer {
    return {
      id: row.id,
      username: row.username,
      country: row.country,
      totalPoints: row.totalPoints,
      totalTaps: row.totalTaps,
      createdAt: row.createdAt.toISOString(),
      frozen: row.frozen,
      refusedTaps: row.refused_total,
      suspicion: suspicionOf(
        {
          refusedMax: row.refused_max ?? 0,
          refusedDay: row.refused_day,
          longestMs: row.longest_ms ?? 0,
          longestDay: row.longest_day,
          evenDay: row.even_day,
          evenBatches: row.even_batches ?? 0,
          sizeVariation: row.size_cv,
          intervalVariation: row.gap_cv,
          networkPlayers: row.network_players ?? 0,
        },
        this.rules,
        this.today(),
      ),
    };
  }
}

export interface PayoutParts {
  country: string;
  taps: number;
  streak: number;
  referral: number;
  lastPoints: number | null;
  lastRank: number | null;
}

export interface FrozenState {
  frozenAt: string | null;
  frozenReason: string | null;
}
