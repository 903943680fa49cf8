// Players keep tapping through a Redis outage: are all the taps they made counted afterwards, and
// does catching up look like cheating? Run: npx tsx bench/tap-outage.bench.ts (its own
// redis-server on a spare loopback port and a scratch database; bounded, about a minute).
// Three players run the game screen's tap protocol (frontend/src/features/game/taps/tap-batches.ts)
// at ten taps a second; Redis hangs (SIGSTOP) for five seconds, and in the second run dies and
// comes back empty five seconds later.
import { gameEvents, type TapBatchAck } from '@tapgram/shared';
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
const PLAYERS = 3;
const TAPS_PER_SECOND = 10;
const SECONDS_BEFORE = 5;
const OUTAGE_SECONDS = 5;
const SECONDS_AFTER = 5;

type Outage = 'hangs (SIGSTOP)' | 'dies, restarts empty';

interface Tapper {
  player: BenchPlayer;
  made: number;
  /** Batches the server refused for the rate (429). */
  refusedBatches: number;
  sender: TapBatches;
  socket: Socket;
}

async function openTapper(url: string, player: BenchPlayer): Promise<Tapper> {
  const socket = io(url, { transports: ['websocket'], extraHeaders: { cookie: player.cookie } });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const tapper = { player, made: 0, refusedBatches: 0, socket } as Tapper;
  // The socket as the protocol sees it, counting the answers that refuse a batch for the rate.
  const counting = {
    get connected() {
      return socket.connected;
    },
    on: socket.on.bind(socket),
    off: socket.off.bind(socket),
    timeout: (ms: number) => ({
      emitWithAck: async (event: string, payload: unknown) => {
        const ack = (await socket.timeout(ms).emitWithAck(event, payload)) as TapBatchAck;
        if (event === gameEvents.tap && !ack.ok && ack.status === 429) tapper.refusedBatches += 1;
        return ack;
      },
    }),
  } as unknown as Socket;
  tapper.sender = new TapBatches({
    socket: counting,
    postTap: () => Promise.reject(new Error('not used: the socket stays connected')),
    onSettled: () => undefined,
    onError: () => undefined,
  });
  return tapper;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await sleep(100);
  }
}

async function outage(redis: RedisProcess, kind: Outage) {
  if (kind === 'hangs (SIGSTOP)') {
    redis.pause();
    await sleep(OUTAGE_SECONDS * 1000);
    redis.resume();
  } else {
    await redis.kill();
    await sleep(OUTAGE_SECONDS * 1000);
    await redis.start();
  }
}

async function run(kind: Outage): Promise<Row> {
  const scratch = await scratchDatabase(DATABASE_URL);
  const redis = await startRedisProcess();
  const app = await startBackend(scratch.name, { DATABASE_URL: scratch.url, REDIS_URL: redis.url });
  const tappers: Tapper[] = [];
  try {
    const players = await createPlayers(app.url, PLAYERS, 'o');
    tappers.push(...(await Promise.all(players.map((p) => openTapper(app.url, p)))));
    const tapping = setInterval(() => {
      for (const t of tappers) {
        t.made += 1;
        t.sender.tap(t.player.userId, t.player.sessionId);
      }
    }, 1000 / TAPS_PER_SECOND);
    await sleep(SECONDS_BEFORE * 1000);
    await outage(redis, kind);
    await sleep(SECONDS_AFTER * 1000);
    clearInterval(tapping);
    await until(
      () =>
        tappers.every(
          (t) => t.sender.unconfirmed === 0 && t.sender.notDurable === 0 && !t.sender.unavailable,
        ),
      'the players to settle',
    );
    // Two flush intervals more: the suspicion signals are written every second.
    await sleep(2500);

    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    const totals = await db.query<{ id: string; total_taps: number }>(
      'SELECT id, total_taps FROM game_users',
    );
    const signals = await db.query<{ user_id: string; refused: string }>(
      'SELECT user_id, sum(refused) AS refused FROM game_player_days GROUP BY user_id',
    );
    await db.end();
    const counted = new Map(totals.rows.map((r) => [r.id, Number(r.total_taps)]));
    const refused = new Map(signals.rows.map((r) => [r.user_id, Number(r.refused)]));
    const each = (f: (t: Tapper) => number) => tappers.map(f).join(' / ');
    return {
      name: `Redis ${kind} for ${OUTAGE_SECONDS} s`,
      figures: {
        'taps made': each((t) => t.made),
        counted: each((t) => counted.get(t.player.userId) ?? 0),
        'batches answered 429': each((t) => t.refusedBatches),
        'refused-tap signal': each((t) => refused.get(t.player.userId) ?? 0),
      },
    };
  } finally {
    for (const t of tappers) {
      t.sender.dispose();
      t.socket.disconnect();
    }
    await app.stop();
    await redis.stop();
    await scratch.drop();
  }
}

async function main() {
  const rows: Row[] = [];
  for (const kind of ['hangs (SIGSTOP)', 'dies, restarts empty'] as const) {
    console.log(`Redis ${kind}: ${PLAYERS} players at ${TAPS_PER_SECOND} taps/s`);
    rows.push(await run(kind));
  }
  printTable(rows);
  writeReport(
    'tap-outage',
    'Tapping through a Redis outage',
    'npx tsx bench/tap-outage.bench.ts',
    rows,
    [
      `${PLAYERS} players run the game screen's tap protocol at ${TAPS_PER_SECOND} taps a second for ${SECONDS_BEFORE} s, through a ${OUTAGE_SECONDS} s Redis outage and ${SECONDS_AFTER} s after it, with the default allowance (20 taps a second, a burst of 40); figures per player.`,
      '"counted" is the player\'s total in Postgres once every tap was answered and flushed; "batches answered 429" are refusals by the rate the game screen got (it sends such a batch again once the allowance holds it); "refused-tap signal" is what the suspicion signals recorded as refused by the rate cap.',
    ],
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
