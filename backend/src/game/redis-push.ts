import { randomUUID } from 'node:crypto';
import type { Result } from 'ioredis';
import type { Redis } from '../core/redis';
import { PUSH_INTERVAL_MS, type PushClaims } from './push-claims';
import type { GameKeys } from './redis-keys';

/**
 * KEYS: 1 version, 2 pushed version, 3 push lock. ARGV: 1 lock ms, 2 claim token.
 * 1 when this caller pushes: something changed and nobody pushed within the lock time.
 */
const CLAIM_SCRIPT = `
local version = redis.call('GET', KEYS[1]) or '0'
if version == (redis.call('GET', KEYS[2]) or '0') then return 0 end
if not redis.call('SET', KEYS[3], ARGV[2], 'NX', 'PX', tonumber(ARGV[1])) then return 0 end
redis.call('SET', KEYS[2], version)
return 1
`;

/**
 * KEYS: 1 pushed version, 2 push lock. ARGV: 1 claim token. Undoes a claim whose push failed,
 * unless it has expired and another process has claimed since (that push carries the change).
 */
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
return 1
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    gameClaimPush(...args: (string | number)[]): Result<number, Context>;
    gameReleasePush(...args: (string | number)[]): Result<number, Context>;
  }
}

/** Leaderboard pushes shared by every process: at most one a second, after a change. */
export class RedisPushClaims implements PushClaims {
  private lastClaim: string | undefined;
  private lastVersion = 0;

  constructor(
    private readonly redis: Redis,
    private readonly k: GameKeys,
  ) {
    redis.defineCommand('gameClaimPush', { numberOfKeys: 3, lua: CLAIM_SCRIPT });
    redis.defineCommand('gameReleasePush', { numberOfKeys: 2, lua: RELEASE_SCRIPT });
  }

  /** Nothing is pushed while Redis cannot be reached: the boards cannot be read either. */
  async claim(): Promise<boolean> {
    if (this.redis.status !== 'ready') return false;
    const token = randomUUID();
    const claimed =
      (await this.redis.gameClaimPush(
        this.k.version,
        this.k.pushed,
        this.k.pushLock,
        PUSH_INTERVAL_MS,
        token,
      )) === 1;
    if (claimed) this.lastClaim = token;
    return claimed;
  }

  /** While Redis cannot be reached, the last counter read: nothing is read or pushed meanwhile. */
  async version(): Promise<number> {
    if (this.redis.status !== 'ready') return this.lastVersion;
    this.lastVersion = Number((await this.redis.get(this.k.version)) ?? 0);
    return this.lastVersion;
  }

  async release(): Promise<void> {
    const token = this.lastClaim;
    this.lastClaim = undefined;
    if (token) await this.redis.gameReleasePush(this.k.pushed, this.k.pushLock, token);
  }
}
