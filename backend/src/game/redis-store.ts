import type { Result } from 'ioredis';
import {
  DEFAULT_SEASON_CALENDAR,
  type GameSession,
  type GameUser,
  type SeasonCalendar,
  type TapAllowance,
} from '@tapgram/shared';
import type pg from 'pg';
import { withTransaction } from '../core/db';
import { GatewayTimeoutError, HttpError, ServiceUnavailableError } from '../core/errors';
import type { EventBus } from '../core/events';
import type { Logger } from '../core/logger';
import type { Metrics } from '../core/metrics';
import { isRedisUnreachable, type Redis } from '../core/redis';
import './bonus-events';
import { RedisFlusher } from './redis-flusher';
import { RedisGenerationWatch } from './redis-generation';
import { gameKeys, type GameKeys } from './redis-keys';
import { RedisRebuilder } from './redis-rebuild';
import { RedisStrandedTaps } from './redis-stranded';
import {
  AROUND_USER_SCRIPT,
  BOARD_SCRIPT,
  BONUS_SCRIPT,
  COUNTRY_SCRIPT,
  FREEZE_SCRIPT,
  SEASON_COUNTRIES_SCRIPT,
  SEASON_RANK_SCRIPT,
  SEASON_TOP_SCRIPT,
  tapAccepted,
  tapLost,
  type TapReply,
} from './redis-scripts';
import { RedisTapQueue } from './redis-tap-queue';
import type { GameRepositories } from './repositories';
import { GameRepository } from './repository';
import type {
  BonusClaim,
  BonusGrant,
  BonusOutcome,
  BonusRecording,
  BoardKey,
  CountryChangeDecision,
  CountryChangeOutcome,
  DayTaps,
  GameStore,
  PlayerBatch,
  SeasonScore,
  SessionOutcome,
  TapOutcome,
} from './store';

export const GAME_UNAVAILABLE = 'The game is briefly unavailable, try again in a moment';
export const GAME_NO_ANSWER = 'The game did not answer in time: the taps may still be counted';
// What ioredis says of a command it refused to send (the connection is not writable).
const NOT_SENT = /Stream isn't writeable/;
// Between attempts to reach Redis again: refused before any work (a player is not created in
// Postgres only to fail on Redis).
const CONNECTION_LOST = new Set(['reconnecting', 'close', 'end']);
// A Redis behind Postgres stays so until an operator acts: its refusals need not be retried soon.
const BEHIND_RETRY_AFTER_S = 5;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    gameBoard(...args: (string | number)[]): Result<string[], Context>;
    gameFreeze(...args: (string | number)[]): Result<0 | 1 | 2, Context>;
    gameAroundUser(...args: (string | number)[]): Result<(string | number)[] | null, Context>;
    gameSeasonTop(...args: (string | number)[]): Result<string[], Context>;
    gameSeasonRank(...args: (string | number)[]): Result<[number, number], Context>;
    gameSeasonCountries(...args: (string | number)[]): Result<(string | number)[], Context>;
    gameBonus(...args: (string | number)[]): Result<(string | number)[], Context>;
    gameCountry(...args: (string | number)[]): Result<CountryReply, Context>;
  }
}

type CountryReply = 'moved' | 'same' | 'no-user' | 'not-ready';

/** Redis did not hold what a country change needs (emptied, or the player not loaded): undone. */
class CountryNotHeld extends Error {
  constructor(readonly reply: 'no-user' | 'not-ready') {
    super(`country change: ${reply}`);
  }
}

/** Players of an ended season read from Redis in one step of the archive. */
const SEASON_PAGE = 5000;

export interface RedisStoreDeps {
  redis: Redis;
  repos: GameRepositories;
  rateLimit: TapAllowance;
  logger: Logger;
  /** REDIS_PREFIX: the keys of this deployment. */
  prefix: string;
  metrics?: Metrics;
  calendar?: SeasonCalendar;
  /**
   * Where bonuses granted in Postgres are recorded until Redis holds them (the outbox of
   * `events`, in `pool`); without it a node that stops between the two loses them. Also where a
   * flush that Postgres refused leaves its unbatched taps (see RedisStrandedTaps).
   */
  outbox?: { events: EventBus; pool: pg.Pool };
}

/**
 * The hot path on Redis: per-player hashes, sorted sets for both leaderboards, atomic tap scripts.
 * Postgres stays the durable copy: a flusher writes what changed about once a second, and a Redis
 * that lost its data is rebuilt from Postgres before it serves taps or reads. While Redis cannot
 * be reached, every call fails at once with a 503 and the flusher waits for it to return.
 */
export class RedisGameStore implements GameStore {
  private readonly k: GameKeys;
  private readonly repo: GameRepositories['players'];
  private readonly boards: GameRepositories['boards'];
  private readonly transaction: GameRepositories['transaction'];
  private readonly flusher: RedisFlusher;
  private readonly rebuilder: RedisRebuilder;
  private readonly taps: RedisTapQueue;
  private readonly generation: RedisGenerationWatch;
  /** Players whose freeze or unfreeze Redis has not followed (it failed after Postgres's). */
  private readonly unfollowed = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  private readonly redis: Redis;
  private readonly logger: Logger;
  private readonly metrics: Metrics | undefined;
  private readonly calendar: SeasonCalendar;
  private readonly outbox: RedisStoreDeps['outbox'];

  constructor({
    redis,
    repos: { players, boards, rebuild, transaction },
    rateLimit,
    logger,
    prefix,
    metrics,
    calendar = DEFAULT_SEASON_CALENDAR,
    outbox,
  }: RedisStoreDeps) {
    this.redis = redis;
    this.logger = logger;
    this.metrics = metrics;
    this.calendar = calendar;
    this.outbox = outbox;
    this.k = gameKeys(prefix);
    this.repo = players;
    this.boards = boards;
    this.transaction = transaction;
    this.rebuilder = new RedisRebuilder(redis, { players, rebuild }, this.k, logger);
    const stranded =
      outbox &&
      new RedisStrandedTaps(
        redis,
        this.k,
        { transaction },
        this.rebuilder,
        calendar,
        outbox,
        logger,
      );
    this.flusher = new RedisFlusher(redis, players, this.k, metrics, stranded?.keep);
    this.taps = new RedisTapQueue(redis, this.k, rateLimit, calendar);
    this.generation = new RedisGenerationWatch(redis, rebuild, this.k, logger);
    metrics?.watchRedisGeneration(() => this.generation.isBehind);
    redis.defineCommand('gameBoard', { numberOfKeys: 1, lua: BOARD_SCRIPT });
    redis.defineCommand('gameFreeze', { numberOfKeys: 5, lua: FREEZE_SCRIPT });
    redis.defineCommand('gameAroundUser', { numberOfKeys: 1, lua: AROUND_USER_SCRIPT });
    redis.defineCommand('gameSeasonTop', { numberOfKeys: 2, lua: SEASON_TOP_SCRIPT });
    redis.defineCommand('gameSeasonRank', { numberOfKeys: 2, lua: SEASON_RANK_SCRIPT });
    redis.defineCommand('gameSeasonCountries', { numberOfKeys: 3, lua: SEASON_COUNTRIES_SCRIPT });
    redis.defineCommand('gameBonus', { numberOfKeys: 8, lua: BONUS_SCRIPT });
    redis.defineCommand('gameCountry', { numberOfKeys: 9, lua: COUNTRY_SCRIPT });
    outbox?.events.on('game.bonus-granted', ({ bonuses }) => this.addGranted(bonuses));
    if (stranded) {
      outbox?.events.on('game.taps-stranded', (taps) => this.available(() => stranded.add(taps)));
    }
  }

  /**
   * Recovers what stopped flushers left, rebuilds an empty Redis, checks that a Redis with data
   * holds the generation Postgres follows, then flushes every `intervalMs`.
   */
  async start(intervalMs: number): Promise<void> {
    await this.flusher.recover();
    await this.rebuilder.ensureReady();
    // Counters without a generation (kept from an earlier version) take Postgres's here.
    await this.generation.check();
    await this.rebuilder.adoptFrozen();
    this.metrics?.flushesStarted();
    let unreachable = false;
    this.timer = setInterval(() => {
      // What is dirty stays in Redis until it returns; one line says so, not one a tick.
      if (this.redis.status !== 'ready') {
        if (!unreachable) this.logger.warn('Redis unreachable: game flushes wait for it');
        unreachable = true;
        return;
      }
      unreachable = false;
      this.flush()
        .then(() => (this.generation.isBehind ? undefined : this.catchUp()))
        .catch((err: unknown) => {
          if (!isRedisUnreachable(this.redis, err)) this.logger.error({ err }, 'game flush failed');
        });
    }, intervalMs);
  }

  createUser(username: string, country: string, network: string | null): Promise<GameUser> {
    return this.available(async () => {
      const user = await this.repo.insertUser(username, country, network);
      await this.showNewUser(user);
      return user;
    });
  }

  adoptUser(user: GameUser): Promise<void> {
    return this.available(() => this.showNewUser(user));
  }

  /** A player just made in Postgres, on the board with no points. */
  private async showNewUser({ id, username, country }: GameUser): Promise<void> {
    const replies = await this.redis
      .multi()
      .exists(this.k.ready)
      .hsetnx(this.k.user(id), 'username', username)
      .hsetnx(this.k.user(id), 'country', country)
      .hsetnx(this.k.user(id), 'points', 0)
      .hsetnx(this.k.user(id), 'taps', 0)
      .zadd(this.k.users, 'NX', 0, id)
      .incr(this.k.version)
      .exec();
    // The version bump triggers a push: it must show the rebuilt boards, not an emptied Redis.
    if (!replies?.[0]?.[1]) await this.rebuilder.ensureReady();
  }

  getUser(id: string): Promise<GameUser | null> {
    return this.whenReady(async () => {
      const [username, country, points, taps] = await this.redis.hmget(
        this.k.user(id),
        'username',
        'country',
        'points',
        'taps',
      );
      if (username === null || country === null) return this.repo.findUser(id);
      return { id, username, country, totalPoints: Number(points), totalTaps: Number(taps) };
    });
  }

  rank(userId: string): Promise<number | null> {
    return this.whenReady(async () => {
      const score = await this.redis.zscore(this.k.users, userId);
      if (score === null) {
        const user = await this.repo.findUser(userId);
        return user ? this.boards.rankOf(user.totalPoints) : null;
      }
      return 1 + (await this.redis.zcount(this.k.users, `(${score}`, '+inf'));
    });
  }

  sessionStart(sessionId: string) {
    return this.repo.sessionStart(sessionId);
  }

  isFrozen(userId: string) {
    return this.repo.isFrozen(userId);
  }

  createSession(userId: string): Promise<GameSession> {
    return this.available(async () => {
      const session = await this.repo.insertSession(userId);
      await this.rebuilder.cacheSession(session);
      return session;
    });
  }

  tap(batch: PlayerBatch): Promise<TapOutcome> {
    return this.available(() => this.tapOnce(batch));
  }

  sessionNumbers(userId: string, sessionId: string): Promise<SessionOutcome> {
    return this.available(async () => {
      const [owner, seq, durable] = await this.redis.hmget(
        this.k.session(sessionId),
        'userId',
        'seq',
        'durable',
      );
      if (owner === null) {
        // Not in Redis (idle, or Redis lost it): Postgres's numbers are those a tap would meet.
        const state = await this.repo.findSessionState(sessionId);
        if (!state) return { kind: 'no-session' };
        if (state.session.userId !== userId) return { kind: 'not-owner' };
        return { kind: 'ok', seq: state.lastSeq, durableSeq: state.lastSeq };
      }
      if (owner !== userId) return { kind: 'not-owner' };
      return { kind: 'ok', seq: Number(seq ?? 0), durableSeq: Number(durable ?? 0) };
    });
  }

  private async tapOnce(batch: PlayerBatch): Promise<TapOutcome> {
    const { userId, sessionId } = batch;
    for (let attempt = 0; ; attempt += 1) {
      const reply = await this.runTapScript(batch);
      const [status] = reply;
      if (status === 'ok' || status === 'again') return tapAccepted(reply, userId, sessionId);
      if (status === 'lost') return tapLost(reply);
      if (status === 'rate-limited') {
        const wait = Number(reply[1]);
        return { kind: status, retryAfterMs: wait >= 0 ? wait : null };
      }
      if (status === 'not-owner' || status === 'frozen') return { kind: status };
      // Something Redis does not hold (yet): rebuild it, or load the player and session from
      // Postgres, then try again (an emptied Redis needs both). A Redis that lost them again at
      // every try is unavailable, not a sign that the session is unknown: nothing was counted.
      if (attempt >= 2) throw new ServiceUnavailableError(GAME_UNAVAILABLE, 1);
      if (status === 'not-ready') await this.rebuilder.ensureReady();
      else if (!(await this.rebuilder.loadPlayer(userId, sessionId))) return { kind: 'no-session' };
    }
  }

  /**
   * A tap script that went out and was not answered may still run: a hung Redis runs what it had
   * received when it wakes. That answer is a 504 (the taps may be counted), never the 503 of
   * taps refused before anything was sent; a batch sent again with its number or key counts once.
   */
  private async runTapScript(batch: PlayerBatch): Promise<TapReply> {
    try {
      return await this.taps.tap(batch);
    } catch (error) {
      if (isRedisUnreachable(this.redis, error) && !NOT_SENT.test(String(error))) {
        throw new GatewayTimeoutError(GAME_NO_ANSWER, 1);
      }
      throw error;
    }
  }

  topUsers(limit: number, board: BoardKey = 'all') {
    if (board === 'all') return this.board(0, limit);
    return this.whenReady(async () => {
      const flat = await this.redis.gameSeasonTop(
        this.k.seasonUsers(board),
        this.k.frozen,
        limit,
        this.k.user(''),
      );
      return boardEntries(flat);
    });
  }

  board(start: number, count: number) {
    return this.whenReady(async () => {
      const flat = await this.redis.gameBoard(this.k.users, start, count, this.k.user(''));
      return boardEntries(flat);
    });
  }

  /**
   * Every node reads the boards from this Redis: the change shows on all of them at once. When
   * Redis fails, the player is followed again after the next flush, from Postgres's state.
   */
  async setFrozen(userId: string, frozen: boolean): Promise<boolean> {
    try {
      const changed = await this.whenReady(() => this.freeze(userId, frozen));
      this.unfollowed.delete(userId);
      return changed;
    } catch (error) {
      this.unfollowed.add(userId);
      throw error;
    }
  }

  private async freeze(userId: string, frozen: boolean): Promise<boolean> {
    const outcome = await this.redis.gameFreeze(
      this.k.users,
      this.k.frozenCountries,
      this.k.user(userId),
      this.k.version,
      this.k.frozen,
      userId,
      frozen ? 1 : 0,
    );
    // A player Redis does not hold is loaded as Postgres has them (frozen already, or not).
    if (outcome === 0) await this.rebuilder.loadUser(userId);
    return outcome === 2;
  }

  /** Whether this Redis holds counters Postgres no longer follows: every game call is refused. */
  get isBehind(): boolean {
    return this.generation.isBehind;
  }

  /** After a flush: an emptied Redis is rebuilt, and the freezes it missed are followed. */
  private async catchUp(): Promise<void> {
    await this.rebuilder.ensureReady();
    await this.followFrozen();
  }

  /**
   * Players whose freeze or unfreeze Redis missed take Postgres's state. The operator's call that
   * failed told nobody of the change: the player's screen is told now, when it takes effect.
   */
  private async followFrozen(): Promise<void> {
    for (const userId of this.unfollowed) {
      const frozen = await this.repo.isFrozen(userId);
      const changed = await this.freeze(userId, frozen);
      this.unfollowed.delete(userId);
      if (changed) this.outbox?.events.emit('player.frozen', { playerId: userId, frozen });
    }
  }

  around(userId: string, span: number) {
    return this.whenReady(async () => {
      const reply = await this.redis.gameAroundUser(this.k.users, userId, span, this.k.user(''));
      // Not on the board: as rank() does, Postgres answers for a player Redis does not hold.
      if (reply === null) return this.boards.around(userId, span);
      const [start, above, ...flat] = reply;
      const entries = [];
      for (let i = 0; i < flat.length; i += 3) {
        entries.push({
          id: String(flat[i]),
          username: String(flat[i + 1]),
          totalPoints: Number(flat[i + 2]),
        });
      }
      return { start: Number(start), firstRank: Number(above) + 1, entries };
    });
  }

  /** The countries board without the points of frozen players (few: read whole). */
  topCountries(board: BoardKey = 'all') {
    if (board !== 'all') return this.seasonCountries(board);
    return this.whenReady(async () => {
      const replies = await this.redis
        .multi()
        .zrevrangebyscore(this.k.countries, '+inf', '(0', 'WITHSCORES')
        .hgetall(this.k.frozenCountries)
        .exec();
      const flat = (replies?.[0]?.[1] ?? []) as string[];
      const frozen = (replies?.[1]?.[1] ?? {}) as Record<string, string>;
      const entries = [];
      for (let i = 0; i < flat.length; i += 2) {
        const totalPoints = Number(flat[i + 1]) - Number(frozen[flat[i]] ?? 0);
        if (totalPoints > 0) entries.push({ country: flat[i], totalPoints });
      }
      return entries.sort(
        (a, b) => b.totalPoints - a.totalPoints || (a.country < b.country ? 1 : -1),
      );
    });
  }

  usersOver(points: number) {
    return this.whenReady(() => this.redis.zcount(this.k.users, points, '+inf'));
  }

  private seasonCountries(season: number) {
    return this.whenReady(async () => {
      const flat = await this.redis.gameSeasonCountries(
        this.k.seasonCountries(season),
        this.k.seasonUsers(season),
        this.k.frozen,
        this.k.user(''),
      );
      const entries = [];
      for (let i = 0; i < flat.length; i += 2) {
        entries.push({ country: String(flat[i]), totalPoints: Number(flat[i + 1]) });
      }
      return entries.sort(
        (a, b) => b.totalPoints - a.totalPoints || (a.country < b.country ? 1 : -1),
      );
    });
  }

  scores(board: BoardKey, userIds: string[]): Promise<Map<string, number>> {
    return this.whenReady(async () => {
      const scores = new Map<string, number>();
      if (userIds.length === 0) return scores;
      const replies = await this.redis
        .multi()
        .zmscore(board === 'all' ? this.k.users : this.k.seasonUsers(board), ...userIds)
        .smismember(this.k.frozen, ...userIds)
        .exec();
      const points = (replies?.[0]?.[1] ?? []) as (string | null)[];
      const frozen = (replies?.[1]?.[1] ?? []) as number[];
      userIds.forEach((id, i) => {
        // Off the all-time board: frozen, or unknown; a season's holds only those who scored.
        if (frozen[i] === 1 || (board === 'all' && points[i] === null)) return;
        scores.set(id, Number(points[i] ?? 0));
      });
      return scores;
    });
  }

  seasonStanding(season: number, userId: string) {
    return this.whenReady(async () => {
      const [rank, points] = await this.redis.gameSeasonRank(
        this.k.seasonUsers(season),
        this.k.frozen,
        userId,
      );
      return { rank: rank > 0 ? rank : null, points };
    });
  }

  /** Redis's clock: the tap scripts read it to put each batch in its season. */
  now() {
    return this.available(async () => {
      const [seconds, micros] = await this.redis.time();
      return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    });
  }

  /**
   * The season's players from Redis, which no tap script writes once the season has ended by its
   * clock; the flusher may not have written the last of them to Postgres yet.
   */
  async *seasonScores(season: number): AsyncGenerator<SeasonScore[]> {
    const key = this.k.seasonUsers(season);
    for (let start = 0; ; start += SEASON_PAGE) {
      const flat = await this.whenReady(() =>
        this.redis.zrange(key, start, start + SEASON_PAGE - 1, 'WITHSCORES'),
      );
      if (flat.length === 0) return;
      const page: SeasonScore[] = [];
      for (let i = 0; i < flat.length; i += 2) {
        page.push({ userId: flat[i], points: Number(flat[i + 1]) });
      }
      yield page;
      if (flat.length < 2 * SEASON_PAGE) return;
    }
  }

  async dropSeasons(before: number) {
    await this.available(async () => {
      const held = (await this.redis.smembers(this.k.seasons)).map(Number);
      for (const season of held.filter((s) => s < before)) {
        await this.redis
          .multi()
          .del(this.k.seasonUsers(season), this.k.seasonCountries(season))
          .srem(this.k.seasons, season)
          .exec();
      }
    });
  }

  /** The day the player last tapped and the one before, as the tap script counts them. */
  recentDayTaps(userId: string): Promise<DayTaps[]> {
    return this.whenReady(async () => {
      const [day, taps, prevDay, prevTaps] = await this.redis.hmget(
        this.k.user(userId),
        'day',
        'dayTaps',
        'prevDay',
        'prevDayTaps',
      );
      const days: DayTaps[] = [];
      if (day !== null) days.push({ day: Number(day), taps: Number(taps ?? 0) });
      if (prevDay !== null) days.push({ day: Number(prevDay), taps: Number(prevTaps ?? 0) });
      return days;
    });
  }

  /**
   * Postgres's claim row decides; the request that wrote it then adds the points in Redis (the
   * flush carries them to Postgres with the taps), and only that one: a claim made again adds
   * nothing. The script also keeps the day whose bonus the player holds, so adding it again (a
   * retry, a rebuild or a reload of the player) adds it once. The claim's transaction also records
   * the bonus in the outbox (`game.bonus-granted`): a node that stops between the two steps leaves
   * it to the next node, which adds it once.
   */
  claimBonus(claim: BonusClaim): Promise<BonusOutcome> {
    return this.available(async () => {
      const grant = {
        userId: claim.userId,
        points: claim.points,
        marker: 'bonusDay',
        rank: claim.day,
      };
      const added = await this.recording(async (repo, granted) => {
        const added = await repo.addBonus({ ...claim, addPoints: false, calendar: this.calendar });
        if (added.kind === 'claimed') await granted([grant]);
        return added;
      });
      if (added.kind !== 'claimed') return added.kind === 'already' ? { kind: 'already' } : added;
      await this.applyBonus(grant);
      const user = await this.getUser(claim.userId);
      return user ? { kind: 'claimed', user } : { kind: 'missing' };
    });
  }

  /**
   * As claimBonus: Postgres's rows decide (`record` writes them without the points, and records
   * them in the outbox), then the request that wrote them adds each grant's points here, once
   * (its marker), and the flush carries them to Postgres.
   */
  grantBonuses(record: (how: BonusRecording) => Promise<BonusGrant[]>): Promise<BonusGrant[]> {
    return this.available(async () => {
      const grants = await record({
        addPoints: false,
        granted: (tx, granted) => this.keepGranted(tx, granted),
      });
      for (const grant of grants) await this.applyBonus(grant);
      return grants;
    });
  }

  /** The outbox's delivery of bonuses granted: each is added once, whoever added it first. */
  private addGranted(bonuses: BonusGrant[]): Promise<void> {
    return this.available(async () => {
      for (const bonus of bonuses) {
        // Thrown, the event is delivered again later (Redis back, or rebuilt).
        if (!(await this.applyBonus(bonus))) throw new Error('bonus not added: Redis not ready');
      }
    });
  }

  /** Runs `work` in a transaction that records the bonuses it grants, when there is an outbox. */
  private async recording<T>(
    work: (
      repo: GameRepositories['players'],
      granted: (grants: BonusGrant[]) => Promise<void>,
    ) => Promise<T>,
  ): Promise<T> {
    const outbox = this.outbox;
    if (!outbox) return work(this.repo, async () => {});
    return withTransaction(outbox.pool, (tx) =>
      work(new GameRepository(tx), (grants) => this.keepGranted(tx, grants)),
    );
  }

  private async keepGranted(tx: pg.PoolClient, bonuses: BonusGrant[]): Promise<void> {
    await this.outbox?.events.record(tx, 'game.bonus-granted', { bonuses });
  }

  /** Adds a bonus once; false when Redis could not be made ready for it. */
  private async applyBonus({ userId, points, marker, rank }: BonusGrant): Promise<boolean> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const [status] = await this.redis.gameBonus(
        this.k.users,
        this.k.countries,
        this.k.dirtyUsers,
        this.k.dirtyCountries,
        this.k.version,
        this.k.ready,
        this.k.seasons,
        this.k.user(userId),
        userId,
        rank,
        points,
        this.calendar.startMs,
        this.calendar.lengthMs,
        this.k.seasonPrefix,
        marker,
      );
      if (status !== 'not-ready' && status !== 'no-user') return true;
      if (status === 'not-ready') await this.rebuilder.ensureReady();
      else if (!(await this.rebuilder.loadUser(userId))) return true;
    }
    return false;
  }

  /**
   * One Postgres transaction that holds the change's number (and with it every flush and rebuild)
   * and the player's row: Postgres's totals move between the countries' rows, then Redis moves
   * its own (with the taps not yet flushed) in one script, and the transaction commits. A Redis
   * that fails undoes the whole change; one emptied, or without the player, is rebuilt or loaded
   * and the change tried again. The first flush after it writes both countries whole; figures
   * taken before it never overwrite them (GameRepository.writeTotals).
   */
  changeCountry(
    userId: string,
    country: string,
    decide: CountryChangeDecision,
  ): Promise<CountryChangeOutcome> {
    return this.available(async () => {
      for (let attempt = 0; ; attempt += 1) {
        let moved = false;
        try {
          const outcome = await this.transaction(async ({ client, players, rebuild }) => {
            const moves = await rebuild.nextCountryMove();
            const player = await players.lockForCountryChange(userId);
            if (!player) return null;
            if (player.country === country) {
              return { kind: 'same' as const, changedAt: player.changedAt };
            }
            await decide(client, player);
            await players.moveCountry({
              userId,
              from: player.country,
              to: country,
              points: player.totalPoints,
              taps: player.totalTaps,
              moves,
            });
            const reply = await this.moveInRedis(userId, country, moves);
            if (reply === 'no-user' || reply === 'not-ready') throw new CountryNotHeld(reply);
            moved = true;
            return { kind: 'changed' as const, changedAt: player.now };
          });
          moved = false;
          const user = outcome && (await this.getUser(userId));
          return user && outcome ? { ...outcome, user } : { kind: 'missing' };
        } catch (error) {
          // Redis moved the player and Postgres did not commit: Redis takes Postgres's country.
          if (moved) await this.followCountry(userId);
          if (!(error instanceof CountryNotHeld)) throw error;
          if (attempt >= 2) throw new ServiceUnavailableError(GAME_UNAVAILABLE, 1);
          if (error.reply === 'not-ready') await this.rebuilder.ensureReady();
          else if (!(await this.rebuilder.loadUser(userId))) return { kind: 'missing' };
        }
      }
    });
  }

  private moveInRedis(userId: string, country: string, moves: number) {
    return this.redis.gameCountry(
      this.k.ready,
      this.k.user(userId),
      this.k.countries,
      this.k.countryTaps,
      this.k.frozenCountries,
      this.k.seasons,
      this.k.dirtyCountries,
      this.k.version,
      this.k.countryMoves,
      userId,
      country,
      moves,
      this.k.seasonPrefix,
    );
  }

  /**
   * Redis moved the player and Postgres then failed to commit (rare): Redis takes Postgres's
   * country again, under a number of its own. Failing that too, it is logged.
   */
  private async followCountry(userId: string): Promise<void> {
    try {
      await this.transaction(async ({ players, rebuild }) => {
        const moves = await rebuild.nextCountryMove();
        const player = await players.lockForCountryChange(userId);
        if (player) await this.moveInRedis(userId, player.country, moves);
      });
    } catch (err) {
      this.logger.error({ err, userId }, 'Redis kept a country change Postgres did not commit');
    }
  }

  /**
   * Writes the totals of every player, session and country tapped since the last flush. A flush
   * that wrote nothing (none taken, or refused by Postgres's generation) checks that this Redis
   * is not behind Postgres: a refused flush finds it at once, an idle Redis within a tick.
   */
  async flush(): Promise<void> {
    const { taken, written } = await this.flusher.flush();
    if (!written) await this.generation.check(taken);
  }

  async close() {
    clearInterval(this.timer);
    await this.flusher.close();
  }

  /**
   * Answers `query` from a Redis that holds the counters: one that lost its data is rebuilt from
   * Postgres first. The readiness check travels in the same round trip as the query.
   */
  private whenReady<T>(query: () => Promise<T>): Promise<T> {
    return this.available(async () => {
      const [ready, value] = await Promise.all([this.redis.exists(this.k.ready), query()]);
      if (ready) return value;
      await this.rebuilder.ensureReady();
      return query();
    });
  }

  /**
   * The one place where an unreachable Redis becomes the game's 503: refused at once while the
   * connection is down, and for a call that was under way when it dropped or hung (a tap script
   * under way is a 504 instead: see runTapScript). A Redis behind Postgres is refused the same way
   * (see RedisGenerationWatch).
   */
  private async available<T>(call: () => Promise<T>): Promise<T> {
    if (CONNECTION_LOST.has(this.redis.status)) {
      throw new ServiceUnavailableError(GAME_UNAVAILABLE, 1);
    }
    if (this.generation.isBehind) {
      throw new ServiceUnavailableError(GAME_UNAVAILABLE, BEHIND_RETRY_AFTER_S);
    }
    try {
      return await call();
    } catch (error) {
      if (error instanceof HttpError) throw error;
      if (isRedisUnreachable(this.redis, error)) {
        throw new ServiceUnavailableError(GAME_UNAVAILABLE, 1);
      }
      throw error;
    }
  }
}

/** Board rows from a script's flat id, username, points, ... reply. */
function boardEntries(flat: string[]) {
  const entries = [];
  for (let i = 0; i < flat.length; i += 3) {
    entries.push({ id: flat[i], username: flat[i + 1], totalPoints: Number(flat[i + 2]) });
  }
  return entries;
}
