// The reconnect storm: N players connected and tapping as the game screen does, then every socket
// cut at once, in two ways: a graceful restart of the server (SIGTERM, then a new process on the
// same port), and every client dropping and coming back with the server up. Reports the time until
// 99 % of the players are reconnected and resynced (the boards' snapshot in), the acknowledgement
// latency during the storm, the handshakes and taps refused 503 (admission control), the server's
// memory and CPU, and whether the acknowledged taps are Postgres's totals afterwards.
//
// Environment (defaults in brackets):
//   BENCH_STORM_PLAYERS [2000,5000,10000]  players per run
//   BENCH_STORM_MODES [restart,drop]       the cuts measured (also: kill, a kill -9 of the server
//                                          and a new process on the same port and data)
//   BENCH_STORM_STORAGE [services]         services: Postgres and Redis; embedded: the embedded
//                                          Postgres of `npm start` (no DATABASE_URL nor REDIS_URL)
//   BENCH_STORM_SECONDS [40]               tapping time of each run; the cut comes after 5 s
//   BENCH_PLAYERS_PER_PROCESS [5000]       players per load-generator process
//   BENCH_STORM_LAG_MS [unset]             ADMIT_EVENT_LOOP_LAG_MS of the server (its default unset)
//   BENCH_STORM_DEBUG [unset]              also prints the players' taps as Redis holds them
// A smoke run: BENCH_STORM_PLAYERS=200 BENCH_STORM_SECONDS=12 npx tsx bench/reconnect-storm.bench.ts
// The embedded database killed under 200 players: BENCH_STORM_STORAGE=embedded
//   BENCH_STORM_PLAYERS=200 BENCH_STORM_MODES=kill,restart npx tsx bench/reconnect-storm.bench.ts
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createPlayers } from './lib/game-load';
import { PROTOCOLS } from './lib/load-protocols';
import { SERVER_NODE_FLAGS, startBackend, type Child } from './lib/processes';
import { printTable, writeReport, type Row } from './lib/report';
import { scratchDatabase } from './lib/scratch-db';
import { mergeInto, round, summarizeHistogram, type Histogram } from './lib/stats';
import type { FromStorm, ToStorm } from './lib/storm-worker';
import { WorkerProcess } from './lib/worker-process';

const numbers = (value: string) => value.split(',').filter(Boolean).map(Number);
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PLAYERS = numbers(process.env.BENCH_STORM_PLAYERS ?? '2000,5000,10000');
const MODES = (process.env.BENCH_STORM_MODES ?? 'restart,drop').split(',') as Mode[];
const SECONDS = Number(process.env.BENCH_STORM_SECONDS ?? 40);
const CUT_AFTER_SECONDS = 5;
const PLAYERS_PER_PROCESS = Number(process.env.BENCH_PLAYERS_PER_PROCESS ?? 5000);
const WORKER = fileURLToPath(new URL('./lib/storm-worker.ts', import.meta.url));

type Mode = 'restart' | 'kill' | 'drop';
type Storage = 'services' | 'embedded';
const STORAGE: Storage = process.env.BENCH_STORM_STORAGE === 'embedded' ? 'embedded' : 'services';
const CUTS: Record<Mode, string> = {
  restart: 'graceful restart of the server',
  kill: 'kill -9 of the server, then a new one',
  drop: 'every client drops, server up',
};

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Postgres's sum of the players' taps, once it holds at least `acknowledged` and is steady: read
 * from the database, or for the embedded one (which only its server opens) from the server's API,
 * whose totals are the database's there.
 */
async function storedTaps(
  where: { dbUrl: string } | { apiUrl: string },
  ids: string[],
  acknowledged: number,
): Promise<number> {
  const db = 'dbUrl' in where ? new pg.Client({ connectionString: where.dbUrl }) : null;
  await db?.connect();
  const read = async () => {
    if (db) {
      const { rows } = await db.query<{ taps: string }>(
        'SELECT COALESCE(sum(total_taps), 0) AS taps FROM game_users WHERE id = ANY($1)',
        [ids],
      );
      return Number(rows[0].taps);
    }
    const { apiUrl } = where as { apiUrl: string };
    let sum = 0;
    for (const id of ids) {
      const res = await fetch(`${apiUrl}/api/users/${id}`);
      sum += ((await res.json()) as { totalTaps: number }).totalTaps;
    }
    return sum;
  };
  try {
    const deadline = Date.now() + 60_000;
    let previous = -1;
    for (;;) {
      const stored = await read();
      if ((stored >= acknowledged && stored === previous) || Date.now() > deadline) return stored;
      previous = stored;
      await new Promise((r) => setTimeout(r, 2000));
    }
  } finally {
    await db?.end();
  }
}

/** Seconds from `since` until the server's /readyz answers 200 within a second. */
async function readyAfter(url: string, since: number): Promise<number> {
  for (;;) {
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return (Date.now() - since) / 1000;
    } catch {
      // Not yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function storm(
  mode: Mode,
  count: number,
  env: Record<string, string>,
  dbUrl: string | null,
  id: string,
): Promise<Row> {
  const port = await freePort();
  const serverEnv = { ...env, PORT: String(port) };
  let app: Child = await startBackend(id, serverEnv, SERVER_NODE_FLAGS);
  const players = await createPlayers(app.url, count, `${mode[0]}${count}`);
  const loaders = Array.from(
    { length: Math.ceil(count / PLAYERS_PER_PROCESS) },
    () => new WorkerProcess<ToStorm, FromStorm>(WORKER),
  );
  try {
    await Promise.all(
      loaders.map((loader, k) =>
        loader.request(
          {
            kind: 'connect',
            url: app.url,
            auth: PROTOCOLS.compact.auth ?? {},
            players: players
              .filter((_, i) => i % loaders.length === k)
              .map((p) => ({ cookie: p.cookie, sessionId: p.sessionId })),
          },
          'connected',
        ),
      ),
    );
    const running = Promise.all(
      loaders.map((loader) => loader.request({ kind: 'run', seconds: SECONDS }, 'done')),
    );
    await new Promise((r) => setTimeout(r, CUT_AFTER_SECONDS * 1000));

    const cutAt = Date.now();
    let cpuBefore = app.cpuSeconds();
    let cpuSeconds = 0;
    let peakRssMb = app.rssMb();
    /** From SIGTERM (or kill -9) until the new process serves, and until it says it is ready. */
    let downSeconds = 0;
    let readySeconds = 0;
    if (mode === 'restart' || mode === 'kill') {
      for (const loader of loaders) loader.tell({ kind: 'cut', at: cutAt });
      await (mode === 'kill' ? app.kill() : app.stop());
      app = await startBackend(id, serverEnv, SERVER_NODE_FLAGS);
      downSeconds = (Date.now() - cutAt) / 1000;
      readySeconds = await readyAfter(app.url, cutAt);
      cpuBefore = 0;
    } else {
      for (const loader of loaders) loader.tell({ kind: 'drop', at: cutAt });
    }
    const sampler = setInterval(() => {
      try {
        peakRssMb = Math.max(peakRssMb, app.rssMb());
      } catch {
        // Between two processes.
      }
    }, 250);
    const done = (await running).filter((d) => d.kind === 'done');
    clearInterval(sampler);
    cpuSeconds = app.cpuSeconds() - cpuBefore;
    const elapsed = (Date.now() - cutAt) / 1000;

    const resynced = done.flatMap((d) => d.resyncedAfterMs);
    const never = resynced.filter((ms) => ms < 0).length;
    const sorted = resynced.filter((ms) => ms >= 0).sort((a, b) => a - b);
    const ninetyNine =
      sorted.length >= Math.ceil(count * 0.99) ? sorted[Math.ceil(count * 0.99) - 1] : NaN;
    const stormAcks: Histogram = new Map();
    for (const d of done) mergeInto(stormAcks, d.stormAcks);
    const ack = summarizeHistogram(stormAcks);
    const peakAck = Math.max(0, ...[...stormAcks.keys()]);
    const acknowledged = done.reduce((n, d) => n + d.accepted, 0);
    const unacknowledged = done.reduce((n, d) => n + d.unacknowledgedTaps, 0);
    const sum = (key: 'handshakes503' | 'handshakesFailed' | 'taps503') =>
      done.reduce((n, d) => n + d[key], 0);
    const stored = await storedTaps(
      dbUrl ? { dbUrl } : { apiUrl: app.url },
      players.map((p) => p.userId),
      acknowledged,
    );
    if (process.env.BENCH_STORM_DEBUG) {
      const redis = new Redis(REDIS_URL);
      const taps = await Promise.all(
        players.map((p) => redis.hget(`${id}:game:user:${p.userId}`, 'taps')),
      );
      console.log(
        'redis taps',
        taps.reduce((n, t) => n + Number(t ?? 0), 0),
      );
      await redis.quit();
    }
    return {
      name: `(6) reconnect storm, ${count} players, ${CUTS[mode]}${STORAGE === 'embedded' ? ', embedded database' : ''}`,
      figures: {
        'server down s': round(downSeconds, 1),
        'ready s': round(readySeconds, 1),
        // Not reached within the run: said so, not a number.
        '99 % resynced s': Number.isNaN(ninetyNine)
          ? `not within ${round(elapsed, 0)}`
          : round(ninetyNine / 1000, 1),
        'last resynced s': round((sorted.at(-1) ?? NaN) / 1000, 1),
        'never resynced': never,
        'ack p50 ms': ack.p50,
        'ack p99 ms': ack.p99,
        'ack peak ms': round(peakAck, 0),
        'handshakes 503': sum('handshakes503'),
        'handshakes failed': sum('handshakesFailed'),
        'taps 503': sum('taps503'),
        'server peak RSS MB': round(peakRssMb, 0),
        'server CPU %': round((cpuSeconds / elapsed) * 100, 0),
        acknowledged,
        'in Postgres': stored,
        'never acknowledged': unacknowledged,
        'nothing lost':
          stored >= acknowledged && stored <= acknowledged + unacknowledged ? 'yes' : 'NO',
      },
    };
  } finally {
    await Promise.all(loaders.map((loader) => loader.close()));
    await app.stop();
  }
}

async function main() {
  const scratch = await scratchDatabase(DATABASE_URL);
  const rows: Row[] = [];
  const loadAtStart = os.loadavg()[0];
  const env = {
    ...(STORAGE === 'services'
      ? { DATABASE_URL: scratch.url, REDIS_URL, REDIS_PREFIX: scratch.name }
      : {}),
    // The anti-cheat limit would refuse a load generator's taps; lifted, as in the game bench.
    TAP_RATE_PER_SECOND: '1000000',
    TAP_BURST: '1000000',
    // Every simulated player connects from the load generator's one address; admission control
    // (ADMIT_*) stays at its defaults: its refusals are what this measures.
    NEW_SOCKETS_PER_MINUTE: '1000000',
    NEW_SOCKETS_BURST: '1000000',
    SOCKETS_PER_ADDRESS: '1000000',
    ...(process.env.BENCH_STORM_LAG_MS
      ? { ADMIT_EVENT_LOOP_LAG_MS: process.env.BENCH_STORM_LAG_MS }
      : {}),
  };
  try {
    for (const count of PLAYERS) {
      for (const mode of MODES) {
        console.log(`reconnect storm: ${count} players, ${mode}`);
        const row = await storm(
          mode,
          count,
          env,
          STORAGE === 'services' ? scratch.url : null,
          scratch.name,
        );
        printTable([row]);
        rows.push(row);
      }
    }
  } finally {
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${scratch.name}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await scratch.drop();
    // The embedded database's files (startBackend's DATA_DIR).
    fs.rmSync(`/tmp/${scratch.name}`, { recursive: true, force: true });
  }
  printTable(rows);
  const report =
    STORAGE === 'embedded'
      ? ([
          'reconnect-storm-embedded',
          'Reconnect storms on the embedded database',
          `BENCH_STORM_STORAGE=embedded BENCH_STORM_PLAYERS=${PLAYERS.join(',')} BENCH_STORM_MODES=${MODES.join(',')} npx tsx bench/reconnect-storm.bench.ts`,
        ] as const)
      : (['reconnect-storm', 'Reconnect storms', 'npm run bench'] as const);
  writeReport(report[0], report[1], report[2], rows, [
    `(6): ${STORAGE === 'embedded' ? 'on the embedded Postgres of `npm start` (no DATABASE_URL nor REDIS_URL); ' : ''}each player taps 10 a second in one numbered batch a second (the game screen's compact protocol, following the top 100) for ${SECONDS} s; ${CUT_AFTER_SECONDS} s in, every socket is cut at once. "graceful restart": SIGTERM to the server, then a new process on the same port (the players' connections closed by the server, not by a disconnect packet); "kill -9": SIGKILL to the server and its workers, then a new process on the same port and data; "ready s": from the cut until the new process's /readyz answers 200 within a second; "every client drops": each player's connection terminated by the client, the server up. Each player comes back as socket.io-client does (1 s × 2^attempt, at most 5 s, ±50 %), and is resynced when the boards' snapshot of its new handshake arrives; then its batches not acknowledged go again under their numbers.`,
    'Ack latency during the storm: acknowledgements that arrived after the cut, each from the batch\'s last sending. "handshakes 503" and "taps 503" are admission control\'s refusals (ADMIT_* at their defaults), each retried after a jittered wait. Server RSS and CPU: the serving process after the cut (for a restart, the new one from its start), sampled every 250 ms and from /proc; 100 % is one core.',
    '"nothing lost": Postgres holds every acknowledged tap, and no more than those plus the taps of batches never acknowledged.',
    `The machine's 1-minute load average was ${round(loadAtStart)} at the start and ${round(os.loadavg()[0])} at the end, on ${os.cpus().length} cores (the benchmark's own processes included).`,
  ]);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
