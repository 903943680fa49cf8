import type { GameSession, GameUser, LeaderboardCountry, LeaderboardUser } from '@tapgram/shared';

export type TapOutcome =
  | { kind: 'ok'; accepted: number; user: GameUser; session: GameSession }
  | { kind: 'rate-limited' }
  | { kind: 'no-session' }
  | { kind: 'not-owner' };

/**
 * Where taps, totals and leaderboards live. Chosen once at start-up: straight on Postgres, or on
 * Redis (atomic scripts, sorted sets) flushed to Postgres.
 */
export interface GameStore {
  createUser(username: string, country: string): Promise<GameUser>;
  getUser(id: string): Promise<GameUser | null>;
  /** 1 + the number of players with strictly more points; null for an unknown player. */
  rank(userId: string): Promise<number | null>;
  createSession(userId: string): Promise<GameSession>;
  /**
   * Adds up to `count` taps to the player, the session and the country in one atomic step,
   * as many as the player's rate allows. A batch id already seen answers its first result again.
   */
  tap(userId: string, sessionId: string, count: number, batchId?: string): Promise<TapOutcome>;
  topUsers(limit: number): Promise<LeaderboardUser[]>;
  topCountries(): Promise<LeaderboardCountry[]>;
  usersOver(points: number): Promise<number>;
  /** True at most once a second across every process, when something changed since the last push. */
  claimPush(): Promise<boolean>;
  /** Writes what is pending to Postgres (Redis mode); called periodically and on shutdown. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface RateLimit {
  perSecond: number;
  burst: number;
}
