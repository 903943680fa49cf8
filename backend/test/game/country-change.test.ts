import {
  changeCountryResultSchema,
  leaderboardCountrySchema,
  messages,
  playerDetailSchema,
  type LeaderboardCountry,
} from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/server';
import { dropRedisPrefix } from '../../test-support/services';
import { expectAnswer } from '../helpers/answers';
import { makeAdmin } from '../lolgram/moderation/builders';
import { makePlayer, type Player } from './builders';
import { storageModes } from './modes';
import { connectGame, gameSockets, nextBoard, sendTaps } from './socket-client';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CHANGE = '/api/users/me/country';

/** Each test plays in countries of its own: the boards are shared by the file's tests. */
const pairs = [
  ['AD', 'AI'],
  ['AL', 'AM'],
  ['AO', 'AQ'],
  ['AR', 'AS'],
  ['AT', 'AU'],
  ['AW', 'AX'],
  ['AZ', 'BA'],
  ['BB', 'BD'],
];

function change(server: TestServer, player: Player, country: unknown) {
  return request(server.url).patch(CHANGE).set('Cookie', player.cookie).send({ country });
}

async function board(server: TestServer, path: string): Promise<Map<string, number>> {
  const res = await request(server.url).get(path);
  expect(res.status).toBe(200);
  const rows: LeaderboardCountry[] = expectAnswer(leaderboardCountrySchema.array(), res.body);
  return new Map(rows.map((row) => [row.country, row.totalPoints]));
}

/** The all-time and the running season's country boards: the points of `countries` on each. */
async function pointsOf(server: TestServer, countries: string[]) {
  const [all, season] = await Promise.all([
    board(server, '/api/leaderboard/countries'),
    board(server, '/api/seasons/1/countries'),
  ]);
  return {
    all: countries.map((c) => all.get(c) ?? 0),
    season: countries.map((c) => season.get(c) ?? 0),
  };
}

/** What Postgres holds of these countries (with Redis: once flushed). */
async function postgresCountries(server: TestServer, countries: string[]) {
  const { rows } = await server.db.pool.query<{ country: string; points: number }>(
    `SELECT country, total_points::float8 AS points FROM game_countries WHERE country = ANY($1)`,
    [countries],
  );
  const points = new Map(rows.map((row) => [row.country, row.points]));
  return countries.map((c) => points.get(c) ?? 0);
}

describe.each(storageModes)('changing a player’s country (%s mode)', (mode) => {
  let server: TestServer;
  const socketTo = gameSockets(() => server.url);
  let nextPair = 0;
  const countryPair = () => pairs[nextPair++];
  beforeAll(async () => {
    // A day-long season that started an hour ago: no rollover while the tests run. A burst that
    // takes the in-flight test's taps at once.
    server = await startTestServer({
      mode,
      env: {
        SEASON_START: new Date(Date.now() - HOUR).toISOString(),
        SEASON_LENGTH: '1d',
        TAP_BURST: '1000',
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function tapped(player: Player, count: number, seq: number) {
    const ack = await sendTaps(await socketTo(player.cookie), player.session.id, count, seq);
    expect(ack).toMatchObject({ ok: true });
  }

  it('moves the player’s points from the old country’s all-time and season boards to the new one’s, once', async () => {
    const [from, to] = countryPair();
    const mover = await makePlayer(server.url, from);
    const stayer = await makePlayer(server.url, from);
    await tapped(mover, 7, 1);
    await tapped(stayer, 3, 1);
    expect(await pointsOf(server, [from, to])).toEqual({ all: [10, 0], season: [10, 0] });

    const before = Date.now();
    const res = await change(server, mover, to);
    expect(res.status).toBe(200);
    const answer = expectAnswer(changeCountryResultSchema, res.body);
    expect(answer).toMatchObject({ changed: true, user: { country: to, totalPoints: 7 } });
    expect(Date.parse(answer.nextChangeAt!)).toBeGreaterThan(before + 30 * DAY - 60_000);
    expect(Date.parse(answer.nextChangeAt!)).toBeLessThan(Date.now() + 30 * DAY + 60_000);
    expect(await pointsOf(server, [from, to])).toEqual({ all: [3, 7], season: [3, 7] });
    expect((await request(server.url).get(`/api/users/${mover.user.id}`)).body).toMatchObject({
      country: to,
      totalPoints: 7,
    });

    // Later taps count for the new country only.
    await tapped(mover, 2, 2);
    expect(await pointsOf(server, [from, to])).toEqual({ all: [3, 9], season: [3, 9] });
    // Postgres holds the same (with Redis, once the flusher wrote the change's figures).
    await expect
      .poll(() => postgresCountries(server, [from, to]), { timeout: 10_000 })
      .toEqual([3, 9]);
  });

  it('pushes the countries board with the move to the screens that watch it', async () => {
    const [from, to] = countryPair();
    const player = await makePlayer(server.url, from);
    await tapped(player, 5, 1);
    const watcher = await connectGame(server.url);
    try {
      await nextBoard(watcher, 'countries', (rows) => rows.some((r) => r.country === from));
      expect((await change(server, player, to)).status).toBe(200);
      const moved = await nextBoard(watcher, 'countries', (rows) =>
        rows.some((r) => r.country === to),
      );
      expect(moved).toContainEqual({ country: to, totalPoints: 5 });
      expect(moved.some((r) => r.country === from)).toBe(false);
    } finally {
      watcher.disconnect();
    }
  });

  it('answers the country the player plays for already with 200 and changes nothing', async () => {
    const [from, to] = countryPair();
    const player = await makePlayer(server.url, from);
    await tapped(player, 4, 1);
    const res = await change(server, player, from);
    expect(res.status).toBe(200);
    expect(expectAnswer(changeCountryResultSchema, res.body)).toMatchObject({
      changed: false,
      nextChangeAt: null,
      user: { country: from, totalPoints: 4 },
    });
    expect(await pointsOf(server, [from, to])).toEqual({ all: [4, 0], season: [4, 0] });
    // It was no change: the player may still change once.
    expect((await change(server, player, to)).status).toBe(200);
  });

  it('refuses a second change within COUNTRY_CHANGE_DAYS with 429 naming the date, and audits the first', async () => {
    const [from, to] = countryPair();
    const player = await makePlayer(server.url, from);
    const first = await change(server, player, to);
    expect(first.status).toBe(200);
    const next = expectAnswer(changeCountryResultSchema, first.body).nextChangeAt!;

    const again = await change(server, player, from);
    expect(again.status).toBe(429);
    expect(again.body.error).toContain(next.slice(0, 10));
    expect(again.body.error).toMatch(/you can change it again on \d{4}-\d\d-\d\d at \d\d:\d\d UTC/);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(29 * 24 * 3600);
    expect((await request(server.url).get(`/api/users/${player.user.id}`)).body.country).toBe(to);

    const admin = await makeAdmin(server);
    const detail = await admin.agent.get(`/api/admin/game/players/${player.user.id}`);
    expect(detail.status).toBe(200);
    expect(expectAnswer(playerDetailSchema, detail.body).actions).toEqual([
      expect.objectContaining({
        action: 'change-country',
        moderator: null,
        reason: `from ${from} to ${to}`,
      }),
    ]);
  });

  it('counts taps in flight before the change for the old country and after it for the new: nothing lost or doubled', async () => {
    const [from, to] = countryPair();
    const player = await makePlayer(server.url, from);
    const socket = await socketTo(player.cookie);
    // Within the channel's message allowance: 16 batches of 3 taps, the change sent among them.
    const batches = Array.from({ length: 8 }, (_, i) => i + 1);
    const acks = batches.map((seq) => sendTaps(socket, player.session.id, 3, seq));
    const changed = change(server, player, to);
    acks.push(...batches.map((seq) => sendTaps(socket, player.session.id, 3, 8 + seq)));
    expect((await changed).status).toBe(200);
    for (const ack of await Promise.all(acks))
      expect(ack, JSON.stringify(ack)).toMatchObject({ ok: true });

    const user = (await request(server.url).get(`/api/users/${player.user.id}`)).body;
    expect(user).toMatchObject({ country: to, totalPoints: 48 });
    expect(await pointsOf(server, [from, to])).toEqual({ all: [0, 48], season: [0, 48] });
    await expect
      .poll(() => postgresCountries(server, [from, to]), { timeout: 10_000 })
      .toEqual([0, 48]);
  });

  it('keeps a frozen player off the boards of both countries', async () => {
    const [from, to] = countryPair();
    const player = await makePlayer(server.url, from);
    const other = await makePlayer(server.url, to);
    await tapped(player, 6, 1);
    await tapped(other, 2, 1);
    const admin = await makeAdmin(server);
    const freeze = `/api/admin/game/players/${player.user.id}`;
    expect((await admin.agent.post(`${freeze}/freeze`).send({ reason: 'bot' })).status).toBe(200);
    expect(await pointsOf(server, [from, to])).toEqual({ all: [0, 2], season: [0, 2] });

    expect((await change(server, player, to)).status).toBe(200);
    expect(await pointsOf(server, [from, to])).toEqual({ all: [0, 2], season: [0, 2] });

    // Unfrozen, their points show for the country they now play for.
    expect((await admin.agent.post(`${freeze}/unfreeze`).send({ reason: 'ok' })).status).toBe(200);
    expect(await pointsOf(server, [from, to])).toEqual({ all: [0, 8], season: [0, 8] });
  });

  // A Redis rebuilt from Postgres exists in Redis mode alone.
  if (mode === 'redis') {
    it('keeps the change through a Redis rebuilt from Postgres, flushed or not', async () => {
      const [from, to] = countryPair();
      const player = await makePlayer(server.url, from);
      const stayer = await makePlayer(server.url, from);
      await tapped(stayer, 5, 1);
      await tapped(player, 9, 1);
      await expect.poll(() => postgresCountries(server, [from]), { timeout: 10_000 }).toEqual([14]);
      await tapped(player, 4, 2);
      expect((await change(server, player, to)).status).toBe(200);
      // Redis loses its data right after the change, whether or not the last taps were flushed.
      await dropRedisPrefix(server.redisPrefix);
      const user = (await request(server.url).get(`/api/users/${player.user.id}`)).body;
      expect(user.country).toBe(to);
      expect([9, 13]).toContain(user.totalPoints);
      const expected = [5, user.totalPoints as number];
      expect(await pointsOf(server, [from, to])).toEqual({ all: expected, season: expected });

      // And once more after the next flushes: what Postgres holds is what the boards showed.
      await tapped(player, 1, 3);
      const after = [5, user.totalPoints + 1];
      await expect
        .poll(() => postgresCountries(server, [from, to]), { timeout: 10_000 })
        .toEqual(after);
      await dropRedisPrefix(server.redisPrefix);
      expect(await pointsOf(server, [from, to])).toEqual({ all: after, season: after });
    });
  }

  it('refuses a browser without a player (401), bad bodies (400) and huge ones (413)', async () => {
    const player = await makePlayer(server.url, 'BE');
    const none = await request(server.url).patch(CHANGE).send({ country: 'FR' });
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: expect.any(String) });
    const forged = await request(server.url)
      .patch(CHANGE)
      .set('Cookie', `${player.cookie.split('.')[0]}.forged`)
      .send({ country: 'FR' });
    expect(forged.status).toBe(401);

    for (const [body, error] of [
      [{ country: 'ZZ' }, messages.unknownCountry],
      [{ country: 'FRA' }, messages.countryCode],
      [{ country: 12 }, undefined],
      [{}, undefined],
      [{ country: 'F\u0000' }, undefined],
    ] as const) {
      const res = await change(server, player, body.country);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ error: error ?? expect.any(String) });
    }
    const malformed = await request(server.url)
      .patch(CHANGE)
      .set('Cookie', player.cookie)
      .set('Content-Type', 'application/json')
      .send('{"country":');
    expect(malformed.status).toBe(400);
    const huge = await request(server.url)
      .patch(CHANGE)
      .set('Cookie', player.cookie)
      .send({ country: 'FR', padding: 'x'.repeat(200_000) });
    expect(huge.status).toBe(413);
    // A lower-case code is the country's.
    const lower = await change(server, player, 'fr');
    expect(lower.status).toBe(200);
    expect(lower.body.user.country).toBe('FR');
  });
});

describe('COUNTRY_CHANGE_DAYS=0', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { COUNTRY_CHANGE_DAYS: '0' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lets a player change as often as they like', async () => {
    const player = await makePlayer(server.url, 'CA');
    for (const country of ['CH', 'CL', 'CA']) {
      const res = await change(server, player, country);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ changed: true, nextChangeAt: null });
    }
  });
});
