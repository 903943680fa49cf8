import { z } from 'zod';
import {
  gameSessionSchema,
  gameUserSchema,
  leaderboardCountrySchema,
  leaderboardUserSchema,
  milestoneResponseSchema,
  type BatchNumbers,
  type LeaderboardCountry,
  type LeaderboardUser,
  type MilestoneResponse,
  type TapRefusal,
} from './game';

/*
 * The game channel's compact protocol, which a client opts into in its handshake (`auth`): the
 * boards come once whole, then as deltas against what the client holds, and tap acknowledgements
 * carry the totals only. A client that asks for nothing gets the full `boards` pushes and
 * acknowledgements.
 */

/**
 * How much of the boards a client follows: the game screen's panel lists the top 100 players and
 * every country, the event screen 10 of each. Each detail is a room of the game channel.
 */
export const boardDetailSchema = z.enum(['top100', 'top10']);
export type BoardDetail = z.infer<typeof boardDetailSchema>;

/** The rows of each board a detail holds (null: all of them). */
export const BOARD_DETAIL_ROWS: Record<BoardDetail, { users: number; countries: number | null }> = {
  top100: { users: 100, countries: null },
  top10: { users: 10, countries: 10 },
};

/** What a client asks for when it connects (socket.io's `auth`). */
export const gameHandshakeSchema = z.object({
  /** The boards' detail to follow, as snapshot and deltas; absent: full `boards` pushes. */
  boards: boardDetailSchema.optional(),
  /** The running season's boards to follow too, at this detail (`season:snapshot`, `season:delta`). */
  season: boardDetailSchema.optional(),
  /** 'compact': tap acknowledgements carry the totals, not the user and session records. */
  acks: z.literal('compact').optional(),
});
export type GameHandshake = z.infer<typeof gameHandshakeSchema>;

/** Follows another detail, or asks for the boards whole again (a delta that did not fit). */
export const watchBoardsSchema = z.object({ boards: boardDetailSchema });
export type WatchBoards = z.infer<typeof watchBoardsSchema>;

/** Follows the running season's boards at a detail (null: no longer), as `season:watch` asks. */
export const watchSeasonSchema = z.object({ boards: boardDetailSchema.nullable() });
export type WatchSeason = z.infer<typeof watchSeasonSchema>;

/**
 * The running season's boards: its number, and its players and countries by their points in it.
 * At a rollover they start again from nothing, under the next number.
 */
export interface SeasonBoards {
  season: number;
  users: LeaderboardUser[];
  countries: LeaderboardCountry[];
}

/** A season's boards, whole, at version `v` of that detail (`season:snapshot`). */
export const seasonBoardsSnapshotSchema = z.object({
  v: z.number().int(),
  season: z.number().int().nonnegative(),
  users: z.array(leaderboardUserSchema),
  countries: z.array(leaderboardCountrySchema),
});
export type SeasonBoardsSnapshot = z.infer<typeof seasonBoardsSnapshotSchema>;

/** Every board, whole. */
export interface Boards {
  users: LeaderboardUser[];
  countries: LeaderboardCountry[];
  milestone: MilestoneResponse;
}

/** A full push (`boards`, BoardsPush): the boards that changed, whole. */
export const boardsPushSchema = z.object({
  users: z.array(leaderboardUserSchema).optional(),
  countries: z.array(leaderboardCountrySchema).optional(),
  milestone: milestoneResponseSchema.optional(),
});

/** The boards of a detail, whole, at version `v` of that detail (`boards:snapshot`). */
export const boardsSnapshotSchema = z.object({
  v: z.number().int(),
  users: z.array(leaderboardUserSchema),
  countries: z.array(leaderboardCountrySchema),
  milestone: milestoneResponseSchema,
});
export type BoardsSnapshot = z.infer<typeof boardsSnapshotSchema>;

const index = z.number().int().nonnegative();
/** The row at this index of the previous list, its points unchanged. */
const keptRow = index;
/** The row at this index of the previous list, which gained these points. */
const movedRow = z.tuple([index, z.number().int()]);

/**
 * What changed in the boards from version `from` to `v` of a detail (`boards:delta`). A list that
 * changed is given whole, in its new order, each row as a reference to the previous list or as a
 * row new to the list; a list that did not change is left out. A client holding another version
 * asks for a snapshot (`watch`).
 */
export const boardsDeltaSchema = z.object({
  from: z.number().int(),
  v: z.number().int(),
  users: z
    .array(z.union([keptRow, movedRow, z.tuple([z.string(), z.string(), z.number().int()])]))
    .optional(),
  countries: z
    .array(z.union([keptRow, movedRow, z.tuple([z.string(), z.number().int()])]))
    .optional(),
  /** Players over 100K points (GET /api/milestone/100k's usersOver100k), when it changed. */
  milestone: z.number().int().nonnegative().optional(),
});
export type BoardsDelta = z.infer<typeof boardsDeltaSchema>;

/**
 * What changed in the running season's boards (`season:delta`), as a boards delta says it; a new
 * season (a rollover) comes with its number.
 */
export const seasonBoardsDeltaSchema = boardsDeltaSchema
  .omit({ milestone: true })
  .extend({ season: z.number().int().nonnegative().optional() });
export type SeasonBoardsDelta = z.infer<typeof seasonBoardsDeltaSchema>;

/** A player's and a session's totals after a counted batch: what the game screen shows. */
export interface TapTotals {
  totalPoints: number;
  totalTaps: number;
  sessionPoints: number;
  sessionTaps: number;
}

const batchNumbers = {
  seq: z.number().int().nonnegative(),
  durableSeq: z.number().int().nonnegative(),
};
const counted = {
  ok: z.literal(true),
  accepted: z.number().int().nonnegative(),
  ...batchNumbers,
};
const refused = z.object({
  ok: z.literal(false),
  status: z.number().int(),
  error: z.string(),
  retryAfterMs: z.number().int().nonnegative().optional(),
  ...z.object(batchNumbers).partial().shape,
});

/** The answer to a tap batch (TapBatchAck). */
export const tapBatchAckSchema = z.union([
  z.object({ ...counted, user: gameUserSchema, session: gameSessionSchema }),
  refused,
]);

/** The answer to a tap batch on a socket that asked for compact acknowledgements. */
export const compactTapAckSchema = z.union([
  z.strictObject({
    ...counted,
    totalPoints: z.number().int(),
    totalTaps: z.number().int(),
    sessionPoints: z.number().int(),
    sessionTaps: z.number().int(),
  }),
  refused,
]);
export type CompactTapAck =
  ({ ok: true; accepted: number } & TapTotals & BatchNumbers) | TapRefusal;

/** The answer to `sync` (TapSyncAck). */
export const tapSyncAckSchema = z.union([
  z.object({ ok: z.literal(true), ...batchNumbers }),
  refused,
]);

/** The answer to `watch`, when the client asks for one. */
export const watchAckSchema = z.union([z.object({ ok: z.literal(true) }), refused]);
export type WatchAck = z.infer<typeof watchAckSchema>;
