import type { Result } from 'ioredis';
import type { GameSession, GameUser } from '@tapgram/shared';
import type { Logger } from '../core/logger';
import type { Redis } from '../core/redis';
import type { GameRepository } from './repository';
import { CLAIM_PUSH_SCRIPT, TAP_SCRIPT, TOP_USERS_SCRIPT } from './redis-scripts';
import type { GameStore, RateLimit, TapOutcome } from './store';

const PUSH_LOCK_MS = 1000;
const SESSION_IDLE_TTL_S = 24 * 60 * 60;
const FLUSH_BATCH = 2000;
const REBUILD_LOCK_MS = 120_000;
const BATCH_MEMORY_S = 600;

type TapReply = [string, number?, string?, string?, number?, number?, number?, number?];

declare module 'ioredis' {
  interface RedisCommander<Context> {
    gameTap(...args: (string | number)[]): Result<TapReply, Context>;
    gameTopUsers(...args: (string | number)[]): Result<string[], Context>;
    gameClaimPush(...args: (string | number)[]): Result<number, Context>;
  }
}

/**
 * The hot path on Redis: per-player hashes, sorted sets for both leaderboards, atomic tap scripts.
 * Postgres stays the durable copy: a flusher writes what changed about once a second, and an empty
 * Redis is rebuilt from Postgres before it serves taps.
 */
export class RedisGameStore implements GameStore {
  private readonly k: ReturnType<typeof keys>;
  private flusher: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private rebuilding: Promise<void> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly repo: GameRepository,
    private readonly rateLimit: RateLimit,
    private readonly logger: Logger,
    prefix: string,
  ) {
    this.k = keys(`${prefix}:game`);
    redis.defineCommand('gameTap', { numberOfKeys: 12, lua: TAP_SCRIPT });
    redis.defineCommand('gameTopUsers', { numberOfKeys: 1, lua: TOP_USERS_SCRIPT });
    redis.defineCommand('gameClaimPush', { numberOfKeys: 3, lua: CLAIM_PUSH_SCRIPT });
  }

  /** Rebuilds Redis from Postgres when it is empty, then flushes every `intervalMs`. */
  async start(intervalMs: number): Promise<void> {
    await this.ensureReady();
    this.flusher = setInterval(() => {
      this.flush()
        .then(() => this.ensureReady())
        .catch((err: unknown) => this.logger.error({ err }, 'game flush failed'));
    }, intervalMs);
  }

  async createUser(username: string, country: string): Promise<GameUser> {
    const user = await this.repo.insertUser(username, country);
    await this.redis
      .multi()
      .hset(this.k.user(user.id), { username, country, points: 0, taps: 0 })
      .zadd(this.k.users, 'NX', 0, user.id)
      .incr(this.k.version)
      .exec();
    return user;
  }

  async getUser(id: string): Promise<GameUser | null> {
    const [username, country, points, taps] = await this.redis.hmget(
      this.k.user(id),
      'username',
      'country',
      'points',
      'taps',
    );
    if (username === null || country === null) return this.repo.findUser(id);
    return { id, username, country, totalPoints: Number(points), totalTaps: Number(taps) };
  }

  async rank(userId: string): Promise<number | null> {
    const score = await this.redis.zscore(this.k.users, userId);
    if (score === null) {
      const user = await this.repo.findUser(userId);
      return user ? this.repo.rankOf(user.totalPoints) : null;
    }
    const above = await this.redis.zcount(this.k.users, `(${score}`, '+inf');
    return above + 1;
  }

  async createSession(userId: string): Promise<GameSession> {
    const session = await this.repo.insertSession(userId);
    await this.cacheSession(session);
    return session;
  }

  async tap(
    userId: string,
    sessionId: string,
    count: number,
    batchId?: string,
  ): Promise<TapOutcome> {
    for (let attempt = 0; ; attempt += 1) {
      const reply = await this.redis.gameTap(
        this.k.user(userId),
        this.k.session(sessionId),
        this.k.rate(userId),
        this.k.users,
        this.k.countries,
        this.k.countryTaps,
        this.k.dirtyUsers,
        this.k.dirtySessions,
        this.k.dirtyCountries,
        this.k.version,
        this.k.ready,
        this.k.batch(batchId ?? 'none'),
        userId,
        sessionId,
        count,
        this.rateLimit.perSecond,
        this.rateLimit.burst,
        SESSION_IDLE_TTL_S,
        batchId ? '1' : '0',
        BATCH_MEMORY_S,
      );
      const [status] = reply;
      if (status === 'ok') {
        const [, accepted, username, country, points, taps, sessionPoints, sessionTaps] = reply;
        return {
          kind: 'ok',
          accepted: Number(accepted),
          user: {
            id: userId,
            username: String(username),
            country: String(country),
            totalPoints: Number(points),
            totalTaps: Number(taps),
          },
          session: {
            id: sessionId,
            userId,
            sessionPoints: Number(sessionPoints),
            sessionTaps: Number(sessionTaps),
          },
        };
      }
      if (status === 'rate-limited' || status === 'not-owner') return { kind: status };
      // Something Redis does not hold (yet): rebuild it, or load the player and session from
      // Postgres, then try again (an emptied Redis needs both).
      if (attempt >= 2) return { kind: 'no-session' };
      if (status === 'not-ready') await this.ensureReady();
      else if (!(await this.loadFromPostgres(userId, sessionId))) return { kind: 'no-session' };
    }
  }

  async topUsers(limit: number) {
    const flat = await this.redis.gameTopUsers(this.k.users, limit, this.k.user(''));
    const entries = [];
    for (let i = 0; i < flat.length; i += 3) {
      entries.push({ id: flat[i], username: flat[i + 1], totalPoints: Number(flat[i + 2]) });
    }
    return entries;
  }

  async topCountries() {
    const flat = await this.redis.zrevrangebyscore(this.k.countries, '+inf', '(0', 'WITHSCORES');
    const entries = [];
    for (let i = 0; i < flat.length; i += 2) {
      entries.push({ country: flat[i], totalPoints: Number(flat[i + 1]) });
    }
    return entries;
  }

  usersOver(points: number) {
    return this.redis.zcount(this.k.users, points, '+inf');
  }

  async claimPush() {
    return (
      (await this.redis.gameClaimPush(
        this.k.version,
        this.k.pushed,
        this.k.pushLock,
        PUSH_LOCK_MS,
      )) === 1
    );
  }

  /** Writes the totals of every player, session and country tapped since the last flush. */
  flush(): Promise<void> {
    this.flushing ??= this.flushOnce().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  async close() {
    clearInterval(this.flusher);
    await this.flushing;
    await this.flush();
  }

  private async flushOnce(): Promise<void> {
    for (;;) {
      const [userIds, sessionIds, countries] = await Promise.all([
        this.redis.spop(this.k.dirtyUsers, FLUSH_BATCH),
        this.redis.spop(this.k.dirtySessions, FLUSH_BATCH),
        this.redis.spop(this.k.dirtyCountries, FLUSH_BATCH),
      ]);
      if (userIds.length + sessionIds.length + countries.length === 0) return;
      try {
        await this.repo.writeTotals(await this.readTotals(userIds, sessionIds, countries));
      } catch (error) {
        // Put them back so the next flush writes them; totals in Redis are absolute, so nothing is lost.
        const restore = this.redis.multi();
        if (userIds.length) restore.sadd(this.k.dirtyUsers, ...userIds);
        if (sessionIds.length) restore.sadd(this.k.dirtySessions, ...sessionIds);
        if (countries.length) restore.sadd(this.k.dirtyCountries, ...countries);
        await restore.exec();
        throw error;
      }
      if (Math.max(userIds.length, sessionIds.length, countries.length) < FLUSH_BATCH) return;
    }
  }

  private async readTotals(userIds: string[], sessionIds: string[], countries: string[]) {
    const read = this.redis.pipeline();
    for (const id of userIds) read.hmget(this.k.user(id), 'points', 'taps');
    for (const id of sessionIds) read.hmget(this.k.session(id), 'points', 'taps');
    for (const country of countries) read.zscore(this.k.countries, country);
    if (countries.length) read.hmget(this.k.countryTaps, ...countries);
    const replies = ((await read.exec()) ?? []).map(([err, value]) => {
      if (err) throw err;
      return value;
    });
    const pairs = (offset: number, ids: string[]) =>
      ids
        .map((id, i) => ({ id, values: replies[offset + i] as (string | null)[] }))
        .filter(({ values }) => values[0] !== null)
        .map(({ id, values }) => ({ id, points: Number(values[0]), taps: Number(values[1]) }));
    const countryTaps = (countries.length ? replies[replies.length - 1] : []) as (string | null)[];
    return {
      users: pairs(0, userIds),
      sessions: pairs(userIds.length, sessionIds),
      countries: countries.map((country, i) => ({
        country,
        points: Number(replies[userIds.length + sessionIds.length + i] ?? 0),
        taps: Number(countryTaps[i] ?? 0),
      })),
    };
  }

  private async cacheSession(session: GameSession) {
    const key = this.k.session(session.id);
    await this.redis
      .multi()
      .hsetnx(key, 'userId', session.userId)
      .hsetnx(key, 'points', session.sessionPoints)
      .hsetnx(key, 'taps', session.sessionTaps)
      .expire(key, SESSION_IDLE_TTL_S)
      .exec();
  }

  private async loadFromPostgres(userId: string, sessionId: string): Promise<boolean> {
    const [user, session] = await Promise.all([
      this.repo.findUser(userId),
      this.repo.findSession(sessionId),
    ]);
    if (!user || !session) return false;
    const key = this.k.user(user.id);
    await this.redis
      .multi()
      .hsetnx(key, 'username', user.username)
      .hsetnx(key, 'country', user.country)
      .hsetnx(key, 'points', user.totalPoints)
      .hsetnx(key, 'taps', user.totalTaps)
      .zadd(this.k.users, 'NX', user.totalPoints, user.id)
      .exec();
    await this.cacheSession(session);
    return true;
  }

  /** Rebuilds the counters and both sorted sets from Postgres when Redis has lost them. */
  private ensureReady(): Promise<void> {
    this.rebuilding ??= this.rebuildIfEmpty().finally(() => {
      this.rebuilding = undefined;
    });
    return this.rebuilding;
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
      let players = 0;
      for await (const page of this.repo.allUsers()) {
        const write = this.redis.pipeline();
        for (const user of page) {
          write.hset(this.k.user(user.id), {
            username: user.username,
            country: user.country,
            points: user.totalPoints,
            taps: user.totalTaps,
          });
          write.zadd(this.k.users, user.totalPoints, user.id);
        }
        await write.exec();
        players += page.length;
      }
      const write = this.redis.pipeline();
      for (const c of await this.repo.allCountries()) {
        write.zadd(this.k.countries, c.totalPoints, c.country);
        write.hset(this.k.countryTaps, c.country, c.totalTaps);
      }
      write.incr(this.k.version);
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

function keys(base: string) {
  return {
    user: (id: string) => `${base}:user:${id}`,
    session: (id: string) => `${base}:session:${id}`,
    rate: (id: string) => `${base}:rate:${id}`,
    batch: (id: string) => `${base}:batch:${id}`,
    users: `${base}:lb:users`,
    countries: `${base}:lb:countries`,
    countryTaps: `${base}:country-taps`,
    dirtyUsers: `${base}:dirty:users`,
    dirtySessions: `${base}:dirty:sessions`,
    dirtyCountries: `${base}:dirty:countries`,
    version: `${base}:version`,
    pushed: `${base}:pushed`,
    pushLock: `${base}:push-lock`,
    ready: `${base}:ready`,
    rebuildLock: `${base}:rebuild-lock`,
  };
}
