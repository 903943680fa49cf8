import { Redis } from 'ioredis';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/core/db';
import { createLogger } from '../../src/core/logger';
import { RedisGameStore } from '../../src/game/redis-store';
import { GameRepository, type FlushedTotals } from '../../src/game/repository';
import { gameRepositories } from '../../src/game/repositories';
import { redisAvailable } from '../../test-support/availability';
import { startTestServer, type TestServer } from '../../test-support/server';
import { dropRedisPrefix, TEST_REDIS_URL } from '../../test-support/services';
import { makePlayer, tap, type Player } from './builders';

/** Real Postgres writes that wait until resumed: a flusher stalled (or killed) mid-flush. */
class StalledRepository extends GameRepository {
  readonly writing: Promise<void>;
  private started!: () => void;
  private resume!: () => void;
  private readonly resumed = new Promise<void>((resolve) => {
    this.resume = resolve;
  });

  constructor(db: Queryable) {
    super(db);
    this.writing = new Promise((resolve) => {
      this.started = resolve;
    });
  }

  override async writeTotals(totals: FlushedTotals, generation: string): Promise<boolean> {
    this.started();
    await this.resumed;
    return super.writeTotals(totals, generation);
  }

  release(): void {
    this.resume();
  }
}

describe.runIf(await redisAvailable())('Redis flushers writing to Postgres', () => {
  let server: TestServer;
  const clients: Redis[] = [];
  /** Another backend process's store on the same Redis and Postgres. */
  const processStore = (players: GameRepository) => {
    const redis = new Redis(TEST_REDIS_URL);
    clients.push(redis);
    const rate = { perSecond: 20, burst: 40 };
    return new RedisGameStore({
      redis,
      repos: { ...gameRepositories(server.db.pool), players },
      rateLimit: rate,
      logger: createLogger('silent'),
      prefix: server.redisPrefix,
    });
  };
  const taps = async (player: Player, n: number) => {
    for (let i = 0; i < n; i += 1) expect((await tap(server.url, player)).status).toBe(200);
  };
  const postgresTotals = async (player: Player) => {
    const { rows } = await server.db.pool.query(
      `SELECT u.total_taps AS user, s.session_taps AS session, coalesce(c.total_taps, 0) AS country
         FROM game_users u
         JOIN game_sessions s ON s.user_id = u.id
         LEFT JOIN game_countries c ON c.country = u.country
        WHERE s.id = $1`,
      [player.session.id],
    );
    return rows[0];
  };

  beforeAll(async () => {
    // The server's own flusher stays out of the way until it shuts down.
    server = await startTestServer({ mode: 'redis', env: { FLUSH_INTERVAL_MS: '3600000' } });
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await server?.stop();
  });

  it('never lets a slow flusher write an older total over a newer one', async () => {
    const player = await makePlayer(server.url, 'SE');
    await taps(player, 3);
    const stalled = new StalledRepository(server.db.pool);
    const slow = processStore(stalled).flush();
    await stalled.writing;

    await taps(player, 2);
    await processStore(new GameRepository(server.db.pool)).flush();
    expect(await postgresTotals(player)).toEqual({ user: 5, session: 5, country: 5 });

    stalled.release();
    await slow;
    expect(await postgresTotals(player)).toEqual({ user: 5, session: 5, country: 5 });
  });

  it('never writes a country’s figures taken before a country change over the change', async () => {
    const countries = async () => {
      const { rows } = await server.db.pool.query<{ country: string; points: number }>(
        `SELECT country, total_points::float8 AS points FROM game_countries
          WHERE country IN ('PT', 'PY') ORDER BY country`,
      );
      return rows;
    };
    const mover = await makePlayer(server.url, 'PT');
    const stayer = await makePlayer(server.url, 'PT');
    await taps(mover, 5);
    await taps(stayer, 2);
    await processStore(new GameRepository(server.db.pool)).flush();
    // Taps Postgres does not hold yet, in the cut a slow flusher takes before the change.
    await taps(mover, 3);
    const stalled = new StalledRepository(server.db.pool);
    const slow = processStore(stalled).flush();
    await stalled.writing;

    const changed = await request(server.url)
      .patch('/api/users/me/country')
      .set('Cookie', mover.cookie)
      .send({ country: 'PY' });
    expect(changed.status).toBe(200);
    stalled.release();
    await slow;
    await processStore(new GameRepository(server.db.pool)).flush();
    expect(await countries()).toEqual([
      { country: 'PT', points: 2 },
      { country: 'PY', points: 8 },
    ]);
  });

  it('writes what a flusher took before its process died, once the next process starts', async () => {
    const player = await makePlayer(server.url, 'FI');
    await taps(player, 4);
    const stalled = new StalledRepository(server.db.pool);
    const dead = processStore(stalled).flush();
    await stalled.writing;

    const next = processStore(new GameRepository(server.db.pool));
    await next.start(3_600_000);
    await next.flush();
    await next.close();
    expect(await postgresTotals(player)).toEqual({ user: 4, session: 4, country: 4 });

    // Had it only stalled, its late write would change nothing.
    stalled.release();
    await dead;
    expect(await postgresTotals(player)).toEqual({ user: 4, session: 4, country: 4 });
  });

  it('does not write the figures of a Redis that was emptied and rebuilt since it read them', async () => {
    const player = await makePlayer(server.url, 'NL');
    await taps(player, 2);
    await processStore(new GameRepository(server.db.pool)).flush();
    await taps(player, 3);
    const stalled = new StalledRepository(server.db.pool);
    const late = processStore(stalled).flush();
    await stalled.writing;

    // Redis loses its data; the next read rebuilds it from what Postgres holds: 2 taps.
    await dropRedisPrefix(server.redisPrefix);
    const rebuilt = await request(server.url).get(`/api/users/${player.user.id}`);
    expect(rebuilt.body.totalTaps).toBe(2);

    stalled.release();
    await late;
    // Postgres still agrees with the rebuilt counters, and the lost batches are not durable.
    expect(await postgresTotals(player)).toEqual({ user: 2, session: 2, country: 2 });
  });

  it('keeps a session that is being played in Redis for another idle period', async () => {
    const player = await makePlayer(server.url, 'DK');
    const key = `${server.redisPrefix}:game:session:${player.session.id}`;
    await server.redis!.expire(key, 60);
    await taps(player, 1);
    await processStore(new GameRepository(server.db.pool)).flush();
    expect(await server.redis!.ttl(key)).toBeGreaterThan(23 * 60 * 60);
  });
});
