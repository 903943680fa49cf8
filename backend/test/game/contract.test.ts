import {
  errorBodySchema,
  gameConfigSchema,
  gameSessionSchema,
  gameUserSchema,
  leaderboardCountrySchema,
  leaderboardUserSchema,
  MAX_TAPS_PER_BATCH,
  messages,
  milestoneResponseSchema,
  rankResponseSchema,
  tapResultSchema,
} from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer } from '../helpers/answers';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makePlayer, makeUsername, tap } from './builders';
import { storageModes } from './modes';

describe.each(storageModes)('game HTTP contract (%s mode)', (mode) => {
  let server: TestServer;
  let url: string;
  beforeAll(async () => {
    server = await startTestServer({ mode });
    url = server.url;
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe('POST /api/users', () => {
    it('creates a player with zero totals, trims the name and binds the browser with a cookie', async () => {
      const name = makeUsername();
      const res = await request(url)
        .post('/api/users')
        .send({ username: `  ${name} `, country: 'fr' });
      expect(res.status).toBe(201);
      expectAnswer(gameUserSchema, res.body);
      expect(res.body).toEqual({
        id: expect.any(String),
        username: name,
        country: 'FR',
        totalPoints: 0,
        totalTaps: 0,
      });
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toMatch(/^tg_player=/);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
    });

    it.each([
      ['ab', messages.usernameTooShort],
      ['x'.repeat(21), messages.usernameTooLong],
      ['no spaces', messages.usernameCharacters],
    ])('refuses the username %j with the dialog message', async (username, error) => {
      const res = await request(url).post('/api/users').send({ username, country: 'GB' });
      expect(res.status).toBe(400);
      expectAnswer(errorBodySchema, res.body);
      expect(res.body).toEqual({ error });
    });

    it('refuses a taken username ignoring case with 409', async () => {
      const name = makeUsername();
      expect(
        (await request(url).post('/api/users').send({ username: name, country: 'GB' })).status,
      ).toBe(201);
      const res = await request(url)
        .post('/api/users')
        .send({ username: name.toUpperCase(), country: 'US' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'Username already taken' });
    });

    it('refuses a country that is not a two-letter code', async () => {
      const res = await request(url)
        .post('/api/users')
        .send({ username: makeUsername(), country: 'GBR' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: messages.countryCode });
    });

    it('refuses a two-letter code that names no country', async () => {
      const res = await request(url)
        .post('/api/users')
        .send({ username: makeUsername(), country: 'XX' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: messages.unknownCountry });
    });
  });

  describe('players and sessions', () => {
    it('answers a player by id, 404 for an unknown or malformed id', async () => {
      const { user } = await makePlayer(url);
      expect(
        expectAnswer(gameUserSchema, (await request(url).get(`/api/users/${user.id}`)).body),
      ).toEqual(user);
      const unknown = await request(url).get(`/api/users/${crypto.randomUUID()}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'User not found' });
      expect((await request(url).get('/api/users/not-a-uuid')).status).toBe(404);
      expect((await request(url).get(`/api/users/${crypto.randomUUID()}/rank`)).status).toBe(404);
    });

    it('opens a session at zero whatever counts the client sends', async () => {
      const { user, cookie } = await makePlayer(url);
      const res = await request(url)
        .post('/api/sessions')
        .set('Cookie', cookie)
        .send({ userId: user.id, sessionPoints: 500, sessionTaps: 500 });
      expect(res.status).toBe(201);
      expectAnswer(gameSessionSchema, res.body);
      expect(res.body).toEqual({
        id: expect.any(String),
        userId: user.id,
        sessionPoints: 0,
        sessionTaps: 0,
      });
    });

    it('lets only the browser that created a player open its sessions', async () => {
      const alice = await makePlayer(url);
      const bob = await makePlayer(url);
      const anonymous = await request(url).post('/api/sessions').send({ userId: alice.user.id });
      expect(anonymous.status).toBe(403);
      const impostor = await request(url)
        .post('/api/sessions')
        .set('Cookie', bob.cookie)
        .send({ userId: alice.user.id });
      expect(impostor.status).toBe(403);
      const forged = await request(url)
        .post('/api/sessions')
        .set('Cookie', `tg_player=${alice.user.id}`)
        .send({ userId: alice.user.id });
      expect(forged.status).toBe(403);
    });
  });

  describe('POST /api/tap', () => {
    it('adds exactly one point and tap to the player, the session and the country, ignoring client counts', async () => {
      const country = 'NZ';
      const player = await makePlayer(url, country);
      const before =
        (await request(url).get('/api/leaderboard/countries')).body.find(
          (c: { country: string }) => c.country === country,
        )?.totalPoints ?? 0;
      const res = await tap(url, player, { sessionPoints: 9999, sessionTaps: 9999 });
      expect(res.status).toBe(200);
      expectAnswer(tapResultSchema, res.body);
      expect(res.body).toEqual({
        user: { ...player.user, totalPoints: 1, totalTaps: 1 },
        session: { ...player.session, sessionPoints: 1, sessionTaps: 1 },
      });
      const second = await tap(url, player);
      expect(second.body.user.totalPoints).toBe(2);
      expect(second.body.session.sessionTaps).toBe(2);
      const countries = expectAnswer(
        leaderboardCountrySchema.array(),
        (await request(url).get('/api/leaderboard/countries')).body,
      );
      expect(countries.find((c) => c.country === country)?.totalPoints).toBe(before + 2);
    });

    it('refuses pointsPerTap other than 1 and counts nothing', async () => {
      const player = await makePlayer(url);
      const res = await tap(url, player, { pointsPerTap: 100 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'pointsPerTap must be 1' });
      expect((await request(url).get(`/api/users/${player.user.id}`)).body.totalPoints).toBe(0);
    });

    it('refuses a tap without the cookie, for another player, or on an unknown session', async () => {
      const alice = await makePlayer(url);
      const bob = await makePlayer(url);
      expect((await tap(url, { ...alice, cookie: '' })).status).toBe(403);
      expect((await tap(url, { ...bob, session: alice.session })).status).toBe(403);
      const unknown = await tap(url, {
        ...alice,
        session: { ...alice.session, id: crypto.randomUUID() },
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'Session not found' });
      expect((await request(url).get(`/api/users/${alice.user.id}`)).body.totalPoints).toBe(0);
      expect((await request(url).get(`/api/users/${bob.user.id}`)).body.totalPoints).toBe(0);
    });

    it('counts a tap sent again with the same Idempotency-Key once, per session', async () => {
      const player = await makePlayer(url);
      const key = 'tap-0f3a9c41d2b84e7a';
      const first = await tap(url, player).set('Idempotency-Key', key);
      expect([first.status, first.body.user.totalTaps]).toEqual([200, 1]);
      const again = await tap(url, player).set('Idempotency-Key', key);
      expect(again.status).toBe(200);
      expect(expectAnswer(tapResultSchema, again.body)).toEqual(first.body);
      expect((await tap(url, player).set('Idempotency-Key', 'tap-other')).body.user.totalTaps).toBe(
        2,
      );
      expect((await tap(url, player)).body.user.totalTaps).toBe(3);
      // A key is the session's own: another session of the player counts its tap.
      const session = await request(url)
        .post('/api/sessions')
        .set('Cookie', player.cookie)
        .send({ userId: player.user.id });
      const other = await tap(url, { ...player, session: session.body }).set(
        'Idempotency-Key',
        key,
      );
      expect([other.body.user.totalTaps, other.body.session.sessionTaps]).toEqual([4, 1]);
    });

    it('counts a batch of taps in one call, and once when it is sent again with its key', async () => {
      const player = await makePlayer(url, 'IS');
      const first = await tap(url, player, { count: 12 }).set('Idempotency-Key', 'kept-1');
      expect(first.status).toBe(200);
      expect(expectAnswer(tapResultSchema, first.body)).toEqual({
        user: { ...player.user, totalPoints: 12, totalTaps: 12 },
        session: { ...player.session, sessionPoints: 12, sessionTaps: 12 },
      });
      const again = await tap(url, player, { count: 12 }).set('Idempotency-Key', 'kept-1');
      expect([again.status, again.body]).toEqual([200, first.body]);
      expect((await tap(url, player, { count: 3 })).body.user.totalTaps).toBe(15);
      for (const count of [0, MAX_TAPS_PER_BATCH + 1, 1.5, '2']) {
        expect((await tap(url, player, { count })).status, String(count)).toBe(400);
      }
      expect((await request(url).get(`/api/users/${player.user.id}`)).body.totalTaps).toBe(15);
    });

    it('refuses an Idempotency-Key that is not 1 to 64 letters, digits, - or _', async () => {
      const player = await makePlayer(url);
      for (const key of ['x'.repeat(65), 'a b', 'é']) {
        const res = await tap(url, player).set('Idempotency-Key', key);
        expect([res.status, res.body]).toEqual([
          400,
          { error: 'Idempotency-Key must be 1 to 64 letters, digits, - or _' },
        ]);
      }
      expect((await request(url).get(`/api/users/${player.user.id}`)).body.totalTaps).toBe(0);
    });

    it('refuses a player cookie that is not signed by the server', async () => {
      const player = await makePlayer(url);
      const id = player.user.id;
      const signature = player.cookie.slice(player.cookie.lastIndexOf('.') + 1);
      for (const cookie of [
        `tg_player=${id}`,
        `tg_player=s%3A${id}`,
        `tg_player=s%3A${id}.${signature.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
      ]) {
        const res = await tap(url, { ...player, cookie });
        expect(res.status, cookie).toBe(403);
        expectAnswer(errorBodySchema, res.body);
      }
      expect((await request(url).get(`/api/users/${id}`)).body.totalPoints).toBe(0);
      expect((await tap(url, player)).status).toBe(200);
    });
  });

  describe('GET /api/game/config', () => {
    it('answers the links and the contract address the game header shows', async () => {
      const res = await request(url).get('/api/game/config');
      expect(res.status).toBe(200);
      expect(expectAnswer(gameConfigSchema, res.body)).toEqual({
        socialUrl: expect.any(String),
        chartUrl: expect.any(String),
        contractAddress: expect.any(String),
        countryChangeDays: 30,
      });
    });
  });

  describe('leaderboards, rank and milestone', () => {
    it('lists players best first with their points, reflecting every acknowledged tap', async () => {
      const leader = await makePlayer(url, 'JP');
      for (let i = 0; i < 30; i += 1) expect((await tap(url, leader)).status).toBe(200);
      const board = expectAnswer(
        leaderboardUserSchema.array(),
        (await request(url).get('/api/leaderboard/users?limit=3')).body,
      );
      expect(board).toHaveLength(3);
      expect(board[0]).toEqual({
        id: leader.user.id,
        username: leader.user.username,
        totalPoints: 30,
        rank: 1,
      });
      const points = board.map((u) => u.totalPoints);
      expect(points).toEqual([...points].sort((a, b) => b - a));
    });

    it('validates the limit', async () => {
      expect((await request(url).get('/api/leaderboard/users?limit=1001')).status).toBe(400);
      expect((await request(url).get('/api/leaderboard/users?limit=abc')).status).toBe(400);
      expect((await request(url).get('/api/leaderboard/users?limit=1000')).status).toBe(200);
    });

    it('ranks players by strictly greater points, ties sharing a rank', async () => {
      const [a, b, c] = [await makePlayer(url), await makePlayer(url), await makePlayer(url)];
      const taps = async (p: typeof a, n: number) => {
        for (let i = 0; i < n; i += 1) expect((await tap(url, p)).status).toBe(200);
      };
      await taps(a, 35);
      await taps(b, 35);
      await taps(c, 34);
      const rank = async (p: typeof a) =>
        expectAnswer(
          rankResponseSchema,
          (await request(url).get(`/api/users/${p.user.id}/rank`)).body,
        ).rank;
      const above = (await request(url).get('/api/leaderboard/users?limit=1000')).body.filter(
        (u: { totalPoints: number }) => u.totalPoints > 35,
      ).length;
      expect(await rank(a)).toBe(above + 1);
      expect(await rank(b)).toBe(above + 1);
      expect(await rank(c)).toBe(above + 3);
    });

    it('counts players at 100K points for the milestone', async () => {
      const player = await makePlayer(url);
      const milestone = async () =>
        expectAnswer(milestoneResponseSchema, (await request(url).get('/api/milestone/100k')).body);
      const before = (await milestone()).usersOver100k;
      await server.db.pool.query('UPDATE game_users SET total_points = 99999 WHERE id = $1', [
        player.user.id,
      ]);
      if (mode === 'redis') {
        // Redis holds the live totals: make it take the new figure as it would after losing its data.
        await server.redis!.hset(
          `${prefixOf(server)}:game:user:${player.user.id}`,
          'points',
          99999,
        );
        await server.redis!.zadd(`${prefixOf(server)}:game:lb:users`, 99999, player.user.id);
      }
      expect(await milestone()).toEqual({ usersOver100k: before });
      expect((await tap(url, player)).body.user.totalPoints).toBe(100000);
      expect(await milestone()).toEqual({ usersOver100k: before + 1 });
    });
  });
});

function prefixOf(server: TestServer): string {
  return server.redisPrefix;
}
