// Other players' tap acknowledgements while one socket floods the game channel.
// Run: npx tsx bench/socket-flood.bench.ts (loopback only; about half a minute).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { gameEvents, TAP_BATCH_WINDOW_MS, type TapBatchAck } from '@tapgram/shared';
import { Redis } from 'ioredis';
import { createPlayer, createPlayers, type BenchPlayer } from './lib/game-load';
import { LightSocket } from './lib/light-socket';
import { ROOT, startBackend } from './lib/processes';
import { printTable, type Row } from './lib/report';
import { scratchDatabase } from './lib/scratch-db';
import { summarize } from './lib/stats';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
// With BENCH_LIFT_TAP_LIMIT=1 every flooded tap is counted (the worst case), not refused by the
// per-player tap rate.
const LIFT_TAP_LIMIT = process.env.BENCH_LIFT_TAP_LIMIT === '1';
// The game screen's rate: 10 taps a second, one batch per window.
const TAPS_PER_BATCH = (10 * TAP_BATCH_WINDOW_MS) / 1000;

interface FloodTotals {
  sent: number;
  ok: number;
  refused429: number;
  refusedOther: number;
  connections: number;
  dropped: number;
}

/** Every calm player taps as the game screen does for `seconds`; their acks are timed. */
async function calmPlayers(sockets: LightSocket[], players: BenchPlayer[], seconds: number) {
  const latencies: number[] = [];
  let failed = 0;
  const deadline = performance.now() + seconds * 1000;
  const seq = new Map<string, number>();
  await Promise.all(
    players.map(async (player, i) => {
      const pending: Promise<void>[] = [];
      let owed = 0;
      let next = performance.now() + Math.random() * TAP_BATCH_WINDOW_MS;
      while (next < deadline) {
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
        next += TAP_BATCH_WINDOW_MS;
        owed += TAPS_PER_BATCH;
        const count = Math.floor(owed);
        if (count === 0) continue;
        owed -= count;
        const n = (seq.get(player.sessionId) ?? 0) + 1;
        seq.set(player.sessionId, n);
        const started = performance.now();
        pending.push(
          sockets[i]
            .emitWithAck(gameEvents.tap, { sessionId: player.sessionId, count, seq: n }, 60_000)
            .then(
              (ack) => {
                latencies.push(performance.now() - started);
                if (!(ack as TapBatchAck).ok) failed += 1;
              },
              () => {
                failed += 1;
              },
            ),
        );
      }
      await Promise.all(pending);
    }),
  );
  return { ...summarize(latencies), failed };
}

function flood(url: string, attacker: BenchPlayer, reconnect: boolean): Promise<FloodTotals> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/flooder.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      FLOOD_URL: url,
      FLOOD_COOKIE: attacker.cookie,
      FLOOD_SESSION: attacker.sessionId,
      FLOOD_SECONDS: String(SECONDS),
      FLOOD_RECONNECT: reconnect ? '1' : '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(output.trim().split('\n').pop()!) as FloodTotals);
      else reject(new Error(`flooder exited with ${code}: ${output}`));
    });
  });
}

async function main() {
  const scratch = await scratchDatabase(DATABASE_URL);
  const app = await startBackend(scratch.name, {
    DATABASE_URL: scratch.url,
    REDIS_URL,
    REDIS_PREFIX: scratch.name,
    ...(LIFT_TAP_LIMIT ? { TAP_RATE_PER_SECOND: '1000000', TAP_BURST: '1000000' } : {}),
  });
  const rows: Row[] = [];
  try {
    const players = await createPlayers(app.url, PLAYERS, 'calm');
    const attacker = await createPlayer(app.url, 'flood_attacker');
    const sockets = await Promise.all(players.map((p) => LightSocket.connect(app.url, p.cookie)));
    const label = `${PLAYERS} players' tap acks (10 taps/s in ${TAP_BATCH_WINDOW_MS} ms batches)`;

    console.log(`1/3 no flood, ${SECONDS} s`);
    rows.push({
      name: `${label}, no flood`,
      figures: await calmPlayers(sockets, players, SECONDS),
    });

    for (const reconnect of [false, true]) {
      const what = reconnect ? 'one attacker reconnecting when dropped' : 'one socket flooding';
      console.log(`${reconnect ? 3 : 2}/3 ${what}, ${SECONDS} s`);
      const [calm, attack] = await Promise.all([
        calmPlayers(sockets, players, SECONDS),
        flood(app.url, attacker, reconnect),
      ]);
      rows.push({ name: `${label}, ${what}`, figures: calm });
      rows.push({ name: `  the attacker (${what})`, figures: { ...attack } });
    }
    for (const socket of sockets) socket.close();
  } finally {
    await app.stop();
    await scratch.drop();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${scratch.name}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    fs.rmSync(`/tmp/${scratch.name}`, { recursive: true, force: true });
  }
  printTable(rows);
}

await main();
