import { leaderboardUserSchema } from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer } from '../helpers/answers';
import { startTestServer, type TestServer } from '../../test-support/server';
import { dropRedisPrefix } from '../../test-support/services';
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
      const board = expectAnswer(leaderboardUserSchema.array(), res.body);
      expect(board).toHaveLength(100);
      expect(board[0]).toMatchObject({ username: 'many_101', totalPoints: 101 });
      expect(board[99]).toMatchObject({ username: 'many_2', totalPoints: 2 });
    },
  );

  it('lists more when asked', async () => {
    const res = await request(server.url).get('/api/leaderboard/users?limit=101');
    expect(expectAnswer(leaderboardUserSchema.array(), res.body)).toHaveLength(101);
  });
});
