import { Redis } from 'ioredis';
import type pg from 'pg';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable } from '../../test-support/availability';
import { startRedisProcess, type RedisProcess } from '../../test-support/redis-process';
import { startTestServer, type TestServer } from '../../test-support/server';
import { createScratchDatabase, scratchPool, uniqueName } from '../../test-support/services';
import { makePlayer, tap, type Player } from './builders';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const BEHIND_LOG = /Redis game counters are behind Postgres/;

/** A logger that keeps its lines, as operators would read them. */
function keptLogger() {
  const lines: { level: number; msg: string; [field: string]: unknown }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe.runIf(await redisAvailable())('a Redis whose counters are behind Postgres', () => {
  let redisA: RedisProcess;
  let redisB: RedisProcess;
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  /** The shared Postgres, read by the test itself (nodes come and go). */
  let postgres: pg.Pool;
  const redisPrefix = uniqueName('tgtest');
  const servers: TestServer[] = [];
  let player: Player;
  /** Taps answered 200: the game said they were counted. */
  let acknowledged = 0;

  beforeAll(async () => {
    [redisA, redisB, database] = await Promise.all([
      startRedisProcess(),
      startRedisProcess(),
      createScratchDatabase(),
    ]);
    postgres = scratchPool(database.url, 1);
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await postgres?.end();
    await redisA?.stop();
    await redisB?.stop();
    await database?.drop();
  });

  /** A node of the game on `redis`, sharing one Postgres with the others. */
  async function nodeOn(
    redis: RedisProcess,
    options: { logger?: pino.Logger; env?: Record<string, string> } = {},
  ) {
    const server = await startTestServer({
      mode: 'redis',
      databaseUrl: database.url,
      redisPrefix,
      logger: options.logger,
      env: { REDIS_URL: redis.url, FLUSH_INTERVAL_MS: '200', METRICS_TOKEN, ...options.env },
    });
    servers.push(server);
    return server;
  }

  async function stop(server: TestServer) {
    servers.splice(servers.indexOf(server), 1);
    await server.stop();
  }

  /** Sends `n` taps one after another; answers their statuses. */
  async function tapTimes(server: TestServer, n: number) {
    const statuses: number[] = [];
    for (let i = 0; i < n; i += 1) {
      const res = await tap(server.url, player);
      if (res.status === 200) acknowledged += 1;
      statuses.push(res.status);
    }
    return statuses;
  }

  async function postgresTaps() {
    const { rows } = await postgres.query<{ user: number; session: number }>(
      `SELECT u.total_taps AS user, s.session_taps AS session
         FROM game_users u JOIN game_sessions s ON s.user_id = u.id
        WHERE s.id = $1`,
      [player.session.id],
    );
    return rows[0];
  }

  const behindGauge = async (server: TestServer) => {
    const res = await request(server.url)
      .get('/metrics')
      .set('Authorization', `Bearer ${METRICS_TOKEN}`);
    return Number(/^tapgram_redis_generation_behind (\S+)$/m.exec(res.text)?.[1]);
  };

  it('refuses every tap on a Redis behind Postgres, and serves again once it is rebuilt', async () => {
    // Taps on Redis A, written to Postgres when the node shuts down.
    const first = await nodeOn(redisA);
    player = await makePlayer(first.url, 'NZ');
    expect(await tapTimes(first, 14)).toEqual(Array(14).fill(200));
    await stop(first);

    // The node moves to an empty Redis B: rebuilt from Postgres, under a new generation.
    const second = await nodeOn(redisB);
    expect(await tapTimes(second, 6)).toEqual(Array(6).fill(200));
    await stop(second);

    // Back on A, which still holds the counters of the generation before B's.
    const { logger, lines } = keptLogger();
    const third = await nodeOn(redisA, { logger });
    const statuses = await tapTimes(third, 7);
    await expect.poll(postgresTaps).toEqual({ user: acknowledged, session: acknowledged });
    expect(statuses).toEqual(Array(7).fill(503));
    const ready = await request(third.url).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks).toMatchObject({ redis: 'ok', gameCounters: 'behind' });
    expect((await request(third.url).get(`/api/users/${player.user.id}`)).status).toBe(503);
    expect(await behindGauge(third)).toBe(1);
    const logged = lines.filter((line) => BEHIND_LOG.test(line.msg));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 50, readyKey: `${redisPrefix}:game:ready` });

    // The operator has A rebuilt from Postgres: its ready key deleted, the node rebuilds it.
    const operator = new Redis(redisA.url);
    await operator.del(`${redisPrefix}:game:ready`);
    operator.disconnect();
    await expect
      .poll(async () => (await request(third.url).get('/readyz')).status, { timeout: 15_000 })
      .toBe(200);
    expect(await behindGauge(third)).toBe(0);
    // Counted from what Postgres holds (20), not from what A held (14): A's session is gone too.
    const next = await tap(third.url, player);
    expect(next.status).toBe(200);
    acknowledged += 1;
    expect(next.body.user.totalTaps).toBe(21);
    expect(next.body.session.sessionTaps).toBe(21);
    expect(await tapTimes(third, 4)).toEqual(Array(4).fill(200));
    await stop(third);

    await expect.poll(postgresTaps).toEqual({ user: 25, session: 25 });
    expect(acknowledged).toBe(25);
  });

  it('finds at its next flush that another Redis took over, and refuses from then on', async () => {
    const { logger, lines } = keptLogger();
    const old = await nodeOn(redisA, { logger });
    expect(await tapTimes(old, 3)).toEqual(Array(3).fill(200));
    await expect.poll(postgresTaps).toEqual({ user: acknowledged, session: acknowledged });

    // A node on an emptied Redis B rebuilds it from Postgres: A is behind from then on.
    await redisB.kill();
    await redisB.start();
    const current = await nodeOn(redisB);
    await expect
      .poll(async () => (await request(old.url).get('/readyz')).status, { timeout: 15_000 })
      .toBe(503);
    expect(lines.filter((line) => BEHIND_LOG.test(line.msg))).toHaveLength(1);

    expect(await tapTimes(old, 3)).toEqual(Array(3).fill(503));
    expect(await tapTimes(current, 3)).toEqual(Array(3).fill(200));
    await stop(current);
    await stop(old);
    expect(await postgresTaps()).toEqual({ user: acknowledged, session: acknowledged });
  });

  it('writes the taps it acknowledges when its Redis loses only the generation key', async () => {
    const { logger, lines } = keptLogger();
    const node = await nodeOn(redisB, { logger });
    expect(await tapTimes(node, 3)).toEqual(Array(3).fill(200));
    await expect.poll(postgresTaps).toEqual({ user: acknowledged, session: acknowledged });

    // The key alone goes (evicted under memory pressure, or deleted by hand); the counters stay.
    const operator = new Redis(redisB.url);
    await operator.del(`${redisPrefix}:game:generation`);
    operator.disconnect();
    expect(await tapTimes(node, 3)).toEqual(Array(3).fill(200));
    await expect
      .poll(postgresTaps, { timeout: 15_000 })
      .toEqual({ user: acknowledged, session: acknowledged });
    expect(lines.filter((line) => /had no generation/.test(line.msg))).toMatchObject([
      { level: 40 },
    ]);
    expect((await request(node.url).get('/readyz')).status).toBe(200);
    await stop(node);
  });

  it('hands the POST /api/tap taps it acknowledged before it found itself behind to the Redis Postgres follows', async () => {
    // A node on an emptied Redis A rebuilds it (A is what Postgres follows), and flushes only
    // when it stops: its taps wait in Redis.
    await redisA.kill();
    await redisA.start();
    const env = { EVENTS_LEASE_SECONDS: '1' };
    const { logger, lines } = keptLogger();
    const old = await nodeOn(redisA, { logger, env: { ...env, FLUSH_INTERVAL_MS: '600000' } });
    const before = (await postgresTotals()).taps;
    expect(await tapTimes(old, 3)).toEqual(Array(3).fill(200));

    // A node on an emptied Redis B rebuilds it from Postgres, which does not hold those three:
    // Postgres follows B from now on, and A has not flushed since.
    await redisB.kill();
    await redisB.start();
    const current = await nodeOn(redisB, { env });
    expect(await tapTimes(old, 4)).toEqual(Array(4).fill(200));
    expect(await tapTimes(current, 2)).toEqual(Array(2).fill(200));

    // A's last flush is refused: its seven taps go to B through the outbox, and B's flush writes them.
    await stop(old);
    await expect.poll(postgresTotals, { timeout: 15_000 }).toMatchObject({ taps: before + 9 });
    expect(lines.filter((line) => /unbatched taps go to the Redis/.test(line.msg))).toMatchObject([
      { level: 40, players: 1, taps: 7 },
    ]);
    expect(await postgresTotals()).toEqual({
      taps: acknowledged,
      points: acknowledged,
      country: acknowledged,
      days: acknowledged,
    });
    // B counts on from there, once: delivering the event again adds nothing.
    const next = await tap(current.url, player);
    acknowledged += 1;
    expect(next.body.user.totalTaps).toBe(acknowledged);
    await stop(current);
    expect(await postgresTotals()).toMatchObject({ taps: acknowledged, country: acknowledged });
  });

  /** The player's totals in Postgres, their country's taps (the only player of NZ), their days'. */
  async function postgresTotals() {
    const { rows } = await postgres.query<{
      taps: number;
      points: number;
      country: number;
      days: number;
    }>(
      `SELECT u.total_taps::float8 AS taps, u.total_points::float8 AS points,
              c.total_taps::float8 AS country,
              (SELECT COALESCE(SUM(taps), 0) FROM game_daily_taps d
                WHERE d.user_id = u.id)::float8 AS days
         FROM game_users u JOIN game_countries c ON c.country = u.country
        WHERE u.id = $1`,
      [player.user.id],
    );
    return rows[0];
  }
});
