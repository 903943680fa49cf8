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
} as const;
