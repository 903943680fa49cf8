import { z } from 'zod';
import { USERNAME_MAX_LENGTH } from './constants';
import { text } from './validation';
import { messages } from './messages';

/**
 * The game operators' side: players with their suspicion signals, freezing, the audit of it and
 * the payout export. Every path is under /api/admin/game and is for LOLGram admins only.
 */

export const PLAYER_SORTS = ['suspicion', 'points', 'refused'] as const;
export const playerSortSchema = z.enum(PLAYER_SORTS, {
  error: `sort must be one of: ${PLAYER_SORTS.join(', ')}`,
});
export type PlayerSort = z.infer<typeof playerSortSchema>;

export const PLAYERS_PAGE_MAX = 100;

/** GET /api/admin/game/players: search by username (part of it, any case), sorted, a page. */
export const playersQuerySchema = z.object({
  q: text().trim().max(USERNAME_MAX_LENGTH).default(''),
  sort: playerSortSchema.default('suspicion'),
  limit: z.coerce.number().int().min(1).max(PLAYERS_PAGE_MAX).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type PlayersQuery = z.infer<typeof playersQuerySchema>;

/** A score from 0 (nothing seen) to 100, with one readable reason per rule that fired. */
export const suspicionSchema = z.object({
  score: z.number().int().min(0).max(100),
  reasons: z.array(z.string()),
});
export type Suspicion = z.infer<typeof suspicionSchema>;

export const operatorPlayerSchema = z.object({
  id: z.string(),
  username: z.string(),
  country: z.string(),
  totalPoints: z.number().int(),
  totalTaps: z.number().int(),
  createdAt: z.string(),
  frozen: z.boolean(),
  /** Taps the rate cap refused over the signal window (the last SUSPICION_DAYS days). */
  refusedTaps: z.number().int(),
  suspicion: suspicionSchema,
});
export type OperatorPlayer = z.infer<typeof operatorPlayerSchema>;

export const playersPageSchema = z.object({
  players: z.array(operatorPlayerSchema),
  /** Players matching the search, over all pages. */
  total: z.number().int(),
});
export type PlayersPage = z.infer<typeof playersPageSchema>;

/** One day (UTC) of a player's signals. Variations are coefficients (deviation / mean); null below a few batches. */
export const playerDaySchema = z.object({
  day: z.string(),
  taps: z.number().int(),
  refused: z.number().int(),
  batches: z.number().int(),
  activeSeconds: z.number().int(),
  longestStreakSeconds: z.number().int(),
  sizeVariation: z.number().nullable(),
  intervalVariation: z.number().nullable(),
});
export type PlayerDay = z.infer<typeof playerDaySchema>;

export const PLAYER_ACTIONS = ['freeze', 'unfreeze'] as const;
/**
 * What the audit records: an operator's freeze or unfreeze, the referral bonuses a freeze
 * cancelled and those an unfreeze restored, and a player's own change of country (no moderator:
 * `moderator` is null).
 */
export const AUDIT_ACTIONS = [
  ...PLAYER_ACTIONS,
  'cancel-referral',
  'restore-referral',
  'change-country',
] as const;
export const playerActionSchema = z.object({
  id: z.string(),
  playerId: z.string(),
  player: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  moderator: z.string().nullable(),
  reason: z.string(),
  at: z.string(),
});
export type PlayerAction = z.infer<typeof playerActionSchema>;

export const playerSessionSchema = z.object({
  id: z.string(),
  sessionPoints: z.number().int(),
  sessionTaps: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PlayerSession = z.infer<typeof playerSessionSchema>;

/** GET /api/admin/game/players/:id */
export const playerDetailSchema = operatorPlayerSchema.extend({
  frozenAt: z.string().nullable(),
  frozenReason: z.string().nullable(),
  /** The latest sessions, newest first. */
  sessions: z.array(playerSessionSchema),
  /** The signal window's days, oldest first, one per day (days without play are zeros). */
  days: z.array(playerDaySchema),
  /** Players created from the same network (hashed address; the /64 for IPv6). */
  network: z.object({
    players: z.number().int(),
    others: z.array(
      z.object({
        id: z.string(),
        username: z.string(),
        totalPoints: z.number().int(),
        frozen: z.boolean(),
      }),
    ),
  }),
  /** The freezes and unfreezes of this player, newest first. */
  actions: z.array(playerActionSchema),
});
export type PlayerDetail = z.infer<typeof playerDetailSchema>;

/** Invited players from one network that make an inviter look like an invitation farm. */
export const REFERRAL_FARM_NETWORK_INVITEES = 3;
/** A paid invitee who stopped within this share above the threshold "stopped right after it". */
export const REFERRAL_FARM_STOP_MARGIN = 0.1;
/** Invited players sharing machine-like timing that make an inviter look like a farm. */
export const REFERRAL_FARM_TIMING_INVITEES = 3;
/** Even rhythms whose intervals between batches differ by less than this share are "the same". */
export const REFERRAL_FARM_SAME_CADENCE = 0.05;
/** Invited players who started, and stopped, within this many seconds of each other. */
export const REFERRAL_FARM_SAME_SECONDS = 10;

/** An invited player's day of tapping, as evidence of timing shared with other invitees. */
export const inviteeTimingSchema = z.object({
  id: z.string(),
  username: z.string(),
  /** The day ('YYYY-MM-DD', UTC) whose signals these are. */
  day: z.string(),
  batches: z.number().int(),
  /** The mean interval between their batches, in milliseconds. */
  intervalMs: z.number(),
  /** How much those intervals varied (standard deviation / mean). */
  intervalVariation: z.number(),
  /** When their last stretch of tapping began and when their last batch came (ISO), if known. */
  startedAt: z.string().nullable(),
  stoppedAt: z.string().nullable(),
});
export type InviteeTiming = z.infer<typeof inviteeTimingSchema>;

/**
 * Invited players of one inviter whose tapping shares a script's timing: `rhythm`, the same even
 * rhythm (intervals varying less than SUSPICION_EVEN_CADENCE, their means within
 * REFERRAL_FARM_SAME_CADENCE of each other); `together`, started and stopped within the same
 * REFERRAL_FARM_SAME_SECONDS on one day.
 */
export const sharedTimingSchema = z.object({
  kind: z.enum(['rhythm', 'together']),
  /** How many invited players share it; the first 50 by name are listed. */
  count: z.number().int(),
  invitees: z.array(inviteeTimingSchema),
});
export type SharedTiming = z.infer<typeof sharedTimingSchema>;

/**
 * GET /api/admin/game/players/:id/referrals: the player's invitations as an operator checks them
 * for an invitation farm, with the evidence: how many invited players and their bonuses' states,
 * invited players created from one network, paid ones who stopped right after the threshold, and
 * invited players whose tapping shares a script's timing.
 */
export const referralEvidenceSchema = z.object({
  invited: z.number().int(),
  paid: z.number().int(),
  cancelled: z.number().int(),
  /** Why it looks like a farm (empty: nothing does). */
  reasons: z.array(z.string()),
  /** Networks (hashed, shortened) shared by REFERRAL_FARM_NETWORK_INVITEES or more invitees. */
  networks: z.array(z.object({ network: z.string(), invitees: z.number().int() })),
  /** Paid invitees who have not tapped since the payment's day and stayed near the threshold. */
  stopped: z.array(
    z.object({ id: z.string(), username: z.string(), taps: z.number().int(), lastDay: z.string() }),
  ),
  /** Groups of invited players whose tapping shares a script's timing (see sharedTimingSchema). */
  timing: z.array(sharedTimingSchema),
});
export type ReferralEvidence = z.infer<typeof referralEvidenceSchema>;

export const PLAYER_ACTION_REASON_MAX = 500;

/** POST /api/admin/game/players/:id/freeze and /unfreeze. */
export const playerActionBodySchema = z.object({
  reason: text()
    .trim()
    .min(1, messages.freezeReasonRequired)
    .max(PLAYER_ACTION_REASON_MAX, `Reason must be ${PLAYER_ACTION_REASON_MAX} characters or less`),
});
export type PlayerActionBody = z.infer<typeof playerActionBodySchema>;

/** GET /api/admin/game/actions: the latest freezes and unfreezes, for Recent Activity. */
export const playerActionsSchema = z.array(playerActionSchema);

/** GET /api/admin/game/leaderboard.csv: its header row. */
/**
 * The payout export's columns: a player's rank and points on the board, then what the points are
 * made of (taps, check-in bonuses, referral bonuses) and their season results apart: the running
 * season's points, and the last archived season's points and final rank (empty: not on it).
 */
export const LEADERBOARD_CSV_COLUMNS = [
  'rank',
  'id',
  'username',
  'country',
  'points',
  'taps',
  'streak_bonus',
  'referral_bonus',
  'season_points',
  'last_season_points',
  'last_season_rank',
] as const;
