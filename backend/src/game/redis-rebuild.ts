import { randomUUID } from 'node:crypto';
import type { GameSession } from '@tapgram/shared';
import type { Logger } from '../core/logger';
import type { Redis } from '../core/redis';
import type { GameKeys } from './redis-keys';
import type { GameRepositories } from './repositories';

export const SESSION_IDLE_TTL_S = 24 * 60 * 60;
const REBUILD_LOCK_MS = 120_000;

/**
 * Puts back into Redis what it does not hold, from Postgres: everything when Redis has lost its
 * data (a new or restarted Redis), or one player and session (an idle session expired).
 */
export class RedisRebuilder {
  private rebuilding: Promise<void> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly repos: Pick<GameRepositories, 'players' | 'rebuild'>,
    private readonly k: GameKeys,
    private readonly logger: Logger,
  ) {}

  /**
   * Resolves once Redis holds the counters and both sorted sets; one rebuild at a time. A check
   * already under way (each flush makes one) may have found Redis ready just before this caller
   * found it emptied: it is waited for, and Redis is looked at again.
   */
  async ensureReady(): Promise<void> {
    if (this.rebuilding) await this.rebuilding;
    this.rebuilding ??= this.rebuildIfEmpty().finally(() => {
      this.rebuilding = undefined;
    });
    return this.rebuilding;
  }

  /** Caches a session as Postgres holds it: its last batch number is durable. */
  async cacheSession(session: GameSession, lastSeq = 0): Promise<void> {
    const key = this.k.session(session.id);
    await this.redis
      .multi()
      .hsetnx(key, 'userId', session.userId)
      .hsetnx(key, 'points', session.sessionPoints)
      .hsetnx(key, 'taps', session.sessionTaps)
      .hsetnx(key, 'seq', lastSeq)
      .hsetnx(key, 'durable', lastSeq)
      .expire(key, SESSION_IDLE_TTL_S)
      .exec();
  }

  /** Loads a player and a session from Postgres; false when either is unknown. */
  async loadPlayer(userId: string, sessionId: string): Promise<boolean> {
    const [loaded, state] = await Promise.all([
      this.loadUser(userId),
      this.repos.players.findSessionState(sessionId),
    ]);
    if (!loaded || !state) return false;
    await this.cacheSession(state.session, state.lastSeq);
    return true;
  }

  /**
   * Loads a player from Postgres, frozen or not; false when unknown. A frozen player stays off
   * the users board, and their points off their country's.
   */
  async loadUser(userId: string): Promise<boolean> {
    const [user, frozen, lastDay] = await Promise.all([
      this.repos.players.findUser(userId),
      this.repos.players.isFrozen(userId),
      this.repos.rebuild.lastDayTaps(userId),
    ]);
    if (!user) return false;
    const key = this.k.user(user.id);
    const write = this.redis
      .multi()
      .hsetnx(key, 'username', user.username)
      .hsetnx(key, 'country', user.country)
      .hsetnx(key, 'points', user.totalPoints)
      .hsetnx(key, 'taps', user.totalTaps);
    if (frozen) {
      // Only when the flag is new here: the country's frozen points count each player once.
      const set = await write.hsetnx(key, 'frozen', '1').exec();
      if (set?.[4]?.[1] === 1) {
        await this.redis
          .multi()
          .zrem(this.k.users, user.id)
          .hincrby(this.k.frozenCountries, user.country, user.totalPoints)
          .sadd(this.k.frozen, user.id)
          .incr(this.k.version)
          .exec();
      }
    } else {
      await write.zadd(this.k.users, 'NX', user.totalPoints, user.id).exec();
    }
    // The day's count goes on from Postgres's (after the frozen flag: its reply's index matters).
    if (lastDay) {
      await this.redis
        .multi()
        .hsetnx(key, 'day', lastDay.day)
        .hsetnx(key, 'dayTaps', lastDay.taps)
        .exec();
    }
    return true;
  }

  /**
   * The frozen set agrees with Postgres's frozen players (few), for a Redis kept from a version
   * that had no such set; the players' own flags and the boards follow the freeze script.
   */
  async adoptFrozen(): Promise<void> {
    const frozen = await this.repos.rebuild.frozenUsers();
    if (frozen.length > 0) await this.redis.sadd(this.k.frozen, ...frozen);
  }

  /**
   * Deletes what counters of an older generation left (a Redis behind Postgres whose ready key an
   * operator deleted): stale sessions, tap keys, dirty ids and frozen points would otherwise
   * outlive the rebuild. An emptied Redis has none of them. Keeps the locks and the version.
   */
  private async clearCounters(): Promise<void> {
    const kept = new Set([this.k.version, this.k.pushed, this.k.pushLock, this.k.rebuildLock]);
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', this.k.everyKey, 'COUNT', 1000);
      cursor = next;
      const stale = keys.filter((key) => !kept.has(key));
      if (stale.length > 0) await this.redis.unlink(...stale);
    } while (cursor !== '0');
  }

  private async rebuildIfEmpty(): Promise<void> {
    while (!(await this.redis.exists(this.k.ready))) {
      const locked = await this.redis.set(this.k.rebuildLock, '1', 'PX', REBUILD_LOCK_MS, 'NX');
      if (!locked) {
        // Another process is rebuilding; wait for it.
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      const started = Date.now();
      await this.clearCounters();
      // From here on, flushes of figures the emptied Redis held are not written to Postgres: what
      // the rebuild reads stays what the counters start from.
      const generation = randomUUID();
      const moves = await this.repos.rebuild.startRedisGeneration(generation);
      let players = 0;
      for await (const page of this.repos.rebuild.allUsers()) {
        const write = this.redis.pipeline();
        for (const user of page) {
          write.hset(this.k.user(user.id), {
            username: user.username,
            country: user.country,
            points: user.totalPoints,
            taps: user.totalTaps,
            ...(user.frozen ? { frozen: '1' } : {}),
            ...(user.day === null ? {} : { day: user.day, dayTaps: user.dayTaps ?? 0 }),
          });
          if (user.frozen) {
            write.hincrby(this.k.frozenCountries, user.country, user.totalPoints);
            write.sadd(this.k.frozen, user.id);
          } else {
            write.zadd(this.k.users, user.totalPoints, user.id);
          }
        }
        await write.exec();
        players += page.length;
      }
      for await (const page of this.repos.rebuild.liveSeasonScores()) {
        const seasons = this.redis.pipeline();
        for (const { season, userId, points } of page) {
          seasons.zadd(this.k.seasonUsers(season), points, userId);
          seasons.sadd(this.k.seasons, season);
        }
        await seasons.exec();
      }
      const write = this.redis.pipeline();
      for (const c of await this.repos.rebuild.allCountries()) {
        write.zadd(this.k.countries, c.totalPoints, c.country);
        write.hset(this.k.countryTaps, c.country, c.totalTaps);
      }
      for (const c of await this.repos.rebuild.liveSeasonCountries()) {
        write.zadd(this.k.seasonCountries(c.season), c.points, c.country);
      }
      write.incr(this.k.version);
      write.set(this.k.countryMoves, moves);
      write.set(this.k.generation, generation);
      write.set(this.k.ready, '1');
      write.del(this.k.rebuildLock);
      await write.exec();
      this.logger.info(
        { players, ms: Date.now() - started },
        'game counters rebuilt from Postgres',
      );
    }
  }
}
