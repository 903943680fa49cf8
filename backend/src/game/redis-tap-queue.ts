import type { SeasonCalendar, TapAllowance } from '@tapgram/shared';
import type { Result } from 'ioredis';
import type { Redis } from '../core/redis';
import type { GameKeys } from './redis-keys';
import { TAP_BATCH_SCRIPT, type TapReply } from './redis-scripts';
import type { PlayerBatch } from './store';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    gameTapBatch(...args: (string | number)[]): Result<TapReply[], Context>;
  }
}

/**
 * A step goes to Redis as soon as this many batches wait, without waiting for the turn to end:
 * Redis counts them while this process reads the next requests, instead of both taking turns
 * (a busy server reads a hundred requests in one turn). Well under Lua's limit on unpacked values.
 */
export const BATCHES_PER_STEP = 32;

interface Waiting {
  userId: string;
  sessionId: string;
  count: number;
  seq: number;
  after: number;
  /** The tap's key (POST /api/tap's Idempotency-Key), or ''. */
  key: string;
  resolve: (reply: TapReply) => void;
  reject: (error: unknown) => void;
}

/**
 * Sends the tap batches that arrive in one turn of the event loop to Redis as one script call (or
 * one per BATCHES_PER_STEP): a busy server pays Redis's and the client's per-call costs once per
 * step, not once per tap.
 */
export class RedisTapQueue {
  private waiting: Waiting[] = [];
  private scheduled = false;

  constructor(
    private readonly redis: Redis,
    private readonly k: GameKeys,
    private readonly rateLimit: TapAllowance,
    private readonly calendar: SeasonCalendar,
  ) {
    redis.defineCommand('gameTapBatch', { lua: TAP_BATCH_SCRIPT });
  }

  /**
   * The script's reply for this batch: ok, again (a re-sent batch or tap key, counted before), lost,
   * rate-limited, frozen, not-owner, no-session, no-user or not-ready. Batches are counted in the order of their calls.
   */
  tap({ userId, sessionId, count, seq = 0, after = 0, key = '' }: PlayerBatch): Promise<TapReply> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ userId, sessionId, count, seq, after, key, resolve, reject });
      if (this.waiting.length >= BATCHES_PER_STEP) {
        this.drain();
        return;
      }
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.drain);
      }
    });
  }

  private readonly drain = () => {
    this.scheduled = false;
    if (this.waiting.length === 0) return;
    const waiting = this.waiting;
    this.waiting = [];
    this.send(waiting);
  };

  private send(batches: Waiting[]) {
    const keys = [
      this.k.users,
      this.k.countries,
      this.k.countryTaps,
      this.k.dirtyUsers,
      this.k.dirtySessions,
      this.k.dirtyCountries,
      this.k.version,
      this.k.ready,
      this.k.seasons,
    ];
    const args: (string | number)[] = [
      this.rateLimit.perSecond,
      this.rateLimit.burst,
      this.calendar.startMs,
      this.calendar.lengthMs,
      this.k.seasonPrefix,
    ];
    for (const batch of batches) {
      keys.push(
        this.k.user(batch.userId),
        this.k.session(batch.sessionId),
        batch.key ? this.k.tapKey(batch.sessionId, batch.key) : '',
      );
      args.push(batch.userId, batch.sessionId, batch.count, batch.seq, batch.after);
    }
    this.redis.gameTapBatch(keys.length, ...keys, ...args).then(
      (replies) => {
        // Redis without its data answers the whole step with one 'not-ready'.
        const notReady = replies.length === 1 && replies[0][0] === 'not-ready';
        batches.forEach((batch, i) => batch.resolve(notReady ? replies[0] : replies[i]));
      },
      (error: unknown) => {
        for (const batch of batches) batch.reject(error);
      },
    );
  }
}
