import { randomUUID } from 'node:crypto';
import type { Result } from 'ioredis';
import type { Redis } from '../core/redis';
import type { GameKeys } from './redis-keys';
import { SESSION_IDLE_TTL_S } from './redis-rebuild';
import type { FlushedTotals, GameRepository } from './repository';

const FLUSH_BATCH = 2000;

// KEYS 1-3: dirty users, sessions, countries; 4-6: one flusher's taken users, sessions, countries.
const RETURN_TAKEN = `
for i = 1, 3 do
  local left = redis.call('SMEMBERS', KEYS[i + 3])
  if #left > 0 then
    redis.call('SADD', KEYS[i], unpack(left))
    redis.call('DEL', KEYS[i + 3])
  end
end
`;

/**
 * KEYS as above, 7 flusher registry. ARGV: 1 batch size, 2 flusher token. Puts back what this
 * flusher took and did not write, then moves a batch of dirty ids to its taken sets and answers them.
 */
const TAKE_SCRIPT = `${RETURN_TAKEN}
local taken = {}
for i = 1, 3 do
  taken[i] = redis.call('SPOP', KEYS[i], tonumber(ARGV[1]))
  if #taken[i] > 0 then
    redis.call('SADD', KEYS[i + 3], unpack(taken[i]))
    redis.call('SADD', KEYS[7], ARGV[2])
  end
end
return taken
`;

/** KEYS as above, 7 flusher registry. ARGV: 1 flusher token. Puts back what a flusher took. */
const RETURN_SCRIPT = `${RETURN_TAKEN}
redis.call('SREM', KEYS[7], ARGV[1])
return 1
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    gameFlushTake(...args: (string | number)[]): Result<[string[], string[], string[]], Context>;
    gameFlushReturn(...args: (string | number)[]): Result<number, Context>;
  }
}

/**
 * Writes the totals of every player, session and country tapped since the last flush to Postgres.
 * Taken ids stay in Redis until their write succeeds, so a crash between the two loses none: the
 * next flush of this process, or the start of the next one, puts them back.
 */
export class RedisFlusher {
  private readonly token = randomUUID();
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly repo: GameRepository,
    private readonly k: GameKeys,
  ) {
    redis.defineCommand('gameFlushTake', { numberOfKeys: 7, lua: TAKE_SCRIPT });
    redis.defineCommand('gameFlushReturn', { numberOfKeys: 7, lua: RETURN_SCRIPT });
  }

  /** Puts back the ids that flushers took and never wrote (they stopped or crashed mid-flush). */
  async recover(): Promise<void> {
    for (const token of await this.redis.smembers(this.k.flushers)) {
      await this.redis.gameFlushReturn(...this.keysOf(token), token);
    }
  }

  flush(): Promise<void> {
    this.flushing ??= this.flushOnce().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  /** Waits for a flush under way, then flushes what is left. */
  async close(): Promise<void> {
    await this.flushing?.catch(() => undefined);
    await this.flush();
  }

  private async flushOnce(): Promise<void> {
    for (;;) {
      const [userIds, sessionIds, countries] = await this.redis.gameFlushTake(
        ...this.keysOf(this.token),
        FLUSH_BATCH,
        this.token,
      );
      if (userIds.length + sessionIds.length + countries.length === 0) return;
      await this.repo.writeTotals(await this.readTotals(userIds, sessionIds, countries));
      const taken = this.k.flushing(this.token);
      const done = this.redis
        .multi()
        .del(taken.users, taken.sessions, taken.countries)
        .srem(this.k.flushers, this.token);
      // A session tapped since the last flush stays in Redis another idle period.
      for (const id of sessionIds) done.expire(this.k.session(id), SESSION_IDLE_TTL_S);
      await done.exec();
      if (Math.max(userIds.length, sessionIds.length, countries.length) < FLUSH_BATCH) return;
    }
  }

  private keysOf(token: string): string[] {
    const taken = this.k.flushing(token);
    return [
      this.k.dirtyUsers,
      this.k.dirtySessions,
      this.k.dirtyCountries,
      taken.users,
      taken.sessions,
      taken.countries,
      this.k.flushers,
    ];
  }

  private async readTotals(
    userIds: string[],
    sessionIds: string[],
    countries: string[],
  ): Promise<FlushedTotals> {
    const read = this.redis.pipeline();
    for (const id of userIds) read.hmget(this.k.user(id), 'points', 'taps');
    for (const id of sessionIds) read.hmget(this.k.session(id), 'points', 'taps', 'seq');
    for (const country of countries) read.zscore(this.k.countries, country);
    if (countries.length) read.hmget(this.k.countryTaps, ...countries);
    const replies = ((await read.exec()) ?? []).map(([err, value]) => {
      if (err) throw err;
      return value;
    });
    const counters = (offset: number, ids: string[]) =>
      ids
        .map((id, i) => ({ id, values: replies[offset + i] as (string | null)[] }))
        .filter(({ values }) => values[0] !== null)
        .map(({ id, values }) => ({
          id,
          points: Number(values[0]),
          taps: Number(values[1]),
          seq: Number(values[2] ?? 0),
        }));
    const countryTaps = (countries.length ? replies[replies.length - 1] : []) as (string | null)[];
    return {
      users: counters(0, userIds),
      sessions: counters(userIds.length, sessionIds),
      countries: countries.map((country, i) => ({
        country,
        points: Number(replies[userIds.length + sessionIds.length + i] ?? 0),
        taps: Number(countryTaps[i] ?? 0),
      })),
    };
  }
}
