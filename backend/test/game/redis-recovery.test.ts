import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable } from '../../test-support/availability';
import { startTestServer, type TestServer } from '../../test-support/server';
import { dropRedisPrefix } from '../../test-support/services';
import { makePlayer, tap } from './builders';
import { connectGame, sendTaps } from './socket-client';

describe.runIf(await redisAvailable())('Redis store durability', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ mode: 'redis', env: { FLUSH_INTERVAL_MS: '200' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('flushes taps to Postgres and rebuilds an emptied Redis from it before serving taps', async () => {
    const player = await makePlayer(server.url, 'CA');
    for (let i = 0; i < 12; i += 1) expect((await tap(server.url, player)).status).toBe(200);
    const pgPoints = async () =>
      (
        await server.db.pool.query('SELECT total_points FROM game_users WHERE id = $1', [
          player.user.id,
        ])
      ).rows[0].total_points;
    await expect.poll(pgPoints, { timeout: 10_000 }).toBe(12);

    // Redis restarts without its data.
    await dropRedisPrefix(server.redisPrefix);

    const next = await tap(server.url, player);
    expect(next.status).toBe(200);
    expect(next.body.user.totalPoints).toBe(13);
    expect(next.body.session.sessionPoints).toBe(13);
    const board = (await request(server.url).get('/api/leaderboard/users')).body;
    expect(board).toContainEqual({
      id: player.user.id,
      username: player.user.username,
      totalPoints: 13,
      rank: 1,
    });
    const countries = (await request(server.url).get('/api/leaderboard/countries')).body;
    expect(countries).toContainEqual({ country: 'CA', totalPoints: 13 });
    await expect.poll(pgPoints, { timeout: 10_000 }).toBe(13);
  });
});

describe.runIf(await redisAvailable())('Redis store shutdown', () => {
  it('writes every acknowledged tap to Postgres when the server shuts down', async () => {
    // No flush tick before the shutdown: only the shutdown flush can write these taps.
    const server = await startTestServer({ mode: 'redis', env: { FLUSH_INTERVAL_MS: '3600000' } });
    try {
      expect(server.databaseUrl).toBeDefined();
      const player = await makePlayer(server.url, 'PT');
      for (let i = 0; i < 5; i += 1) expect((await tap(server.url, player)).status).toBe(200);
      const socket = await connectGame(server.url, player.cookie);
      expect(await sendTaps(socket, player.session.id, 7, 1)).toMatchObject({ ok: true });
      socket.disconnect();

      await server.close();

      const client = new pg.Client({ connectionString: server.databaseUrl });
      await client.connect();
      const { rows } = await client.query(
        `SELECT u.total_points, u.total_taps, s.session_taps, s.last_seq, c.total_taps AS country_taps
           FROM game_users u
           JOIN game_sessions s ON s.user_id = u.id
           JOIN game_countries c ON c.country = u.country
          WHERE s.id = $1`,
        [player.session.id],
      );
      await client.end();
      expect(rows).toEqual([
        { total_points: 12, total_taps: 12, session_taps: 12, last_seq: 1, country_taps: 12 },
      ]);
    } finally {
      await server.stop();
    }
  });
});
