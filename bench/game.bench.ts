// The game benchmark: ceiling, POST /api/tap, the Socket.IO channel at several player counts with
// one and more backend workers, and nothing lost.
//
// Environment (defaults in brackets), for a quick step: BENCH_PLAYERS=2000 BENCH_WORKERS=1 ...
//   BENCH_PLAYERS [2000,5000,10000]  players tapping 10 a second over the game channel
//   BENCH_WORKERS [1,2]              WEB_CONCURRENCY of the server, one server per value
//   BENCH_BASELINE_PLAYERS [2000,5000 of BENCH_PLAYERS]  the same in the former protocol (1 worker;
//                                    BENCH_PLAYERS= BENCH_BASELINE_PLAYERS=3500 runs that alone)
//   BENCH_SOCKET_SECONDS [20]        length of each socket run
//   BENCH_PLAYERS_PER_PROCESS [5000] players per load-generator process
//   BENCH_HTTP [1]                   0 leaves out the ceiling and POST /api/tap
//   BENCH_ANCHOR [1]                 0 leaves out the bare ws anchor (5) run beside each compact run
//   BENCH_PROFILE [0] (or --profile) CPU profiles of the servers (node --cpu-prof) under
//                                    bench/results/profiles/, summarised over the socket runs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import {
  monotonicMicros,
  printProfile,
  profileFiles,
  summarizeProfiles,
  type ProfileSummary,
  type Window,
} from './lib/cpu-profile';
import { boost, createPlayer, createPlayers, type BenchPlayer } from './lib/game-load';
import { cannon, measureCeiling } from './lib/http-load';
import { PROTOCOLS } from './lib/load-protocols';
import {
  MEMORY_PROBE_FLAGS,
  ROOT,
  SERVER_NODE_FLAGS,
  startBackend,
  startChild,
  type Child,
} from './lib/processes';
import { printTable, writeReport, type Row } from './lib/report';
import { scratchDatabase } from './lib/scratch-db';
import { measureAnchorLoad, measureSocketLoad, redisCpuSeconds } from './lib/socket-run';
import { round } from './lib/stats';

const numbers = (value: string) => value.split(',').filter(Boolean).map(Number);
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const HTTP = process.env.BENCH_HTTP !== '0';
const ANCHOR = process.env.BENCH_ANCHOR !== '0';
const HTTP_SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 10);
const SOCKET_PLAYERS = numbers(process.env.BENCH_PLAYERS ?? '2000,5000,10000').sort(
  (a, b) => a - b,
);
const WORKERS = numbers(process.env.BENCH_WORKERS ?? '1,2');
// By default the former protocol runs beside the compact one at 2,000 and 5,000 players, when
// those are measured.
const BASELINE_PLAYERS =
  process.env.BENCH_BASELINE_PLAYERS === undefined
    ? [2000, 5000].filter((n) => SOCKET_PLAYERS.includes(n))
    : numbers(process.env.BENCH_BASELINE_PLAYERS);
const ALL_PLAYERS = [...new Set([...SOCKET_PLAYERS, ...BASELINE_PLAYERS])].sort((a, b) => a - b);
const SOCKET_SECONDS = Number(process.env.BENCH_SOCKET_SECONDS ?? 20);
const PLAYERS_PER_PROCESS = Number(process.env.BENCH_PLAYERS_PER_PROCESS ?? 5000);
const PROFILE = process.env.BENCH_PROFILE === '1' || process.argv.includes('--profile');
const HTTP_PLAYERS = 1000;
// A fixed number of taps, so that every request sent is answered and counted before (4).
const HTTP_TAPS = Number(process.env.BENCH_HTTP_TAPS ?? 40_000);

/**
 * Postgres's sum of taps once the server has settled: at least `acknowledged`, and unchanged over
 * two flush intervals (a saturated server may still be counting taps it was sent), or after 120 s.
 */
async function storedTaps(dbUrl: string, acknowledged: number): Promise<number> {
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  try {
    const deadline = Date.now() + 120_000;
    let previous = -1;
    for (;;) {
      const { rows } = await db.query<{ taps: string }>(
        'SELECT COALESCE(sum(total_taps), 0) AS taps FROM game_users',
      );
      const stored = Number(rows[0].taps);
      if ((stored >= acknowledged && stored === previous) || Date.now() > deadline) return stored;
      previous = stored;
      await new Promise((r) => setTimeout(r, 2000));
    }
  } finally {
    await db.end();
  }
}

const workersLabel = (n: number) => `${n} worker${n === 1 ? '' : 's'}`;

async function main() {
  const scratch = await scratchDatabase(DATABASE_URL);
  const id = scratch.name;
  const dbUrl = scratch.url;
  const rows: Row[] = [];
  const notes: string[] = [];
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const profileDir = path.join(ROOT, 'bench/results/profiles', stamp);
  /** When each measured step ran, by step, to read the servers' profiles over each. */
  const profileWindows = new Map<string, Window[]>();
  const measured = async <T>(step: string, run: () => Promise<T>): Promise<T> => {
    const from = monotonicMicros();
    try {
      return await run();
    } finally {
      profileWindows.set(step, [
        ...(profileWindows.get(step) ?? []),
        { from, to: monotonicMicros() },
      ]);
    }
  };
  const loadAtStart = os.loadavg()[0];

  let ceilingRps = NaN;
  if (HTTP) {
    console.log('1/4 ceiling: bare Node HTTP handler');
    const ceiling = await measureCeiling('(1) ceiling: bare Node JSON POST', {
      path: '/tap',
      connections: CONNECTIONS,
      seconds: HTTP_SECONDS,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: 'x', sessionId: 'y', pointsPerTap: 1 }),
    });
    ceilingRps = ceiling.figures['req/s'];
    rows.push(ceiling);
  }

  const nodeArgs = [
    ...SERVER_NODE_FLAGS,
    ...MEMORY_PROBE_FLAGS,
    ...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
  ];
  const start = (workers: number) =>
    startBackend(
      id,
      {
        DATABASE_URL: dbUrl,
        REDIS_URL,
        REDIS_PREFIX: id,
        WEB_CONCURRENCY: String(workers),
        // The anti-cheat limit would refuse a load generator's taps; the benchmark lifts it explicitly.
        TAP_RATE_PER_SECOND: '1000000',
        TAP_BURST: '1000000',
        // Every simulated player connects from the load generator's one address.
        NEW_SOCKETS_PER_MINUTE: '1000000',
        NEW_SOCKETS_BURST: '1000000',
        SOCKETS_PER_ADDRESS: '1000000',
        // The players connect all at once before the measured window (which admission control
        // would spread over seconds, refusing the load generator's first handshakes); the taps'
        // admission (waiting taps, event-loop lag) stays at its defaults.
        ADMIT_NEW_SOCKETS_PER_SECOND: '1000000',
      },
      nodeArgs,
    );

  let acknowledged = 0;
  let unanswered = 0;
  const redisInfo = new Redis(REDIS_URL);
  const anchor: Child | null = ANCHOR
    ? await startChild([...SERVER_NODE_FLAGS, '--import', 'tsx', 'bench/ws-anchor-server.ts'], {})
    : null;
  let app = await start(WORKERS[0]);
  try {
    const players = await createPlayers(app.url, ALL_PLAYERS.at(-1) ?? 0, 's');
    const httpPlayers = HTTP ? await createPlayers(app.url, HTTP_PLAYERS, 'h') : [];
    const probe = await createPlayer(app.url, 'probe');
    acknowledged += await boost(app.url, probe, 20_000);

    for (const [w, workers] of WORKERS.entries()) {
      if (w > 0) app = await start(workers);
      const processes = app.pids().length - 1;
      const setup = workersLabel(workers);
      if (workers > 1 && processes < workers) {
        notes.push(
          `With WEB_CONCURRENCY=${workers} the server ran ${processes || 1} process(es) serving players: this server does not honour WEB_CONCURRENCY yet, so its rows measure one process.`,
        );
      }
      // Every acknowledged tap must be in Postgres; a batch left unanswered (30 s) or answered 503/504
      // may or may not have been counted (the game screen sends it again, counted once), so that
      // only then may Postgres hold more.
      const settle = async (run: string) => {
        const stored = await storedTaps(dbUrl, acknowledged);
        const lost = Math.max(0, acknowledged - stored);
        const unexplained = stored - acknowledged - unanswered;
        rows.push({
          name: `(4) acknowledged taps = Postgres totals, after ${run}`,
          figures: {
            acknowledged,
            'in Postgres': stored,
            'unanswered, 503 or 504': unanswered,
            'nothing lost': lost === 0 && unexplained <= 0 ? 'yes' : `NO (${lost} lost)`,
          },
        });
      };

      if (HTTP) {
        console.log(`2/4 POST /api/tap, ${setup}`);
        const http = await measured(`POST /api/tap, ${setup}`, () =>
          tapOverHttp(app, httpPlayers, { setup, ceilingRps, redis: redisInfo }, rows),
        );
        acknowledged += http.ok;
        // Errors and timeouts: the tap may have been counted.
        unanswered += http.other;
        await settle(`POST /api/tap, ${setup}`);
      }
      for (const count of ALL_PLAYERS) {
        const protocols = [];
        if (workers === 1 && BASELINE_PLAYERS.includes(count)) protocols.push(PROTOCOLS.baseline);
        if (SOCKET_PLAYERS.includes(count)) protocols.push(PROTOCOLS.compact);
        for (const protocol of protocols) {
          // The anchor at the same count, just before the game server's run, in the same window.
          let anchorMicros: number | undefined;
          if (anchor && protocol === PROTOCOLS.compact && workers === 1) {
            console.log(`3/4 anchor: bare ws server, ${count} players`);
            const measuredAnchor = await measureAnchorLoad({
              anchor,
              players: count,
              seconds: SOCKET_SECONDS,
              protocol,
              processes: Math.ceil(count / PLAYERS_PER_PROCESS),
            });
            rows.push(measuredAnchor.row);
            anchorMicros = measuredAnchor.cpuMicrosPerPlayerSecond;
          }
          console.log(
            `3/4 Socket.IO: ${count} players tapping 10 a second, ${setup}, ${protocol.name}`,
          );
          const run = await measured(
            `Socket.IO, ${count} players, ${setup}, ${protocol.name}`,
            () =>
              measureSocketLoad({
                app,
                redis: redisInfo,
                players: players.slice(0, count),
                probe,
                seconds: SOCKET_SECONDS,
                protocol,
                processes: Math.ceil(count / PLAYERS_PER_PROCESS),
                setup,
              }),
          );
          rows.push(...run.rows);
          if (anchorMicros !== undefined) {
            rows.push({
              name: `(5) server CPU per player-second, ${count} players: game server / anchor`,
              figures: {
                'game µs': run.cpuMicrosPerPlayerSecond,
                'anchor µs': anchorMicros,
                ratio: round(run.cpuMicrosPerPlayerSecond / anchorMicros),
              },
            });
          }
          acknowledged += run.accepted;
          unanswered += run.unknown;
          console.log(`   settling: acknowledged taps against Postgres`);
          await settle(`${count} players, ${setup}, ${protocol.name}`);
        }
      }
      await app.stop();
    }
  } finally {
    await app.stop();
    await anchor?.stop();
    await redisInfo.quit();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${id}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await scratch.drop();
  }

  // Other work on the machine moves every figure: the run says how busy the machine was.
  notes.push(
    `The machine's 1-minute load average was ${round(loadAtStart)} at the start and ${round(os.loadavg()[0])} at the end, on ${os.cpus().length} cores (the benchmark's own processes included).`,
  );
  printTable(rows);
  if (PROFILE) reportProfile(profileDir, profileWindows, stamp);
  writeReport('game', 'Tap game', 'npm run bench', rows, [
    `${CONNECTIONS} connections; (1) runs ${HTTP_SECONDS} s, (2) sends ${HTTP_TAPS} taps from ${HTTP_PLAYERS} players, each connection for its own players in rotation, every request built once before the run as (1)'s is; the anti-cheat rate is lifted for the load generator. "CPU µs/req": CPU time (user + system) per answer of the server (its process and workers, /proc), redis-server (INFO cpu) and the load generator (the benchmark process), over the run.`,
    `(3): each simulated player sends its taps every window whether or not the last batch was answered, as the game screen does, numbering its batches, for ${SOCKET_SECONDS} s; "${PROTOCOLS.compact.label}" is the game screen now (it follows the top 100 as deltas), "${PROTOCOLS.baseline.label}" the game screen before, run in the same run on the same server. The players speak the Socket.IO protocol through a lean client (bench/lib/light-socket.ts) that does not decode pushes it does not read, from one load-generator process per ${PLAYERS_PER_PROCESS} players.`,
    '(5): the anchor is bench/ws-anchor-server.ts, a bare `ws` server doing the least the game channel must do for a player (one batch in, one acknowledgement of the compact size out, one 1.9 KB board delta out a second), driven by the same load generator at the same count just before the game server\'s compact run; "µs" is server CPU (user + system, /proc) per player per second of the run, and the ratio game / anchor is what the game channel costs above the least.',
    'Push latency: a probe player taps every 500 ms; a watching client of the same protocol times the first push that shows the tap (pushes are coalesced to one a second).',
    'Memory per connection: the heap and external memory of the processes holding the sockets, after a full collection with every player connected, minus the same before they connected, divided by the players.',
    'CPU: "server %" adds up the server process and its workers (from /proc), "redis %" is redis-server (INFO cpu), "load generator %" the benchmark process and its load processes; "machine busy %" is the whole machine (/proc/stat: other work and the kernel included), of which "softirq %" is the kernel\'s network work and "steal %" time the hypervisor gave elsewhere; 100 % is one core.',
    ...notes,
  ]);
}

/** (2): POST /api/tap from `players` in rotation; answers the taps counted, and the others. */
async function tapOverHttp(
  { url, cpuSeconds }: Pick<Child, 'url' | 'cpuSeconds'>,
  players: BenchPlayer[],
  run: { setup: string; ceilingRps: number; redis: Redis },
  rows: Row[],
): Promise<{ ok: number; other: number }> {
  const { setup, ceilingRps, redis } = run;
  // Each connection taps for its own share of the players, its requests built once before the
  // run (as the ceiling's one request is): the load generator shares the machine with the server,
  // and building each request as it goes cost it three times the ceiling's CPU per request. No
  // two connections tap for the same player, whose batches are counted one after another.
  const shares = Array.from({ length: CONNECTIONS }, (_, c) =>
    players.filter((_, i) => i % CONNECTIONS === c),
  );
  let clients = 0;
  const serverBefore = cpuSeconds();
  const redisBefore = await redisCpuSeconds(redis);
  const tap = await cannon({
    connections: CONNECTIONS,
    url: `${url}/api/tap`,
    amount: HTTP_TAPS,
    method: 'POST',
    setupClient: (client) => {
      const share = shares[clients++ % shares.length];
      client.setRequests(
        share.map((p) => ({
          method: 'POST',
          path: '/api/tap',
          headers: { 'content-type': 'application/json', cookie: p.cookie },
          body: JSON.stringify({ userId: p.userId, sessionId: p.sessionId, pointsPerTap: 1 }),
        })),
      );
    },
  });
  const perTap = (seconds: number) => round((seconds * 1e6) / Math.max(1, tap.answers), 1);
  rows.push({
    name: `(2) POST /api/tap (Redis mode), ${setup}`,
    figures: {
      'taps/s': tap.requestsPerSecond,
      'p50 ms': tap.p50,
      'p99 ms': tap.p99,
      'ratio to (1)': round(tap.requestsPerSecond / ceilingRps),
      'non-2xx': tap.other,
      'server CPU µs/req': perTap(cpuSeconds() - serverBefore),
      'redis CPU µs/req': perTap((await redisCpuSeconds(redis)) - redisBefore),
      'load generator CPU µs/req': tap.loadMicros,
    },
  });
  return { ok: tap.ok, other: tap.other };
}

/** Where the servers' time went in each measured step, from their CPU profiles. */
function reportProfile(dir: string, steps: Map<string, Window[]>, stamp: string) {
  const files = profileFiles(dir);
  if (files.length === 0) {
    console.log(`no CPU profile under ${dir}`);
    return;
  }
  const summaries: Record<string, ProfileSummary> = {};
  for (const [step, windows] of steps) {
    summaries[step] = summarizeProfiles(files, windows);
    console.log(`\nCPU profile of the server processes during ${step} (${dir}):`);
    printProfile(summaries[step]);
  }
  const data = { when: stamp, files: files.map((f) => path.relative(ROOT, f)), steps: summaries };
  const results = path.join(ROOT, 'bench/results');
  fs.writeFileSync(path.join(results, `profile-${stamp}.json`), JSON.stringify(data, null, 2));
  fs.writeFileSync(path.join(results, 'profile-latest.json'), JSON.stringify(data, null, 2));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
