import http from 'node:http';
import type { Config } from './config';

/**
 * A request's headers are a few kilobytes: seconds even on a poor mobile link. A client that has
 * not sent them in this time is holding a socket, not loading a page.
 */
const HEADERS_TIMEOUT_MS = 20_000;
/**
 * Longer than the 60 s for which nginx and most load balancers keep an idle connection to the
 * app, so that a proxy never sends a request down a connection the server is closing.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** How often Node looks for requests past their time; it walks only requests still arriving. */
const CHECK_INTERVAL_MS = 1_000;

/**
 * An HTTP server (PORT, each worker of a cluster, METRICS_PORT) that gives a client
 * REQUEST_TIMEOUT_SECONDS to send a whole request, its headers within 20 s of that, and then
 * answers 408 and closes the connection, so that a client trickling bytes (slowloris) cannot hold
 * sockets for Node's default five minutes. The bound ends when a request has arrived: a long-poll
 * the server holds open, and a WebSocket once upgraded, are not cut by it.
 */
export function createHttpServer(
  config: Pick<Config, 'REQUEST_TIMEOUT_SECONDS'>,
  listener: http.RequestListener,
): http.Server {
  const requestTimeout = config.REQUEST_TIMEOUT_SECONDS * 1000;
  return http.createServer(
    {
      requestTimeout,
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: CHECK_INTERVAL_MS,
    },
    listener,
  );
}
