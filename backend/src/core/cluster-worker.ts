import cluster from 'node:cluster';
import path from 'node:path';
import { AggregatorRegistry, Registry } from 'prom-client';
import type { MetricsSource } from './metrics';

/** What a worker asks its primary (cluster.ts), each answered by a message of the same type. */
export const WORKER_ASKS = {
  /** Where the workers' private session sockets live. */
  hello: 'tapgram:hello',
  /** The whole machine's metrics in Prometheus text. */
  metrics: 'tapgram:metrics',
} as const;
/** A worker tells its primary that it serves (no answer). */
export const WORKER_READY = 'tapgram:ready';

export type WorkerAsk = (typeof WORKER_ASKS)[keyof typeof WORKER_ASKS];
export interface WorkerRequest {
  type: WorkerAsk;
  id: number;
}
export interface PrimaryAnswer {
  type: WorkerAsk;
  id: number;
  sessionDir?: string;
  text?: string;
  error?: string;
}
export interface ReadyMessage {
  type: typeof WORKER_READY;
  port: number;
}

/** One backend worker of a cluster (WEB_CONCURRENCY above 1), as the server sees it. */
export interface ClusterWorker {
  /** This worker's number (cluster.worker.id): a restarted worker gets a new one. */
  id: number;
  /** The private unix socket on which a worker takes requests of its sessions that reached another worker. */
  sessionSocket(workerId: number): string;
  /** The whole machine's figures, gathered from every worker by the primary. */
  machineMetrics: MetricsSource;
  /** Offers this worker's registry to the primary's gathering. */
  shareMetrics(registry: Registry): void;
  /** Tells the primary that this worker serves, on `port`. */
  ready(port: number): void;
}

const isAnswer = (message: unknown): message is PrimaryAnswer =>
  typeof message === 'object' &&
  message !== null &&
  Object.values<unknown>(WORKER_ASKS).includes((message as PrimaryAnswer).type) &&
  typeof (message as PrimaryAnswer).id === 'number';

/** Joins the cluster this process was forked into: asks the primary where the session sockets live. */
export async function joinCluster(): Promise<ClusterWorker> {
  const worker = cluster.worker;
  if (!worker || !process.send) throw new Error('not a cluster worker');
  const send = process.send.bind(process);
  const waiting = new Map<number, (answer: PrimaryAnswer) => void>();
  let asked = 0;
  process.on('message', (message: unknown) => {
    if (!isAnswer(message)) return;
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  const ask = (type: WorkerAsk) =>
    new Promise<PrimaryAnswer>((resolve, reject) => {
      const id = (asked += 1);
      waiting.set(id, resolve);
      const request: WorkerRequest = { type, id };
      send(request, undefined, undefined, (error: Error | null) => {
        if (!error) return;
        waiting.delete(id);
        reject(error);
      });
    });

  const { sessionDir } = await ask(WORKER_ASKS.hello);
  if (!sessionDir) throw new Error('the cluster primary named no session directory');
  return {
    id: worker.id,
    sessionSocket: (workerId) => path.join(sessionDir, `${workerId}.sock`),
    machineMetrics: {
      contentType: Registry.PROMETHEUS_CONTENT_TYPE,
      metrics: async () => {
        const answer = await ask(WORKER_ASKS.metrics);
        if (answer.text === undefined) throw new Error(answer.error ?? 'no metrics');
        return answer.text;
      },
    },
    shareMetrics(registry) {
      AggregatorRegistry.setRegistries([registry]);
      // prom-client answers the primary's requests for a worker's figures once an aggregator
      // registry exists in that worker: this one is made for that alone.
      new AggregatorRegistry();
    },
    ready(port) {
      const message: ReadyMessage = { type: WORKER_READY, port };
      send(message);
    },
  };
}
