import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makePlayer, tap } from '../game/builders';
import { sendTaps } from '../game/socket-client';
import {
  channelOver,
  nextPing,
  slowBody,
  slowHeaders,
  TIMED_OUT,
  trickle,
} from '../helpers/slow-client';

describe('clients that send a request too slowly (REQUEST_TIMEOUT_SECONDS=1)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      // A long-poll is held until the next ping: 4 s, four times the bound.
      env: { REQUEST_TIMEOUT_SECONDS: '1', METRICS_PORT: '0', CHANNEL_PING_SECONDS: '4' },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('cuts a body that trickles in with 408 and a closed connection, on Express and the tap route', async () => {
    const answers = await Promise.all(
      ['/api/users', '/api/tap', '/api/lolgram/users/login'].map((path) =>
        trickle(server.url, slowBody(path), ' '),
      ),
    );
    for (const answer of answers) expect(answer).toMatch(TIMED_OUT);
  });

  it('cuts headers that trickle in, on PORT and on METRICS_PORT', async () => {
    const answers = await Promise.all([
      trickle(server.url, slowHeaders('/api/leaderboard/users'), 'x-pad: 1\r\n'),
      trickle(server.metricsUrl!, slowHeaders('/metrics'), 'x-pad: 1\r\n'),
    ]);
    for (const answer of answers) expect(answer).toMatch(TIMED_OUT);
  });

  it('answers requests that arrive whole, as every client on a working link sends them', async () => {
    const player = await makePlayer(server.url);
    expect((await tap(server.url, player)).status).toBe(200);
    expect((await request(server.metricsUrl!).get('/metrics')).status).toBe(200);
  });

  it('keeps the game channel open past the bound, over WebSocket and long-polling alike', async () => {
    const player = await makePlayer(server.url);
    const sockets = [
      await channelOver(server.url, player.cookie, ['websocket']),
      await channelOver(server.url, player.cookie, ['polling']),
    ];
    try {
      await Promise.all(sockets.map(nextPing));
      for (const [i, socket] of sockets.entries()) {
        expect(await sendTaps(socket, player.session.id, 1, i + 1)).toMatchObject({ ok: true });
        expect(socket.connected).toBe(true);
      }
    } finally {
      for (const socket of sockets) socket.disconnect();
    }
  }, 90_000);
});
