// Suspicion signals: what recording them costs the tap path, beside the same path without them,
// in the same run. Rounds alternate (off, on, off, on, ...) so that other work on the machine
// weighs on both alike; each figure is the median of its rounds.
//
// Environment (defaults in brackets):
//   BENCH_ROUNDS [3]           rounds of each setting
//   BENCH_HTTP_TAPS [20000]    POST /api/tap requests per round, from 1,000 players in rotation
//   BENCH_SCRIPT_SECONDS [5]   length of each round of the Redis tap script alone
import os from 'node:os';
import { Redis } from 'ioredis';
import { gameKeys } from '../backend/src/game/redis-keys';
import { RedisTapQueue } from '../backend/src/game/redis-tap-queue';
import { createPlayers, type BenchPlayer } from './lib/game-load';
import { cannon } from './lib/http-load';
import { startBackend } from './lib/processes';
import { printTable, writeReport, type Row } from './lib/report';
import { scratchDatabase } from './lib/scratch-db';
import { percentile, round } from './lib/stats';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const HTTP_TAPS = Number(process.env.BENCH_HTTP_TAPS ?? 20_000);
const SCRIPT_SECONDS = Number(process.env.BENCH_SCRIPT_SECONDS ?? 5);
const PLAYERS = 1000;
/** Batches waiting at once for the tap script: several event-loop turns' worth. */
const OUTSTANDING = 400;
const SETTINGS = ['off', 'on'] as const;
type Setting = (typeof SETTINGS)[number];

/** Answers other than 200 over every HTTP round (errors, timeouts, 503s of a busy machine). */
let refusedAnswers = 0;

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

async function main() {
  const scratch = await scratchDatabase(DATABASE_URL);
  const prefix = scratch.name;
  const loadAtStart = os.loadavg()[0];
  const base = {
    DATABASE_URL: scratch.url,
    // The anti-cheat limit would refuse the load generator; lifted alike for both settings.
    TAP_RATE_PER_SECOND: '1000000',
    TAP_BURST: '1000000',
  };
  const redisEnv = { ...base, REDIS_URL, REDIS_PREFIX: prefix };
  const results = {
    script: { off: [] as number[], on: [] as number[] },
    redis: { off: [] as number[], on: [] as number[] },
    postgres: { off: [] as number[], on: [] as number[] },
  };
  const redis = new Redis(REDIS_URL);
  try {
    const first = await startBackend(prefix, redisEnv);
    const players = await createPlayers(first.url, PLAYERS, 'sig');
    await first.stop();

    for (let r = 1; r <= ROUNDS; r += 1) {
      for (const setting of SETTINGS) {
        console.log(`round ${r}/${ROUNDS}, signals ${setting}`);
        results.script[setting].push(await scriptRate(redis, prefix, players, setting));
        for (const mode of ['redis', 'postgres'] as const) {
          const app = await startBackend(prefix, {
            ...(mode === 'redis' ? redisEnv : base),
            SUSPICION_SIGNALS: setting,
          });
          try {
            results[mode][setting].push(await httpRate(app.url, players));
          } finally {
            await app.stop();
          }
        }
      }
    }
  } finally {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await scratch.drop();
  }

  const rows: Row[] = [
    row('(1) Redis tap script alone, batches of 10 taps a second', results.script),
    row('(2) POST /api/tap, Redis mode, taps a second', results.redis),
    row('(3) POST /api/tap, Postgres mode, taps a second', results.postgres),
  ];
  printTable(rows);
  writeReport('signals', 'Suspicion signals on the tap path', 'npm run bench:signals', rows, [
    `${ROUNDS} rounds of each setting, alternating; each figure is the median of its rounds, the rounds listed after it. "cost" is how much lower the median with signals is than without (negative: higher; within the noise of this shared machine).`,
    `(1) drives the server's own tap queue (RedisTapQueue, the Lua script every worker runs) from one process, ${OUTSTANDING} batches of 10 taps outstanding from ${PLAYERS} players, for ${SCRIPT_SECONDS} s: the part of the tap path that signals change in Redis mode.`,
    `(2) and (3): one server (1 worker) per round, ${HTTP_TAPS} taps from ${PLAYERS} players in rotation over 100 connections; the anti-cheat rate is lifted alike for both settings. In Postgres mode, signals add a clause to the statement that counts the taps.`,
    `Answers other than 200 over all HTTP rounds: ${refusedAnswers}.`,
    `The machine's 1-minute load average was ${round(loadAtStart)} at the start and ${round(os.loadavg()[0])} at the end, on ${os.cpus().length} cores.`,
  ]);
}

function row(name: string, figures: Record<Setting, number[]>): Row {
  const off = median(figures.off);
  const on = median(figures.on);
  return {
    name,
    figures: {
      'signals off': off,
      'signals on': on,
      cost: `${round((1 - on / off) * 100, 1)} %`,
      rounds: `off ${figures.off.join(' / ')}; on ${figures.on.join(' / ')}`,
    },
  };
}

/** Batches a second the tap script counts, `OUTSTANDING` always waiting. */
async function scriptRate(
  redis: Redis,
  prefix: string,
  players: BenchPlayer[],
  setting: Setting,
): Promise<number> {
  const queue = new RedisTapQueue(
    redis,
    gameKeys(prefix),
    { perSecond: 1_000_000, burst: 1_000_000 },
    { enabled: setting === 'on', now: Date.now, pauseMs: 120_000, writeIntervalMs: 1000 },
  );
  let counted = 0;
  let next = 0;
  const started = performance.now();
  const end = started + SCRIPT_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: OUTSTANDING }, async () => {
      while (performance.now() < end) {
        const player = players[next++ % players.length];
        const [status] = await queue.tap(player.userId, player.sessionId, 10, 0, 0);
        if (status !== 'ok') throw new Error(`tap script answered ${status}`);
        counted += 1;
      }
    }),
  );
  return round(counted / ((performance.now() - started) / 1000), 0);
}

async function httpRate(url: string, players: BenchPlayer[]): Promise<number> {
  const requests = players.map((p) => ({
    headers: { 'content-type': 'application/json', cookie: p.cookie },
    body: JSON.stringify({ userId: p.userId, sessionId: p.sessionId, pointsPerTap: 1 }),
  }));
  let next = 0;
  const run = await cannon({
    connections: 100,
    url: `${url}/api/tap`,
    amount: HTTP_TAPS,
    method: 'POST',
    requests: [{ setupRequest: (req) => ({ ...req, ...requests[next++ % requests.length] }) }],
  });
  if (run.other > 0) refusedAnswers += run.other;
  return run.requestsPerSecond;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
