import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';
import type { Server as SocketServer } from 'socket.io';
import type { Config } from './config';
import { TooManyRequestsError } from './errors';
import { createRateLimits, type RateLimit } from './limiter';
import type { Logger } from './logger';
import type { HandshakeRefusal, Metrics } from './metrics';
import { networkOf } from './network';
import type { ProxyTrust } from './proxy-trust';
import type { Redis } from './redis';

/** Socket.IO's `allowRequest`: called for each new session, before any work is done for it. */
export type AllowRequest = (
  req: IncomingMessage,
  callback: (error: string | null | undefined, ok: boolean) => void,
) => void;

const TOO_MANY = 'Too many new connections from this address, try again shortly';
/** A storm of refusals is logged once per this interval, with how many there were. */
const LOG_EVERY_MS = 10_000;

/**
 * The limits of new game sockets as configured: NEW_SOCKETS_BURST at once, then
 * NEW_SOCKETS_PER_MINUTE on average (counted in windows of burst / rate), and
 * SOCKETS_PER_ADDRESS held by this process.
 */
export function limitHandshakes(
  config: Pick<
    Config,
    'REDIS_PREFIX' | 'NEW_SOCKETS_PER_MINUTE' | 'NEW_SOCKETS_BURST' | 'SOCKETS_PER_ADDRESS'
  >,
  deps: { redis: Redis | null; trust: ProxyTrust; metrics: Metrics; logger: Logger },
): HandshakeLimit {
  const burst = config.NEW_SOCKETS_BURST;
  const rate = createRateLimits(deps.redis, config.REDIS_PREFIX)('socket-handshakes', {
    limit: burst,
    windowMs: (60_000 * burst) / config.NEW_SOCKETS_PER_MINUTE,
  });
  return new HandshakeLimit({ ...deps, rate, heldPerAddress: config.SOCKETS_PER_ADDRESS });
}

/** The engine.io session of a socket, as its `connection` event hands it over. */
interface EngineSocket {
  request: IncomingMessage;
  once(event: 'close', listener: () => void): void;
}

/**
 * New game sockets per client address (an IPv6 host's /64): a rate counted by `rate`
 * (in Redis when configured, so shared by every process and node) and at most `heldPerAddress`
 * open on this process. The excess is refused in the handshake, before a session exists, which
 * socket.io-client takes as a failed attempt to connect and retries with its backoff (a
 * middleware's refusal would be final). The address follows TRUST_PROXY, as Express's req.ip.
 */
export class HandshakeLimit {
  private readonly held = new Map<string, number>();
  /** The address each admitted handshake counted against, until its session opens. */
  private readonly admitted = new WeakMap<IncomingMessage, string>();
  private refusedSinceLog = 0;
  private loggedAt = -Infinity;

  constructor(
    private readonly deps: {
      rate: RateLimit;
      heldPerAddress: number;
      trust: ProxyTrust;
      metrics: Metrics;
      logger: Logger;
    },
  ) {}

  /** `check` (the same-origin rule), then this limit: what passes both opens a session. */
  after(check: AllowRequest): AllowRequest {
    return (req, callback) =>
      check(req, (error, ok) => {
        if (!ok) callback(error, false);
        else this.allow(req, callback);
      });
  }

  /** Counts the sockets each address holds on this process, from the sessions `io` opens. */
  track(io: SocketServer): void {
    io.engine.on('connection', (session: EngineSocket) => {
      const address = this.admitted.get(session.request);
      if (address === undefined) return;
      this.held.set(address, (this.held.get(address) ?? 0) + 1);
      session.once('close', () => {
        const left = (this.held.get(address) ?? 1) - 1;
        if (left > 0) this.held.set(address, left);
        else this.held.delete(address);
      });
    });
  }

  private allow(req: IncomingMessage, callback: Parameters<AllowRequest>[1]): void {
    const address = networkOf(proxyAddr(req, this.deps.trust) ?? '');
    // The cheaper check first: an address at its cap costs no count in Redis.
    if ((this.held.get(address) ?? 0) >= this.deps.heldPerAddress) {
      this.refuse(address, 'too_many_sockets', callback);
      return;
    }
    this.deps.rate.take(address, TOO_MANY).then(
      () => {
        this.admitted.set(req, address);
        callback(null, true);
      },
      (error: unknown) => {
        if (error instanceof TooManyRequestsError) {
          this.refuse(address, 'rate_limited', callback);
          return;
        }
        // A limit that cannot count lets players in rather than shutting the game out.
        this.deps.logger.error({ err: error }, 'socket handshake limit failed');
        this.admitted.set(req, address);
        callback(null, true);
      },
    );
  }

  private refuse(
    address: string,
    reason: HandshakeRefusal,
    callback: Parameters<AllowRequest>[1],
  ): void {
    this.deps.metrics.handshakeRefused(reason);
    this.refusedSinceLog += 1;
    const now = performance.now();
    if (now - this.loggedAt >= LOG_EVERY_MS) {
      this.deps.logger.warn(
        { address, reason, refused: this.refusedSinceLog },
        'socket handshakes refused: too many from one address',
      );
      this.loggedAt = now;
      this.refusedSinceLog = 0;
    }
    callback(TOO_MANY, false);
  }
}
