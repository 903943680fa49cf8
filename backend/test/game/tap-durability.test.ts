import { gameEvents, type TapBatch, type TapBatchAck, type TapSyncAck } from '@tapgram/shared';
import request from 'supertest';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makePlayer } from './builders';
import { storageModes } from './modes';
import { gameSockets, sendTaps } from './socket-client';

describe.each(storageModes)('durable batch numbers (%s mode)', (mode) => {
  let server: TestServer;
  const connect = gameSockets(() => server.url);
  const sync = (socket: Socket, sessionId: unknown): Promise<TapSyncAck> =>
    socket.timeout(10_000).emitWithAck(gameEvents.sync, { sessionId });
  beforeAll(async () => {
    server = await startTestServer({ mode, env: { FLUSH_INTERVAL_MS: '100' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('tells the client how far its batches are in Postgres', async () => {
    const player = await makePlayer(server.url);
    const socket = await connect(player.cookie);
    await sendTaps(socket, player.session.id, 2, 1);
    const second = await sendTaps(socket, player.session.id, 3, 2);
    expect(second).toMatchObject({ ok: true, seq: 2 });
    // Without Redis a counted batch is in Postgres at once; with it, once the flusher wrote it.
    if (mode === 'postgres') expect(second).toMatchObject({ durableSeq: 2 });
    await expect
      .poll(() => sync(socket, player.session.id), { timeout: 10_000 })
      .toEqual({ ok: true, seq: 2, durableSeq: 2 });
    const { rows } = await server.db.pool.query(
      'SELECT last_seq, session_taps FROM game_sessions WHERE id = $1',
      [player.session.id],
    );
    expect(rows).toEqual([{ last_seq: 2, session_taps: 5 }]);
  });

  it('refuses, counting nothing, a batch whose client holds answers the server does not have', async () => {
    const player = await makePlayer(server.url);
    const socket = await connect(player.cookie);
    await sendTaps(socket, player.session.id, 3, 1);
    // The client says batch 2 was answered, but the server's session stands at 1.
    const batch: TapBatch = { sessionId: player.session.id, count: 4, seq: 3, after: 2 };
    const lost: TapBatchAck = await socket.timeout(10_000).emitWithAck(gameEvents.tap, batch);
    expect(lost).toEqual({
      ok: false,
      status: 409,
      error: expect.stringMatching(/lost/),
      seq: 1,
      durableSeq: expect.any(Number),
    });
    expect((await request(server.url).get(`/api/users/${player.user.id}`)).body.totalTaps).toBe(3);
    // Sent again from where the server stands, the batches count.
    expect(
      await socket
        .timeout(10_000)
        .emitWithAck(gameEvents.tap, { ...batch, seq: 2, after: 1 } satisfies TapBatch),
    ).toMatchObject({ ok: true, seq: 2, user: { totalTaps: 7 } });
  });

  it('counts batches sent together in the order they were sent, each once', async () => {
    const player = await makePlayer(server.url);
    const socket = await connect(player.cookie);
    const acks = await Promise.all(
      Array.from({ length: 20 }, (_, i) => sendTaps(socket, player.session.id, 1, i + 1)),
    );
    expect(acks.map((ack) => ack.ok && ack.session.sessionTaps)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect((await request(server.url).get(`/api/users/${player.user.id}`)).body.totalTaps).toBe(20);
  });

  it('answers where a session stands only to its own player', async () => {
    const alice = await makePlayer(server.url);
    const bob = await makePlayer(server.url);
    const socket = await connect(alice.cookie);
    expect(await sync(socket, alice.session.id)).toEqual({ ok: true, seq: 0, durableSeq: 0 });
    expect(await sync(socket, bob.session.id)).toMatchObject({ ok: false, status: 403 });
    expect(await sync(socket, '00000000-0000-4000-8000-000000000000')).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await sync(socket, 'nope')).toMatchObject({ ok: false, status: 400 });
    expect(await sync(await connect(), alice.session.id)).toMatchObject({
      ok: false,
      status: 403,
    });
  });
});
