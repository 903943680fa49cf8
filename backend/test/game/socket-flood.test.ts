import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SOCKET_MESSAGE_BURST,
  SOCKET_MESSAGES_PER_SECOND,
  SOCKET_REFUSALS_BEFORE_DISCONNECT,
} from '../../src/core/socket-limit';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makePlayer } from './builders';
import { storageModes } from './modes';
import { gameSockets, nextEvent, sendTaps } from './socket-client';

describe.each(storageModes)('game channel under a flood of messages (%s mode)', (mode) => {
  let server: TestServer;
  // The limit's clock stands still unless a test moves it.
  let now = 1_000_000;
  const connect = gameSockets(() => server.url);
  const totalPoints = async (userId: string) =>
    (await request(server.url).get(`/api/users/${userId}`)).body.totalPoints as number;
  beforeAll(async () => {
    server = await startTestServer({ mode, now: () => now });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers the messages beyond the burst with 429 and counts none of their taps', async () => {
    const player = await makePlayer(server.url);
    const socket = await connect(player.cookie);
    const excess = 5;
    const acks = await Promise.all(
      Array.from({ length: SOCKET_MESSAGE_BURST + excess }, () =>
        sendTaps(socket, player.session.id, 1),
      ),
    );
    expect(acks.slice(0, SOCKET_MESSAGE_BURST).every((ack) => ack.ok)).toBe(true);
    expect(acks.slice(SOCKET_MESSAGE_BURST)).toEqual(
      Array(excess).fill({ ok: false, status: 429, error: expect.any(String) }),
    );
    expect(await totalPoints(player.user.id)).toBe(SOCKET_MESSAGE_BURST);

    // A second later the socket may send a second's worth again.
    now += 1000;
    const later = await Promise.all(
      Array.from({ length: SOCKET_MESSAGES_PER_SECOND + 1 }, () =>
        sendTaps(socket, player.session.id, 1),
      ),
    );
    expect(later.map((ack) => ack.ok)).toEqual([
      ...Array<boolean>(SOCKET_MESSAGES_PER_SECOND).fill(true),
      false,
    ]);
    expect(await totalPoints(player.user.id)).toBe(
      SOCKET_MESSAGE_BURST + SOCKET_MESSAGES_PER_SECOND,
    );
  });

  it('counts every event a socket sends, not only taps', async () => {
    const player = await makePlayer(server.url);
    const socket = await connect(player.cookie);
    for (let i = 0; i < SOCKET_MESSAGE_BURST; i += 1) socket.emit('no-such-event', i);
    expect(await sendTaps(socket, player.session.id, 1)).toMatchObject({ ok: false, status: 429 });
    expect(await socket.timeout(10_000).emitWithAck('no-such-event', 'x')).toMatchObject({
      ok: false,
      status: 429,
    });
    expect(await totalPoints(player.user.id)).toBe(0);
  });

  it('disconnects a socket that keeps sending, and serves the other players meanwhile', async () => {
    const flooder = await makePlayer(server.url);
    const other = await makePlayer(server.url);
    const flooding = await connect(flooder.cookie);
    const calm = await connect(other.cookie);
    const dropped = nextEvent<string>(flooding, 'disconnect');
    for (let i = 0; i < SOCKET_MESSAGE_BURST + SOCKET_REFUSALS_BEFORE_DISCONNECT + 10; i += 1) {
      flooding.emit('no-such-event', i);
    }
    expect(await dropped).toBe('io server disconnect');
    expect(await sendTaps(calm, other.session.id, 3)).toMatchObject({
      ok: true,
      user: { totalPoints: 3 },
    });
  });
});
