import type { Queryable } from '../core/db';

/** A player's signals of one day (epoch day: days since 1970-01-01, UTC). */
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

/** The columns of DaySignals rows sent as JSON. */
const SIGNAL_COLUMNS = `"userId" uuid, day int, taps bigint, refused bigint, batches int,
  "sizeMean" float8, "sizeM2" float8, "gapN" int, "gapMean" float8, "gapM2" float8,
  "activeMs" bigint, "longestMs" bigint, "streakStartMs" bigint, "lastMs" bigint`;

/** The players' days of suspicion signals (game_player_days): the one repository that writes them. */
export class SignalsRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Adds what players' days gained (kept in memory by each server process) to their rows: counts
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
}
