import { randomUUID } from 'node:crypto';
import type { Result } from 'ioredis';
import type { Redis } from '../core/redis';
import { PUSH_INTERVAL_MS, type PushClaims } from './push-claims';
import type { GameKeys } from './redis-keys';

/**
 * KEYS: 1 version, 2 pushed version, 3 push lock. ARGV: 1 lock ms, 2 claim token.
 * The version this caller pushes (something changed since the last push done, and nobody claimed
 * within the lock time), or -1. The pushed version moves only when the push is done (`pushed`):
 * a claim whose answer was lost, or whose process died, only holds the lock until it expires.
 */
const CLAIM_SCRIPT = `
local version = redis.call('GET', KEYS[1]) or '0'
if version == (redis.call('GET', KEYS[2]) or '0') then return -1 end
if not redis.call('SET', KEYS[3], ARGV[2], 'NX', 'PX', tonumber(ARGV[1])) then return -1 end
return tonumber(version)
`;

/**
 * KEYS: 1 push lock. ARGV: 1 claim token. Gives back a claim whose push failed, unless it has
 * expired and another process has claimed since (that push carries the change).
 */
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
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
    redis.defineCommand('gameReleasePush', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
  }

  /** Nothing is pushed while Redis cannot be reached: the boards cannot be read either. */
  async claim(): Promise<number | null> {
    if (this.redis.status !== 'ready') return null;
    const token = randomUUID();
    const version = await this.redis.gameClaimPush(
      this.k.version,
      this.k.pushed,
      this.k.pushLock,
      PUSH_INTERVAL_MS,
      token,
    );
    if (version < 0) return null;
    this.lastClaim = token;
    return version;
  }

  /**
   * A plain write: a later claim's push that finished first may have written a newer version,
   * which this takes back to an older one. That costs one more push of the same boards, never a
   * change left unpushed.
   */
  async pushed(version: number): Promise<void> {
    await this.redis.set(this.k.pushed, version);
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
    if (token) await this.redis.gameReleasePush(this.k.pushLock, token);
  }
}
