// Suspicion signals: what recording them costs the tap path, beside the same path without them,
// in the same run. Rounds alternate (off, on, off, on, ...) so that other work on the machine
// weighs on both alike; each figure is the median of its rounds.
//
// Environment (defaults in brackets):
//   BENCH_ROUNDS [5]           rounds of each setting
//   BENCH_HTTP_TAPS [40000]    POST /api/tap requests per round, from 1,000 players in rotation
import os from 'node:os';
import { Redis } from 'ioredis';
import { createPlayers, type BenchPlayer } from './lib/game-load';
import { cannon } from './lib/http-load';
import { startBackend } from './lib/processes';
import { printTable, writeReport, type Row } from './lib/report';
import { scratchDatabase } from './lib/scratch-db';
import { round } from './lib/stats';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const HTTP_TAPS = Number(process.env.BENCH_HTTP_TAPS ?? 40_000);
const PLAYERS = 1000;
const SETTINGS = ['off', 'on'] as const;
type Setting = (typeof SETTINGS)[number];

/** Answers other than 200 over every HTTP round (errors, timeouts, 503s of a busy machine). */
let refusedAnswers = 0;

/** The middle value; the mean of the middle two for an even count. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  if (Number.isInteger(middle)) return (sorted[middle - 1] + sorted[middle]) / 2;
  return sorted[Math.floor(middle)];
}

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
    row('(1) POST /api/tap, Redis mode, taps a second', results.redis),
    row('(2) POST /api/tap, Postgres mode, taps a second', results.postgres),
  ];
  printTable(rows);
  writeReport('signals', 'Suspicion signals on the tap path', 'npm run bench:signals', rows, [
    `${ROUNDS} rounds of each setting, alternating; each figure is the median of its rounds, the rounds listed after it. "cost" is how much lower the median with signals is than without (negative: higher; within the noise of this shared machine).`,
    `One server (1 worker) per round, ${HTTP_TAPS} taps from ${PLAYERS} players in rotation over 100 connections (each tap its own request: the most signal work per tap); the anti-cheat rate is lifted alike for both settings. Signals are kept in the server's memory and merged into Postgres once a second in one statement, in both modes.`,
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
