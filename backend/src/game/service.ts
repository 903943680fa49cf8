import {
  messages,
  MILESTONE_POINTS,
  SESSION_TAPS_MAX_AGE_MS,
  type BatchNumbers,
  type GameSession,
  type GameUser,
  type LeaderboardCountry,
  type LeaderboardUser,
  type MilestoneResponse,
  type PlayerRecord,
  type RankedUser,
} from '@tapgram/shared';
import { violates } from '../core/db';
import {
  ConflictError,
  ForbiddenError,
  GoneError,
  NotFoundError,
  TooManyRequestsError,
} from '../core/errors';
import type { Admission } from '../core/admission';
import { isId } from '../core/ids';
import type { Metrics } from '../core/metrics';
import { withRanks } from './ranking';
import type { SignalBuffer } from './signal-buffer';
import type { GameStore, PlayerBatch } from './store';

export interface TapAccepted extends BatchNumbers {
  accepted: number;
  user: GameUser;
  session: GameSession;
}

/**
 * The client holds answers to batches the store no longer counts (Redis lost them): nothing was
 * counted, and the client sends the batches above `seq` again.
 */
export class BatchesLostError extends ConflictError {
  constructor(readonly numbers: BatchNumbers) {
    super('Some acknowledged taps were lost by the server: send them again');
  }
}

/**
 * The player's allowance does not hold the batch: refused whole. `retryAfterMs` says when it will
 * (absent: never, the batch is larger than the burst).
 */
export class TapsTooFastError extends TooManyRequestsError {
  readonly retryAfterMs?: number;

  constructor(retryAfterMs: number | null) {
    super(
      'Tapping too fast: slow down a little',
      retryAfterMs === null ? undefined : Math.ceil(retryAfterMs / 1000),
    );
    if (retryAfterMs !== null) this.retryAfterMs = retryAfterMs;
  }
}

/**
 * What names a batch to the signals, so that a refused batch sent again and counted is not
 * recorded as refused: its number in its session, or its tap key. Others have no name.
 */
/**
 * A batch as a client sends it. Its player is the one the request's signed cookie names; a call
 * that also names one (POST /api/tap's `userId`) must name that one.
 */
export type SentBatch = Omit<PlayerBatch, 'userId'> & { userId?: string };

function batchName({ sessionId, seq, key }: PlayerBatch): string | undefined {
  if (seq) return `${sessionId}#${seq}`;
  if (key) return `${sessionId}@${key}`;
  return undefined;
}

/** Session start times a process remembers (they never change): older ones are read again. */
const SESSION_STARTS_KEPT = 20_000;

export const SESSION_TOO_OLD = 'This session is too old to take taps';

export interface LeaderboardSnapshot {
  users: LeaderboardUser[];
  countries: LeaderboardCountry[];
  milestone: MilestoneResponse;
}

/** The game's rules: who may act for a player, and what a tap does. */
export class GameService {
  /** The last tap under way of each session: the next one waits for it. */
  private readonly sessionTurns = new Map<string, Promise<unknown>>();
  /** When each session met lately started (epoch ms): a batch's session must be recent. */
  private readonly sessionStarts = new Map<string, number>();

  private readonly store: GameStore;
  private readonly metrics: Metrics;
  private readonly signals: SignalBuffer | null;
  private readonly admission: Admission | undefined;
  private readonly now: () => number;

  constructor(deps: {
    store: GameStore;
    metrics: Metrics;
    /** Records the suspicion signals of counted and refused batches; null when they are off. */
    signals?: SignalBuffer | null;
    /** Refuses a batch (503) beyond what the process takes; none: every batch is taken. */
    admission?: Admission;
    now?: () => number;
  }) {
    this.store = deps.store;
    this.metrics = deps.metrics;
    this.signals = deps.signals ?? null;
    this.admission = deps.admission;
    this.now = deps.now ?? Date.now;
  }

  /** `network`: the hashed network the request came from, a suspicion signal. */
  createUser(username: string, country: string, network: string | null): Promise<GameUser> {
    return this.store.createUser(username, country, network);
  }

  /** A player made in Postgres by a transaction of its own (a Telegram launch): shown as new. */
  adoptUser(user: GameUser): Promise<void> {
    return this.store.adoptUser(user);
  }

  async getUser(id: string): Promise<GameUser> {
    const user = isId(id) ? await this.store.getUser(id) : null;
    if (!user) throw new NotFoundError('User not found');
    return user;
  }

  /**
   * A player's public record; to the browser that plays as them (`player`, its signed cookie),
   * also whether they are frozen.
   */
  async playerRecord(id: string, player: string | null): Promise<PlayerRecord> {
    const user = await this.getUser(id);
    if (player !== id) return user;
    return { ...user, frozen: await this.store.isFrozen(id) };
  }

  async rank(id: string): Promise<number> {
    const rank = isId(id) ? await this.store.rank(id) : null;
    if (rank === null) throw new NotFoundError('User not found');
    return rank;
  }

  async createSession(player: string | null, userId: string): Promise<GameSession> {
    assertPlayer(player, userId);
    try {
      return await this.store.createSession(userId);
    } catch (error) {
      if (violates(error, 'foreignKey')) {
        throw new NotFoundError('User not found');
      }
      throw error;
    }
  }

  /**
   * Counts the player's batch of `count` taps whole, or refuses it (429) when the rate does not
   * allow all of it. A re-sent batch (`seq` not above the last counted, or a tap key counted
   * already) answers without counting.
   */
  async tap(player: string | null, sent: SentBatch): Promise<TapAccepted> {
    try {
      const accepted = this.admission
        ? await this.admission.tap(() => this.countTaps(player, sent))
        : await this.countTaps(player, sent);
      this.metrics.tapsAccepted(accepted.accepted);
      return accepted;
    } catch (error) {
      this.metrics.tapsRefused(error, sent.count);
      throw error;
    }
  }

  private async countTaps(player: string | null, sent: SentBatch): Promise<TapAccepted> {
    const batch: PlayerBatch = { ...sent, userId: assertPlayer(player, sent.userId ?? player) };
    const { userId, sessionId, count } = batch;
    // The age check waits its turn too: batches sent together are counted in the order sent.
    const outcome = await this.inSessionOrder(sessionId, async () => {
      await this.assertRecent(sessionId);
      return this.store.tap(batch);
    });
    switch (outcome.kind) {
      case 'ok': {
        const { accepted, user, session, seq: last, durableSeq } = outcome;
        if (outcome.counted) this.signals?.counted(userId, accepted, batchName(batch));
        return { accepted, user, session, seq: last, durableSeq };
      }
      case 'lost':
        throw new BatchesLostError({ seq: outcome.seq, durableSeq: outcome.durableSeq });
      case 'no-session':
        throw new NotFoundError('Session not found');
      case 'not-owner':
        throw new ForbiddenError('This session belongs to another player');
      case 'rate-limited':
        this.signals?.refused(userId, count, batchName(batch));
        throw new TapsTooFastError(outcome.retryAfterMs);
      case 'frozen':
        throw new ForbiddenError(messages.playerFrozen);
    }
  }

  /**
   * A session takes taps for SESSION_TAPS_MAX_AGE_MS after it started: taps a client kept (a lost
   * network, a closed page) may reach it on a later visit, each batch once by its number, and no
   * later. Its start is read once per process (it never changes); the store decides the rest (an
   * unknown session, another player's).
   */
  private async assertRecent(sessionId: string): Promise<void> {
    let startedAt = this.sessionStarts.get(sessionId);
    if (startedAt === undefined) {
      if (!isId(sessionId)) return;
      const start = await this.store.sessionStart(sessionId);
      if (!start) return;
      startedAt = start.startedAt;
      if (this.sessionStarts.size >= SESSION_STARTS_KEPT) {
        const oldest = this.sessionStarts.keys().next().value;
        if (oldest !== undefined) this.sessionStarts.delete(oldest);
      }
      this.sessionStarts.set(sessionId, startedAt);
    }
    if (this.now() - startedAt > SESSION_TAPS_MAX_AGE_MS) throw new GoneError(SESSION_TOO_OLD);
  }

  /** Where the player's session stands, for a client holding batches not yet durable. */
  async sessionNumbers(player: string | null, sessionId: string): Promise<BatchNumbers> {
    const userId = assertPlayer(player, player);
    const outcome = await this.store.sessionNumbers(userId, sessionId);
    if (outcome.kind === 'no-session') throw new NotFoundError('Session not found');
    if (outcome.kind === 'not-owner') {
      throw new ForbiddenError('This session belongs to another player');
    }
    return { seq: outcome.seq, durableSeq: outcome.durableSeq };
  }

  /** The top of the board, ranked by the Rank tile's rule. */
  async topUsers(limit: number): Promise<RankedUser[]> {
    return withRanks({ start: 0, firstRank: 1, entries: await this.store.topUsers(limit) });
  }

  /** The player's row and up to `span` rows either side, ranked by the Rank tile's rule. */
  async around(id: string, span: number): Promise<RankedUser[]> {
    const stretch = await this.store.around(id, span);
    if (!stretch) throw new NotFoundError('User not found');
    return withRanks(stretch);
  }

  /**
   * Runs a session's taps one after another, in the order they arrived. A batch counts only above
   * the session's last number, so one that overtook an earlier batch (while the store reloads the
   * session, say) would make the earlier one look like a re-send, and its taps would be lost.
   */
  private inSessionOrder<T>(sessionId: string, step: () => Promise<T>): Promise<T> {
    const before = this.sessionTurns.get(sessionId);
    const result = before ? before.then(step, step) : step();
    const turn = result.then(
      () => undefined,
      () => undefined,
    );
    this.sessionTurns.set(sessionId, turn);
    void turn.then(() => {
      if (this.sessionTurns.get(sessionId) === turn) this.sessionTurns.delete(sessionId);
    });
    return result;
  }

  topCountries() {
    return this.store.topCountries();
  }

  async milestone(): Promise<MilestoneResponse> {
    return { usersOver100k: await this.store.usersOver(MILESTONE_POINTS) };
  }

  async snapshot(limit: number): Promise<LeaderboardSnapshot> {
    const [users, countries, milestone] = await Promise.all([
      this.topUsers(limit),
      this.topCountries(),
      this.milestone(),
    ]);
    return { users, countries, milestone };
  }
}

/** The player the request acts as, when it may act for `userId`. */
function assertPlayer(player: string | null, userId: string | null): string {
  if (!player) throw new ForbiddenError('This browser has not created this player');
  if (player !== userId) throw new ForbiddenError('This browser plays as another player');
  return player;
}
