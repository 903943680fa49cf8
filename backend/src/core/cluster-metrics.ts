import { AggregatorRegistry, Counter, Gauge, Registry } from 'prom-client';
import type { MetricsSource } from './metrics';

/**
 * The whole machine's figures, in the cluster's primary: every worker's registry, gathered over
 * the cluster's channel and merged series by series (counters and histograms summed, the flush
 * lag's maximum, event-loop lag averaged, as each metric says), then the primary's own series.
 */
export class ClusterMetrics implements MetricsSource {
  readonly contentType = Registry.PROMETHEUS_CONTENT_TYPE;
  private readonly workers = new AggregatorRegistry();
  private readonly own = new Registry();
  private readonly running: Gauge;
  private readonly restarts: Counter;

  constructor() {
    const registers = [this.own];
    this.running = new Gauge({
      name: 'tapgram_cluster_workers',
      help: 'Backend workers serving on this machine (WEB_CONCURRENCY)',
      registers,
    });
    this.restarts = new Counter({
      name: 'tapgram_cluster_worker_restarts_total',
      help: 'Workers the primary started again after one died',
      registers,
    });
  }

  workersServing(count: number): void {
    this.running.set(count);
  }

  workerRestarted(): void {
    this.restarts.inc();
  }

  async metrics(): Promise<string> {
    const [workers, own] = await Promise.all([this.workers.clusterMetrics(), this.own.metrics()]);
    return workers + own;
  }
}
