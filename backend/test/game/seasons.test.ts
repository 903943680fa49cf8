import {
  applySeasonBoardsDelta,
  currentSeasonSchema,
  gameEvents,
  leaderboardCountrySchema,
  pastSeasonSchema,
  playerSeasonSchema,
  rankedUserSchema,
  type PlayerSeason,
  type SeasonBoards,
  type SeasonBoardsDelta,
  type SeasonBoardsSnapshot,
  type TapSyncAck,
} from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable } from '../../test-support/availability';
import { startRedisProcess, type RedisProcess } from '../../test-support/redis-process';
import { startTestServer, type TestServer } from '../../test-support/server';
import { expectAnswer } from '../helpers/answers';
import { makeAdmin } from '../lolgram/moderation/builders';
import { makePlayer, type Player } from './builders';
import { storageModes } from './modes';
import { gameSockets, nextEvent, sendTaps } from './socket-client';

const HOUR = 3_600_000;

async function seasonsOf(url: string, player: Player): Promise<PlayerSeason[]> {
  const res = await request(url).get(`/api/users/${player.user.id}/seasons`);
  expect(res.status).toBe(200);
  return expectAnswer(playerSeasonSchema.array(), res.body);
}

describe.each(storageModes)('the running season (%s mode)', (mode) => {
  let server: TestServer;
  const socketTo = gameSockets(() => server.url);
  beforeAll(async () => {
    // A day-long season that started an hour ago: no rollover while the tests run.
    server = await startTestServer({
      mode,
      env: { SEASON_START: new Date(Date.now() - HOUR).toISOString(), SEASON_LENGTH: '1d' },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('names the running season, its period and the time now', async () => {
    const before = Date.now();
    const res = await request(server.url).get('/api/seasons/current');
    expect(res.status).toBe(200);
    const season = expectAnswer(currentSeasonSchema, res.body);
    expect(season).toMatchObject({ id: 1, name: 'Season 1' });
    expect(Date.parse(season.endsAt) - Date.parse(season.startsAt)).toBe(24 * HOUR);
    expect(Date.parse(season.now)).toBeGreaterThan(before - 5000);
    expect(Date.parse(season.endsAt)).toBeGreaterThan(Date.parse(season.now));
  });

  it('counts a tap on the season boards beside the all-time ones, and ranks the player there', async () => {
    const player = await makePlayer(server.url, 'PE');
    const other = await makePlayer(server.url, 'PE');
    expect(await sendTaps(await socketTo(player.cookie), player.session.id, 12, 1)).toMatchObject({
      ok: true,
    });
    expect(await sendTaps(await socketTo(other.cookie), other.session.id, 5, 1)).toMatchObject({
      ok: true,
    });
    const users = expectAnswer(
      rankedUserSchema.array(),
      (await request(server.url).get('/api/seasons/current/users?limit=1000')).body,
    );
    const mine = users.find((u) => u.id === player.user.id);
    const theirs = users.find((u) => u.id === other.user.id);
    expect(mine).toMatchObject({ username: player.user.username, totalPoints: 12 });
    expect(theirs).toMatchObject({ totalPoints: 5 });
    expect(theirs!.rank).toBeGreaterThan(mine!.rank);
    const countries = expectAnswer(
      leaderboardCountrySchema.array(),
      (await request(server.url).get('/api/seasons/1/countries')).body,
    );
    expect(countries.find((c) => c.country === 'PE')?.totalPoints).toBe(17);
    const [running] = await seasonsOf(server.url, player);
    expect(running).toMatchObject({ id: 1, points: 12, rank: mine!.rank, final: false });
  });

  it("sends a socket that follows the season's boards a snapshot, then each change as a delta", async () => {
    const watcher = await socketTo(undefined, undefined, { acks: 'compact', season: 'top10' });
    const { v, ...first } = await nextEvent<SeasonBoardsSnapshot>(
      watcher,
      gameEvents.seasonSnapshot,
    );
    expect(first.season).toBe(1);
    let held: { v: number; boards: SeasonBoards } = { v, boards: first };
    const player = await makePlayer(server.url, 'BO');
    const seen = new Promise<SeasonBoards>((resolve) => {
      watcher.on(gameEvents.seasonDelta, (delta: SeasonBoardsDelta) => {
        expect(delta.from).toBe(held.v);
        held = { v: delta.v, boards: applySeasonBoardsDelta(held.boards, delta) };
        if (held.boards.countries.some((c) => c.country === 'BO')) resolve(held.boards);
      });
    });
    expect(await sendTaps(await socketTo(player.cookie), player.session.id, 4, 1)).toMatchObject({
      ok: true,
    });
    const boards = await seen;
    expect(boards.countries.find((c) => c.country === 'BO')?.totalPoints).toBe(4);
    // The same boards a snapshot would send now.
    const users = (await request(server.url).get('/api/seasons/current/users?limit=10')).body;
    await expect.poll(() => held.boards.users).toEqual(users);
  });

  it('leaves a frozen player off the season boards, and puts them back when unfrozen', async () => {
    const admin = await makeAdmin(server);
    const player = await makePlayer(server.url, 'UY');
    expect(await sendTaps(await socketTo(player.cookie), player.session.id, 9, 1)).toMatchObject({
      ok: true,
    });
    const onBoard = async () =>
      (await request(server.url).get('/api/seasons/current/users?limit=1000')).body.some(
        (u: { id: string }) => u.id === player.user.id,
      );
    const uruguay = async () =>
      (await request(server.url).get('/api/seasons/current/countries')).body.find(
        (c: { country: string }) => c.country === 'UY',
      )?.totalPoints;
    expect([await onBoard(), await uruguay()]).toEqual([true, 9]);
    const players = '/api/admin/game/players';
    await admin.agent.post(`${players}/${player.user.id}/freeze`).send({ reason: 'a script' });
    expect([await onBoard(), await uruguay()]).toEqual([false, undefined]);
    expect((await seasonsOf(server.url, player))[0]).toMatchObject({ points: 9, rank: null });
    await admin.agent.post(`${players}/${player.user.id}/unfreeze`).send({ reason: 'a person' });
    expect([await onBoard(), await uruguay()]).toEqual([true, 9]);
  });

  it('refuses a season that is not a number, and one yet to come', async () => {
    const bad = await request(server.url).get('/api/seasons/latest/users');
    expect([bad.status, bad.body]).toEqual([400, { error: 'A season is `current` or its number' }]);
    const later = await request(server.url).get('/api/seasons/2/users');
    expect([later.status, later.body]).toEqual([404, { error: 'No such season' }]);
    expect((await request(server.url).get('/api/seasons?limit=0')).status).toBe(400);
    expect((await request(server.url).get('/api/users/nope/seasons')).status).toBe(400);
  });
});

describe.each(storageModes)('seasons as they end (%s mode)', (mode) => {
  let server: TestServer;
  const socketTo = gameSockets(() => server.url);
  beforeAll(async () => {
    server = await startTestServer({
      mode,
      env: { SEASON_LENGTH: '2s', TAP_RATE_PER_SECOND: '1000', TAP_BURST: '1000' },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("archives each season once as it ends, with the players' final ranks, and counts nothing twice", async () => {
    const leader = await makePlayer(server.url, 'CL');
    const runner = await makePlayer(server.url, 'CL');
    const leaderSocket = await socketTo(leader.cookie);
    const runnerSocket = await socketTo(runner.cookie);
    for (let seq = 1; seq <= 3; seq += 1) {
      expect(await sendTaps(leaderSocket, leader.session.id, 20, seq)).toMatchObject({ ok: true });
      expect(await sendTaps(runnerSocket, runner.session.id, 10, seq)).toMatchObject({ ok: true });
    }
    // Every season the taps went to has ended and been archived: what the players scored in them
    // adds up to their all-time points, and the running season holds none of it.
    const archived = async (player: Player) => {
      const [running, ...past] = await seasonsOf(server.url, player);
      return { running: running.points, past: past.reduce((sum, s) => sum + s.points, 0) };
    };
    await expect.poll(() => archived(leader)).toEqual({ running: 0, past: 60 });
    await expect.poll(() => archived(runner)).toEqual({ running: 0, past: 30 });

    const [, ...leaderSeasons] = await seasonsOf(server.url, leader);
    for (const season of leaderSeasons) {
      expect(season.final).toBe(true);
      const board = expectAnswer(
        rankedUserSchema.array(),
        (await request(server.url).get(`/api/seasons/${season.id}/users`)).body,
      );
      const row = board.find((u) => u.id === leader.user.id);
      expect(row).toMatchObject({ totalPoints: season.points, rank: season.rank });
      const listed = expectAnswer(
        pastSeasonSchema.array(),
        (await request(server.url).get(`/api/seasons?before=${season.id + 1}&limit=1`)).body,
      );
      expect(listed[0]).toMatchObject({
        id: season.id,
        players: board.length,
        points: board.reduce((sum, u) => sum + u.totalPoints, 0),
      });
      const countries = (await request(server.url).get(`/api/seasons/${season.id}/countries`))
        .body as { country: string; totalPoints: number }[];
      expect(countries.find((c) => c.country === 'CL')?.totalPoints).toBe(
        board.reduce((sum, u) => sum + u.totalPoints, 0),
      );
    }
    // What is archived stays as it was: later taps go to a later season.
    const before = await request(server.url).get(`/api/seasons/${leaderSeasons[0].id}/users`);
    expect(await sendTaps(leaderSocket, leader.session.id, 7, 4)).toMatchObject({ ok: true });
    const after = await request(server.url).get(`/api/seasons/${leaderSeasons[0].id}/users`);
    expect(after.body).toEqual(before.body);
    await expect.poll(() => archived(leader)).toEqual({ running: 0, past: 67 });
    expect((await request(server.url).get(`/api/users/${leader.user.id}`)).body.totalPoints).toBe(
      67,
    );
  });
});

describe.runIf(await redisAvailable())('the running season when Redis loses its data', () => {
  let redis: RedisProcess;
  let server: TestServer;
  const socketTo = gameSockets(() => server.url);
  beforeAll(async () => {
    redis = await startRedisProcess();
    server = await startTestServer({
      mode: 'redis',
      env: {
        REDIS_URL: redis.url,
        SEASON_START: new Date(Date.now() - HOUR).toISOString(),
        SEASON_LENGTH: '1d',
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it("rebuilds the season's boards from Postgres with the rest", async () => {
    const player = await makePlayer(server.url, 'PY');
    const socket = await socketTo(player.cookie);
    expect(await sendTaps(socket, player.session.id, 8, 1)).toMatchObject({ ok: true });
    // Durable: Postgres holds the batch, and the player's season score with it.
    const numbers = (): Promise<TapSyncAck> =>
      socket.timeout(10_000).emitWithAck(gameEvents.sync, { sessionId: player.session.id });
    await expect.poll(numbers).toMatchObject({ ok: true, seq: 1, durableSeq: 1 });
    await redis.kill();
    await redis.start();
    const board = async () =>
      (await request(server.url).get('/api/seasons/current/users?limit=1000')).body;
    await expect
      .poll(board)
      .toEqual(
        expect.arrayContaining([expect.objectContaining({ id: player.user.id, totalPoints: 8 })]),
      );
    const countries = (await request(server.url).get('/api/seasons/current/countries')).body;
    expect(countries).toContainEqual({ country: 'PY', totalPoints: 8 });
  });
});
