import type { GameSession, GameUser, TapAllowance, TapTotals } from '@tapgram/shared';

/**
 * Taps on their way or sent before and not answered: the server may have counted them already, so
 * that its figures read after `at` may hold them.
 */
export interface SentTaps {
  sessionId: string;
  /** When a page first sent them (ms since the epoch). */
  at: number;
  count: number;
}

/** Where the taps not yet counted stand, as the screen adds them to the server's figures. */
export interface Waiting {
  /** Taps counted on the screen, not yet by the server. */
  unconfirmed: number;
  /** Of them, the taps of the session on show (the Session counter adds them). */
  waitingHere: number;
  /** Of them, those sent before: figures the server read after they were sent may hold them. */
  sent: readonly SentTaps[];
}

/** What an answer that counted taps tells the game screen. */
export interface TapSettled {
  userId: string;
  sessionId: string;
  /** The player's and the session's totals after the answer. */
  totals: TapTotals;
  /** Taps the server counted, of the `sent` this answer settles. */
  accepted: number;
  sent: number;
}

/**
 * The game cannot count now: 503 (nothing was counted) or 504 (the server's store did not answer
 * in time, and may still count it). Either way the taps are kept and sent again with their
 * number or key, which the server counts once.
 */
export const isUnavailable = (status: number) => status === 503 || status === 504;

/** Whether a push is an allowance (checked by hand: the game screen loads no schema library). */
export function isAllowance(value: unknown): value is TapAllowance {
  const { perSecond, burst } = (value ?? {}) as Partial<TapAllowance>;
  return typeof perSecond === 'number' && perSecond > 0 && typeof burst === 'number' && burst >= 1;
}

/** The totals of an answer: compact (the channel's handshake asks for it) or full. */
export function totalsOf(answer: { user: GameUser; session: GameSession } | TapTotals): TapTotals {
  if (!('user' in answer)) {
    const { totalPoints, totalTaps, sessionPoints, sessionTaps } = answer;
    return { totalPoints, totalTaps, sessionPoints, sessionTaps };
  }
  const { user, session } = answer;
  return {
    totalPoints: user.totalPoints,
    totalTaps: user.totalTaps,
    sessionPoints: session.sessionPoints,
    sessionTaps: session.sessionTaps,
  };
}
