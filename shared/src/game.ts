import { z } from 'zod';
import {
  AROUND_DEFAULT_SPAN,
  AROUND_MAX_SPAN,
  LEADERBOARD_DEFAULT_LIMIT,
  LEADERBOARD_MAX_LIMIT,
  POINTS_PER_TAP,
} from './constants';
import { MAX_TAPS_PER_BATCH } from './game-events';
import { ignoredFields } from './ignored-fields';
import { countryCodeSchema, text, usernameSchema } from './validation';

// The channel's plain values live apart, so that the game screen does not load zod for them.
export {
  gameEvents,
  MAX_KEPT_TAPS,
  MAX_TAPS_PER_BATCH,
  SESSION_TAPS_MAX_AGE_MS,
  TAP_KEY_HEADER,
  type PlayerFrozenPush,
} from './game-events';

/** Ids are opaque strings on the wire (UUIDs). */
export const idSchema = z.string().uuid('Invalid id');

export const gameUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  country: z.string(),
  totalPoints: z.number().int(),
  totalTaps: z.number().int(),
});
export type GameUser = z.infer<typeof gameUserSchema>;

/**
 * GET /api/users/:id: a player's public record; to the browser that plays as them (its signed
 * player cookie) also whether they are frozen, so that the game screen says so before any tap.
 */
export const playerRecordSchema = gameUserSchema.extend({ frozen: z.boolean().optional() });
export type PlayerRecord = z.infer<typeof playerRecordSchema>;

export const gameSessionSchema = z.object({
  id: z.string(),
  userId: z.string(),
  sessionPoints: z.number().int(),
  sessionTaps: z.number().int(),
});
export type GameSession = z.infer<typeof gameSessionSchema>;

export const createUserBodySchema = z.object({
  username: usernameSchema,
  country: countryCodeSchema,
  /**
   * The invite code of the link the player arrived by (`/play?ref=`): an unknown or malformed one
   * records nothing and the player is still created.
   */
  ref: text().max(64).optional(),
});
export type CreateUserBody = z.infer<typeof createUserBodySchema>;

export const createSessionBodySchema = z.object({
  userId: idSchema,
  sessionPoints: ignoredFields.sessionPoints,
  sessionTaps: ignoredFields.sessionTaps,
});
export type CreateSessionBody = z.infer<typeof createSessionBodySchema>;

export const tapBodySchema = z.object({
  userId: idSchema,
  sessionId: idSchema,
  pointsPerTap: z.literal(POINTS_PER_TAP, { error: `pointsPerTap must be ${POINTS_PER_TAP}` }),
  sessionPoints: ignoredFields.sessionPoints,
  sessionTaps: ignoredFields.sessionTaps,
  /**
   * Taps in this call (1 when absent): the taps a client kept while it could not reach the game
   * go in a few calls, not one each. Counted whole or refused whole (429 when the player's
   * allowance does not hold them all; without Retry-After when they are more than its burst);
   * with an Idempotency-Key, the key names them all, counted once.
   */
  count: z.number().int().min(1).max(MAX_TAPS_PER_BATCH).optional(),
});
export type TapBody = z.infer<typeof tapBodySchema>;

/**
 * The Idempotency-Key of POST /api/tap (TAP_KEY_HEADER): a tap counted with a key is answered
 * without counting again when the same session sends that key again within an hour.
 */
export const tapKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Idempotency-Key must be 1 to 64 letters, digits, - or _');

export const tapResultSchema = z.object({ user: gameUserSchema, session: gameSessionSchema });
export type TapResult = z.infer<typeof tapResultSchema>;

/**
 * `rank` is the rule of GET /api/users/{id}/rank, 1 + the players with strictly more points, so
 * players with equal points share a rank ("1, 1, 3"). The server's answers carry it; a board
 * delta does not (its rows' ranks follow from the order and the points).
 */
export const leaderboardUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  totalPoints: z.number().int(),
  rank: z.number().int().positive().optional(),
});
export type LeaderboardUser = z.infer<typeof leaderboardUserSchema>;

/** GET /api/users/{id}/around: the player's row and up to `span` rows above and below it. */
export const rankedUserSchema = leaderboardUserSchema.required({ rank: true });
export type RankedUser = z.infer<typeof rankedUserSchema>;
export const aroundResponseSchema = z.array(rankedUserSchema);

export const aroundQuerySchema = z.object({
  span: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce
      .number()
      .int('span must be an integer')
      .min(1, 'span must be at least 1')
      .max(AROUND_MAX_SPAN, `span must be at most ${AROUND_MAX_SPAN}`)
      .default(AROUND_DEFAULT_SPAN),
  ),
});

export const leaderboardCountrySchema = z.object({
  country: z.string(),
  totalPoints: z.number().int(),
});
export type LeaderboardCountry = z.infer<typeof leaderboardCountrySchema>;

export const leaderboardQuerySchema = z.object({
  // `?limit=` (empty) means the default, as if it were left out.
  limit: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce
      .number()
      .int('limit must be an integer')
      .min(1, 'limit must be at least 1')
      .max(LEADERBOARD_MAX_LIMIT, `limit must be at most ${LEADERBOARD_MAX_LIMIT}`)
      .default(LEADERBOARD_DEFAULT_LIMIT),
  ),
});

export const rankResponseSchema = z.object({ rank: z.number().int().positive() });
export type RankResponse = z.infer<typeof rankResponseSchema>;

export const milestoneResponseSchema = z.object({ usersOver100k: z.number().int().nonnegative() });
export type MilestoneResponse = z.infer<typeof milestoneResponseSchema>;

export const tapBatchSchema = z.object({
  sessionId: idSchema,
  count: z.number().int().min(1).max(MAX_TAPS_PER_BATCH),
  /**
   * The batch's number within its session, counting up from 1. A batch whose number is not above
   * the last one counted (a re-send after a reconnect) is answered without counting it again, so
   * the server remembers one number per session however many batches arrive.
   */
  seq: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  /**
   * The highest number of this session the client holds an acknowledgement for. A server whose
   * session stands below it has lost acknowledged batches (its Redis was emptied): it counts
   * nothing and answers 409 with its numbers, and the client sends those batches again.
   */
  after: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
});
export type TapBatch = z.infer<typeof tapBatchSchema>;

/**
 * Where a session's numbered batches stand: `seq` is the last one counted, `durableSeq` the last
 * one written to Postgres, which survives anything Redis loses (equal to `seq` without Redis).
 */
export interface BatchNumbers {
  seq: number;
  durableSeq: number;
}

/**
 * A counted batch is counted whole: taps above the player's rate refuse the batch (429), with
 * the milliseconds after which the player's allowance holds it (`retryAfterMs`; absent when it
 * never will: the batch is larger than the burst). A 503 counted nothing (the game is briefly
 * unavailable, or the server is over capacity: then `retryAfterMs` says when to ask again, and a
 * client waits a random part of it more); a 504 may still count (the server's store did not answer in time, and may run it
 * later). Either way a numbered batch may be sent again as it is: it counts once.
 */
export type TapBatchAck =
  | ({ ok: true; accepted: number; user: GameUser; session: GameSession } & BatchNumbers)
  | TapRefusal;

/** A refused tap batch (or sync). */
export type TapRefusal = {
  ok: false;
  status: number;
  error: string;
  retryAfterMs?: number;
} & Partial<BatchNumbers>;

/** The `frozen` push (PlayerFrozenPush), to the player's own sockets. */
export const playerFrozenPushSchema = z.object({ frozen: z.boolean() });

/** The server's tap allowance, as the game channel announces it (TapAllowance). */
export const tapAllowanceSchema = z.object({
  perSecond: z.number().positive(),
  burst: z.number().int().positive(),
});

/** Asks where a session's batches stand, for a client holding batches not yet durable. */
export const tapSyncSchema = z.object({ sessionId: idSchema });
export type TapSync = z.infer<typeof tapSyncSchema>;
export type TapSyncAck =
  ({ ok: true } & BatchNumbers) | { ok: false; status: number; error: string };

/**
 * One push of the game channel: every board on connect, then only the boards that changed (one
 * message a second at most, so a busy server writes each player one frame, not three).
 */
export interface BoardsPush {
  users?: LeaderboardUser[];
  countries?: LeaderboardCountry[];
  milestone?: MilestoneResponse;
}

/** What the game screen needs from the server's configuration. */
export const gameConfigSchema = z.object({
  socialUrl: z.string(),
  chartUrl: z.string(),
  contractAddress: z.string(),
  /** The Mini App's link (`https://t.me/<bot>/<app>`) when the game also runs in Telegram. */
  telegramAppUrl: z.string().optional(),
  /** COUNTRY_CHANGE_DAYS: days a player waits between two changes of their country (0: none). */
  countryChangeDays: z.number().int(),
});
export type GameConfig = z.infer<typeof gameConfigSchema>;
