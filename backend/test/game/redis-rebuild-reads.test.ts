import type { LeaderboardUser } from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { redisAvailable } from '../../test-support/availability';
import { startTestServer, type TestServer } from '../../test-support/server';
import { dropRedisPrefix } from '../../test-support/services';
import { makeUsername } from './builders';
import { connectGame, nextBoard } from './socket-client';

describe.runIf(await redisAvailable())('reads right after Redis lost its data', () => {
  let server: TestServer;
  let star: LeaderboardUser;
  beforeAll(async () => {
    // No flush tick: only the reads themselves can trigger the rebuild.
    server = await startTestServer({ mode: 'redis', env: { FLUSH_INTERVAL_MS: '3600000' } });
    // What Postgres holds from earlier flushes.
    const { rows } = await server.db.pool.query<LeaderboardUser>(
      `INSERT INTO game_users (username, country, total_points, total_taps)
       VALUES ($1, 'MX', 150000, 150000) RETURNING id, username, total_points AS "totalPoints"`,
      [makeUsername('star')],
    );
    star = rows[0];
    await server.db.pool.query(
      `INSERT INTO game_countries (country, total_points, total_taps) VALUES ('MX', 150000, 150000)`,
    );
  });
  beforeEach(async () => {
    // Redis restarts without its data.
    await dropRedisPrefix(server.redisPrefix);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers the boards, the milestone, players and ranks from Postgres’s figures', async () => {
    const get = (path: string) => request(server.url).get(path);
    const [users, countries, milestone, user, rank] = await Promise.all([
      get('/api/leaderboard/users'),
      get('/api/leaderboard/countries'),
      get('/api/milestone/100k'),
      get(`/api/users/${star.id}`),
      get(`/api/users/${star.id}/rank`),
    ]);
    expect(users.body).toEqual([{ ...star, rank: 1 }]);
    expect(countries.body).toEqual([{ country: 'MX', totalPoints: 150000 }]);
    expect(milestone.body).toEqual({ usersOver100k: 1 });
    expect(user.body).toMatchObject({ id: star.id, totalPoints: 150000 });
    expect(rank.body).toEqual({ rank: 1 });
  });

  it('sends an event screen the full board on connect', async () => {
    const watcher = await connectGame(server.url);
    try {
      const users = await nextBoard(watcher, 'users');
      expect(users).toContainEqual({ ...star, rank: 1 });
    } finally {
      watcher.disconnect();
    }
  });

  it('pushes the full board, not an emptied one, when a player is created', async () => {
    const watcher = await connectGame(server.url);
    try {
      await nextBoard(watcher, 'users');
      // Redis loses its data again while the event screen is connected.
      await dropRedisPrefix(server.redisPrefix);
      const username = makeUsername('new');
      const pushed = nextBoard(watcher, 'users', (users) =>
        users.some((u) => u.username === username),
      );
      const created = await request(server.url)
        .post('/api/users')
        .send({ username, country: 'MX' });
      expect(created.status).toBe(201);
      expect(await pushed).toContainEqual({ ...star, rank: 1 });
    } finally {
      watcher.disconnect();
    }
  });
});
