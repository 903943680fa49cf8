import type { IncomingMessage, ServerResponse } from 'node:http';
import { TapBucket } from '@tapgram/shared';
import type { Config } from './config';
import { ServiceUnavailableError } from './errors';
import type { AdmissionRefusal, Metrics } from './metrics';

export const SERVER_BUSY = 'The game is busy: try again in a moment';

/** How often the event loop's lag is sampled: a timer's delay beyond this is the lag. */
const LAG_SAMPLE_MS = 50;
/** The weight of the newest sample in the moving average of the lag. */
const LAG_WEIGHT = 0.3;

export interface AdmissionLimits {
  /** New game sockets this process accepts a second (and at once). */
  newSocketsPerSecond: number;
  /** Tap batches this process holds waiting for its store (Redis, or Postgres without it). */
  tapsWaiting: number;
  /**
   * The longest (ms) the batches waiting may take the store, at the pace it has kept while busy:
   * a slow store (the embedded database) refuses long before `tapsWaiting`.
   */
  tapWaitMs: number;
  /** Event-loop lag above which new sockets and new taps are refused. */
  eventLoopLagMs: number;
  /** Sent as Retry-After with a refusal. */
  retryAfterSeconds: number;
}

export function admissionLimits(
  config: Pick<
    Config,
    | 'ADMIT_NEW_SOCKETS_PER_SECOND'
    | 'ADMIT_TAPS_WAITING'
    | 'ADMIT_TAP_WAIT_MS'
    | 'ADMIT_EVENT_LOOP_LAG_MS'
    | 'ADMIT_RETRY_AFTER_SECONDS'
  >,
): AdmissionLimits {
  return {
    newSocketsPerSecond: config.ADMIT_NEW_SOCKETS_PER_SECOND,
    tapsWaiting: config.ADMIT_TAPS_WAITING,
    tapWaitMs: config.ADMIT_TAP_WAIT_MS,
    eventLoopLagMs: config.ADMIT_EVENT_LOOP_LAG_MS,
    retryAfterSeconds: config.ADMIT_RETRY_AFTER_SECONDS,
  };
}

/**
 * What one process takes on before it refuses new work, at once and cheaply, rather than queueing
 * it: new game sockets beyond a rate, tap batches beyond a number waiting for the store or beyond
 * what the store clears in `tapWaitMs` at the pace it keeps while busy, and both while the event
 * loop lags. A refusal is a 503 with Retry-After (the handshake, POST /api/tap)
 * or a 503 answer (a socket tap); the game screen keeps its taps and asks again after a jittered
 * wait, and socket.io-client retries a refused handshake with its jittered backoff. Work already
 * accepted goes on: a batch admitted waits behind at most `tapsWaiting - 1` others.
 */
export class Admission {
  private waiting = 0;
  private lagMs = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly newSockets: TapBucket;
  /** Tap batches the store finished since the last sample, and the time it had some waiting. */
  private finished = 0;
  private busyMs = 0;
  private busySince = 0;
  private sampledAt: number;
  /** Batches the store finishes a millisecond while it has some (a moving average); 0: unknown. */
  private pace = 0;

  constructor(
    readonly limits: AdmissionLimits,
    private readonly metrics: Metrics,
    private readonly now: () => number = Date.now,
  ) {
    this.sampledAt = now();
    this.newSockets = new TapBucket(
      { perSecond: limits.newSocketsPerSecond, burst: limits.newSocketsPerSecond },
      now,
    );
    metrics.watchAdmission({
      tapsWaiting: () => this.waiting,
      eventLoopLagSeconds: () => this.lagMs / 1000,
    });
  }

  /** Samples the event loop's lag until `stop` (from when the server serves: start-up is slow). */
  start(): void {
    let expected = performance.now() + LAG_SAMPLE_MS;
    const sample = () => {
      const now = performance.now();
      this.observeLag(now - expected);
      this.observePace();
      expected = now + LAG_SAMPLE_MS;
      this.timer = setTimeout(sample, LAG_SAMPLE_MS);
      this.timer.unref();
    };
    this.timer = setTimeout(sample, LAG_SAMPLE_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * A sample of the lag, in milliseconds (a test gives some to stand in for a busy loop). The
   * lag weighed is a moving average (a sample counts 30 %): one pause of the collector does not
   * refuse players, a loop that stays late does within a few samples.
   */
  observeLag(ms: number): void {
    this.lagMs = LAG_WEIGHT * Math.max(0, ms) + (1 - LAG_WEIGHT) * this.lagMs;
  }

  /**
   * Learns the store's pace from the batches it finished since the last sample, over the time it
   * had some waiting, when that was most of the sample: a store that is seldom busy shows the
   * time of one round trip, not how many batches it can take. A store that finished none while
   * busy slows the pace down: what arrives meanwhile is refused sooner.
   */
  observePace(): void {
    const now = this.now();
    let busy = this.busyMs;
    if (this.waiting > 0) {
      busy += now - this.busySince;
      this.busySince = now;
    }
    const finished = this.finished;
    const window = now - this.sampledAt;
    this.finished = 0;
    this.busyMs = 0;
    this.sampledAt = now;
    if (busy <= 0) return;
    const pace = finished / busy;
    if (busy < window / 2) {
      // A store that answers again after a stall has at least this pace: the pace the stall
      // wore down comes back up at once, not only when the store is next busy for most of a sample.
      if (this.pace > 0) this.pace = Math.max(this.pace, pace);
      return;
    }
    this.pace = this.pace === 0 ? pace : LAG_WEIGHT * pace + (1 - LAG_WEIGHT) * this.pace;
  }

  /**
   * Whether the batches waiting and one more would take the store longer than the bound. A batch
   * with none ahead of it is never refused for the pace: it alone is how the store shows it is back.
   */
  private storeBehind(): boolean {
    return (
      this.waiting > 0 && this.pace > 0 && (this.waiting + 1) / this.pace > this.limits.tapWaitMs
    );
  }

  /** Batches counted as waiting for the store now. */
  get tapsWaiting(): number {
    return this.waiting;
  }

  /** Whether a new socket may open now (it is counted if so). */
  admitSocket(): AdmissionRefusal | null {
    const refusal = this.overloaded() ?? (this.newSockets.take(1) ? null : 'new_sockets');
    if (refusal) this.metrics.admissionRefused('handshake', refusal);
    return refusal;
  }

  /**
   * Runs a tap batch's work if the process can take it; otherwise refuses it at once with a 503
   * (ServiceUnavailableError, Retry-After).
   */
  async tap<T>(work: () => Promise<T>): Promise<T> {
    const refusal =
      this.waiting >= this.limits.tapsWaiting || this.storeBehind()
        ? 'taps_waiting'
        : this.overloaded();
    if (refusal) {
      this.metrics.admissionRefused('tap', refusal);
      throw new ServiceUnavailableError(SERVER_BUSY, this.limits.retryAfterSeconds);
    }
    if (this.waiting === 0) this.busySince = this.now();
    this.waiting += 1;
    try {
      return await work();
    } finally {
      this.waiting -= 1;
      this.finished += 1;
      if (this.waiting === 0) this.busyMs += this.now() - this.busySince;
    }
  }

  private overloaded(): AdmissionRefusal | null {
    return this.lagMs > this.limits.eventLoopLagMs ? 'event_loop_lag' : null;
  }

  /**
   * An engine.io middleware: a new session (a request without `sid`, polling or WebSocket) beyond
   * what the process takes is answered 503 with Retry-After before any work is done for it. The
   * requests of sessions already open pass.
   */
  handshakes(): (
    req: IncomingMessage,
    res: ServerResponse,
    next: (error?: unknown) => void,
  ) => void {
    return (req, res, next) => {
      if (/[?&]sid=/.test(req.url ?? '') || this.admitSocket() === null) {
        next();
        return;
      }
      const body = JSON.stringify({ error: SERVER_BUSY });
      const retryAfter = String(this.limits.retryAfterSeconds);
      if (req.headers.upgrade) {
        // A WebSocket handshake: the answer is written on the connection itself.
        const socket = req.socket;
        if (socket.writable) {
          socket.write(
            'HTTP/1.1 503 Service Unavailable\r\n' +
              'Connection: close\r\n' +
              `Retry-After: ${retryAfter}\r\n` +
              'Content-Type: application/json; charset=utf-8\r\n' +
              `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
              body,
          );
        }
        socket.end();
      } else {
        res.writeHead(503, {
          'content-type': 'application/json; charset=utf-8',
          'retry-after': retryAfter,
        });
        res.end(body);
      }
      // engine.io ends the request it was refused; it finds it answered already.
      next(new ServiceUnavailableError(SERVER_BUSY, this.limits.retryAfterSeconds));
    };
  }
}
