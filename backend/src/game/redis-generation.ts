import type { Logger } from '../core/logger';
import type { Redis } from '../core/redis';
import type { GameKeys } from './redis-keys';
import type { RebuildRepository } from './rebuild-repository';

/**
 * Whether this Redis holds the generation of game counters that Postgres follows. Rebuilding an
 * emptied Redis starts a new generation, so a Redis that still holds an older one (restored from
 * an older snapshot, or the previous Redis of a migration that another one replaced while this
 * node still used it) holds counters whose flushes Postgres refuses: a tap counted there would be
 * acknowledged and never written.
 *
 * Such a Redis is refused, not rebuilt behind the operators' backs (two nodes on two Redis servers
 * would take the generation from each other at every flush, each time dropping what the other had
 * not written): every game call answers 503, `/readyz` reports `gameCounters: behind`, one error
 * line and `tapgram_redis_generation_behind` say so, until the Redis is rebuilt from Postgres
 * (its ready key deleted: the next check rebuilds it) or the node is pointed at the current Redis.
 */
export class RedisGenerationWatch {
  private behind: { redis: string; postgres: string } | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly repo: Pick<RebuildRepository, 'redisGeneration'>,
    private readonly k: GameKeys,
    private readonly logger: Logger,
  ) {}

  get isBehind(): boolean {
    return this.behind !== null;
  }

  /**
   * Compares this Redis's generation with Postgres's. `unwritten`: the players whose figures the
   * flush that asked could not write (for the log).
   */
  async check(unwritten = 0): Promise<void> {
    const postgres = await this.repo.redisGeneration();
    const [ready, generation] = await this.redis.mget(this.k.ready, this.k.generation);
    // Not ready: being rebuilt, which starts a new generation.
    if (ready === null || generation === postgres) return this.current();
    if (generation === null) {
      // Counters without a generation (kept from an earlier version, or their key evicted or
      // deleted by hand) take Postgres's, at start or at the next flush; they are written from now on.
      const adopted = await this.redis.set(this.k.generation, postgres, 'NX');
      if (adopted) {
        this.logger.warn(
          { postgresGeneration: postgres, unwrittenPlayers: unwritten },
          "Redis game counters had no generation: they took Postgres's, and flushes go on",
        );
      }
      return this.current();
    }
    // A rebuild of this Redis that ended after Postgres was read moved both: read it again.
    const latest = await this.repo.redisGeneration();
    if (generation === latest) return this.current();
    if (this.behind?.redis === generation && this.behind.postgres === latest) return;
    this.behind = { redis: generation, postgres: latest };
    this.logger.error(
      {
        redisGeneration: generation,
        postgresGeneration: latest,
        unwrittenPlayers: unwritten,
        readyKey: this.k.ready,
      },
      'Redis game counters are behind Postgres (an older generation): game calls are refused ' +
        'until this Redis is rebuilt from Postgres (delete its ready key) or the node uses the ' +
        'current Redis',
    );
  }

  private current(): void {
    if (!this.behind) return;
    this.behind = null;
    this.logger.info('Redis game counters follow Postgres again: game calls are served');
  }
}
