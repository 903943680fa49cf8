import { gameEvents, type TapSyncAck } from '@tapgram/shared';
import request from 'supertest';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable } from '../../test-support/availability';
import { startRedisProcess, type RedisProcess } from '../../test-support/redis-process';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makePlayer, makeUsername, tap } from './builders';
import { connectGame, sendTaps } from './socket-client';

// A request that hangs fails the test at this bound instead of passing late.
const CLIENT_TIMEOUT_MS = 5000;
const UNAVAILABLE = { error: expect.stringMatching(/briefly unavailable/) };
const NO_ANSWER = { error: expect.stringMatching(/did not answer in time.*may still be counted/) };

describe.runIf(await redisAvailable())('the game while its Redis is unreachable', () => {
  let redis: RedisProcess;
  let server: TestServer;
  let socket: Socket | undefined;
  beforeAll(async () => {
    redis = await startRedisProcess();
    server = await startTestServer({
      mode: 'redis',
      env: { REDIS_URL: redis.url, FLUSH_INTERVAL_MS: '200' },
    });
  });
  afterAll(async () => {
    socket?.disconnect();
    await server?.stop();
    await redis?.stop();
  });

  const get = (path: string) => request(server.url).get(path).timeout(CLIENT_TIMEOUT_MS);
  const sync = (s: Socket, sessionId: string): Promise<TapSyncAck> =>
    s.timeout(CLIENT_TIMEOUT_MS).emitWithAck(gameEvents.sync, { sessionId });

  it('answers every game call 503 with an error at once, and serves again when Redis returns', async () => {
    const player = await makePlayer(server.url, 'NO');
    const reads = [
      '/api/leaderboard/users',
      '/api/leaderboard/countries',
      '/api/milestone/100k',
      `/api/users/${player.user.id}`,
      `/api/users/${player.user.id}/rank`,
    ];
    socket = await connectGame(server.url, player.cookie);
    expect(await sendTaps(socket, player.session.id, 2, 1)).toMatchObject({ ok: true });
    const flushed = async () =>
      (
        await server.db.pool.query('SELECT total_taps FROM game_users WHERE id = $1', [
          player.user.id,
        ])
      ).rows[0].total_taps;
    await expect.poll(flushed, { timeout: 10_000 }).toBe(2);

    await redis.kill();

    for (const path of reads) {
      const res = await get(path);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 503,
        body: UNAVAILABLE,
      });
    }
    const fastTap = await tap(server.url, player).timeout(CLIENT_TIMEOUT_MS);
    expect([fastTap.status, fastTap.body]).toEqual([503, UNAVAILABLE]);
    const session = await request(server.url)
      .post('/api/sessions')
      .set('Cookie', player.cookie)
      .send({ userId: player.user.id })
      .timeout(CLIENT_TIMEOUT_MS);
    expect([session.status, session.body]).toEqual([503, UNAVAILABLE]);
    const created = await request(server.url)
      .post('/api/users')
      .send({ username: makeUsername(), country: 'NO' })
      .timeout(CLIENT_TIMEOUT_MS);
    expect([created.status, created.body]).toEqual([503, UNAVAILABLE]);
    // The socket's answers say when to ask again, as Retry-After does over HTTP.
    expect(await sendTaps(socket, player.session.id, 3, 2)).toEqual({
      ok: false,
      status: 503,
      ...UNAVAILABLE,
      retryAfterMs: 1000,
    });
    expect(await sync(socket, player.session.id)).toEqual({
      ok: false,
      status: 503,
      ...UNAVAILABLE,
      retryAfterMs: 1000,
    });
    expect((await get('/readyz')).status).toBe(503);

    // Redis comes back empty: the game rebuilds it from Postgres by itself.
    await redis.start();
    await expect
      .poll(async () => (await get('/api/leaderboard/users')).status, { timeout: 20_000 })
      .toBe(200);
    expect(await sendTaps(socket, player.session.id, 3, 2)).toMatchObject({
      ok: true,
      user: { totalTaps: 5 },
      session: { sessionTaps: 5 },
    });
    const again = await tap(server.url, player).timeout(CLIENT_TIMEOUT_MS);
    expect([again.status, again.body.user.totalTaps]).toEqual([200, 6]);
    for (const path of reads) expect((await get(path)).status).toBe(200);
    expect((await get('/readyz')).status).toBe(200);
    await expect.poll(flushed, { timeout: 10_000 }).toBe(6);
  });

  it('answers instead of waiting when Redis hangs, and serves again when it answers', async () => {
    const player = await makePlayer(server.url, 'SE');
    socket?.disconnect();
    socket = await connectGame(server.url, player.cookie);
    redis.pause();
    try {
      const board = await get('/api/leaderboard/users');
      expect([board.status, board.body]).toEqual([503, UNAVAILABLE]);
      // Redis may still run the batch when it wakes: the answer does not say it counted nothing.
      expect(await sendTaps(socket, player.session.id, 2, 1)).toEqual({
        ok: false,
        status: 504,
        ...NO_ANSWER,
      });
    } finally {
      redis.resume();
    }
    expect((await get('/api/leaderboard/users')).status).toBe(200);
    // The batch Redis ran late is counted once: its re-send is answered, not counted again.
    expect(await sendTaps(socket, player.session.id, 2, 1)).toMatchObject({
      ok: true,
      user: { totalTaps: 2 },
    });
    expect(await sendTaps(socket, player.session.id, 1, 2)).toMatchObject({
      ok: true,
      user: { totalTaps: 3 },
    });
  });

  it('counts once a tap POSTed while Redis hangs and sent again with its Idempotency-Key', async () => {
    const player = await makePlayer(server.url, 'DK');
    const keys = ['hang-1', 'hang-2', 'hang-3', 'hang-4', 'hang-5'];
    const post = (key?: string) => {
      const sent = tap(server.url, player).timeout(CLIENT_TIMEOUT_MS);
      return key ? sent.set('Idempotency-Key', key) : sent;
    };
    redis.pause();
    try {
      for (const key of [...keys, undefined]) {
        const res = await post(key);
        expect([res.status, res.body]).toEqual([504, NO_ANSWER]);
        expect(res.headers['retry-after']).toBe('1');
      }
    } finally {
      redis.resume();
    }
    // Redis ran every one of them when it woke: sent again with their keys, none counts twice.
    for (const key of keys) {
      const res = await post(key);
      expect([res.status, res.body.user.totalTaps]).toEqual([200, 6]);
    }
    expect((await post('after')).body.user.totalTaps).toBe(7);
    const flushed = async () =>
      (
        await server.db.pool.query('SELECT total_taps FROM game_users WHERE id = $1', [
          player.user.id,
        ])
      ).rows[0].total_taps;
    await expect.poll(flushed).toBe(7);
  });
});
