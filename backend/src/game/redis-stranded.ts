import type { SeasonCalendar } from '@tapgram/shared';
import type { Result } from 'ioredis';
import type pg from 'pg';
import { withTransaction } from '../core/db';
import type { EventBus } from '../core/events';
import type { Logger } from '../core/logger';
import type { Redis } from '../core/redis';
import type { StrandedTaps } from './redis-flusher';
import type { GameKeys } from './redis-keys';
import type { RedisRebuilder } from './redis-rebuild';
import { STRANDED_SCRIPT } from './redis-scripts';
import type { GameRepositories } from './repositories';

declare module '../core/events' {
  interface DomainEvents {
    /**
     * Taps a Redis acknowledged without a batch number (POST /api/tap) whose flush Postgres
     * refused (that Redis's generation was not Postgres's), to be added to the Redis Postgres
     * follows. Recorded before the refused flush lets go of them.
     */
    'game.taps-stranded': { generation: string; taps: StrandedTaps[] };
  }
}

declare module 'ioredis' {
  interface RedisCommander<Context> {
    gameStranded(...args: (string | number)[]): Result<(string | number)[], Context>;
  }
}

/** The stranded taps of one player, added in one try: false when they must wait (see add). */
type Added = 'ok' | 'again' | 'no-user' | 'not-ready' | 'behind';

/**
 * A tap acknowledged between another Redis taking over (a rebuild that moved Postgres's
 * generation) and this Redis's next flush cannot be written from here: Postgres takes totals only
 * from the Redis it follows. Batched taps come back on their own (their clients keep them until
 * they are durable); the unbatched ones are recorded in the outbox by the refused flush, and
 * whichever node's Redis Postgres follows adds them there, once, and its flush writes them.
 */
export class RedisStrandedTaps {
  constructor(
    private readonly redis: Redis,
    private readonly k: GameKeys,
    private readonly repos: Pick<GameRepositories, 'transaction'>,
    private readonly rebuilder: Pick<RedisRebuilder, 'ensureReady' | 'loadUser'>,
    private readonly calendar: SeasonCalendar,
    private readonly outbox: { events: EventBus; pool: pg.Pool },
    private readonly logger: Logger,
  ) {
    redis.defineCommand('gameStranded', { numberOfKeys: 11, lua: STRANDED_SCRIPT });
  }

  /** Records a refused flush's stranded taps, in their own transaction (RedisFlusher's keeper). */
  readonly keep = async (generation: string, taps: StrandedTaps[]): Promise<void> => {
    await withTransaction(this.outbox.pool, (tx) =>
      this.outbox.events.record(tx, 'game.taps-stranded', { generation, taps }),
    );
    this.logger.warn(
      {
        redisGeneration: generation,
        players: taps.length,
        taps: taps.reduce((sum, t) => sum + t.to - t.from, 0),
      },
      'Postgres refused a flush of this Redis: its unbatched taps go to the Redis Postgres follows',
    );
  };

  /**
   * The outbox's delivery: adds each player's stranded taps to this Redis, if Postgres follows
   * it. Thrown, the event is delivered again later (by this node or another).
   */
  async add({ generation, taps }: { generation: string; taps: StrandedTaps[] }): Promise<void> {
    for (const stranded of taps) {
      const added = await this.addOne(generation, stranded);
      if (added === 'behind' || added === 'not-ready') {
        throw new Error(`stranded taps not added: this Redis is ${added}`);
      }
    }
  }

  private async addOne(generation: string, stranded: StrandedTaps): Promise<Added> {
    for (let attempt = 0; ; attempt += 1) {
      const added = await this.repos.transaction(async ({ rebuild }) => {
        // Held until the script has run: no rebuild moves the generation in between.
        const followed = await rebuild.heldRedisGeneration();
        const [status] = await this.redis.gameStranded(
          this.k.users,
          this.k.countries,
          this.k.countryTaps,
          this.k.dirtyUsers,
          this.k.dirtyCountries,
          this.k.version,
          this.k.ready,
          this.k.seasons,
          this.k.generation,
          this.k.frozenCountries,
          this.k.user(stranded.userId),
          followed,
          stranded.userId,
          `stranded:${generation}`,
          stranded.from,
          stranded.to,
          stranded.day,
          this.calendar.startMs,
          this.calendar.lengthMs,
          this.k.seasonPrefix,
        );
        return status as Added;
      });
      if (attempt >= 2 || (added !== 'not-ready' && added !== 'no-user')) return added;
      if (added === 'not-ready') await this.rebuilder.ensureReady();
      // A player Postgres does not know (deleted since) has nothing to add to.
      else if (!(await this.rebuilder.loadUser(stranded.userId))) return 'again';
    }
  }
}
