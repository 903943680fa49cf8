import {
  applyBoardsDelta,
  gameEvents,
  type Boards,
  type BoardsDelta,
  type BoardsSnapshot,
  type PlayerFrozenPush,
} from '@tapgram/shared';
import { io } from 'socket.io-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable } from '../../test-support/availability';
import { spawnServer, type ServerProcess } from '../../test-support/process';
import { startTestServer, type TestServer } from '../../test-support/server';
import { TEST_REDIS_URL } from '../../test-support/services';
import { makeAdmin } from '../lolgram/moderation/builders';
import { makePlayer } from './builders';
import { connectGame, nextBoard, nextEvent, sendTaps } from './socket-client';

const SECRET = 'test-secret-test-secret-test-secret-0123';

describe.runIf(await redisAvailable())('two backend processes sharing one Redis', () => {
  let a: TestServer;
  let b: ServerProcess;
  beforeAll(async () => {
    a = await startTestServer({ mode: 'redis', env: { SESSION_SECRET: SECRET } });
    b = await spawnServer({
      DATABASE_URL: a.databaseUrl ?? '',
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: a.redisPrefix,
      SESSION_SECRET: SECRET,
    });
  });
  afterAll(async () => {
    expect(await b?.stop()).toBe(0);
    await a?.stop();
  });

  it('pushes a change made through one process to the clients of the other', async () => {
    const watcherOnB = await connectGame(b.url);
    const player = await makePlayer(a.url, 'NO');
    const tapperOnA = await connectGame(a.url, player.cookie);
    const pushed = nextBoard(watcherOnB, 'users', (users) =>
      users.some((u) => u.id === player.user.id && u.totalPoints === 9),
    );
    expect(await sendTaps(tapperOnA, player.session.id, 9)).toMatchObject({
      ok: true,
      accepted: 9,
    });
    await expect(pushed).resolves.toBeDefined();
    watcherOnB.disconnect();
    tapperOnA.disconnect();
  });

  it('sends a client following the boards on one process, as a delta, a tap made on the other', async () => {
    const player = await makePlayer(a.url, 'IS');
    let held: Boards | null = null;
    const watcherOnB = io(b.url, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      auth: { boards: 'top100' },
    });
    const snapshot = new Promise<void>((resolve) => {
      watcherOnB.on(
        gameEvents.boardsSnapshot,
        ({ users, countries, milestone }: BoardsSnapshot) => {
          held = { users, countries, milestone };
          resolve();
        },
      );
    });
    const sawDelta = new Promise<void>((resolve) => {
      watcherOnB.on(gameEvents.boardsDelta, (delta: BoardsDelta) => {
        if (!held) return;
        held = applyBoardsDelta(held, delta);
        if (held.users.some((u) => u.id === player.user.id && u.totalPoints === 6)) resolve();
      });
    });
    await snapshot;
    const tapperOnA = await connectGame(a.url, player.cookie);
    expect(await sendTaps(tapperOnA, player.session.id, 6)).toMatchObject({ ok: true });
    await sawDelta;
    watcherOnB.disconnect();
    tapperOnA.disconnect();
  });

  it("tells the player's socket on one process of a freeze and an unfreeze made through the other", async () => {
    const admin = await makeAdmin(a);
    const player = await makePlayer(a.url, 'PT');
    const playerOnB = await connectGame(b.url, player.cookie);
    const bystanderOnB = await connectGame(b.url);
    const told: unknown[] = [];
    bystanderOnB.on(gameEvents.frozen, (push: unknown) => told.push(push));
    const frozen = nextEvent<PlayerFrozenPush>(playerOnB, gameEvents.frozen, (p) => p.frozen);
    const players = '/api/admin/game/players';
    await admin.agent.post(`${players}/${player.user.id}/freeze`).send({ reason: 'a script' });
    expect(await frozen).toEqual({ frozen: true });
    const unfrozen = nextEvent<PlayerFrozenPush>(playerOnB, gameEvents.frozen, (p) => !p.frozen);
    await admin.agent.post(`${players}/${player.user.id}/unfreeze`).send({ reason: 'a person' });
    expect(await unfrozen).toEqual({ frozen: false });
    // Only the player's own sockets hear of it.
    expect(told).toEqual([]);
    playerOnB.disconnect();
    bystanderOnB.disconnect();
  });

  it('serves the same totals from both processes', async () => {
    const player = await makePlayer(a.url);
    const tapped = await request(b.url)
      .post('/api/tap')
      .set('Cookie', player.cookie)
      .send({ userId: player.user.id, sessionId: player.session.id, pointsPerTap: 1 });
    expect(tapped.status).toBe(200);
    expect((await request(a.url).get(`/api/users/${player.user.id}`)).body.totalPoints).toBe(1);
    expect((await request(b.url).get(`/api/users/${player.user.id}/rank`)).body).toEqual(
      (await request(a.url).get(`/api/users/${player.user.id}/rank`)).body,
    );
  });

  it('stopping one process leaves the players of the others connected', async () => {
    const c = await spawnServer({
      DATABASE_URL: a.databaseUrl ?? '',
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: a.redisPrefix,
      SESSION_SECRET: SECRET,
    });
    // A third process of the cluster, whose broadcasts reach A's players only through Redis.
    const d = await startTestServer({
      mode: 'redis',
      databaseUrl: a.databaseUrl,
      redisPrefix: a.redisPrefix,
      env: { SESSION_SECRET: SECRET },
    });
    const onA = await connectGame(a.url);
    const onC = await connectGame(c.url);
    try {
      const left = new Promise<string>((resolve) => onA.once('disconnect', () => resolve('left')));
      const stopped = new Promise<string>((resolve) => onC.once('disconnect', resolve));
      expect(await c.stop()).toBe(0);
      await stopped;
      // C quit Redis before it exited, so whatever it published (a cluster-wide disconnect, say)
      // went through Redis before this broadcast, and would have reached A's players first.
      const later = nextEvent(onA, 'after-stop').then(() => 'still connected');
      d.io.emit('after-stop');
      expect(await Promise.race([left, later])).toBe('still connected');
      expect(onA.connected).toBe(true);
    } finally {
      onA.disconnect();
      await d.stop();
    }
  });
});
