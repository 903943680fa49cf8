// Redis loses its data under load: are the taps the server acknowledged all in Postgres after?
// Run: npx tsx bench/redis-empty.bench.ts (its own redis-server on a spare loopback port and a
// scratch database; bounded, about a minute). Each way of losing the data runs twice: with the
// game screen's tap protocol (batches not yet durable are kept and sent again), and with a client
// that forgets a batch once it is answered, as the game screen did before.
import { gameEvents, TAP_BATCH_WINDOW_MS, type TapBatch, type TapBatchAck } from '@tapgram/shared';
import { Redis } from 'ioredis';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { startRedisProcess, type RedisProcess } from '../backend/test-support';
import { TapBatches } from '../frontend/src/features/game/taps/tap-batches';
import { createPlayers, type BenchPlayer } from './lib/game-load';
import { startBackend } from './lib/processes';
import { printTable, writeReport, type Row } from './lib/report';
import { scratchDatabase } from './lib/scratch-db';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 50);
const TAPS_PER_SECOND = 10;
const SECONDS_BEFORE = 3;
const SECONDS_AFTER = 3;

type Loss = 'emptied (FLUSHALL)' | 'restarted empty (kill -9)';
type Client = 'sends again' | 'forgets answered';

/** A player tapping TAPS_PER_SECOND, counting the taps the server acknowledged, each batch once. */
interface Tapper {
  player: BenchPlayer;
  socket: Socket;
  tap(): void;
  acknowledged: number;
  /** Nothing waits for an answer, and nothing answered waits to be durable. */
  settled(): boolean;
  close(): void;
}

async function connect(url: string, player: BenchPlayer): Promise<Socket> {
  const socket = io(url, { transports: ['websocket'], extraHeaders: { cookie: player.cookie } });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** The game screen's protocol: frontend/src/features/game/taps/tap-batches.ts itself. */
async function sendsAgain(url: string, player: BenchPlayer): Promise<Tapper> {
  const socket = await connect(url, player);
  const tapper: Tapper = {
    player,
    socket,
    acknowledged: 0,
    tap: () => sender.tap(player.userId, player.sessionId),
    settled: () => sender.unconfirmed === 0 && sender.notDurable === 0 && !sender.unavailable,
    close: () => {
      sender.dispose();
      socket.disconnect();
    },
  };
  const sender: TapBatches = new TapBatches({
    socket,
    postTap: () => Promise.reject(new Error('not used: the socket stays connected')),
    onSettled: ({ accepted, sent }) => {
      if (sent > 0) tapper.acknowledged += accepted;
    },
    onError: () => undefined,
  });
  return tapper;
}

/** The earlier game screen: numbered batches, each forgotten once answered. */
async function forgetsAnswered(url: string, player: BenchPlayer): Promise<Tapper> {
  const socket = await connect(url, player);
  let seq = 0;
  let pending = 0;
  let inFlight = 0;
  const send = () => {
    if (pending === 0) return;
    seq += 1;
    const batch: TapBatch = { sessionId: player.sessionId, count: pending, seq };
    pending = 0;
    inFlight += 1;
    socket
      .timeout(5000)
      .emitWithAck(gameEvents.tap, batch)
      .then(
        (ack: TapBatchAck) => {
          if (ack.ok) tapper.acknowledged += ack.accepted;
        },
        () => undefined,
      )
      .finally(() => (inFlight -= 1));
  };
  const timer = setInterval(send, TAP_BATCH_WINDOW_MS);
  const tapper: Tapper = {
    player,
    socket,
    acknowledged: 0,
    tap: () => (pending += 1),
    settled: () => pending === 0 && inFlight === 0,
    close: () => {
      clearInterval(timer);
      socket.disconnect();
    },
  };
  return tapper;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await sleep(100);
  }
}

async function run(loss: Loss, client: Client): Promise<Row> {
  const scratch = await scratchDatabase(DATABASE_URL);
  let redis: RedisProcess | undefined;
  const app = await (async () => {
    redis = await startRedisProcess();
    return startBackend(scratch.name, { DATABASE_URL: scratch.url, REDIS_URL: redis.url });
  })();
  const tappers: Tapper[] = [];
  try {
    const players = await createPlayers(app.url, PLAYERS, 'e');
    const open = client === 'sends again' ? sendsAgain : forgetsAnswered;
    tappers.push(...(await Promise.all(players.map((p) => open(app.url, p)))));
    const tapping = setInterval(() => {
      for (const t of tappers) t.tap();
    }, 1000 / TAPS_PER_SECOND);
    await sleep(SECONDS_BEFORE * 1000);
    if (loss === 'emptied (FLUSHALL)') {
      const admin = new Redis(redis!.url);
      await admin.flushall();
      admin.disconnect();
    } else {
      await redis!.kill();
      await sleep(1000);
      await redis!.start();
    }
    await sleep(SECONDS_AFTER * 1000);
    clearInterval(tapping);
    await until(() => tappers.every((t) => t.settled()), 'the players to settle');
    // Two flush intervals more, for what the forgetful client cannot wait for.
    await sleep(2500);

    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    const { rows } = await db.query<{ id: string; total_taps: number }>(
      'SELECT id, total_taps FROM game_users',
    );
    await db.end();
    const stored = new Map(rows.map((r) => [r.id, Number(r.total_taps)]));
    const acknowledged = tappers.reduce((n, t) => n + t.acknowledged, 0);
    const inPostgres = tappers.reduce((n, t) => n + (stored.get(t.player.userId) ?? 0), 0);
    const hit = tappers.filter((t) => (stored.get(t.player.userId) ?? 0) < t.acknowledged).length;
    return {
      name: `Redis ${loss}, client ${client}`,
      figures: {
        acknowledged,
        'in Postgres': inPostgres,
        'acknowledged, not in Postgres': Math.max(0, acknowledged - inPostgres),
        'players who lost taps': hit,
      },
    };
  } finally {
    for (const t of tappers) t.close();
    await app.stop();
    await redis?.stop();
    await scratch.drop();
  }
}

async function main() {
  const rows: Row[] = [];
  for (const loss of ['emptied (FLUSHALL)', 'restarted empty (kill -9)'] as const) {
    for (const client of ['forgets answered', 'sends again'] as const) {
      console.log(`Redis ${loss}: ${PLAYERS} players, client ${client}`);
      rows.push(await run(loss, client));
    }
  }
  printTable(rows);
  writeReport(
    'redis-empty',
    'Redis losing its data under load',
    'npx tsx bench/redis-empty.bench.ts',
    rows,
    [
      `${PLAYERS} players tap ${TAPS_PER_SECOND} times a second over the game channel for ${SECONDS_BEFORE} s, Redis loses its data, they tap ${SECONDS_AFTER} s more; flushes every second (the default).`,
      '"sends again" is the game screen: batches answered but not yet durable are kept and sent again when the server says it lost them; "forgets answered" is a client that drops a batch once answered.',
      'Redis runs without persistence here: with its append-only file (the Docker Compose setting) a restart keeps the data.',
    ],
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
