import { gameEvents, MAX_TAPS_PER_BATCH, tapAllowanceSchema } from '@tapgram/shared';
import { io } from 'socket.io-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makePlayer, tap } from './builders';
import { storageModes } from './modes';
import { connectGame, sendTaps } from './socket-client';

/*
 * The rate's clock is wall time (Redis TIME in redis mode), so these tests never lean on how
 * fast they run: at one tap a second, every refusal they expect asks for more taps than the
 * bucket could refill before the test times out, and every acceptance fits in a full bucket.
 */
const TEST_TIMEOUT_MS = 60_000;
const RATE_PER_SECOND = 1;
/** More taps than the rate refills while one test may run. */
const BEYOND_REFILL = (TEST_TIMEOUT_MS / 1000) * RATE_PER_SECOND + 1;

describe.each(storageModes)('anti-cheat tap rate (%s mode)', (mode) => {
  describe('over HTTP', () => {
    const burst = 5;
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({
        mode,
        env: { TAP_RATE_PER_SECOND: String(RATE_PER_SECOND), TAP_BURST: String(burst) },
      });
    });
    afterAll(async () => {
      await server?.stop();
    });

    it(
      'refuses taps above the rate with 429 and does not count them',
      async () => {
        const player = await makePlayer(server.url);
        const volley = burst + BEYOND_REFILL;
        const replies = await Promise.all(
          Array.from({ length: volley }, () => tap(server.url, player)),
        );
        const statuses = replies.map((r) => r.status);
        const accepted = statuses.filter((s) => s === 200).length;
        expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
        expect(accepted).toBeGreaterThanOrEqual(burst);
        expect(accepted).toBeLessThan(volley);
        const refused = replies.find((r) => r.status === 429);
        expect(refused?.body.error).toMatch(/too fast/i);
        // One tap refills in a second: that is when to send it again.
        expect(refused?.headers['retry-after']).toBe('1');
        const user = (await request(server.url).get(`/api/users/${player.user.id}`)).body;
        expect(user.totalPoints).toBe(accepted);
        expect(user.totalTaps).toBe(accepted);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'refuses for good a batch of taps above the burst, counting none of it',
      async () => {
        const player = await makePlayer(server.url);
        const above = await tap(server.url, player, { count: burst + 1 });
        expect(above.status).toBe(429);
        expect(above.headers['retry-after']).toBeUndefined();
        expect((await tap(server.url, player, { count: burst })).status).toBe(200);
        const user = (await request(server.url).get(`/api/users/${player.user.id}`)).body;
        expect(user.totalTaps).toBe(burst);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'keeps one player’s rate apart from another’s',
      async () => {
        const [a, b] = [await makePlayer(server.url), await makePlayer(server.url)];
        await Promise.all(Array.from({ length: burst + BEYOND_REFILL }, () => tap(server.url, a)));
        expect((await tap(server.url, b)).status).toBe(200);
      },
      TEST_TIMEOUT_MS,
    );
  });

  describe('over the game channel', () => {
    // The largest burst a batch can still overflow on its own.
    const burst = MAX_TAPS_PER_BATCH - 1;
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({
        mode,
        env: { TAP_RATE_PER_SECOND: String(RATE_PER_SECOND), TAP_BURST: String(burst) },
      });
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('announces the allowance to every connection, for the game screen to send within it', async () => {
      const socket = io(server.url, { transports: ['websocket'], forceNew: true });
      try {
        const announced = new Promise((resolve) => socket.once(gameEvents.allowance, resolve));
        expect(tapAllowanceSchema.parse(await announced)).toEqual({
          perSecond: RATE_PER_SECOND,
          burst,
        });
      } finally {
        socket.disconnect();
      }
    });

    it(
      'refuses a socket batch the rate does not allow whole, with 429, counting none of it',
      async () => {
        const player = await makePlayer(server.url);
        const socket = await connectGame(server.url, player.cookie);
        const userTaps = async () =>
          (await request(server.url).get(`/api/users/${player.user.id}`)).body.totalTaps;
        try {
          const tooFast = { ok: false, status: 429, error: 'Tapping too fast: slow down a little' };
          // Larger than the burst: no time says when it would fit.
          expect(await sendTaps(socket, player.session.id, burst + 1, 1)).toEqual(tooFast);
          expect(await userTaps()).toBe(0);
          expect(await sendTaps(socket, player.session.id, burst, 2)).toMatchObject({
            ok: true,
            accepted: burst,
          });
          // Within the burst: refused with the time the allowance takes to hold it, at most the
          // time its taps take to refill at one a second.
          const refused = await sendTaps(socket, player.session.id, BEYOND_REFILL, 3);
          expect(refused).toEqual({ ...tooFast, retryAfterMs: expect.any(Number) });
          const { retryAfterMs } = refused as { retryAfterMs: number };
          expect(retryAfterMs).toBeGreaterThan(0);
          expect(retryAfterMs).toBeLessThanOrEqual((BEYOND_REFILL * 1000) / RATE_PER_SECOND);
          expect(await userTaps()).toBe(burst);
        } finally {
          socket.disconnect();
        }
      },
      TEST_TIMEOUT_MS,
    );
  });
});
