import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { errorAnswer, HttpError, NotFoundError, UnauthorizedError } from './errors';

/** The reason a refusal of taps is counted under, by the status it answers; else `error`. */
const REFUSALS = new Map<number, string>([
  [403, 'forbidden'],
  [404, 'not_found'],
  [409, 'lost'],
  [429, 'rate_limited'],
  [503, 'unavailable'],
  // Redis did not answer in time: the taps may still be counted (a re-send counts once).
  [504, 'unanswered'],
]);

// Seconds: from a millisecond answer to a slow one, with the 100 ms an ack should stay under.
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Where a scrape's text comes from: one process's registry, or (with several workers) the whole
 * machine's figures gathered by the cluster's primary (cluster-metrics.ts).
 */
export type MetricsSource = Pick<Registry, 'metrics' | 'contentType'>;

/** Answers a request itself: usable as an Express handler and as a bare HTTP server's listener. */
export type MetricsHandler = (req: IncomingMessage, res: ServerResponse) => void;

export type FlushedTable = 'users' | 'sessions' | 'countries';
export type RedisClientRole = 'main' | 'adapter';
/** Why a new game socket was refused at its handshake (handshake-limit.ts). */
const HANDSHAKE_REFUSALS = ['rate_limited', 'too_many_sockets'] as const;
export type HandshakeRefusal = (typeof HANDSHAKE_REFUSALS)[number];
/** Why work was refused for the process's own capacity (admission.ts). */
const ADMISSION_REFUSALS = ['new_sockets', 'taps_waiting', 'event_loop_lag'] as const;
export type AdmissionRefusal = (typeof ADMISSION_REFUSALS)[number];
export type AdmittedWork = 'handshake' | 'tap';

/**
 * One process's metrics in its own registry (several servers in one test process keep theirs
 * apart). Features update them through these methods; each label value comes from a short fixed
 * list or a route pattern, never from a client's text, so the number of series stays bounded.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpSeries = new Map<
    string,
    { count: Counter.Internal; seconds: Histogram.Internal<string> }
  >();
  private readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  private readonly httpSeconds: Histogram<'method' | 'route' | 'status'>;
  private readonly accepted: Counter;
  private readonly refusedBy = new Map<string, Counter.Internal>();
  private readonly batches: Counter;
  private readonly ackSeconds: Histogram;
  private readonly pushes: Counter;
  private readonly flushedRows: Counter<'table'>;
  private readonly redisErrors: Counter<'client'>;
  private readonly postgresErrors: Counter;
  private readonly handshakesRefused: Counter<'reason'>;
  private readonly commentsLimitedOnPost: Counter;
  private readonly admissionRefusals: Counter<'work' | 'reason'>;
  private socketCount: () => number = () => 0;
  private admission = { tapsWaiting: () => 0, eventLoopLagSeconds: () => 0 };
  private countersBehind: () => boolean = () => false;
  /** performance.now() of the last successful flush (or of the first wait for one); null: none. */
  private lastFlushAt: number | null = null;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Counter({
      name: 'tapgram_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpSeconds = new Histogram({
      name: 'tapgram_http_request_duration_seconds',
      help: 'Time from an HTTP request to its answer, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.accepted = new Counter({
      name: 'tapgram_taps_accepted_total',
      help: 'Taps answered as counted, over HTTP and the game channel (a re-sent batch again)',
      registers,
    });
    const refused = new Counter({
      name: 'tapgram_taps_refused_total',
      help: 'Taps refused, by reason (rate_limited, lost, forbidden, not_found, unavailable...)',
      labelNames: ['reason'],
      registers,
    });
    for (const reason of [...REFUSALS.values(), 'error']) {
      this.refusedBy.set(reason, refused.labels(reason));
    }
    this.batches = new Counter({
      name: 'tapgram_tap_batches_total',
      help: 'Tap batches received on the game channel',
      registers,
    });
    this.ackSeconds = new Histogram({
      name: 'tapgram_tap_ack_seconds',
      help: 'Time from a tap batch reaching the server to its acknowledgement',
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.commentsLimitedOnPost = new Counter({
      name: 'tapgram_comments_refused_for_post_total',
      help: "Comments refused by a post's own limit (a wave of them on one post)",
      registers,
    });
    this.pushes = new Counter({
      name: 'tapgram_leaderboard_pushes_total',
      help: 'Leaderboard pushes this process sent to every game socket',
      registers,
    });
    // Gauges read when scraped.
    const sockets: Gauge = new Gauge({
      name: 'tapgram_sockets_connected',
      help: 'Socket.IO connections open on this process',
      registers,
      collect: () => sockets.set(this.socketCount()),
    });
    const flushLag: Gauge = new Gauge({
      name: 'tapgram_flush_lag_seconds',
      help: 'Time since the last successful flush of the Redis counters to Postgres (0 without Redis)',
      registers,
      // Every worker flushes: the machine's lag is its slowest worker's.
      aggregator: 'max',
      collect: () => {
        const last = this.lastFlushAt;
        flushLag.set(last === null ? 0 : (performance.now() - last) / 1000);
      },
    });
    const behind: Gauge = new Gauge({
      name: 'tapgram_redis_generation_behind',
      help: "1 while this process's Redis holds game counters of a generation Postgres no longer follows (taps refused 503 until it is rebuilt), else 0",
      registers,
      aggregator: 'max',
      collect: () => behind.set(this.countersBehind() ? 1 : 0),
    });
    this.flushedRows = new Counter({
      name: 'tapgram_flushed_rows_total',
      help: 'Rows the Redis flusher wrote to Postgres, by table kind',
      labelNames: ['table'],
      registers,
    });
    this.redisErrors = new Counter({
      name: 'tapgram_redis_errors_total',
      help: "Errors of the Redis connections (the commands' and the Socket.IO adapter's)",
      labelNames: ['client'],
      registers,
    });
    this.postgresErrors = new Counter({
      name: 'tapgram_postgres_errors_total',
      help: 'Errors of idle Postgres connections of the pool (a dropped or killed connection)',
      registers,
    });
    this.handshakesRefused = new Counter({
      name: 'tapgram_socket_handshakes_refused_total',
      help: 'New game sockets refused at the handshake, by reason (rate_limited, too_many_sockets)',
      labelNames: ['reason'],
      registers,
    });
    for (const reason of HANDSHAKE_REFUSALS) this.handshakesRefused.inc({ reason }, 0);
    this.admissionRefusals = new Counter({
      name: 'tapgram_admission_refused_total',
      help: 'Work refused 503 for the process capacity, by work (handshake, tap) and reason (new_sockets, taps_waiting, event_loop_lag)',
      labelNames: ['work', 'reason'],
      registers,
    });
    for (const work of ['handshake', 'tap'] as const) {
      for (const reason of ADMISSION_REFUSALS) this.admissionRefusals.inc({ work, reason }, 0);
    }
    const waiting: Gauge = new Gauge({
      name: 'tapgram_taps_waiting',
      help: 'Tap batches waiting for the store (Redis, or Postgres without it) on this process',
      registers,
      collect: () => waiting.set(this.admission.tapsWaiting()),
    });
    const lag: Gauge = new Gauge({
      name: 'tapgram_admission_event_loop_lag_seconds',
      help: 'Event-loop lag of the last sample, as admission control sees it',
      registers,
      aggregator: 'max',
      collect: () => lag.set(this.admission.eventLoopLagSeconds()),
    });
  }

  /** An HTTP answer; `route` is the route's pattern (`/api/users/:id`), never the request's path. */
  httpRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.httpSeries.get(key);
    if (!series) {
      const labels = { method, route, status: String(status) };
      series = {
        count: this.httpRequests.labels(labels),
        seconds: this.httpSeconds.labels(labels),
      };
      this.httpSeries.set(key, series);
    }
    series.count.inc();
    series.seconds.observe(seconds);
  }

  tapsAccepted(taps: number): void {
    this.accepted.inc(taps);
  }

  /** Taps refused with `error` (what a service threw), counted under the reason its status names. */
  tapsRefused(error: unknown, taps: number): void {
    const { status } = errorAnswer(error);
    this.refusedBy.get(REFUSALS.get(status) ?? 'error')?.inc(taps);
  }

  /** A game-channel tap batch, acknowledged `seconds` after it arrived. */
  tapBatch(seconds: number): void {
    this.batches.inc();
    this.ackSeconds.observe(seconds);
  }

  leaderboardPushed(): void {
    this.pushes.inc();
  }

  /** Read at each scrape. */
  countSockets(count: () => number): void {
    this.socketCount = count;
  }

  /** Flushes begin: until the first one succeeds, the lag counts from now. */
  flushesStarted(): void {
    this.lastFlushAt ??= performance.now();
  }

  /** Read at each scrape: whether the game's Redis counters are behind Postgres's generation. */
  watchRedisGeneration(behind: () => boolean): void {
    this.countersBehind = behind;
  }

  flushed(rows: Record<FlushedTable, number>): void {
    this.lastFlushAt = performance.now();
    for (const [table, count] of Object.entries(rows)) {
      if (count > 0) this.flushedRows.labels(table).inc(count);
    }
  }

  redisError(client: RedisClientRole): void {
    this.redisErrors.labels(client).inc();
  }

  postgresError(): void {
    this.postgresErrors.inc();
  }

  /** Read at each scrape. */
  watchAdmission(source: { tapsWaiting: () => number; eventLoopLagSeconds: () => number }): void {
    this.admission = source;
  }

  /** Work refused for the process's capacity. */
  /** A comment refused by its post's own limit. */
  commentsRefusedForPost(): void {
    this.commentsLimitedOnPost.inc();
  }

  admissionRefused(work: AdmittedWork, reason: AdmissionRefusal): void {
    this.admissionRefusals.labels(work, reason).inc();
  }

  /** A new game socket refused at its handshake: too many from its address. */
  handshakeRefused(reason: HandshakeRefusal): void {
    this.handshakesRefused.labels(reason).inc();
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest();

function sendError(res: ServerResponse, error: HttpError, headers: Record<string, string> = {}) {
  const { status, error: message } = errorAnswer(error);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify({ error: message }));
}

/**
 * Answers a scrape with the source's text in Prometheus format, to a request that carries
 * `Authorization: Bearer <token>` when a token is set (compared in constant time: both sides are
 * hashed to one length first).
 */
export function metricsEndpoint(source: MetricsSource, token: string | undefined): MetricsHandler {
  const expected = token === undefined ? null : digest(token);
  return (req, res) => {
    if (expected) {
      const given = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!timingSafeEqual(digest(given), expected)) {
        sendError(res, new UnauthorizedError('A valid metrics token is required'), {
          'www-authenticate': 'Bearer realm="metrics"',
        });
        return;
      }
    }
    source.metrics().then(
      (text) => {
        res.writeHead(200, {
          'content-type': source.contentType,
          'cache-control': 'no-store',
        });
        res.end(text);
      },
      () => sendError(res, new HttpError(500, 'Metrics could not be collected')),
    );
  };
}

/** The separate metrics port's server: `GET /metrics`, and 404 for anything else. */
export function metricsListener(source: MetricsSource, token: string | undefined): MetricsHandler {
  const endpoint = metricsEndpoint(source, token);
  return (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) {
      endpoint(req, res);
    } else {
      sendError(res, new NotFoundError(`No such endpoint: ${req.method} ${path}`));
    }
  };
}
