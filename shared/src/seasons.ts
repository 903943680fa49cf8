import { z } from 'zod';
import { LEADERBOARD_DEFAULT_LIMIT, LEADERBOARD_MAX_LIMIT, SEASONS_PAGE } from './constants';

export {
  DEFAULT_SEASON_CALENDAR,
  seasonAt,
  seasonBounds,
  seasonName,
  timeLeft,
  type SeasonCalendar,
} from './season-clock';

/**
 * A season: its number (from 1), its name and its period (ISO times, UTC; it ends when the next
 * one starts). On a season's boards a player's or a country's `totalPoints` are its points in
 * that season.
 */
export const seasonSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
});
export type Season = z.infer<typeof seasonSchema>;

/** GET /api/seasons/current: the season running, with the server's time for its countdown. */
export const currentSeasonSchema = seasonSchema.extend({ now: z.string() });
export type CurrentSeason = z.infer<typeof currentSeasonSchema>;

/** An archived season (GET /api/seasons): its ranked players, their points and its winner. */
export const pastSeasonSchema = seasonSchema.extend({
  players: z.number().int().nonnegative(),
  points: z.number().int().nonnegative(),
  winner: z.object({ id: z.string(), username: z.string(), points: z.number().int() }).nullable(),
});
export type PastSeason = z.infer<typeof pastSeasonSchema>;

/**
 * A player's season (GET /api/users/:id/seasons): the running one first (its rank live), then
 * each archived one they scored in, with their final rank (null: off the board, frozen then).
 */
export const playerSeasonSchema = seasonSchema.extend({
  points: z.number().int().nonnegative(),
  rank: z.number().int().positive().nullable(),
  final: z.boolean(),
});
export type PlayerSeason = z.infer<typeof playerSeasonSchema>;

/** `:season` in a path: `current`, or a season's number. */
export const seasonParamSchema = z.string().transform((value, ctx): 'current' | number => {
  if (value === 'current') return value;
  if (/^[1-9]\d{0,8}$/.test(value)) return Number(value);
  ctx.addIssue({ code: 'custom', message: 'A season is `current` or its number' });
  return z.NEVER;
});

const emptyIsDefault = (value: unknown) => (value === '' ? undefined : value);

/** GET /api/seasons?limit=&before=: archived seasons, newest first, before season `before`. */
export const seasonsQuerySchema = z.object({
  limit: z.preprocess(
    emptyIsDefault,
    z.coerce
      .number()
      .int('limit must be an integer')
      .min(1, 'limit must be at least 1')
      .max(SEASONS_PAGE, `limit must be at most ${SEASONS_PAGE}`)
      .default(SEASONS_PAGE),
  ),
  before: z.preprocess(
    emptyIsDefault,
    z.coerce
      .number()
      .int('before must be an integer')
      .positive('before must be positive')
      .optional(),
  ),
});

/** GET /api/seasons/:season/users?limit=: the season's board (the default limit as all-time's). */
export const seasonBoardQuerySchema = z.object({
  limit: z.preprocess(
    emptyIsDefault,
    z.coerce
      .number()
      .int('limit must be an integer')
      .min(1, 'limit must be at least 1')
      .max(LEADERBOARD_MAX_LIMIT, `limit must be at most ${LEADERBOARD_MAX_LIMIT}`)
      .default(LEADERBOARD_DEFAULT_LIMIT),
  ),
});
