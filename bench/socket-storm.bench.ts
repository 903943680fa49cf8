// Other players' tap acknowledgements while one address opens game sockets as fast as it can.
// Run: npx tsx bench/socket-storm.bench.ts (loopback only; about a minute per storage mode).
// BENCH_MODES=embedded,redis picks the storage modes (both by default: the embedded Postgres
// alone, and Postgres with Redis). BENCH_SERVER_ROOT=<another checkout> runs that checkout's
// backend instead (a before/after comparison; then nothing is written).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { gameEvents, TAP_BATCH_WINDOW_MS, type CompactTapAck } from '@tapgram/shared';
import { Redis } from 'ioredis';
import { createPlayers, type BenchPlayer } from './lib/game-load';
import { LightSocket } from './lib/light-socket';
import { PROTOCOLS } from './lib/load-protocols';
import { ROOT, SERVER_NODE_FLAGS, startChild, type Child } from './lib/processes';
import { printTable, writeReport, type Row } from './lib/report';
import { scratchDatabase } from './lib/scratch-db';
import { summarize } from './lib/stats';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SERVER_ROOT = process.env.BENCH_SERVER_ROOT ?? ROOT;
const MODES = (process.env.BENCH_MODES ?? 'embedded,redis').split(',') as Mode[];
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const STORM_PER_SECOND = Number(process.env.BENCH_STORM_PER_SECOND ?? 400);
// The game screen's rate: 10 taps a second, one batch per window, the compact protocol.
const TAPS_PER_BATCH = (10 * TAP_BATCH_WINDOW_MS) / 1000;
const { auth } = PROTOCOLS.compact;

type Mode = 'embedded' | 'redis';

/** Each calm player plays from an address of its own, the storm from one (behind one trusted proxy). */
const playerAddress = (i: number) => `10.0.${i >> 8}.${i & 255}`;
const STORM_ADDRESS = '198.51.100.7';

/** Every player taps as the game screen does for `seconds`; their acknowledgements are timed. */
async function tapping(sockets: LightSocket[], players: BenchPlayer[], seq: Map<string, number>) {
  const latencies: number[] = [];
  let failed = 0;
  const deadline = performance.now() + SECONDS * 1000;
  await Promise.all(
    players.map(async (player, i) => {
      const pending: Promise<void>[] = [];
      let next = performance.now() + Math.random() * TAP_BATCH_WINDOW_MS;
      while (next < deadline) {
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
        next += TAP_BATCH_WINDOW_MS;
        const n = (seq.get(player.sessionId) ?? 0) + 1;
        seq.set(player.sessionId, n);
        const batch = { sessionId: player.sessionId, count: TAPS_PER_BATCH, seq: n };
        const started = performance.now();
        pending.push(
          sockets[i].emitWithAck(gameEvents.tap, batch, 60_000).then(
            (ack) => {
              latencies.push(performance.now() - started);
              if (!(ack as CompactTapAck).ok) failed += 1;
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
  const { count, p50, p99, max } = summarize(latencies);
  return { acks: count, 'p50 ms': p50, 'p99 ms': p99, 'max ms': max, failed };
}

function storm(url: string): Promise<Record<string, number>> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/socket-storm.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      STORM_URL: url,
      STORM_ADDRESS,
      STORM_PER_SECOND: String(STORM_PER_SECOND),
      STORM_SECONDS: String(SECONDS),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(output.trim().split('\n').pop()!));
      else reject(new Error(`storm exited with ${code}: ${output}`));
    });
  });
}

/** The backend of SERVER_ROOT in `mode`, behind one trusted proxy, the players' tap rate lifted. */
async function startServer(mode: Mode, name: string, databaseUrl?: string): Promise<Child> {
  return startChild(
    [...SERVER_NODE_FLAGS, '--import', 'tsx', 'backend/src/main.ts'],
    {
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: `/tmp/${name}`,
      TRUST_PROXY: '1',
      MODERATION_IMAGE_CHECK: 'off',
      TAP_RATE_PER_SECOND: '1000',
      TAP_BURST: '1000',
      ...(mode === 'redis'
        ? { DATABASE_URL: databaseUrl!, REDIS_URL, REDIS_PREFIX: name }
        : { DATABASE_URL: '', REDIS_URL: '' }),
    },
    SERVER_ROOT,
  );
}

async function measure(mode: Mode): Promise<Row[]> {
  const scratch = mode === 'redis' ? await scratchDatabase(DATABASE_URL) : null;
  const name =
    scratch?.name ?? `bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const app = await startServer(mode, name, scratch?.url);
  const rows: Row[] = [];
  try {
    const players = await createPlayers(app.url, PLAYERS, 'calm');
    const sockets = await Promise.all(
      players.map((p, i) =>
        LightSocket.connect(app.url, p.cookie, auth, { 'x-forwarded-for': playerAddress(i) }),
      ),
    );
    const seq = new Map<string, number>();
    const label = `${mode}: ${PLAYERS} players' tap acks`;
    console.log(`${mode} 1/2: ${PLAYERS} players, no storm, ${SECONDS} s`);
    rows.push({ name: `${label}, no storm`, figures: await tapping(sockets, players, seq) });
    console.log(`${mode} 2/2: the same while one address opens ${STORM_PER_SECOND} sockets/s`);
    const [calm, attack] = await Promise.all([tapping(sockets, players, seq), storm(app.url)]);
    rows.push({ name: `${label}, storm from one address`, figures: calm });
    rows.push({ name: `${mode}: the storm's sockets`, figures: attack });
    for (const socket of sockets) socket.close();
  } finally {
    await app.stop();
    await scratch?.drop();
    if (mode === 'redis') {
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${name}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
    fs.rmSync(`/tmp/${name}`, { recursive: true, force: true });
  }
  return rows;
}

const loadAtStart = os.loadavg()[0];
const rows: Row[] = [];
for (const mode of MODES) rows.push(...(await measure(mode)));
printTable(rows);
if (SERVER_ROOT === ROOT) {
  writeReport(
    'socket-storm',
    'Other players during a storm of new sockets from one address',
    'npx tsx bench/socket-storm.bench.ts',
    rows,
    [
      `${PLAYERS} players, each on a socket from an address of its own, send ${TAPS_PER_BATCH} taps a second in one batch (the game screen's compact protocol), ${SECONDS} s alone, then ${SECONDS} s while another process opens ${STORM_PER_SECOND} sockets a second from one address and holds them (each asks for the boards whole).`,
      'New sockets are limited per address (NEW_SOCKETS_PER_MINUTE with NEW_SOCKETS_BURST, and SOCKETS_PER_ADDRESS held by a process), refused at the handshake; a new socket is sent the boards this process last read, read again at most once per tick for every socket that arrived meanwhile.',
      'BENCH_SERVER_ROOT=<a checkout> measures another version of the backend the same way (its figures are printed, not written here).',
      `The machine's 1-minute load average was ${loadAtStart.toFixed(2)} at the start and ${os.loadavg()[0].toFixed(2)} at the end, on ${os.cpus().length} cores: compare figures of one run, or of runs close together.`,
    ],
  );
}
