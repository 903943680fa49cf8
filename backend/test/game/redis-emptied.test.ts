import { gameEvents, type TapBatch } from '@tapgram/shared';
import { Redis } from 'ioredis';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TapBatches } from '../../../frontend/src/features/game/taps/tap-batches';
import { createLogger } from '../../src/core/logger';
import { RedisGameStore } from '../../src/game/redis-store';
import { gameRepositories } from '../../src/game/repositories';
import { redisAvailable } from '../../test-support/availability';
import { startRedisProcess, type RedisProcess } from '../../test-support/redis-process';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makePlayer, tap, type Player } from './builders';

const PLAYERS = 8;
const COUNTRIES = ['GB', 'FR', 'JP', 'BR'];

/** A player whose page runs the game screen's tap protocol, with its timings, over a real socket. */
interface Tapper {
  player: Player;
  socket: Socket;
  sender: TapBatches;
  /** Taps the server acknowledged as counted, each batch once. */
  acknowledged: number;
  /** Batches sent again with a number sent before. */
  resent: number;
}

async function openTapper(url: string, player: Player): Promise<Tapper> {
  const socket = io(url, { transports: ['websocket'], extraHeaders: { Cookie: player.cookie } });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const seen = new Set<number>();
  const tapper: Tapper = { player, socket, sender: undefined as never, acknowledged: 0, resent: 0 };
  tapper.sender = new TapBatches({
    socket: {
      get connected() {
        return socket.connected;
      },
      on: socket.on.bind(socket),
      off: socket.off.bind(socket),
      timeout: (ms: number) => ({
        emitWithAck: (event: string, payload: unknown) => {
          if (event === gameEvents.tap) {
            const { seq } = payload as TapBatch;
            if (seen.has(seq ?? 0)) tapper.resent += 1;
            seen.add(seq ?? 0);
          }
          return socket.timeout(ms).emitWithAck(event, payload);
        },
      }),
    } as unknown as Socket,
    postTap: () => Promise.reject(new Error('the socket stays connected in this test')),
    onSettled: ({ accepted, sent }) => {
      if (sent > 0) tapper.acknowledged += accepted;
    },
    // A refused batch was never acknowledged: it is not counted above.
    onError: () => undefined,
  });
  return tapper;
}

describe.runIf(await redisAvailable())('acknowledged taps when Redis loses its data', () => {
  let redis: RedisProcess;
  let server: TestServer;
  let tappers: Tapper[] = [];
  /** Another process's store on the same Redis and Postgres: it flushes when the test says. */
  let flusher: RedisGameStore;
  let flusherRedis: Redis;
  beforeAll(async () => {
    redis = await startRedisProcess();
    // The server's own flusher stays out of the way until it shuts down: which taps are durable
    // when Redis loses its data is the test's choice, not the timer's.
    server = await startTestServer({
      mode: 'redis',
      env: { REDIS_URL: redis.url, FLUSH_INTERVAL_MS: '3600000' },
    });
    flusherRedis = new Redis(redis.url);
    // The test kills this Redis: the reconnect attempts' errors are expected, not news.
    flusherRedis.on('error', () => undefined);
    flusher = new RedisGameStore({
      redis: flusherRedis,
      repos: gameRepositories(server.db.pool),
      rateLimit: { perSecond: 20, burst: 40 },
      logger: createLogger('silent'),
      prefix: server.redisPrefix,
    });
  });
  afterAll(async () => {
    for (const t of tappers) {
      t.sender.dispose();
      t.socket.disconnect();
    }
    flusherRedis?.disconnect();
    await server?.stop();
    await redis?.stop();
  });

  /** Every player taps about ten times a second until `during` resolves, then stops. */
  async function tapThrough(during: () => Promise<void>) {
    const timer = setInterval(() => {
      for (const t of tappers) t.sender.tap(t.player.user.id, t.player.session.id);
    }, 100);
    try {
      await during();
    } finally {
      clearInterval(timer);
    }
  }

  /** Taps until each player has `n` more acknowledged taps. */
  async function tapUntilEachAcknowledged(n: number) {
    const target = tappers.map((t) => t.acknowledged + n);
    await tapThrough(() =>
      expect
        .poll(() => tappers.every((t, i) => t.acknowledged >= target[i]), { timeout: 20_000 })
        .toBe(true),
    );
  }

  async function expectPostgresToHoldEveryAcknowledgedTap() {
    // Settled: nothing unanswered, then flushed, then nothing answered that Postgres does not hold.
    let flushing: Promise<void> | null = null;
    await expect
      .poll(
        () => {
          const answered = tappers.every(
            (t) => t.sender.unconfirmed === 0 && !t.sender.unavailable,
          );
          if (answered && tappers.some((t) => t.sender.notDurable > 0)) {
            flushing ??= flusher.flush().finally(() => {
              flushing = null;
            });
          }
          return answered && tappers.every((t) => t.sender.notDurable === 0);
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await flushing;
    const { rows } = await server.db.pool.query<{ id: string; total_taps: number }>(
      'SELECT id, total_taps FROM game_users WHERE id = ANY($1)',
      [tappers.map((t) => t.player.user.id)],
    );
    const inPostgres = new Map(rows.map((r) => [r.id, r.total_taps]));
    expect(tappers.map((t) => inPostgres.get(t.player.user.id))).toEqual(
      tappers.map((t) => t.acknowledged),
    );
    const countries = await server.db.pool.query<{ country: string; total_taps: number }>(
      'SELECT country, total_taps FROM game_countries ORDER BY country',
    );
    const byCountry = new Map<string, number>();
    for (const t of tappers) {
      byCountry.set(
        t.player.user.country,
        (byCountry.get(t.player.user.country) ?? 0) + t.acknowledged,
      );
    }
    expect(countries.rows).toEqual(
      [...byCountry].sort().map(([country, taps]) => ({ country, total_taps: taps })),
    );
  }

  it('keeps every acknowledged tap when Redis is emptied under load', async () => {
    const players = await Promise.all(
      Array.from({ length: PLAYERS }, (_, i) => makePlayer(server.url, COUNTRIES[i % 4])),
    );
    tappers = await Promise.all(players.map((p) => openTapper(server.url, p)));
    await tapUntilEachAcknowledged(10);
    // Some taps durable, and at least five a player acknowledged since: those Redis alone held.
    await flusher.flush();
    await tapUntilEachAcknowledged(5);

    const admin = new Redis(redis.url);
    await tapThrough(async () => {
      await admin.flushall();
      await expect.poll(() => tappers.every((t) => t.resent > 0), { timeout: 20_000 }).toBe(true);
    });
    admin.disconnect();
    await tapUntilEachAcknowledged(5);

    await expectPostgresToHoldEveryAcknowledgedTap();
  });

  it('keeps every acknowledged tap when Redis restarts empty under load', async () => {
    // Acknowledged since the last flush: Redis alone holds these when it dies.
    await tapUntilEachAcknowledged(5);
    const resentBefore = tappers.map((t) => t.resent);
    await tapThrough(async () => {
      await redis.kill();
      await expect
        .poll(() => tappers.every((t) => t.sender.unavailable), { timeout: 20_000 })
        .toBe(true);
      await redis.start();
      await expect
        .poll(() => tappers.every((t, i) => !t.sender.unavailable && t.resent > resentBefore[i]), {
          timeout: 20_000,
        })
        .toBe(true);
    });
    await tapUntilEachAcknowledged(5);

    await expectPostgresToHoldEveryAcknowledgedTap();
  });

  it('refuses a tap with a 503 (not counted), never a 404, when Redis loses its data at every try', async () => {
    const player = await makePlayer(server.url, 'GB');
    const lossy = new Redis(redis.url);
    const admin = new Redis(redis.url);
    try {
      const store = new RedisGameStore({
        redis: lossy,
        repos: gameRepositories(server.db.pool),
        rateLimit: { perSecond: 20, burst: 40 },
        logger: createLogger('silent'),
        prefix: server.redisPrefix,
      });
      // Redis loses its data just before each tap script reaches it: no rebuild holds for a try.
      const scripts = lossy as unknown as {
        gameTapBatch: (...args: unknown[]) => Promise<unknown>;
      };
      const run = scripts.gameTapBatch.bind(lossy);
      scripts.gameTapBatch = async (...args) => {
        await admin.flushall();
        return run(...args);
      };
      const batch = { userId: player.user.id, sessionId: player.session.id, count: 1 };
      await expect(store.tap(batch)).rejects.toMatchObject({ status: 503 });
    } finally {
      lossy.disconnect();
      admin.disconnect();
    }
    // The player and the session are as they were: the next tap, with Redis intact, counts.
    expect((await tap(server.url, player)).status).toBe(200);
    await flusher.flush();
    const { rows } = await server.db.pool.query<{ total_taps: number }>(
      'SELECT total_taps FROM game_users WHERE id = $1',
      [player.user.id],
    );
    expect(rows[0]?.total_taps).toBe(1);
  });
});
