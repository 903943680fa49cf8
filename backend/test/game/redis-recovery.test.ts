import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable } from '../helpers/availability';
import { startTestServer, type TestServer } from '../helpers/server';
import { dropRedisPrefix } from '../helpers/services';
import { makePlayer, tap } from './builders';

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
    });
    const countries = (await request(server.url).get('/api/leaderboard/countries')).body;
    expect(countries).toContainEqual({ country: 'CA', totalPoints: 13 });
    await expect.poll(pgPoints, { timeout: 10_000 }).toBe(13);
  });
});
