import { randomUUID } from 'node:crypto';
import type { Result } from 'ioredis';
import type { Metrics } from '../core/metrics';
import type { Redis } from '../core/redis';
import type { GameKeys } from './redis-keys';
import { SESSION_IDLE_TTL_S } from './redis-rebuild';
import type { FlushedTotals, GameRepository } from './repository';

// KEYS 1-3: dirty users, sessions, countries; 4-6: one flusher's taken users, sessions, countries.
const RETURN_TAKEN = `
for i = 1, 3 do
  if redis.call('EXISTS', KEYS[i + 3]) == 1 then
    redis.call('SUNIONSTORE', KEYS[i], KEYS[i], KEYS[i + 3])
    redis.call('DEL', KEYS[i + 3])
  end
end
`;

/**
 * KEYS as above, 7 flusher registry, 8 countries zset, 9 country taps hash, 10 generation,
 * 11 seasons set, 12 the last country change's number. ARGV: 1 flusher token, 2 user hash key prefix, 3 session hash key prefix,
 * 4 season key prefix.
 * Puts back what this flusher took and did not write, takes every dirty id and answers their
 * totals, all in one step: the figures are one cut of the game (no tap counted in part of them),
 * so the session batch numbers written with them say exactly which batches Postgres holds, and a
 * player's points in the seasons Redis holds add up with their all-time points.
 * Answers flat lists: users (id, points, taps, then their taps on the last two days they tapped:
 * day, taps, day, taps, '' for none, then their unbatched taps and how many of them Postgres
 * holds), sessions (id, points, taps, seq), countries
 * (country, points, taps), the generation of the counters, season scores (season, id,
 * points), and the number of the last country change the figures include.
 */
const TAKE_SCRIPT = `${RETURN_TAKEN}
local taken = false
for i = 1, 3 do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    redis.call('RENAME', KEYS[i], KEYS[i + 3])
    taken = true
  end
end
if not taken then return {{}, {}, {}, '', {}, '0'} end
redis.call('SADD', KEYS[7], ARGV[1])
local users, sessions, countries, seasonScores = {}, {}, {}, {}
local seasons = redis.call('SMEMBERS', KEYS[11])
for _, id in ipairs(redis.call('SMEMBERS', KEYS[4])) do
  local v = redis.call('HMGET', ARGV[2] .. id, 'points', 'taps', 'day', 'dayTaps', 'prevDay', 'prevDayTaps', 'unbatched', 'unbatchedWritten')
  if v[1] then
    users[#users + 1] = id
    for j = 1, 8 do users[#users + 1] = v[j] or '' end
    for _, season in ipairs(seasons) do
      local points = redis.call('ZSCORE', ARGV[4] .. season .. ':users', id)
      if points then
        seasonScores[#seasonScores + 1] = season
        seasonScores[#seasonScores + 1] = id
        seasonScores[#seasonScores + 1] = points
      end
    end
  end
end
for _, id in ipairs(redis.call('SMEMBERS', KEYS[5])) do
  local v = redis.call('HMGET', ARGV[3] .. id, 'points', 'taps', 'seq')
  if v[1] then
    sessions[#sessions + 1] = id
    sessions[#sessions + 1] = v[1]
    sessions[#sessions + 1] = v[2]
    sessions[#sessions + 1] = v[3] or '0'
  end
end
for _, country in ipairs(redis.call('SMEMBERS', KEYS[6])) do
  countries[#countries + 1] = country
  countries[#countries + 1] = redis.call('ZSCORE', KEYS[8], country) or '0'
  countries[#countries + 1] = redis.call('HGET', KEYS[9], country) or '0'
end
return {users, sessions, countries, redis.call('GET', KEYS[10]) or '', seasonScores, redis.call('GET', KEYS[12]) or '0'}
`;

/** KEYS as above, 7 flusher registry. ARGV: 1 flusher token. Puts back what a flusher took. */
const RETURN_SCRIPT = `${RETURN_TAKEN}
redis.call('SREM', KEYS[7], ARGV[1])
return 1
`;

/**
 * KEYS: 1 generation, then the hashes of written sessions. ARGV: 1 the written figures'
 * generation, 2 session idle seconds, then each session's written batch number. Keeps each
 * session another idle period and records how far it is durable (never backwards: a slower
 * flusher may finish after a newer one); nothing when Redis has been emptied since.
 */
const DURABLE_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
for i = 2, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    redis.call('EXPIRE', KEYS[i], tonumber(ARGV[2]))
    local seq = tonumber(ARGV[i + 1])
    if (tonumber(redis.call('HGET', KEYS[i], 'durable')) or 0) < seq then
      redis.call('HSET', KEYS[i], 'durable', seq)
    end
  end
end
return 1
`;
const DURABLE_STEP = 2000;

/**
 * KEYS: 1 generation, then the hashes of written players. ARGV: 1 the written figures'
 * generation, then each player's unbatched taps written. Records how many of a player's unbatched
 * taps Postgres holds (never backwards); nothing when Redis has been emptied since.
 */
const UNBATCHED_WRITTEN_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
for i = 2, #KEYS do
  local written = tonumber(ARGV[i])
  if (tonumber(redis.call('HGET', KEYS[i], 'unbatchedWritten')) or 0) < written then
    redis.call('HSET', KEYS[i], 'unbatchedWritten', written)
  end
end
return 1
`;

/**
 * A player's taps that a refused flush could not write and that no client will send again
 * (POST /api/tap's): the count of them this Redis had reached, and how far Postgres held it.
 */
export interface StrandedTaps {
  userId: string;
  /** The player's unbatched taps Postgres holds (the count's value at the last written flush). */
  from: number;
  /** The player's unbatched taps this Redis counted. */
  to: number;
  /** The UTC day (days since the epoch) of the player's last tap here. */
  day: number;
}

/**
 * Hands on the stranded taps of a flush that Postgres refused (the Redis's generation, and the
 * players'), before the flush lets go of what it took: a crash in between takes them again.
 */
export type StrandedKeeper = (generation: string, taps: StrandedTaps[]) => Promise<void>;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    gameFlushTake(
      ...args: (string | number)[]
    ): Result<[string[], string[], string[], string, string[], string], Context>;
    gameFlushReturn(...args: (string | number)[]): Result<number, Context>;
    gameFlushDurable(...args: (string | number)[]): Result<number, Context>;
    gameFlushUnbatched(...args: (string | number)[]): Result<number, Context>;
  }
}

/** What a flush did: `taken` players' figures, `written` to Postgres or not. */
export interface FlushOutcome {
  taken: number;
  written: boolean;
}

/**
 * Writes the totals of every player, session and country tapped since the last flush to Postgres,
 * then marks each written session's batch number durable. Taken ids stay in Redis until their
 * write succeeds, so a crash between the two loses none: the next flush of this process, or the
 * start of the next one, puts them back.
 */
export class RedisFlusher {
  private readonly token = randomUUID();
  private flushing: Promise<FlushOutcome> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly repo: GameRepository,
    private readonly k: GameKeys,
    /** Told of each flush that left Postgres holding every count taken (the flush lag's clock). */
    private readonly metrics?: Metrics,
    /** Given the stranded taps of a refused flush (absent, without an outbox: they are not kept). */
    private readonly strand?: StrandedKeeper,
  ) {
    redis.defineCommand('gameFlushTake', { numberOfKeys: 12, lua: TAKE_SCRIPT });
    redis.defineCommand('gameFlushReturn', { numberOfKeys: 7, lua: RETURN_SCRIPT });
    redis.defineCommand('gameFlushDurable', { lua: DURABLE_SCRIPT });
    redis.defineCommand('gameFlushUnbatched', { lua: UNBATCHED_WRITTEN_SCRIPT });
  }

  /** Puts back the ids that flushers took and never wrote (they stopped or crashed mid-flush). */
  async recover(): Promise<void> {
    for (const token of await this.redis.smembers(this.k.flushers)) {
      await this.redis.gameFlushReturn(...this.keysOf(token), token);
    }
  }

  flush(): Promise<FlushOutcome> {
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

  private async flushOnce(): Promise<FlushOutcome> {
    const [users, sessions, countries, generation, seasons, moves] = await this.redis.gameFlushTake(
      ...this.keysOf(this.token),
      this.k.countries,
      this.k.countryTaps,
      this.k.generation,
      this.k.seasons,
      this.k.countryMoves,
      this.token,
      this.k.user(''),
      this.k.session(''),
      this.k.seasonPrefix,
    );
    if (users.length + sessions.length + countries.length === 0) {
      this.metrics?.flushed({ users: 0, sessions: 0, countries: 0 });
      return { taken: 0, written: false };
    }
    const { unbatched, ...parsed } = parseTotals(users, sessions, countries, seasons);
    const totals = { ...parsed, moves: Number(moves) };
    // Counters without a generation are not written yet (the caller has them take Postgres's, as
    // a start does); what was taken goes back at the next flush.
    if (!generation) return { taken: totals.users.length, written: false };
    // Not written: this Redis's generation is not the one Postgres follows. Either Redis was
    // emptied and rebuilt since this cut, or this Redis is behind (the caller checks). Clients
    // send again the batches Postgres does not hold (never said to be durable); the unbatched
    // taps, which nobody would send again, are handed on to the Redis Postgres follows.
    const written = await this.repo.writeTotals(totals, generation);
    if (!written && unbatched.length > 0) await this.strand?.(generation, unbatched);
    for (let i = 0; written && i < unbatched.length; i += DURABLE_STEP) {
      const step = unbatched.slice(i, i + DURABLE_STEP);
      await this.redis.gameFlushUnbatched(
        1 + step.length,
        this.k.generation,
        ...step.map((u) => this.k.user(u.userId)),
        generation,
        ...step.map((u) => u.to),
      );
    }
    for (let i = 0; written && i < totals.sessions.length; i += DURABLE_STEP) {
      const step = totals.sessions.slice(i, i + DURABLE_STEP);
      await this.redis.gameFlushDurable(
        1 + step.length,
        this.k.generation,
        ...step.map((s) => this.k.session(s.id)),
        generation,
        SESSION_IDLE_TTL_S,
        ...step.map((s) => s.seq),
      );
    }
    const taken = this.k.flushing(this.token);
    await this.redis
      .multi()
      .del(taken.users, taken.sessions, taken.countries)
      .srem(this.k.flushers, this.token)
      .exec();
    if (written) {
      this.metrics?.flushed({
        users: totals.users.length,
        sessions: totals.sessions.length,
        countries: totals.countries.length,
      });
    }
    return { taken: totals.users.length, written };
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
}

/**
 * The taken figures from the script's flat lists, read in place: a flush at a few thousand
 * players a second takes tens of thousands of values, and a row array each would be garbage.
 */
function parseTotals(
  users: string[],
  sessions: string[],
  countries: string[],
  seasons: string[],
): Omit<FlushedTotals, 'moves'> & { unbatched: StrandedTaps[] } {
  const totals: Omit<FlushedTotals, 'moves'> & { unbatched: StrandedTaps[] } = {
    users: [],
    sessions: [],
    countries: [],
    seasons: [],
    unbatched: [],
  };
  for (let i = 0; i < users.length; i += 9) {
    // id, points, taps, then the day and its taps, and the day before ('' for none).
    const days: { day: number; taps: number }[] = [];
    if (users[i + 3] !== '')
      days.push({ day: Number(users[i + 3]), taps: Number(users[i + 4] || 0) });
    if (users[i + 5] !== '')
      days.push({ day: Number(users[i + 5]), taps: Number(users[i + 6] || 0) });
    totals.users.push({
      id: users[i],
      points: Number(users[i + 1]),
      taps: Number(users[i + 2]),
      days,
    });
    // Unbatched taps Postgres does not hold yet, with how many it does.
    const to = Number(users[i + 7] || 0);
    const from = Number(users[i + 8] || 0);
    if (to > from) totals.unbatched.push({ userId: users[i], from, to, day: days[0]?.day ?? 0 });
  }
  for (let i = 0; i < sessions.length; i += 4) {
    totals.sessions.push({
      id: sessions[i],
      points: Number(sessions[i + 1]),
      taps: Number(sessions[i + 2]),
      seq: Number(sessions[i + 3]),
    });
  }
  for (let i = 0; i < countries.length; i += 3) {
    totals.countries.push({
      country: countries[i],
      points: Number(countries[i + 1]),
      taps: Number(countries[i + 2]),
    });
  }
  for (let i = 0; i < seasons.length; i += 3) {
    totals.seasons.push({
      season: Number(seasons[i]),
      id: seasons[i + 1],
      points: Number(seasons[i + 2]),
    });
  }
  return totals;
}
