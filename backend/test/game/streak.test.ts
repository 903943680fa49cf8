import {
  DEFAULT_STREAK_RULES,
  gameUserSchema,
  streakClaimAnswerSchema,
  streakMessages,
  streakSchema,
  type Streak,
} from '@tapgram/shared';
import { Redis } from 'ioredis';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/server';
import { dropRedisPrefix, TEST_REDIS_URL } from '../../test-support/services';
import { expectAnswer } from '../helpers/answers';
import { makePlayer, tap, type Player } from './builders';
import { storageModes } from './modes';

const DAILY_TAPS = 5;
// The first day of a streak gives the base; a few days' bonus is under the cap.
const FIRST_BONUS = DEFAULT_STREAK_RULES.bonusBase;

async function streakOf(url: string, player: Player): Promise<Streak> {
  const res = await request(url).get(`/api/users/${player.user.id}/streak`);
  expect(res.status).toBe(200);
  return expectAnswer(streakSchema, res.body);
}

function claim(url: string, player: Player, cookie = player.cookie) {
  return request(url)
    .post('/api/streak/claim')
    .set('Cookie', cookie)
    .send({ userId: player.user.id });
}

async function tapTimes(url: string, player: Player, count: number) {
  const res = await tap(url, player, { count });
  expect(res.status).toBe(200);
}

async function pointsOf(url: string, player: Player) {
  const res = await request(url).get(`/api/users/${player.user.id}`);
  return expectAnswer(gameUserSchema, res.body);
}

describe.each(storageModes)('the daily streak (%s mode)', (mode) => {
  let server: TestServer;
  /** A second node on the same database (and Redis). */
  let other: TestServer;
  let db: pg.Client;
  beforeAll(async () => {
    const env = { STREAK_DAILY_TAPS: String(DAILY_TAPS), FLUSH_INTERVAL_MS: '50' };
    server = await startTestServer({ mode, env });
    other = await startTestServer({
      mode,
      env,
      databaseUrl: server.databaseUrl,
      redisPrefix: server.redisPrefix,
    });
    db = new pg.Client({ connectionString: server.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await other?.stop();
    await server?.stop();
  });

  it("shows today's taps toward the day's count, and the bonus a claim would give", async () => {
    const player = await makePlayer(server.url);
    const fresh = await streakOf(server.url, player);
    expect(fresh).toMatchObject({
      todayTaps: 0,
      dailyTaps: DAILY_TAPS,
      streak: 0,
      claimedToday: false,
      bonus: FIRST_BONUS,
      claims: [],
    });
    expect(fresh.today).toBe(new Date().toISOString().slice(0, 10));
    await tapTimes(server.url, player, 3);
    expect(await streakOf(server.url, player)).toMatchObject({ todayTaps: 3, streak: 0 });
    await tapTimes(server.url, player, 2);
    expect(await streakOf(other.url, player)).toMatchObject({ todayTaps: 5, streak: 1 });
  });

  it('refuses a claim before today counts, saying how many taps it takes', async () => {
    const player = await makePlayer(server.url);
    await tapTimes(server.url, player, DAILY_TAPS - 1);
    const res = await claim(server.url, player);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: streakMessages.notCounted(DAILY_TAPS) });
    expect((await pointsOf(server.url, player)).totalPoints).toBe(DAILY_TAPS - 1);
  });

  it('counts two claims at once on two nodes as one bonus, in points only', async () => {
    const player = await makePlayer(server.url, 'NZ');
    await tapTimes(server.url, player, DAILY_TAPS);
    const answers = await Promise.all([claim(server.url, player), claim(other.url, player)]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
    const won = answers.find((res) => res.status === 200)!;
    const lost = answers.find((res) => res.status === 409)!;
    expect(lost.body).toEqual({ error: streakMessages.alreadyClaimed });
    const answer = expectAnswer(streakClaimAnswerSchema, won.body);
    expect(answer.user).toMatchObject({
      totalTaps: DAILY_TAPS,
      totalPoints: DAILY_TAPS + FIRST_BONUS,
    });
    expect(answer.streak).toMatchObject({ claimedToday: true, streak: 1, bonus: FIRST_BONUS });
    expect(answer.streak.claims).toEqual([
      expect.objectContaining({ day: answer.streak.today, streak: 1, points: FIRST_BONUS }),
    ]);
    for (const url of [server.url, other.url]) {
      expect(await pointsOf(url, player)).toMatchObject({
        totalTaps: DAILY_TAPS,
        totalPoints: DAILY_TAPS + FIRST_BONUS,
      });
    }
    // Every board ranks by points: the bonus is on the all-time and the season's.
    for (const path of [
      '/api/leaderboard/users?limit=1000',
      '/api/seasons/current/users?limit=1000',
    ]) {
      const board = (await request(server.url).get(path)).body as { id: string }[];
      expect(board.find((row) => row.id === player.user.id)).toMatchObject({
        totalPoints: DAILY_TAPS + FIRST_BONUS,
      });
    }
    const countries = (await request(server.url).get('/api/leaderboard/countries')).body as {
      country: string;
      totalPoints: number;
    }[];
    expect(countries.find((c) => c.country === 'NZ')?.totalPoints).toBeGreaterThanOrEqual(
      DAILY_TAPS + FIRST_BONUS,
    );
  });

  it('answers a retry after a lost answer, or a reload, with already claimed and no second bonus', async () => {
    const player = await makePlayer(server.url);
    await tapTimes(server.url, player, DAILY_TAPS);
    expect((await claim(server.url, player)).status).toBe(200);
    for (const url of [server.url, other.url, server.url]) {
      const again = await claim(url, player);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ error: streakMessages.alreadyClaimed });
    }
    expect((await pointsOf(server.url, player)).totalPoints).toBe(DAILY_TAPS + FIRST_BONUS);
    const streak = await streakOf(other.url, player);
    expect(streak).toMatchObject({ claimedToday: true, bonus: FIRST_BONUS, streak: 1 });
    expect(streak.claims).toHaveLength(1);
    // Postgres holds the one claim, the day's taps, and the bonus in the player's points.
    await vi.waitFor(
      async () => {
        const { rows } = await db.query(
          `SELECT u.total_points::int AS points, u.total_taps::int AS taps,
                  (SELECT count(*)::int FROM game_streak_claims c WHERE c.user_id = u.id) AS claims,
                  (SELECT sum(taps)::int FROM game_daily_taps d WHERE d.user_id = u.id) AS "dayTaps"
             FROM game_users u WHERE u.id = $1`,
          [player.user.id],
        );
        expect(rows[0]).toEqual({
          points: DAILY_TAPS + FIRST_BONUS,
          taps: DAILY_TAPS,
          claims: 1,
          dayTaps: DAILY_TAPS,
        });
      },
      { timeout: 15_000, interval: 50 },
    );
  });

  it('counts the days before today from Postgres: a streak of three gives three times the base', async () => {
    const player = await makePlayer(server.url);
    const today = Math.floor(Date.now() / 86_400_000);
    await db.query(
      `INSERT INTO game_daily_taps (user_id, day, taps) VALUES ($1, $2, $4), ($1, $3, $4)`,
      [player.user.id, today - 2, today - 1, DAILY_TAPS],
    );
    expect(await streakOf(server.url, player)).toMatchObject({ streak: 2, bonus: 3 * FIRST_BONUS });
    await tapTimes(server.url, player, DAILY_TAPS);
    const res = await claim(other.url, player);
    expect(res.status).toBe(200);
    expect(expectAnswer(streakClaimAnswerSchema, res.body).user.totalPoints).toBe(
      DAILY_TAPS + 3 * FIRST_BONUS,
    );
  });

  it('refuses a frozen player, another browser and no cookie', async () => {
    const player = await makePlayer(server.url);
    const stranger = await makePlayer(server.url);
    await tapTimes(server.url, player, DAILY_TAPS);
    const foreign = await claim(server.url, player, stranger.cookie);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ error: 'This browser plays as another player' });
    const anonymous = await request(server.url)
      .post('/api/streak/claim')
      .send({ userId: player.user.id });
    expect(anonymous.status).toBe(403);
    await db.query(
      `UPDATE game_users SET frozen_at = now(), frozen_reason = 'test' WHERE id = $1`,
      [player.user.id],
    );
    const frozen = await claim(server.url, player);
    expect(frozen.status).toBe(403);
    expect(frozen.body).toEqual({ error: 'This player is frozen' });
    expect(
      (
        await db.query('SELECT count(*)::int AS n FROM game_streak_claims WHERE user_id = $1', [
          player.user.id,
        ])
      ).rows[0].n,
    ).toBe(0);
  });

  // What Redis holds ahead of Postgres exists in Redis mode alone.
  if (mode === 'redis') {
    it("goes on with the day's taps from Postgres when Redis lost its data", async () => {
      const player = await makePlayer(server.url);
      const dayTaps = async () =>
        (
          await db.query<{ taps: number }>(
            'SELECT taps::int AS taps FROM game_daily_taps WHERE user_id = $1',
            [player.user.id],
          )
        ).rows[0]?.taps;
      await tapTimes(server.url, player, 3);
      await vi.waitFor(async () => expect(await dayTaps()).toBe(3), { timeout: 15_000 });
      await dropRedisPrefix(server.redisPrefix);
      await tapTimes(server.url, player, 2);
      expect(await streakOf(server.url, player)).toMatchObject({ todayTaps: 5, streak: 1 });
      await vi.waitFor(async () => expect(await dayTaps()).toBe(5), { timeout: 15_000 });
    });

    it('writes the day before to Postgres when the first tap of a new day comes before its flush', async () => {
      const player = await makePlayer(server.url);
      await tapTimes(server.url, player, 1);
      const today = Math.floor(Date.now() / 86_400_000);
      // As if the player's last taps, yesterday, had not been flushed when today's first came.
      const redis = new Redis(TEST_REDIS_URL);
      try {
        await redis.hset(`${server.redisPrefix}:game:user:${player.user.id}`, {
          day: today - 1,
          dayTaps: DAILY_TAPS + 2,
        });
      } finally {
        await redis.quit();
      }
      await tapTimes(server.url, player, 2);
      expect(await streakOf(server.url, player)).toMatchObject({ todayTaps: 2, streak: 1 });
      await vi.waitFor(
        async () => {
          const { rows } = await db.query(
            'SELECT day, taps::int AS taps FROM game_daily_taps WHERE user_id = $1 ORDER BY day',
            [player.user.id],
          );
          expect(rows).toEqual([
            { day: today - 1, taps: DAILY_TAPS + 2 },
            { day: today, taps: 2 },
          ]);
        },
        { timeout: 15_000 },
      );
    });
  }

  it('answers hostile input with a 4xx', async () => {
    const bad = await request(server.url).post('/api/streak/claim').send({ userId: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual(expect.any(String));
    expect((await request(server.url).post('/api/streak/claim').send('[]')).status).toBe(400);
    expect((await request(server.url).get('/api/users/nope/streak')).status).toBe(400);
    const unknown = await request(server.url).get(
      '/api/users/00000000-0000-4000-8000-000000000000/streak',
    );
    expect(unknown.status).toBe(404);
  });
});
