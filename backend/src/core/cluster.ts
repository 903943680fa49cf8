import cluster, { type Worker } from 'node:cluster';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  WORKER_ASKS,
  WORKER_READY,
  type PrimaryAnswer,
  type ReadyMessage,
  type WorkerRequest,
} from './cluster-worker';
import { ClusterMetrics } from './cluster-metrics';
import type { Config } from './config';
import { openDatabase } from './db';
import { createHttpServer } from './http-server';
import type { Logger } from './logger';
import { metricsListener } from './metrics';
import { openPrivateDataDir } from './private-files';
import { runMigrations } from './migrate';
import { resolveSessionSecret } from './secret';
import { runningLine } from './startup-line';

/** The wait before a dead worker's successor starts, doubled while workers keep dying young. */
const RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** A worker that served this long was not crash-looping: its successor waits the least. */
const STABLE_AFTER_MS = 30_000;
/** Each worker drains within its own grace (server.ts); one still running after this is killed. */
const STOP_TIMEOUT_MS = 30_000;

const isRequest = (message: unknown): message is WorkerRequest =>
  typeof message === 'object' &&
  message !== null &&
  Object.values<unknown>(WORKER_ASKS).includes((message as WorkerRequest).type);
const isReady = (message: unknown): message is ReadyMessage =>
  typeof message === 'object' &&
  message !== null &&
  (message as ReadyMessage).type === WORKER_READY;

/**
 * The primary of WEB_CONCURRENCY workers behind one port (Node's cluster module, round-robin): it
 * forks them, starts another when one dies (waiting longer while they keep dying young), gathers
 * their metrics, and on SIGTERM or SIGINT stops them gracefully (each drains as a single server
 * does) and exits 0. The workers share Postgres and Redis (pushes through the Socket.IO Redis
 * adapter); a worker that fails to start stops the whole start, with its message.
 */
export async function runCluster(config: Config, logger: Logger): Promise<void> {
  // Before the first fork; SCHED_RR is Node's default except on Windows.
  cluster.schedulingPolicy = cluster.SCHED_RR;
  // Once for the machine, not by every worker at once: DATA_DIR's modes, the migrations (their
  // lock makes another runner wait its turn and find nothing to do) and a generated session secret.
  await openPrivateDataDir(config.DATA_DIR, logger);
  const db = await openDatabase(
    { databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 1 },
    logger,
  );
  try {
    await runMigrations(db.pool, logger);
  } finally {
    await db.close();
  }
  await resolveSessionSecret(config.SESSION_SECRET, config.DATA_DIR);
  const sessionDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-cluster-'));
  const supervisor = new Supervisor(logger, sessionDir);
  const metricsServer =
    config.METRICS_PORT === undefined
      ? null
      : createHttpServer(config, metricsListener(supervisor.metrics, config.METRICS_TOKEN));

  let signals = 0;
  const stop = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) process.exit(1);
    logger.info({ signal }, 'signal received: stopping the workers');
    finish(supervisor.stop());
  };
  const finish = (stopped: Promise<boolean>) => {
    stopped
      .then(async (clean) => {
        if (metricsServer?.listening) {
          const closed = new Promise<void>((resolve) => metricsServer.close(() => resolve()));
          metricsServer.closeAllConnections();
          await closed;
        }
        await fs.rm(sessionDir, { recursive: true, force: true });
        logger.info('stopped');
        process.exit(clean ? 0 : 1);
      })
      .catch((err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  let port: number;
  try {
    port = await supervisor.start(config.WEB_CONCURRENCY);
    if (metricsServer) {
      await new Promise<void>((resolve, reject) => {
        metricsServer.once('error', reject);
        metricsServer.listen(config.METRICS_PORT, config.METRICS_HOST, () => resolve());
      });
    }
  } catch (error) {
    await supervisor.stop();
    await fs.rm(sessionDir, { recursive: true, force: true });
    throw error;
  }
  const url = `http://localhost:${port}`;
  if (metricsServer) {
    const { port: metricsPort } = metricsServer.address() as AddressInfo;
    logger.info(
      { url: `http://localhost:${metricsPort}/metrics` },
      'metrics served on their own port',
    );
  }
  logger.info({ url, workers: config.WEB_CONCURRENCY, redis: 'on' }, 'listening');
  process.stdout.write(`\n${runningLine(url, config, config.WEB_CONCURRENCY)}\n\n`);
}

class Supervisor {
  readonly metrics = new ClusterMetrics();
  private readonly startedAt = new Map<number, number>();
  private readonly serving = new Set<number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopping = false;
  /** Set while the first workers start: one that dies then fails the start. */
  private starting: { ready(port: number): void; failed(error: Error): void } | null = null;
  /** Workers that died young one after another. */
  private youngDeaths = 0;

  constructor(
    private readonly logger: Logger,
    private readonly sessionDir: string,
  ) {
    cluster.on('message', (worker, message: unknown) => this.onMessage(worker, message));
    cluster.on('exit', (worker, code, signal) => this.onExit(worker, code, signal));
  }

  /** Forks `count` workers; resolves with their port once every one serves. */
  start(count: number): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.starting = {
        ready: (port) => {
          if (this.serving.size < count) return;
          this.starting = null;
          resolve(port);
        },
        failed: (error) => {
          this.starting = null;
          reject(error);
        },
      };
      for (let i = 0; i < count; i += 1) this.fork();
    });
  }

  /** Stops every worker with SIGTERM; resolves true when each drained and exited cleanly. */
  async stop(): Promise<boolean> {
    this.stopping = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const workers = Object.values(cluster.workers ?? {}).filter(
      (worker): worker is Worker => worker !== undefined && !worker.isDead(),
    );
    const exits = workers.map((worker) => {
      const served = this.serving.has(worker.id);
      return new Promise<boolean>((resolve) =>
        worker.once('exit', (code: number, signal: string) =>
          // One stopped before it served had nothing to drain.
          resolve(code === 0 || (!served && signal === 'SIGTERM')),
        ),
      );
    });
    for (const worker of workers) worker.process.kill('SIGTERM');
    const force = setTimeout(() => {
      for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGKILL');
    }, STOP_TIMEOUT_MS);
    const clean = await Promise.all(exits);
    clearTimeout(force);
    return clean.every(Boolean);
  }

  private fork(): void {
    const worker = cluster.fork();
    this.startedAt.set(worker.id, Date.now());
    // A message to a worker that has just died (a connection handed to it, an answer to its ask)
    // fails with EPIPE, reported as an 'error' on the worker: unheard, it would end the primary
    // and every worker with it. The worker's exit follows, and onExit starts another.
    worker.on('error', (err: Error) =>
      this.logger.warn({ err, worker: worker.id }, "a worker's channel failed"),
    );
  }

  private onMessage(worker: Worker, message: unknown): void {
    if (isReady(message)) {
      this.serving.add(worker.id);
      this.metrics.workersServing(this.serving.size);
      this.logger.info({ worker: worker.id, pid: worker.process.pid }, 'worker serving');
      this.starting?.ready(message.port);
      return;
    }
    if (!isRequest(message)) return;
    const answer = (fields: Partial<PrimaryAnswer>) => {
      if (worker.isConnected()) worker.send({ type: message.type, id: message.id, ...fields });
    };
    if (message.type === WORKER_ASKS.hello) {
      answer({ sessionDir: this.sessionDir });
    } else {
      this.metrics.metrics().then(
        (text) => answer({ text }),
        (error: unknown) => answer({ error: String(error) }),
      );
    }
  }

  private onExit(worker: Worker, code: number | null, signal: string | null): void {
    const served = this.serving.delete(worker.id);
    this.metrics.workersServing(this.serving.size);
    const lived = Date.now() - (this.startedAt.get(worker.id) ?? 0);
    this.startedAt.delete(worker.id);
    if (this.stopping) return;
    if (this.starting && !served) {
      this.starting.failed(
        new Error(
          `worker ${worker.id} exited (${signal ?? `code ${code}`}) before it served; see its message above`,
        ),
      );
      return;
    }
    this.youngDeaths = lived >= STABLE_AFTER_MS ? 1 : this.youngDeaths + 1;
    const delay = Math.min(RESTART_DELAY_MS * 2 ** (this.youngDeaths - 1), MAX_RESTART_DELAY_MS);
    this.logger.error(
      { worker: worker.id, code, signal, restartInMs: delay },
      'worker died: starting another',
    );
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.metrics.workerRestarted();
      this.fork();
    }, delay);
    this.timers.add(timer);
  }
}
