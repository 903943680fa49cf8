import type {
  BatchNumbers,
  GameSession,
  GameUser,
  LeaderboardCountry,
  LeaderboardUser,
} from '@tapgram/shared';
import type pg from 'pg';
import type { BoardStretch } from './ranking';
import type { PlayerForCountryChange } from './repository';

/** How long a counted tap key is remembered: a tap sent again with it later counts again. */
export const TAP_KEY_TTL_SECONDS = 3600;

/**
 * One batch of a player's taps, as the game counts it: `count` taps of `userId` in `sessionId`.
 * What makes it count once when it is sent again: its number in the session (`seq`; 0 or absent:
 * none) with `after`, the highest number its client holds an answer for, or `key`, the
 * Idempotency-Key of a POSTed tap. A batch with neither counts each time it is sent.
 */
export interface PlayerBatch {
  userId: string;
  sessionId: string;
  count: number;
  seq?: number;
  after?: number;
  key?: string;
}

export type TapOutcome =
  | ({
      kind: 'ok';
      /** False for a re-sent batch: answered with the totals, not counted again. */
      counted: boolean;
      accepted: number;
      user: GameUser;
      session: GameSession;
    } & BatchNumbers)
  | ({ kind: 'lost' } & BatchNumbers)
  /** `retryAfterMs`: when the player's allowance holds the batch; null: never (above the burst). */
  | { kind: 'rate-limited'; retryAfterMs: number | null }
  | { kind: 'frozen' }
  | { kind: 'no-session' }
  | { kind: 'not-owner' };

/** Which board a read looks at: every point ever (`'all'`), or one season's (its number). */
export type BoardKey = 'all' | number;

/** A player's points in a season, as the archive takes them. */
export interface SeasonScore {
  userId: string;
  points: number;
}

/** A player's taps on a UTC day (days since 1970-01-01). */
export interface DayTaps {
  day: number;
  taps: number;
}

/** A check-in bonus to record: the player, the UTC day it is for, the streak then, its points. */
export interface BonusClaim {
  userId: string;
  day: number;
  streak: number;
  points: number;
}

export type BonusOutcome =
  | { kind: 'claimed'; user: GameUser }
  /** The player claimed that day already (another tab, another node, a retry). */
  | { kind: 'already' }
  | { kind: 'frozen' }
  | { kind: 'missing' };

/**
 * A bonus whose row Postgres wrote (see grantBonuses): its player, its points and the marker that
 * names it once in a store that adds the points apart (`ref:<invitation id>`, or the streak's
 * `bonusDay`), with the marker's value (`rank`: a player whose marker holds it or more has it).
 */
export interface BonusGrant {
  userId: string;
  points: number;
  marker: string;
  rank: number;
}

/** How grantBonuses' `record` writes its bonuses, in its own transaction. */
export interface BonusRecording {
  /** True: add their points in Postgres too (the store reads Postgres). */
  addPoints: boolean;
  /**
   * Called in that transaction with the grants it wrote: a store that adds the points apart
   * records there that it must still add them, so that they exist exactly when the rows do.
   */
  granted(tx: pg.PoolClient, grants: BonusGrant[]): Promise<void>;
}

/**
 * What decides a country change, in its Postgres transaction once the player's row is locked:
 * it refuses by throwing (too soon after the last one), and records the change (the audit).
 */
export type CountryChangeDecision = (
  client: pg.PoolClient,
  player: PlayerForCountryChange,
) => Promise<void>;

export type CountryChangeOutcome =
  /** `changedAt`: when the player last changed their country (now, for 'changed'). */
  { kind: 'changed' | 'same'; user: GameUser; changedAt: Date | null } | { kind: 'missing' };

export type SessionOutcome =
  ({ kind: 'ok' } & BatchNumbers) | { kind: 'no-session' } | { kind: 'not-owner' };

/**
 * Where taps, totals and leaderboards live. Chosen once at start-up: straight on Postgres, or on
 * Redis (atomic scripts, sorted sets) flushed to Postgres.
 */
export interface GameStore {
  /** `network`: the hashed network the player was created from (null: unknown). */
  createUser(username: string, country: string, network: string | null): Promise<GameUser>;
  /**
   * Takes in a player that a transaction of its own made in Postgres (a Telegram launch makes the
   * player and binds the account in one), as createUser shows a new one. A store that misses it
   * (the call failed) loads the player at its first tap, as after any loss.
   */
  adoptUser(user: GameUser): Promise<void>;
  getUser(id: string): Promise<GameUser | null>;
  /** 1 + the number of players with strictly more points; null for an unknown player. */
  rank(userId: string): Promise<number | null>;
  createSession(userId: string): Promise<GameSession>;
  /** When the session started (epoch ms), and whose it is; null for an unknown session. */
  sessionStart(sessionId: string): Promise<{ userId: string; startedAt: number } | null>;
  /** Whether the game's operators froze the player (Postgres holds it). */
  isFrozen(userId: string): Promise<boolean>;
  /**
   * Counts a batch of `count` taps on the player, the session and the country in one atomic step:
   * whole, or not at all when the player's rate does not allow all of it. A batch numbered `seq`
   * not above the last one counted for the session is a re-send: it answers the current totals
   * without counting again. A batch whose client holds an answer for a number `after` above the
   * session's last one reveals batches the store lost: 'lost', counting nothing. A batch with a
   * key the session counted within TAP_KEY_TTL_SECONDS is a re-send too.
   */
  tap(batch: PlayerBatch): Promise<TapOutcome>;
  /** Where the player's session stands: its last counted and last durable batch numbers. */
  sessionNumbers(userId: string, sessionId: string): Promise<SessionOutcome>;
  /** The top of a board: all time, or a running season's (frozen players left out of both). */
  topUsers(limit: number, board?: BoardKey): Promise<LeaderboardUser[]>;
  /** `count` players of the board from position `start` (0: the top), for the export. */
  board(start: number, count: number): Promise<LeaderboardUser[]>;
  /**
   * Takes a player off the boards, the country totals and the milestone count, and refuses their
   * taps (frozen); or puts them back. Postgres holds the frozen state already: the store follows
   * it, whatever state it held, and answers whether it changed anything (false: it already
   * agreed). A store that keeps a copy and could not follow catches up by itself soon after.
   */
  setFrozen(userId: string, frozen: boolean): Promise<boolean>;
  /**
   * The player and up to `span` players either side of them on the board, with where that
   * stretch starts; null for an unknown player.
   */
  around(userId: string, span: number): Promise<BoardStretch | null>;
  topCountries(board?: BoardKey): Promise<LeaderboardCountry[]>;
  usersOver(points: number): Promise<number>;
  /**
   * The points on a board of each of these players (0 for none yet); frozen and unknown players
   * are left out.
   */
  scores(board: BoardKey, userIds: string[]): Promise<Map<string, number>>;
  /** A player's points in a running season and their rank there (null: frozen, off the board). */
  seasonStanding(season: number, userId: string): Promise<{ rank: number | null; points: number }>;
  /** The store's clock (epoch ms): it decides which season a point belongs to. */
  now(): Promise<number>;
  /**
   * The scores of a season that has ended by the store's clock, page by page, when the store
   * keeps them apart from Postgres (the archive writes them there); null when Postgres holds them.
   */
  seasonScores(season: number): AsyncIterable<SeasonScore[]> | null;
  /** Forgets what the store keeps of the seasons before `season` (archived). */
  dropSeasons(before: number): Promise<void>;
  /**
   * The player's taps on the days the store counts apart from Postgres's daily counts (Redis:
   * the day they last tapped and the one before, which the flusher writes soon after); none when
   * every tap is written to Postgres at once.
   */
  recentDayTaps(userId: string): Promise<DayTaps[]>;
  /**
   * Adds a check-in bonus to the player's points, their country's and the running season's,
   * once a player and a day: Postgres's claim row decides, and a claim made again (a retry,
   * another tab or node) adds nothing and answers 'already'. A frozen player claims nothing.
   */
  claimBonus(claim: BonusClaim): Promise<BonusOutcome>;
  /**
   * Adds bonuses that `record` decides in Postgres (a transaction that writes their rows once,
   * under unique keys): with `addPoints` true it also adds their points there (the store reads
   * Postgres); false, the store adds each grant's points itself once, as claimBonus does, and
   * `granted` records them in that transaction until it has. Answers the grants made (none:
   * nothing was due, or another node made them).
   */
  grantBonuses(record: (how: BonusRecording) => Promise<BonusGrant[]>): Promise<BonusGrant[]>;
  /**
   * Moves the player to `country` with all their points, once: off the old country's all-time
   * and running seasons' boards, onto the new one's (archived seasons keep the country they were
   * played under). Taps counted before it count for the old country, after it for the new; a
   * frozen player stays off the boards. `decide` runs in the change's transaction and may refuse
   * it; the country they play for already changes nothing ('same', without `decide`).
   */
  changeCountry(
    userId: string,
    country: string,
    decide: CountryChangeDecision,
  ): Promise<CountryChangeOutcome>;
  close(): Promise<void>;
}
