import { gameEvents, type BoardsPush } from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makePlayer } from './builders';
import { storageModes } from './modes';
import { gameSockets, nextBoard, nextEvent, sendTaps } from './socket-client';

describe.each(storageModes)('game channel (%s mode)', (mode) => {
  let server: TestServer;
  const connect = gameSockets(() => server.url);
  beforeAll(async () => {
    server = await startTestServer({ mode });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('sends both leaderboards and the milestone on connect', async () => {
    const player = await makePlayer(server.url, 'IT');
    await request(server.url)
      .post('/api/tap')
      .set('Cookie', player.cookie)
      .send({ userId: player.user.id, sessionId: player.session.id, pointsPerTap: 1 });
    const socket = await connect();
    const { users, countries, milestone } = await nextEvent<BoardsPush>(socket, gameEvents.boards);
    expect(users).toContainEqual({
      id: player.user.id,
      username: player.user.username,
      totalPoints: 1,
      rank: expect.any(Number),
    });
    expect(countries).toContainEqual({ country: 'IT', totalPoints: expect.any(Number) });
    expect(milestone).toEqual({ usersOver100k: expect.any(Number) });
  });

  it('counts a batch of taps and acknowledges with the new player and session', async () => {
    const player = await makePlayer(server.url);
    const socket = await connect(player.cookie);
    const first = await sendTaps(socket, player.session.id, 7);
    expect(first).toEqual({
      ok: true,
      accepted: 7,
      user: { ...player.user, totalPoints: 7, totalTaps: 7 },
      session: { ...player.session, sessionPoints: 7, sessionTaps: 7 },
      seq: 0,
      durableSeq: 0,
    });
    const second = await sendTaps(socket, player.session.id, 3);
    expect(second.ok && second.user.totalPoints).toBe(10);
    expect((await request(server.url).get(`/api/users/${player.user.id}`)).body.totalTaps).toBe(10);
  });

  it('counts a re-sent batch once by its number in the session, answering the current totals', async () => {
    const player = await makePlayer(server.url);
    const socket = await connect(player.cookie);
    const sessionId = player.session.id;
    const [first, resent] = await Promise.all([
      sendTaps(socket, sessionId, 4, 1),
      sendTaps(socket, sessionId, 4, 1),
    ]);
    expect(first).toMatchObject({ ok: true, accepted: 4 });
    expect(resent).toMatchObject({ ok: true, accepted: 4 });
    expect(await sendTaps(socket, sessionId, 3, 2)).toMatchObject({
      ok: true,
      accepted: 3,
      user: { totalPoints: 7 },
    });
    expect(await sendTaps(socket, sessionId, 4, 1)).toEqual({
      ok: true,
      accepted: 4,
      user: { ...player.user, totalPoints: 7, totalTaps: 7 },
      session: { ...player.session, sessionPoints: 7, sessionTaps: 7 },
      seq: 2,
      // Without Redis every counted batch is in Postgres at once; with it, after a flush.
      durableSeq: mode === 'postgres' ? 2 : expect.any(Number),
    });
    expect((await request(server.url).get(`/api/users/${player.user.id}`)).body.totalTaps).toBe(7);
  });

  it('numbers batches per session: another session counts its own number 1', async () => {
    const alice = await makePlayer(server.url);
    const bob = await makePlayer(server.url);
    const aliceSocket = await connect(alice.cookie);
    const bobSocket = await connect(bob.cookie);
    expect(await sendTaps(aliceSocket, alice.session.id, 2, 1)).toMatchObject({ accepted: 2 });
    expect(await sendTaps(bobSocket, bob.session.id, 3, 1)).toMatchObject({
      ok: true,
      user: { totalPoints: 3 },
    });
    const second = await request(server.url)
      .post('/api/sessions')
      .set('Cookie', alice.cookie)
      .send({ userId: alice.user.id });
    expect(await sendTaps(aliceSocket, second.body.id, 5, 1)).toMatchObject({
      ok: true,
      user: { totalPoints: 7 },
      session: { sessionTaps: 5 },
    });
  });

  it('applies the same identity and validation rules as POST /api/tap', async () => {
    const alice = await makePlayer(server.url);
    const bob = await makePlayer(server.url);
    const anonymous = await connect();
    expect(await sendTaps(anonymous, alice.session.id, 1)).toMatchObject({
      ok: false,
      status: 403,
    });
    const bobSocket = await connect(bob.cookie);
    expect(await sendTaps(bobSocket, alice.session.id, 1)).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await sendTaps(bobSocket, crypto.randomUUID(), 1)).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await sendTaps(bobSocket, bob.session.id, 0)).toMatchObject({ ok: false, status: 400 });
    expect(await sendTaps(bobSocket, bob.session.id, 1000)).toMatchObject({
      ok: false,
      status: 400,
    });
    expect((await request(server.url).get(`/api/users/${alice.user.id}`)).body.totalPoints).toBe(0);
  });

  it('refuses taps from a handshake whose player cookie is not signed by the server', async () => {
    const player = await makePlayer(server.url);
    const forged = await connect(`tg_player=${player.user.id}`);
    expect(await sendTaps(forged, player.session.id, 5)).toMatchObject({ ok: false, status: 403 });
    const signed = await connect(player.cookie);
    expect(await sendTaps(signed, player.session.id, 1)).toMatchObject({
      ok: true,
      user: { totalPoints: 1 },
    });
  });

  it('pushes only the boards that changed, in one message', async () => {
    const watcher = await connect();
    const player = await makePlayer(server.url, 'UY');
    const tapper = await connect(player.cookie);
    // A process's first push carries every board: wait for one that shows the new player first.
    const pushedAtOne = nextEvent<BoardsPush>(watcher, gameEvents.boards, (push) =>
      Boolean(push.users?.some((u) => u.id === player.user.id && u.totalPoints === 1)),
    );
    await sendTaps(tapper, player.session.id, 1);
    await pushedAtOne;
    const pushed = nextEvent<BoardsPush>(watcher, gameEvents.boards, (push) =>
      Boolean(push.users?.some((u) => u.id === player.user.id && u.totalPoints === 2)),
    );
    await sendTaps(tapper, player.session.id, 1);
    const push = await pushed;
    expect(push.countries).toContainEqual(expect.objectContaining({ country: 'UY' }));
    // Nobody reached 100K points: the milestone did not change and is not sent again.
    expect(push).not.toHaveProperty('milestone');
  });

  it('pushes the changed leaderboards to every connected client', async () => {
    const watcher = await connect();
    const player = await makePlayer(server.url, 'KE');
    const tapper = await connect(player.cookie);
    const pushed = nextBoard(watcher, 'users', (users) =>
      users.some((u) => u.id === player.user.id && u.totalPoints === 5),
    );
    const countries = nextBoard(watcher, 'countries', (list) =>
      list.some((c) => c.country === 'KE' && c.totalPoints >= 5),
    );
    await sendTaps(tapper, player.session.id, 5);
    await expect(pushed).resolves.toBeDefined();
    await expect(countries).resolves.toBeDefined();
  });
});
