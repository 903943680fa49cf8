import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/server';
import { createScratchDatabase, dropRedisPrefix, uniqueName } from '../../test-support/services';
import { makePlayer } from './builders';
import { storageModes } from './modes';
import { connectGame, sendTaps } from './socket-client';

describe.each(storageModes)('tap batch numbers across a restart (%s mode)', (mode) => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  const redisPrefix = uniqueName('tgtest');
  const start = () => startTestServer({ mode, databaseUrl: database.url, redisPrefix });
  let server: TestServer | undefined;
  beforeAll(async () => {
    database = await createScratchDatabase();
  });
  afterAll(async () => {
    await server?.stop();
    if (mode === 'redis') await dropRedisPrefix(redisPrefix);
    await database?.drop();
  });

  it('answers a batch re-sent after the restart without counting it again', async () => {
    server = await start();
    const player = await makePlayer(server.url);
    let socket = await connectGame(server.url, player.cookie);
    for (let seq = 1; seq <= 3; seq += 1) {
      expect(await sendTaps(socket, player.session.id, 2, seq)).toMatchObject({ ok: true });
    }
    socket.disconnect();
    await server.stop();
    // In Redis mode Redis restarts empty too: the numbers must come back from Postgres.
    if (mode === 'redis') await dropRedisPrefix(redisPrefix);

    server = await start();
    socket = await connectGame(server.url, player.cookie);
    expect(await sendTaps(socket, player.session.id, 2, 3)).toEqual({
      ok: true,
      accepted: 2,
      user: { ...player.user, totalPoints: 6, totalTaps: 6 },
      session: { ...player.session, sessionPoints: 6, sessionTaps: 6 },
      seq: 3,
      durableSeq: 3,
    });
    expect(await sendTaps(socket, player.session.id, 2, 4)).toMatchObject({
      ok: true,
      user: { totalPoints: 8 },
    });
    socket.disconnect();
    expect((await request(server.url).get(`/api/users/${player.user.id}`)).body.totalTaps).toBe(8);
  });
});
