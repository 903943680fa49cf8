import { DEFAULT_SEASON_CALENDAR, type SeasonCalendar, type TapAllowance } from '@tapgram/shared';
import type { GameRepositories } from './repositories';
import {
  TAP_KEY_TTL_SECONDS,
  type BonusClaim,
  type BonusGrant,
  type BonusRecording,
  type BonusOutcome,
  type BoardKey,
  type CountryChangeDecision,
  type CountryChangeOutcome,
  type DayTaps,
  type PlayerBatch,
  type GameStore,
  type SessionOutcome,
  type TapOutcome,
} from './store';
import { TokenBuckets } from '../core/token-bucket';

const PRUNE_INTERVAL_MS = 60_000;

/** Single-node store: every tap is one atomic statement on Postgres, rates are kept in memory. */
export class PostgresGameStore implements GameStore {
  private readonly buckets: TokenBuckets;
  private readonly pruner: NodeJS.Timeout;

  private readonly repo: GameRepositories['players'];
  private readonly boards: GameRepositories['boards'];
  private readonly transaction: GameRepositories['transaction'];

  constructor(
    { players, boards, transaction }: Pick<GameRepositories, 'players' | 'boards' | 'transaction'>,
    rateLimit: TapAllowance,
    /** Told of every change the boards show (the push claims count them). */
    private readonly onChange: () => void = () => undefined,
    private readonly calendar: SeasonCalendar = DEFAULT_SEASON_CALENDAR,
  ) {
    this.repo = players;
    this.boards = boards;
    this.transaction = transaction;
    this.buckets = new TokenBuckets(rateLimit);
    this.pruner = setInterval(() => {
      this.buckets.prune();
      // A failure leaves the keys to the next prune; reads ignore keys past their time anyway.
      this.repo.pruneTapKeys(TAP_KEY_TTL_SECONDS).catch(() => undefined);
    }, PRUNE_INTERVAL_MS).unref();
  }

  async createUser(username: string, country: string, network: string | null) {
    const user = await this.repo.insertUser(username, country, network);
    this.onChange();
    return user;
  }

  async adoptUser() {
    this.onChange();
  }

  getUser(id: string) {
    return this.repo.findUser(id);
  }

  async rank(userId: string) {
    const user = await this.repo.findUser(userId);
    return user ? this.boards.rankOf(user.totalPoints) : null;
  }

  sessionStart(sessionId: string) {
    return this.repo.sessionStart(sessionId);
  }

  isFrozen(userId: string) {
    return this.repo.isFrozen(userId);
  }

  createSession(userId: string) {
    return this.repo.insertSession(userId);
  }

  /**
   * Every counted batch is durable at once: its number (or its key) is written with its taps. A
   * batch that counts takes one statement, the allowance taken first and given back when nothing
   * was counted; why one did not count is read afterwards (a re-send, a refusal: rare).
   */
  async tap(batch: PlayerBatch): Promise<TapOutcome> {
    const { userId, sessionId, count, seq = 0, after = 0, key } = batch;
    const taken = this.buckets.take(userId, count);
    if (taken) {
      const result = await this.repo
        .addTaps({
          userId,
          sessionId,
          count,
          seq,
          after,
          key: key ?? null,
          keySeconds: TAP_KEY_TTL_SECONDS,
          calendar: this.calendar,
        })
        .catch((error: unknown) => {
          this.buckets.refund(userId, count);
          throw error;
        });
      if (result) {
        this.onChange();
        const { user, session, lastSeq } = result;
        const numbers = { seq: lastSeq, durableSeq: lastSeq };
        return { kind: 'ok', counted: true, accepted: count, user, session, ...numbers };
      }
      this.buckets.refund(userId, count);
    }
    return this.notCounted(batch, taken);
  }

  /**
   * Why a batch did not count, checked in the order the rules go: the session, the player, a
   * re-send (answered with the totals), lost batches, and last the allowance (`taken`: it held
   * the batch, and a concurrent re-send of it was counted first).
   */
  private async notCounted(
    { userId, sessionId, count, seq = 0, after = 0, key }: PlayerBatch,
    taken: boolean,
  ): Promise<TapOutcome> {
    const state = await this.repo.findSessionState(sessionId, key ?? null, TAP_KEY_TTL_SECONDS);
    if (!state) return { kind: 'no-session' };
    if (state.session.userId !== userId) return { kind: 'not-owner' };
    if (state.frozen) return { kind: 'frozen' };
    if (state.keyCounted) return this.replay(userId, sessionId, count);
    if (seq > 0 && after > state.lastSeq) {
      return { kind: 'lost', seq: state.lastSeq, durableSeq: state.lastSeq };
    }
    if (seq > 0 && seq <= state.lastSeq) return this.replay(userId, sessionId, count);
    if (taken) return this.replay(userId, sessionId, count);
    const wait = this.buckets.msUntil(userId, count);
    return { kind: 'rate-limited', retryAfterMs: Number.isFinite(wait) ? wait : null };
  }

  async sessionNumbers(userId: string, sessionId: string): Promise<SessionOutcome> {
    const state = await this.repo.findSessionState(sessionId);
    if (!state) return { kind: 'no-session' };
    if (state.session.userId !== userId) return { kind: 'not-owner' };
    return { kind: 'ok', seq: state.lastSeq, durableSeq: state.lastSeq };
  }

  topUsers(limit: number, board: BoardKey = 'all') {
    return board === 'all' ? this.boards.topUsers(limit) : this.boards.seasonTopUsers(board, limit);
  }

  board(start: number, count: number) {
    return this.boards.board(start, count);
  }

  /** Postgres holds the frozen state, and every board reads it: only the pushes need telling. */
  async setFrozen() {
    this.onChange();
    return false;
  }

  around(userId: string, span: number) {
    return this.boards.around(userId, span);
  }

  topCountries(board: BoardKey = 'all') {
    return board === 'all' ? this.boards.topCountries() : this.boards.seasonCountries(board);
  }

  usersOver(points: number) {
    return this.boards.usersOver(points);
  }

  scores(board: BoardKey, userIds: string[]) {
    return this.boards.scores(board, userIds);
  }

  async seasonStanding(season: number, userId: string) {
    return (await this.boards.seasonStanding(season, userId)) ?? { rank: null, points: 0 };
  }

  /** Postgres's clock, which also decides the season of each batch (see addTaps). */
  now() {
    return this.repo.clock();
  }

  /** Postgres holds every season's scores already. */
  seasonScores() {
    return null;
  }

  async dropSeasons() {}

  /** Postgres counts every tap's day as it counts the tap. */
  async recentDayTaps(): Promise<DayTaps[]> {
    return [];
  }

  /** The claim's row and its points in one statement: both or neither. */
  async claimBonus(claim: BonusClaim): Promise<BonusOutcome> {
    const added = await this.repo.addBonus({ ...claim, addPoints: true, calendar: this.calendar });
    if (added.kind !== 'claimed') return added.kind === 'already' ? { kind: 'already' } : added;
    this.onChange();
    return added.user ? { kind: 'claimed', user: added.user } : { kind: 'missing' };
  }

  /** `record` adds the points with the rows that decide them, in its own transaction. */
  async grantBonuses(record: (how: BonusRecording) => Promise<BonusGrant[]>) {
    const grants = await record({ addPoints: true, granted: async () => {} });
    if (grants.length > 0) this.onChange();
    return grants;
  }

  /**
   * One transaction: the player's row locked (a tap statement waits for it, then counts for the
   * country it finds), their totals moved between the countries' rows, their country written.
   * The seasons' country boards are read through the players' countries: they follow.
   */
  async changeCountry(
    userId: string,
    country: string,
    decide: CountryChangeDecision,
  ): Promise<CountryChangeOutcome> {
    const outcome = await this.transaction(async ({ client, players }) => {
      const player = await players.lockForCountryChange(userId);
      if (!player) return null;
      if (player.country === country) return { kind: 'same' as const, changedAt: player.changedAt };
      await decide(client, player);
      await players.moveCountry({
        userId,
        from: player.country,
        to: country,
        points: player.totalPoints,
        taps: player.totalTaps,
        moves: null,
      });
      return { kind: 'changed' as const, changedAt: player.now };
    });
    if (outcome?.kind === 'changed') this.onChange();
    const user = outcome && (await this.repo.findUser(userId));
    return user && outcome ? { ...outcome, user } : { kind: 'missing' };
  }

  async close() {
    clearInterval(this.pruner);
  }

  /** Answers a re-sent batch with the current totals, counting nothing. */
  private async replay(userId: string, sessionId: string, count: number): Promise<TapOutcome> {
    const [user, state] = await Promise.all([
      this.repo.findUser(userId),
      this.repo.findSessionState(sessionId),
    ]);
    if (!user || !state) return { kind: 'no-session' };
    const { session, lastSeq } = state;
    const numbers = { seq: lastSeq, durableSeq: lastSeq };
    return { kind: 'ok', counted: false, accepted: count, user, session, ...numbers };
  }
}
