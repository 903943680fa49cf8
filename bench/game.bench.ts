// The game benchmark: ceiling, POST /api/tap, the Socket.IO channel, and nothing lost.
import { TAP_BATCH_WINDOW_MS } from '@tapgram/shared';
import { Redis } from 'ioredis';
import pg from 'pg';
import { boost, createPlayer, createPlayers } from './lib/game-load';
import { cannon, measureCeiling } from './lib/http-load';
import { MEMORY_PROBE_FLAGS, SERVER_NODE_FLAGS, startBackend } from './lib/processes';
import { measureSocketLoad } from './lib/socket-run';
import { scratchDatabase } from './lib/scratch-db';
import { printTable, writeReport, type Row } from './lib/report';
import { round } from './lib/stats';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const HTTP_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 10);
// The 2,000 players, and 1,000 beside it to show where the machine stops keeping up.
const SOCKET_PLAYERS = (process.env.BENCH_SOCKET_PLAYERS ?? '2000,1000').split(',').map(Number);
const SOCKET_SECONDS = Number(process.env.BENCH_SOCKET_SECONDS ?? 20);
const HTTP_PLAYERS = 1000;
// A fixed number of taps, so that every request sent is answered and counted before (4).
const HTTP_TAPS = Number(process.env.BENCH_HTTP_TAPS ?? 40_000);

async function main() {
  const scratch = await scratchDatabase(DATABASE_URL);
  const id = scratch.name;
  const dbUrl = scratch.url;
  const rows: Row[] = [];

  console.log('1/4 ceiling: bare Node HTTP handler');
  const ceiling = await measureCeiling('(1) ceiling: bare Node JSON POST', {
    path: '/tap',
    connections: CONNECTIONS,
    seconds: HTTP_SECONDS,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId: 'x', sessionId: 'y', pointsPerTap: 1 }),
  });
  rows.push(ceiling);

  const nodeArgs = [
    ...SERVER_NODE_FLAGS,
    ...MEMORY_PROBE_FLAGS,
    ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
  ];
  const app = await startBackend(
    id,
    {
      DATABASE_URL: dbUrl,
      REDIS_URL,
      REDIS_PREFIX: id,
      // The anti-cheat limit would refuse a load generator's taps; the benchmark lifts it explicitly.
      TAP_RATE_PER_SECOND: '1000000',
      TAP_BURST: '1000000',
    },
    nodeArgs,
  );
  let acknowledged = 0;
  const redisInfo = new Redis(REDIS_URL);
  try {
    console.log('2/4 POST /api/tap');
    const httpPlayers = await createPlayers(app.url, HTTP_PLAYERS, 'h');
    // Each player's request made once: the load generator shares the machine with the server.
    const tapRequests = httpPlayers.map((p) => ({
      headers: { 'content-type': 'application/json', cookie: p.cookie },
      body: JSON.stringify({ userId: p.userId, sessionId: p.sessionId, pointsPerTap: 1 }),
    }));
    let next = 0;
    const tap = await cannon({
      connections: CONNECTIONS,
      url: `${app.url}/api/tap`,
      amount: HTTP_TAPS,
      method: 'POST',
      requests: [
        {
          setupRequest: (req) => ({ ...req, ...tapRequests[next++ % tapRequests.length] }),
        },
      ],
    });
    acknowledged += tap.ok;
    rows.push({
      name: '(2) POST /api/tap (Redis mode)',
      figures: {
        'taps/s': tap.requestsPerSecond,
        'p50 ms': tap.p50,
        'p99 ms': tap.p99,
        'ratio to (1)': round(tap.requestsPerSecond / ceiling.figures['req/s']),
        'non-2xx': tap.other,
      },
    });

    const counts = SOCKET_PLAYERS.sort((a, b) => b - a);
    const players = await createPlayers(app.url, counts[0], 's');
    const probe = await createPlayer(app.url, 'probe');
    acknowledged += await boost(app.url, probe, 20_000);
    for (const count of counts) {
      console.log(`3/4 Socket.IO: ${count} players tapping 10 a second`);
      const run = await measureSocketLoad({
        app,
        redis: redisInfo,
        players: players.slice(0, count),
        probe,
        seconds: SOCKET_SECONDS,
      });
      rows.push(...run.rows);
      acknowledged += run.accepted;
    }

    console.log('4/4 nothing lost: acknowledged taps against Postgres after the flush');
    await new Promise((r) => setTimeout(r, 3000));
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    const { rows: sums } = await db.query<{ taps: string }>(
      'SELECT COALESCE(sum(total_taps), 0) AS taps FROM game_users',
    );
    await db.end();
    const stored = Number(sums[0].taps);
    rows.push({
      name: '(4) acknowledged taps = Postgres totals',
      figures: {
        acknowledged,
        'in Postgres': stored,
        equal: acknowledged === stored ? 'yes' : 'NO',
      },
    });
  } finally {
    await app.stop();
    await redisInfo.quit();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${id}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await scratch.drop();
  }

  printTable(rows);
  writeReport('game', 'Tap game', 'npm run bench', rows, [
    `${CONNECTIONS} connections; (1) runs ${HTTP_SECONDS} s, (2) sends ${HTTP_TAPS} taps from ${HTTP_PLAYERS} players in rotation; the anti-cheat rate is lifted for the load generator.`,
    `(3): each simulated player sends its taps every ${TAP_BATCH_WINDOW_MS} ms whether or not the last batch was answered, as the game screen does, numbering its batches; the players speak the Socket.IO protocol through a lean client (bench/lib/light-socket.ts) that does not decode pushes it does not read, so that the load generator leaves the server as much of the machine as it can.`,
    'Push latency: a probe player taps every 500 ms over socket.io-client; a watching socket.io-client times the first push that shows the tap (pushes are coalesced to one a second).',
    'Memory per connection: the server heap and external memory after a full collection with every player connected, minus the same before they connected, divided by the players.',
  ]);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
