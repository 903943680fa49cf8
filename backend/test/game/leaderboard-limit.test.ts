import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { dropRedisPrefix } from '../helpers/services';
import { storageModes } from './modes';

describe.each(storageModes)('leaderboard length (%s mode)', (mode) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ mode });
    await server.db.pool.query(
      `INSERT INTO game_users (username, country, total_points, total_taps)
       SELECT 'many_' || i, 'GB', i, i FROM generate_series(1, 101) AS i`,
    );
    // Redis learns of players written straight to Postgres the way it does after losing its data.
    if (mode === 'redis') await dropRedisPrefix(server.redisPrefix);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(['', '?limit='])(
    'lists the best 100 players for /api/leaderboard/users%s',
    async (query) => {
      const res = await request(server.url).get(`/api/leaderboard/users${query}`);
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(100);
      expect(res.body[0]).toMatchObject({ username: 'many_101', totalPoints: 101 });
      expect(res.body[99]).toMatchObject({ username: 'many_2', totalPoints: 2 });
    },
  );

  it('lists more when asked', async () => {
    const res = await request(server.url).get('/api/leaderboard/users?limit=101');
    expect(res.body).toHaveLength(101);
  });
});
