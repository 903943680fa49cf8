// The game benchmark: ceiling, POST /api/tap, the Socket.IO channel, and nothing lost.
import { TAP_BATCH_WINDOW_MS } from '@tapgram/shared';
import { Redis } from 'ioredis';
import pg from 'pg';
import { boost, connectAll, createPlayer, createPlayers, runSocketLoad } from './lib/game-load';
import { cannon } from './lib/http-load';
import { SERVER_NODE_FLAGS, startChild } from './lib/processes';
import { scratchDatabase } from './lib/scratch-db';
import { printTable, writeReport, type Row } from './lib/report';
import { round } from './lib/stats';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const HTTP_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 10);
const SOCKET_PLAYERS = Number(process.env.BENCH_SOCKET_PLAYERS ?? 2000);
const SOCKET_SECONDS = Number(process.env.BENCH_SOCKET_SECONDS ?? 20);
const HTTP_PLAYERS = 1000;
// A fixed number of taps, so that every request sent is answered and counted before (4).
const HTTP_TAPS = Number(process.env.BENCH_HTTP_TAPS ?? 40_000);

async function main() {
  const scratch = await scratchDatabase(DATABASE_URL);
  const id = scratch.name;
  const dbUrl = scratch.url;
  const rows: Row[] = [];

  const ceiling = await startChild(
    [...SERVER_NODE_FLAGS, '--import', 'tsx', 'bench/ceiling-server.ts'],
    {},
  );
  console.log('1/4 ceiling: bare Node HTTP handler');
  const bare = await cannon({
    connections: CONNECTIONS,
    seconds: HTTP_SECONDS,
    url: `${ceiling.url}/tap`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId: 'x', sessionId: 'y', pointsPerTap: 1 }),
  });
  await ceiling.stop();
  rows.push({
    name: '(1) ceiling: bare Node JSON POST',
    figures: { 'req/s': bare.requestsPerSecond, 'p50 ms': bare.p50, 'p99 ms': bare.p99 },
  });

  const nodeArgs = [
    ...SERVER_NODE_FLAGS,
    ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
  ];
  const app = await startChild([...nodeArgs, '--import', 'tsx', 'backend/src/main.ts'], {
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: dbUrl,
    REDIS_URL,
    REDIS_PREFIX: id,
    LOG_LEVEL: 'warn',
    DATA_DIR: `/tmp/${id}`,
    // The anti-cheat limit would refuse a load generator's taps; the benchmark lifts it explicitly.
    TAP_RATE_PER_SECOND: '1000000',
    TAP_BURST: '1000000',
  });
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
        'ratio to (1)': round(tap.requestsPerSecond / bare.requestsPerSecond),
        'non-2xx': tap.other,
      },
    });

    console.log(`3/4 Socket.IO: ${SOCKET_PLAYERS} players tapping 10 a second`);
    const players = await createPlayers(app.url, SOCKET_PLAYERS, 's');
    const probe = await createPlayer(app.url, 'probe');
    acknowledged += await boost(app.url, probe, 20_000);
    global.gc?.();
    await new Promise((r) => setTimeout(r, 2000));
    const rssBefore = app.rssMb();
    const sockets = await connectAll(app.url, players);
    await new Promise((r) => setTimeout(r, 3000));
    const rssConnected = app.rssMb();
    const redisCpu = async () => {
      const info = await redisInfo.info('cpu');
      const read = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
      return read('used_cpu_user') + read('used_cpu_sys');
    };
    const cpuBefore = {
      server: app.cpuSeconds(),
      redis: await redisCpu(),
      loader: process.cpuUsage(),
    };
    const load = await runSocketLoad({
      url: app.url,
      players,
      sockets,
      probe,
      tapsPerSecond: 10,
      batchMs: TAP_BATCH_WINDOW_MS,
      seconds: SOCKET_SECONDS,
    });
    const loader = process.cpuUsage(cpuBefore.loader);
    const cpu = {
      server: app.cpuSeconds() - cpuBefore.server,
      redis: (await redisCpu()) - cpuBefore.redis,
      loader: (loader.user + loader.system) / 1e6,
    };
    for (const socket of sockets) socket.close();
    acknowledged += load.accepted;
    rows.push({
      name: `(3) Socket.IO, ${SOCKET_PLAYERS} players x 10 taps/s in ${TAP_BATCH_WINDOW_MS} ms batches (the game screen's window)`,
      figures: {
        'taps/s': round(load.tapsPerSecond, 0),
        'ack p50 ms': round(load.ack.p50),
        'ack p99 ms': round(load.ack.p99),
        'push p99 ms': round(load.push.p99),
        'push samples': load.push.count,
        'server KB/connection': round(((rssConnected - rssBefore) * 1024) / SOCKET_PLAYERS, 1),
        refused: load.refused,
      },
    });
    const seconds = SOCKET_SECONDS + 2.5;
    rows.push({
      name: '(3) where the 2 cores went during (3)',
      figures: {
        'server %': round((cpu.server / seconds) * 100, 0),
        'redis %': round((cpu.redis / seconds) * 100, 0),
        'load generator %': round((cpu.loader / seconds) * 100, 0),
      },
    });

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
    'Push latency: a probe player taps every 500 ms; a watching client times the first leaderboard push that shows the tap (pushes are coalesced to one a second).',
    'Memory per connection: server RSS with every player connected minus RSS before, divided by the players.',
  ]);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
