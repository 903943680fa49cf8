import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TapBatches } from '../../../frontend/src/features/game/taps/tap-batches';
import { redisAvailable } from '../../test-support/availability';
import { startRedisProcess, type RedisProcess } from '../../test-support/redis-process';
import { startTestServer, type TestServer } from '../../test-support/server';
import { makePlayer, type Player } from './builders';
import { connectGame, sendTaps } from './socket-client';

const BURST = 40;

/** A player whose page runs the game screen's tap protocol over a real socket. */
interface Tapper {
  player: Player;
  socket: Socket;
  sender: TapBatches;
  /** Taps the player made. */
  made: number;
  /** Taps the server acknowledged as counted, each batch once. */
  acknowledged: number;
}

async function openTapper(url: string, player: Player): Promise<Tapper> {
  const socket = io(url, { transports: ['websocket'], extraHeaders: { Cookie: player.cookie } });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const tapper: Tapper = { player, socket, sender: undefined as never, made: 0, acknowledged: 0 };
  tapper.sender = new TapBatches({
    socket,
    postTap: () => Promise.reject(new Error('the socket stays connected in this test')),
    onSettled: ({ accepted, sent }) => {
      if (sent > 0) tapper.acknowledged += accepted;
    },
    onError: () => undefined,
  });
  return tapper;
}

/**
 * Three players tap ten times a second through a Redis outage long enough for each to keep more
 * taps than the burst: the game screen keeps them and sends them when the game serves again.
 */
describe.runIf(await redisAvailable())('taps kept through a Redis outage', () => {
  let redis: RedisProcess;
  let server: TestServer;
  let tappers: Tapper[] = [];
  beforeAll(async () => {
    redis = await startRedisProcess();
    server = await startTestServer({
      mode: 'redis',
      env: {
        REDIS_URL: redis.url,
        FLUSH_INTERVAL_MS: '200',
        TAP_RATE_PER_SECOND: '20',
        TAP_BURST: String(BURST),
      },
    });
  });
  afterEach(() => {
    for (const t of tappers) {
      t.sender.dispose();
      t.socket.disconnect();
    }
    tappers = [];
  });
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  /** Every player taps ten times a second until `during` resolves, then stops. */
  async function tapThrough(during: () => Promise<void>) {
    const timer = setInterval(() => {
      for (const t of tappers) {
        t.made += 1;
        t.sender.tap(t.player.user.id, t.player.session.id);
      }
    }, 100);
    try {
      await during();
    } finally {
      clearInterval(timer);
    }
  }

  const everyone = (check: (t: Tapper) => boolean) => () => tappers.every(check);

  async function tapThroughOutage(outage: { start(): Promise<void>; end(): Promise<void> }) {
    const players = await Promise.all(['NO', 'SE', 'FI'].map((c) => makePlayer(server.url, c)));
    tappers = await Promise.all(players.map((p) => openTapper(server.url, p)));
    await tapThrough(async () => {
      await expect.poll(everyone((t) => t.acknowledged >= 10)).toBe(true);
      await outage.start();
      // Long enough for each player to keep twice the burst, whatever went in a first probe (a
      // full run on a loaded machine once took over 30 s to get there).
      const keeping = everyone((t) => t.sender.unavailable && t.sender.unconfirmed > 2 * BURST);
      await expect.poll(keeping, { timeout: 90_000 }).toBe(true);
      await outage.end();
      const after = tappers.map((t) => t.made + 10);
      await expect
        .poll(everyone((t) => !t.sender.unavailable && t.acknowledged >= after[tappers.indexOf(t)]))
        .toBe(true);
    });
    // Settled: every tap answered, and every answered batch in Postgres.
    await expect
      .poll(everyone((t) => t.sender.unconfirmed === 0 && t.sender.notDurable === 0))
      .toBe(true);

    const ids = tappers.map((t) => t.player.user.id);
    const { rows } = await server.db.pool.query<{ id: string; total_taps: number }>(
      'SELECT id, total_taps FROM game_users WHERE id = ANY($1)',
      [ids],
    );
    const counted = new Map(rows.map((r) => [r.id, r.total_taps]));
    expect(tappers.map((t) => counted.get(t.player.user.id))).toEqual(tappers.map((t) => t.made));
    // Signals are written for every player in one statement: once a later player's batch is in,
    // whatever was recorded for these three before it is in too.
    const later = await makePlayer(server.url);
    const socket = await connectGame(server.url, later.cookie);
    expect(await sendTaps(socket, later.session.id, 1, 1)).toMatchObject({ ok: true });
    socket.disconnect();
    const refused = async () =>
      (
        await server.db.pool.query<{ user_id: string; refused: string }>(
          `SELECT user_id, sum(refused) AS refused FROM game_player_days
            WHERE user_id = ANY($1) GROUP BY user_id`,
          [[...ids, later.user.id]],
        )
      ).rows;
    await expect.poll(async () => (await refused()).length).toBe(4);
    // None of the taps kept through the outage was refused as too fast.
    expect((await refused()).map((r) => Number(r.refused))).toEqual([0, 0, 0, 0]);
  }

  it('counts every tap once, none refused, when Redis hangs', async () => {
    await tapThroughOutage({
      start: async () => redis.pause(),
      end: async () => redis.resume(),
    });
  });

  it('counts every tap once, none refused, when Redis dies and comes back empty', async () => {
    await tapThroughOutage({ start: () => redis.kill(), end: () => redis.start() });
  });
});
