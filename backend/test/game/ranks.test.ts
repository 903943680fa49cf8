import {
  aroundResponseSchema,
  errorBodySchema,
  rankedUserSchema,
  rankResponseSchema,
  type RankedUser,
} from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer } from '../helpers/answers';
import { startTestServer, type TestServer } from '../../test-support/server';
import { dropRedisPrefix } from '../../test-support/services';
import { makePlayer, tap } from './builders';
import { storageModes } from './modes';

// Ties on purpose: three players at 40, two at 20 and two at 0.
const POINTS = [50, 40, 40, 40, 30, 20, 20, 10, 0, 0];
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(storageModes)('ranks of the board and around a player (%s mode)', (mode) => {
  let server: TestServer;
  /** The whole board in order, as GET /api/leaderboard/users answers it. */
  let board: RankedUser[];

  async function rankOf(id: string): Promise<number> {
    const res = await request(server.url).get(`/api/users/${id}/rank`);
    return expectAnswer(rankResponseSchema, res.body).rank;
  }

  async function around(id: string, query = ''): Promise<RankedUser[]> {
    const res = await request(server.url).get(`/api/users/${id}/around${query}`);
    expect(res.status).toBe(200);
    return expectAnswer(aroundResponseSchema, res.body);
  }

  beforeAll(async () => {
    server = await startTestServer({ mode });
    await server.db.pool.query(
      `INSERT INTO game_users (username, country, total_points, total_taps)
       SELECT 'ranked_' || i, 'GB', p, p FROM unnest($1::bigint[]) WITH ORDINALITY AS t(p, i)`,
      [POINTS],
    );
    // Redis learns of players written straight to Postgres the way it does after losing its data.
    if (mode === 'redis') await dropRedisPrefix(server.redisPrefix);
    const res = await request(server.url).get('/api/leaderboard/users');
    board = expectAnswer(rankedUserSchema.array(), res.body);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('gives equal points an equal rank, and the next points the rank after all of them', () => {
    expect(board.map((row) => row.totalPoints)).toEqual(POINTS);
    expect(board.map((row) => row.rank)).toEqual([1, 2, 2, 2, 5, 6, 6, 8, 9, 9]);
  });

  it('shows on every row the rank the Rank tile shows for that player', async () => {
    for (const row of board) expect(await rankOf(row.id)).toBe(row.rank);
  });

  it.each([1, 2])(
    'answers the player and %i players either side of them, as the board orders and ranks them',
    async (span) => {
      for (const [position, row] of board.entries()) {
        const expected = board.slice(Math.max(0, position - span), position + span + 1);
        expect(await around(row.id, `?span=${span}`)).toEqual(expected);
      }
    },
  );

  it('shows two players either side by default (an empty span too)', async () => {
    const middle = board[4];
    expect(await around(middle.id)).toEqual(board.slice(2, 7));
    expect(await around(middle.id, '?span=')).toEqual(board.slice(2, 7));
  });

  it('follows taps: a player who climbs into a tie shares its rank in both answers', async () => {
    const player = await makePlayer(server.url);
    for (let i = 0; i < 10; i += 1) expect((await tap(server.url, player)).status).toBe(200);
    // 10 points: level with ranked_8, after the 20s, so rank 8 like them.
    const mine = (await around(player.user.id, '?span=1')).find((r) => r.id === player.user.id);
    expect(mine).toMatchObject({ totalPoints: 10, rank: 8 });
    expect(await rankOf(player.user.id)).toBe(8);
    const top = await request(server.url).get('/api/leaderboard/users');
    const row = expectAnswer(rankedUserSchema.array(), top.body).find(
      (r) => r.id === player.user.id,
    );
    expect(row?.rank).toBe(8);
  });

  it.each([
    ['not-an-id', '', 'Invalid id'],
    [UNKNOWN_ID, '?span=0', 'span must be at least 1'],
    [UNKNOWN_ID, '?span=11', 'span must be at most 10'],
    [UNKNOWN_ID, '?span=1.5', 'span must be an integer'],
    [UNKNOWN_ID, '?span=two', undefined],
  ])('refuses GET /api/users/%s/around%s with 400', async (id, query, error) => {
    const res = await request(server.url).get(`/api/users/${id}/around${query}`);
    expect(res.status).toBe(400);
    const body = expectAnswer(errorBodySchema, res.body);
    if (error) expect(body.error).toBe(error);
  });

  it('answers 404 for a player nobody created', async () => {
    const res = await request(server.url).get(`/api/users/${UNKNOWN_ID}/around`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'User not found' });
  });
});
