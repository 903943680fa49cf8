/**
 * The game channel's plain values, apart from its schemas: the game screen needs them, and would
 * load zod with the schemas.
 */

/** Taps batched over the game socket: one message per short window. */
export const MAX_TAPS_PER_BATCH = 100;

/**
 * The header of POST /api/tap that names a tap (optional): the server counts a tap sent again
 * with the same key in the same session once, so a client may send it again whatever the answer
 * (see tapKeySchema).
 */
export const TAP_KEY_HEADER = 'Idempotency-Key';

/** Events of the game channel (Socket.IO); see game-channel.ts for the compact protocol's. */
export const gameEvents = {
  /** The server's tap allowance (TapAllowance), sent on every connection. */
  allowance: 'allowance',
  boards: 'boards',
  tap: 'tap',
  sync: 'sync',
  watch: 'watch',
  boardsSnapshot: 'boards:snapshot',
  boardsDelta: 'boards:delta',
  /** To the player's own sockets: an operator froze or unfroze them (PlayerFrozenPush). */
  frozen: 'frozen',
  /** The running season's boards, as the compact boards come: `season:watch`, then these. */
  watchSeason: 'season:watch',
  seasonSnapshot: 'season:snapshot',
  seasonDelta: 'season:delta',
  /** To the player's own sockets: their friends, requests or invitations changed (no payload). */
  friends: 'friends',
} as const;

/** The `frozen` push: whether the player is frozen now. */
export interface PlayerFrozenPush {
  frozen: boolean;
}

/**
 * How long a session takes taps after it started: a client may keep taps it could not send (a
 * lost network, a closed page) and send them, numbered in their session, on a later visit. A batch
 * for a session started longer ago is refused (410), so that nothing kept replays for ever.
 */
export const SESSION_TAPS_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

/**
 * The most taps the game screen keeps on the device waiting to be sent: beyond them it counts no
 * more taps until some are sent (about eight minutes of tapping at the default allowance).
 */
export const MAX_KEPT_TAPS = 10_000;
