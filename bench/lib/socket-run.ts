import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { lastSeq, measurePushes, type BenchPlayer } from './game-load';
import type { LoadProtocol } from './load-protocols';
import type { FromWorker, ToWorker } from './load-worker';
import { cpuSecondsOf, type Child } from './processes';
import type { Row } from './report';
import { mergeInto, round, summarizeHistogram, type Histogram } from './stats';
import { WorkerProcess } from './worker-process';

const TAPS_PER_SECOND = 10;
const WORKER = fileURLToPath(new URL('./load-worker.ts', import.meta.url));

/** The machine's CPU time so far (/proc/stat, in clock ticks): busy, kernel network work, stolen. */
function machineTicks() {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.slice(1).map(Number);
  return {
    total: user + nice + system + idle + iowait + irq + softirq + steal,
    busy: user + nice + system + irq + softirq,
    softirq,
    steal,
  };
}

/** CPU seconds redis-server has used (user + system), from INFO. */
export async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const read = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return read('used_cpu_user') + read('used_cpu_sys');
}

/**
 * The whole machine over a run, in the same unit (100 % is one core): everything busy (other work
 * and the kernel's loopback networking included), the kernel's network work (softirq), and the
 * time the hypervisor gave to other machines (steal).
 */
function machineShares(
  before: ReturnType<typeof machineTicks>,
  after: ReturnType<typeof machineTicks>,
) {
  const cores = os.cpus().length;
  const share = (ticks: number) =>
    round((ticks / Math.max(1, after.total - before.total)) * cores * 100, 0);
  return {
    'machine busy %': share(after.busy - before.busy),
    'softirq %': share(after.softirq - before.softirq),
    'steal %': share(after.steal - before.steal),
  };
}

/** CPU microseconds per player per second. */
const perPlayerSecond = (cpuSeconds: number, players: number, seconds: number) =>
  round((cpuSeconds * 1e6) / players / seconds, 1);

/** A load-generator process and the next message it sends. */
const loadProcess = () => new WorkerProcess<ToWorker, FromWorker>(WORKER);

/**
 * (3) for one number of players: every player connected, tapping 10 a second in its protocol's
 * windows for `seconds` from `processes` load-generator processes, with the probe timing pushes;
 * and where the CPU went.
 */
export async function measureSocketLoad(options: {
  app: Child;
  redis: Redis;
  players: BenchPlayer[];
  probe: BenchPlayer;
  seconds: number;
  protocol: LoadProtocol;
  processes: number;
  /** Names the server setup in the rows ("1 worker"). */
  setup: string;
}): Promise<{
  rows: Row[];
  accepted: number;
  unknown: number;
  /** The server's CPU time per player per second of the run, in microseconds. */
  cpuMicrosPerPlayerSecond: number;
}> {
  const { app, redis, players, probe, seconds, protocol, setup } = options;
  const heldBefore = await app.memory();
  const loaders = Array.from({ length: options.processes }, () => loadProcess());
  const shares = loaders.map((_, k) => players.filter((__, i) => i % loaders.length === k));
  try {
    await Promise.all(
      loaders.map((loader, k) =>
        loader.request(
          {
            kind: 'connect',
            url: app.url,
            protocol,
            players: shares[k].map((p) => ({
              cookie: p.cookie,
              sessionId: p.sessionId,
              seq: lastSeq.get(p.sessionId) ?? 0,
            })),
          },
          'connected',
        ),
      ),
    );
    await new Promise((r) => setTimeout(r, 2000));
    const heldConnected = await app.memory();
    const held = (m: NodeJS.MemoryUsage) => m.heapUsed + m.external;
    const loaderCpu = () =>
      loaders.reduce((sum, l) => sum + cpuSecondsOf(l.child.pid ?? 0), 0) +
      (process.cpuUsage().user + process.cpuUsage().system) / 1e6;
    const before = {
      server: app.cpuSeconds(),
      redis: await redisCpuSeconds(redis),
      loader: loaderCpu(),
      machine: machineTicks(),
      at: performance.now(),
    };
    // The players start together, a moment from now (their first windows spread over one window).
    const startAt = Date.now() + 200;
    const deadline = startAt + seconds * 1000;
    const [pushes, ...done] = await Promise.all([
      measurePushes({ url: app.url, probe, protocol, deadline }),
      ...loaders.map((loader) =>
        loader.request({ kind: 'run', startAt, seconds, tapsPerSecond: TAPS_PER_SECOND }, 'done'),
      ),
    ]);
    const elapsed = (performance.now() - before.at) / 1000;
    const share = (cpuSeconds: number) => round((cpuSeconds / elapsed) * 100, 0);
    const serverCpu = app.cpuSeconds() - before.server;
    const cpu = {
      'server %': share(serverCpu),
      'redis %': share((await redisCpuSeconds(redis)) - before.redis),
      'load generator %': share(loaderCpu() - before.loader),
      ...machineShares(before.machine, machineTicks()),
    };

    let accepted = pushes.accepted;
    let refused = 0;
    let unknown = pushes.unknown;
    const acks: Histogram = new Map();
    done.forEach((answer, k) => {
      if (answer.kind !== 'done') return;
      accepted += answer.accepted;
      refused += answer.refused;
      unknown += answer.unknown;
      mergeInto(acks, answer.acks);
      shares[k].forEach((p, i) => lastSeq.set(p.sessionId, answer.seqs[i]));
    });
    const ack = summarizeHistogram(acks);
    const n = players.length;
    const name = `(3) Socket.IO, ${n} players x ${TAPS_PER_SECOND} taps/s, ${setup}, ${protocol.label}`;
    return {
      accepted,
      unknown,
      cpuMicrosPerPlayerSecond: perPlayerSecond(serverCpu, n, elapsed),
      rows: [
        {
          name,
          figures: {
            'taps/s': round((accepted - pushes.accepted) / seconds, 0),
            'ack p50 ms': ack.p50,
            'ack p99 ms': ack.p99,
            'push p99 ms': pushes.push.p99,
            'push samples': pushes.push.count,
            'ack bytes': pushes.ackBytes,
            'push bytes': pushes.pushBytes,
            'server KB/connection': round((held(heldConnected) - held(heldBefore)) / 1024 / n, 1),
            refused,
            'unanswered, 503 or 504': unknown,
          },
        },
        {
          name: `(3) where the 2 cores went, ${n} players, ${setup}, ${protocol.name}`,
          figures: { ...cpu, 'load processes': loaders.length },
        },
      ],
    };
  } finally {
    await Promise.all(loaders.map((loader) => loader.close()));
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * The anchor (bench/ws-anchor-server.ts) under the same load as the game server: `players`
 * connected from `processes` load-generator processes, one batch a second each, acknowledged, and
 * one 1.9 KB delta a second each; its CPU per player-second.
 */
export async function measureAnchorLoad(options: {
  anchor: Child;
  players: number;
  seconds: number;
  protocol: LoadProtocol;
  processes: number;
}): Promise<{ cpuMicrosPerPlayerSecond: number; row: Row }> {
  const { anchor, players, seconds, protocol } = options;
  const loaders = Array.from({ length: options.processes }, () => loadProcess());
  const fake = (i: number) => ({ cookie: '', sessionId: `anchor-${i}`, seq: 0 });
  try {
    await Promise.all(
      loaders.map((loader, k) =>
        loader.request(
          {
            kind: 'connect',
            url: anchor.url,
            protocol,
            players: Array.from({ length: players }, (_, i) => i)
              .filter((i) => i % loaders.length === k)
              .map(fake),
          },
          'connected',
        ),
      ),
    );
    await new Promise((r) => setTimeout(r, 2000));
    const before = { cpu: anchor.cpuSeconds(), at: performance.now() };
    const startAt = Date.now() + 200;
    const done = await Promise.all(
      loaders.map((loader) =>
        loader.request({ kind: 'run', startAt, seconds, tapsPerSecond: TAPS_PER_SECOND }, 'done'),
      ),
    );
    const elapsed = (performance.now() - before.at) / 1000;
    const cpuSeconds = anchor.cpuSeconds() - before.cpu;
    const acks: Histogram = new Map();
    for (const answer of done) if (answer.kind === 'done') mergeInto(acks, answer.acks);
    const ack = summarizeHistogram(acks);
    const micros = perPlayerSecond(cpuSeconds, players, elapsed);
    return {
      cpuMicrosPerPlayerSecond: micros,
      row: {
        name: `(5) anchor: bare ws server, ${players} players, 1 batch + 1 ack + 1.9 KB delta a second each`,
        figures: {
          'server CPU µs/player-s': micros,
          'server %': round((cpuSeconds / elapsed) * 100, 0),
          'ack p50 ms': ack.p50,
          'ack p99 ms': ack.p99,
        },
      },
    };
  } finally {
    await Promise.all(loaders.map((loader) => loader.close()));
    await new Promise((r) => setTimeout(r, 1000));
  }
}
