import { gameEvents, type TapBatchAck } from '@tapgram/shared';
import pg from 'pg';
import { io } from 'socket.io-client';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Admission } from '../../src/core/admission';
import { Metrics } from '../../src/core/metrics';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makePlayer, tap, type Player } from '../game/builders';
import { connectGame } from '../game/socket-client';

const BUSY = { error: 'The game is busy: try again in a moment' };

/** The value of one series of the server's metrics, as a scrape reads it. */
async function metric(server: TestServer, name: string, labels: Record<string, string> = {}) {
  const found = await server.metrics.registry.getSingleMetric(name)?.get();
  const value = found?.values.find((v) =>
    Object.entries(labels).every(([k, l]) => v.labels[k] === l),
  );
  return value?.value;
}

describe('admission control of tap batches', () => {
  let server: TestServer;
  let lock: pg.Client;
  beforeAll(async () => {
    server = await startTestServer({ env: { ADMIT_TAPS_WAITING: '3' } });
    lock = new pg.Client({ connectionString: server.databaseUrl });
    await lock.connect();
  });
  afterAll(async () => {
    await lock?.end();
    await server?.stop();
  });

  it('refuses the batches beyond those waiting for the store, 503 with Retry-After, and answers the rest', async () => {
    const players: Player[] = [];
    for (let i = 0; i < 5; i += 1) players.push(await makePlayer(server.url, 'FI'));
    const socket = await connectGame(server.url, players[4].cookie, {}, { acks: 'compact' });
    try {
      // The store stops answering: no tap can be written while the table is locked.
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE game_users IN EXCLUSIVE MODE');
      const waiting = players.slice(0, 3).map((player) => tap(server.url, player).then((r) => r));
      await expect.poll(() => metric(server, 'tapgram_taps_waiting'), { timeout: 20_000 }).toBe(3);

      // The next ones are refused at once: answered while the three still wait.
      const refused = await tap(server.url, players[3]);
      expect([refused.status, refused.body]).toEqual([503, BUSY]);
      expect(refused.headers['retry-after']).toBe('2');
      const ack: TapBatchAck = await socket
        .timeout(10_000)
        .emitWithAck(gameEvents.tap, { sessionId: players[4].session.id, count: 2, seq: 1 });
      expect(ack).toEqual({ ok: false, status: 503, ...BUSY, retryAfterMs: 2000 });
      expect(await metric(server, 'tapgram_taps_waiting')).toBe(3);

      await lock.query('ROLLBACK');
      const answered = await Promise.all(waiting);
      expect(answered.map((r) => [r.status, r.body.user.totalTaps])).toEqual([
        [200, 1],
        [200, 1],
        [200, 1],
      ]);
      expect(
        await metric(server, 'tapgram_admission_refused_total', {
          work: 'tap',
          reason: 'taps_waiting',
        }),
      ).toBe(2);
      // Below the bound again: taken.
      expect((await tap(server.url, players[3])).status).toBe(200);
      expect(
        await socket
          .timeout(10_000)
          .emitWithAck(gameEvents.tap, { sessionId: players[4].session.id, count: 2, seq: 1 }),
      ).toMatchObject({ ok: true, totalTaps: 2 });
    } finally {
      await lock.query('ROLLBACK');
      socket.disconnect();
    }
  });
});

describe('admission control of new sockets', () => {
  let server: TestServer;
  // The process's clock stands still: its allowance of new sockets does not refill.
  const now = Date.now();
  beforeAll(async () => {
    server = await startTestServer({ env: { ADMIT_NEW_SOCKETS_PER_SECOND: '3' }, now: () => now });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers the handshakes beyond its rate 503 with Retry-After, by polling and WebSocket, and keeps those it took', async () => {
    const taken = [];
    for (let i = 0; i < 3; i += 1) taken.push(await connectGame(server.url));
    try {
      const polling = await request(server.url).get('/socket.io/?EIO=4&transport=polling');
      expect([polling.status, polling.body]).toEqual([503, BUSY]);
      expect(polling.headers['retry-after']).toBe('2');

      const upgrade = await new Promise<{ status?: number; retryAfter?: string }>((resolve) => {
        const ws = new WebSocket(
          `${server.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`,
        );
        ws.on('unexpected-response', (_req, res) => {
          resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'] });
          res.resume();
        });
        ws.on('open', () => {
          ws.close();
          resolve({});
        });
        ws.on('error', () => undefined);
      });
      expect(upgrade).toEqual({ status: 503, retryAfter: '2' });

      // socket.io-client takes it as a failed attempt, which it retries with its backoff.
      const client = io(server.url, {
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
      const error = await new Promise<Error>((resolve) => client.once('connect_error', resolve));
      expect(error.message).toMatch(/websocket error/);
      client.disconnect();

      // The sockets it took are served.
      for (const socket of taken) expect(socket.connected).toBe(true);
      expect(
        await metric(server, 'tapgram_admission_refused_total', {
          work: 'handshake',
          reason: 'new_sockets',
        }),
      ).toBe(3);
    } finally {
      for (const socket of taken) socket.disconnect();
    }
  });
});

describe('admission control while the event loop lags', () => {
  it('refuses new sockets and taps while the lag is above the bound, and takes them again after', async () => {
    const admission = new Admission(
      {
        newSocketsPerSecond: 100,
        tapsWaiting: 10,
        tapWaitMs: 500,
        eventLoopLagMs: 200,
        retryAfterSeconds: 2,
      },
      new Metrics(),
    );
    // One long pause alone is not a loop that stays late.
    admission.observeLag(400);
    expect(admission.admitSocket()).toBeNull();
    for (let i = 0; i < 5; i += 1) admission.observeLag(250);
    expect(admission.admitSocket()).toBe('event_loop_lag');
    await expect(admission.tap(async () => 'counted')).rejects.toMatchObject({
      status: 503,
      retryAfterSeconds: 2,
    });
    for (let i = 0; i < 5; i += 1) admission.observeLag(20);
    expect(admission.admitSocket()).toBeNull();
    expect(await admission.tap(async () => 'counted')).toBe('counted');
  });
});

describe('admission control by the pace of the store', () => {
  /** A batch's work that ends when the test says. */
  function held() {
    let finish!: () => void;
    const done = new Promise<string>((resolve) => {
      finish = () => resolve('counted');
    });
    return { work: () => done, finish };
  }

  /** Admission with the clock the test moves, and a bound of 100 ms of the store's work. */
  function paced(metrics = new Metrics()) {
    const clock = { now: 0 };
    const limits = {
      newSocketsPerSecond: 100,
      tapsWaiting: 1000,
      tapWaitMs: 100,
      eventLoopLagMs: 200,
      retryAfterSeconds: 2,
    };
    return { clock, admission: new Admission(limits, metrics, () => clock.now) };
  }

  it('refuses the batches the store would not clear in time at the pace it kept while busy', async () => {
    const metrics = new Metrics();
    const { clock, admission } = paced(metrics);
    // Busy for a whole sample, the store clears 10 batches in 100 ms: one every 10 ms.
    const first = Array.from({ length: 10 }, () => held());
    const counted = first.map(({ work }) => admission.tap(work));
    clock.now = 100;
    for (const batch of first) batch.finish();
    await Promise.all(counted);
    admission.observePace();

    // Ten waiting take it 100 ms: the bound. The eleventh would wait longer.
    const next = Array.from({ length: 11 }, () => held());
    const taken = next.slice(0, 10).map(({ work }) => admission.tap(work));
    const eleventh = admission.tap(next[10].work);
    next[10].finish();
    await expect(eleventh).rejects.toMatchObject({
      status: 503,
      retryAfterSeconds: 2,
    });
    const refused = await metrics.registry
      .getSingleMetric('tapgram_admission_refused_total')
      ?.get();
    expect(
      refused?.values.find((v) => v.labels.work === 'tap' && v.labels.reason === 'taps_waiting')
        ?.value,
    ).toBe(1);
    for (const batch of next) batch.finish();
    expect(await Promise.all(taken)).toEqual(Array(10).fill('counted'));
    // Cleared: the next batch waits behind none.
    expect(await admission.tap(async () => 'counted')).toBe('counted');
  });

  it('learns nothing from a store seldom busy: one round trip is not its pace', async () => {
    const { clock, admission } = paced();
    // One batch of 20 ms in a 100 ms sample.
    const one = held();
    const counted = admission.tap(one.work);
    clock.now = 20;
    one.finish();
    await counted;
    clock.now = 100;
    admission.observePace();
    const burst = Array.from({ length: 50 }, () => held());
    const taken = burst.map(({ work }) => admission.tap(work));
    for (const batch of burst) batch.finish();
    expect(await Promise.all(taken)).toEqual(Array(50).fill('counted'));
  });
  it('takes batches again once a store that stalled answers, and refuses only behind the stalled one', async () => {
    const { clock, admission } = paced();
    // Busy for a whole sample: 10 batches in 100 ms.
    const first = Array.from({ length: 10 }, () => held());
    const counted = first.map(({ work }) => admission.tap(work));
    clock.now = 100;
    for (const batch of first) batch.finish();
    await Promise.all(counted);
    admission.observePace();

    // The store stalls for 2 s with one batch on it: the pace wears down sample by sample.
    const stalled = held();
    const waiting = admission.tap(stalled.work);
    for (let t = 150; t <= 2100; t += 50) {
      clock.now = t;
      admission.observePace();
    }
    await expect(admission.tap(async () => 'counted')).rejects.toMatchObject({ status: 503 });
    clock.now = 2101;
    stalled.finish();
    await waiting;
    // With none waiting, a batch is taken: it shows the store is back, and the pace comes back.
    const probe = held();
    const probed = admission.tap(probe.work);
    clock.now = 2102;
    probe.finish();
    await probed;
    clock.now = 2150;
    admission.observePace();
    const burst = Array.from({ length: 5 }, () => held());
    const taken = burst.map(({ work }) => admission.tap(work));
    for (const batch of burst) batch.finish();
    expect(await Promise.all(taken)).toEqual(Array(5).fill('counted'));
  });
});
