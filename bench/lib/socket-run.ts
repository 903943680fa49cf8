import { TAP_BATCH_WINDOW_MS } from '@tapgram/shared';
import type { Redis } from 'ioredis';
import { connectAll, runSocketLoad, type BenchPlayer } from './game-load';
import type { Child } from './processes';
import type { Row } from './report';
import { round } from './stats';

const TAPS_PER_SECOND = 10;

async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const read = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return read('used_cpu_user') + read('used_cpu_sys');
}

/**
 * (3) for one number of players: every player connected, tapping 10 a second in the game
 * screen's windows for `seconds`, with the probe timing pushes; and where the CPU went.
 */
export async function measureSocketLoad(options: {
  app: Child;
  redis: Redis;
  players: BenchPlayer[];
  probe: BenchPlayer;
  seconds: number;
}): Promise<{ rows: Row[]; accepted: number }> {
  const { app, redis, players, probe, seconds } = options;
  const heldBefore = await app.memory();
  const sockets = await connectAll(app.url, players);
  await new Promise((r) => setTimeout(r, 2000));
  const heldConnected = await app.memory();
  const held = (m: NodeJS.MemoryUsage) => m.heapUsed + m.external;
  const before = {
    server: app.cpuSeconds(),
    redis: await redisCpuSeconds(redis),
    loader: process.cpuUsage(),
  };
  const load = await runSocketLoad({
    url: app.url,
    players,
    sockets,
    probe,
    tapsPerSecond: TAPS_PER_SECOND,
    batchMs: TAP_BATCH_WINDOW_MS,
    seconds,
  });
  const loader = process.cpuUsage(before.loader);
  const elapsed = seconds + 2.5;
  const share = (cpuSeconds: number) => round((cpuSeconds / elapsed) * 100, 0);
  const cpu = {
    'server %': share(app.cpuSeconds() - before.server),
    'redis %': share((await redisCpuSeconds(redis)) - before.redis),
    'load generator %': share((loader.user + loader.system) / 1e6),
  };
  for (const socket of sockets) socket.close();
  await new Promise((r) => setTimeout(r, 1000));

  const n = players.length;
  return {
    accepted: load.accepted,
    rows: [
      {
        name: `(3) Socket.IO, ${n} players x ${TAPS_PER_SECOND} taps/s in ${TAP_BATCH_WINDOW_MS} ms batches`,
        figures: {
          'taps/s': round(load.tapsPerSecond, 0),
          'ack p50 ms': round(load.ack.p50),
          'ack p99 ms': round(load.ack.p99),
          'push p99 ms': round(load.push.p99),
          'push samples': load.push.count,
          'server KB/connection': round((held(heldConnected) - held(heldBefore)) / 1024 / n, 1),
          refused: load.refused,
        },
      },
      { name: `(3) where the 2 cores went, ${n} players`, figures: cpu },
    ],
  };
}
