import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { makePlayer, tap } from './builders';
import { storageModes } from './modes';
import { connectGame, sendTaps } from './socket-client';

describe.each(storageModes)('anti-cheat tap rate (%s mode)', (mode) => {
  let server: TestServer;
  beforeAll(async () => {
    // A slow rate with no extra burst, so that a quick volley must overflow it.
    server = await startTestServer({ mode, env: { TAP_RATE_PER_SECOND: '2', TAP_BURST: '5' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses taps above the rate with 429 and does not count them', async () => {
    const player = await makePlayer(server.url);
    const replies = await Promise.all(Array.from({ length: 20 }, () => tap(server.url, player)));
    const statuses = replies.map((r) => r.status);
    const accepted = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(accepted).toBeGreaterThanOrEqual(5);
    expect(accepted).toBeLessThan(20);
    const refused = replies.find((r) => r.status === 429);
    expect(refused?.body.error).toMatch(/too fast/i);
    const user = (await request(server.url).get(`/api/users/${player.user.id}`)).body;
    expect(user.totalPoints).toBe(accepted);
    expect(user.totalTaps).toBe(accepted);
  });

  it('keeps one player’s rate apart from another’s', async () => {
    const [a, b] = [await makePlayer(server.url), await makePlayer(server.url)];
    await Promise.all(Array.from({ length: 10 }, () => tap(server.url, a)));
    expect((await tap(server.url, b)).status).toBe(200);
  });

  it('refuses a socket batch the rate does not allow whole, with 429, counting none of it', async () => {
    const player = await makePlayer(server.url);
    const socket = await connectGame(server.url, player.cookie);
    const userTaps = async () =>
      (await request(server.url).get(`/api/users/${player.user.id}`)).body.totalTaps;
    try {
      const tooFast = { ok: false, status: 429, error: 'Tapping too fast: slow down a little' };
      expect(await sendTaps(socket, player.session.id, 6, 1)).toEqual(tooFast);
      expect(await userTaps()).toBe(0);
      expect(await sendTaps(socket, player.session.id, 5, 2)).toMatchObject({
        ok: true,
        accepted: 5,
      });
      expect(await sendTaps(socket, player.session.id, 2, 3)).toEqual(tooFast);
      expect(await userTaps()).toBe(5);
    } finally {
      socket.disconnect();
    }
  });
});
