import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createAdapter } from '@socket.io/redis-adapter';
import { Server as SocketServer } from 'socket.io';
import { Admission, admissionLimits } from './admission';
import { apiSecurityHeaders, createApp } from './app';
import type { ClusterWorker } from './cluster-worker';
import type { Config } from './config';
import { createEventBus, type EventBus } from './events';
import { openDatabase, type Database } from './db';
import { captureHeaders, withFastRoutes } from './fast-route';
import { createHttpServer } from './http-server';
import type { Feature, FeaturesFactory } from './feature';
import { limitHandshakes } from './handshake-limit';
import type { Logger } from './logger';
import { Metrics, metricsEndpoint, metricsListener } from './metrics';
import { runMigrations } from './migrate';
import { sameOriginHandshakes, sameOriginRawWrites } from './origin';
import type { ProxyTrust } from './proxy-trust';
import { openPrivateDataDir } from './private-files';
import { adapterListening, openAdapterClients, openRedis, type Redis } from './redis';
import { resolveSessionSecret } from './secret';
import { routeSessionsToOwners } from './session-routing';
import { limitSocketMessages } from './socket-limit';

export const WEB_DIR = fileURLToPath(new URL('../../../frontend/dist', import.meta.url));
const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningServer {
  url: string;
  port: number;
  db: Database;
  redis: Redis | null;
  events: EventBus;
  io: SocketServer;
  metrics: Metrics;
  /** The separate metrics port's address, when METRICS_PORT is set. */
  metricsUrl?: string;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Extra features, for tests that need a route of their own. */
  extraFeatures?: Feature[];
  /** The clock of in-process limits; tests freeze it. */
  now?: () => number;
  /**
   * Set in a worker of a cluster (WEB_CONCURRENCY above 1): its primary has applied the
   * migrations, serves METRICS_PORT and gathers /metrics for the whole machine, and the workers
   * route each other's polling sessions.
   */
  worker?: ClusterWorker;
}

/** Opens the services, applies migrations, and serves the API, the game channel and the web app. */
export async function startServer(
  config: Config,
  logger: Logger,
  createFeatures: FeaturesFactory,
  options: StartOptions = {},
): Promise<RunningServer> {
  const metrics = new Metrics();
  const { worker } = options;
  // A cluster's primary did it before it forked the workers.
  if (!worker) await openPrivateDataDir(config.DATA_DIR, logger);
  const db = await openDatabase(
    {
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      onError: () => metrics.postgresError(),
    },
    logger,
  );
  let redis: Redis | null = null;
  let events: EventBus;
  try {
    // A cluster's primary applied them before it forked the workers.
    if (!worker) await runMigrations(db.pool, logger);
    redis = config.REDIS_URL
      ? await openRedis(config.REDIS_URL, logger, () => metrics.redisError('main'))
      : null;
    events = await createEventBus({
      redis,
      prefix: config.REDIS_PREFIX,
      logger,
      pool: db.pool,
      leaseSeconds: config.EVENTS_LEASE_SECONDS,
      registry: metrics.registry,
    });
  } catch (error) {
    if (redis) redis.disconnect();
    await db.close().catch(() => undefined);
    throw error;
  }

  const admission = new Admission(admissionLimits(config), metrics, options.now);
  const features: Feature[] = [];
  let adapterClients: readonly [Redis, Redis] | [] = [];
  let closeSessionRouting = async () => {};
  const closeServices = async () => {
    admission.stop();
    await closeSessionRouting();
    for (const feature of features) await feature.close?.();
    await events.close();
    for (const client of [...adapterClients, ...(redis ? [redis] : [])]) {
      await client.quit().catch(() => client.disconnect());
    }
    await db.close();
  };

  let httpServer: http.Server;
  let io: SocketServer;
  // The metrics on a port of their own, when one is set; otherwise on PORT behind the token. A
  // cluster's primary serves that port, with every worker's figures.
  const metricsServer =
    config.METRICS_PORT === undefined || worker
      ? null
      : createHttpServer(config, metricsListener(metrics.registry, config.METRICS_TOKEN));
  try {
    const secret = await resolveSessionSecret(config.SESSION_SECRET, config.DATA_DIR);
    features.push(
      ...(await createFeatures({
        config,
        logger,
        db,
        redis,
        events,
        metrics,
        admission,
        secret,
        now: options.now,
      })),
      ...(options.extraFeatures ?? []),
    );
    const app = createApp({
      config,
      logger,
      db: db.pool,
      redis,
      features,
      metrics,
      metricsEndpoint:
        config.METRICS_PORT === undefined && config.METRICS_TOKEN
          ? metricsEndpoint(worker?.machineMetrics ?? metrics.registry, config.METRICS_TOKEN)
          : undefined,
      secret,
      webDir: WEB_DIR,
    });
    const fastRoutes = new Map(
      features.flatMap((feature) => Object.entries(feature.fastRoutes ?? {})),
    );
    // The rule of HTTP writes, with the same view of the scheme behind trusted proxies.
    const trust = app.get('trust proxy fn') as ProxyTrust;
    httpServer = createHttpServer(
      config,
      withFastRoutes(app, fastRoutes, {
        logger,
        headers: captureHeaders(apiSecurityHeaders(config)),
        metrics,
        sameOrigin: sameOriginRawWrites(config.PUBLIC_ORIGIN, trust),
      }),
    );
    const handshakes = limitHandshakes(config, { redis, trust, metrics, logger });
    io = new SocketServer(httpServer, {
      serveClient: false,
      pingInterval: config.CHANNEL_PING_SECONDS * 1000,
      // The rule of HTTP writes, with the same view of the scheme behind trusted proxies; then
      // the limits of new sockets per address.
      allowRequest: handshakes.after(sameOriginHandshakes(config.PUBLIC_ORIGIN, trust)),
    });
    handshakes.track(io);
    // Before any other check: a process over capacity refuses new sockets 503 at once.
    io.engine.use(admission.handshakes());
    const sockets = io;
    metrics.countSockets(() => sockets.engine.clientsCount);
    limitSocketMessages(io, { logger, now: options.now });
    if (redis) {
      adapterClients = openAdapterClients(redis, logger, () => metrics.redisError('adapter'));
      io.adapter(
        createAdapter(adapterClients[0], adapterClients[1], {
          key: `${config.REDIS_PREFIX}:socket.io`,
        }),
      );
    }
    if (worker) {
      worker.shareMetrics(metrics.registry);
      closeSessionRouting = await routeSessionsToOwners(io, httpServer, {
        id: worker.id,
        socketPath: (id) => worker.sessionSocket(id),
      });
    }
    for (const feature of features) feature.attachSocket?.(io);
    // Every namespace has subscribed: it hears the other processes before it takes a connection.
    if (adapterClients.length === 2) await adapterListening(adapterClients, logger);
    for (const feature of features) await feature.start?.();
    // Every handler is in place: what a stopped node left undelivered is delivered now.
    events.start();

    if (metricsServer) await listen(metricsServer, config.METRICS_PORT ?? 0, config.METRICS_HOST);
    await listen(httpServer, config.PORT, config.HOST);
    admission.start();
  } catch (error) {
    // A failed start (the port in use, say) leaves nothing open behind it.
    if (metricsServer?.listening) await stopMetrics(metricsServer);
    await closeServices().catch(() => undefined);
    throw error;
  }
  const { port } = httpServer.address() as AddressInfo;
  const url = `http://localhost:${port}`;
  let metricsUrl: string | undefined;
  if (metricsServer) {
    metricsUrl = `http://localhost:${(metricsServer.address() as AddressInfo).port}`;
    logger.info({ url: `${metricsUrl}/metrics` }, 'metrics served on their own port');
  }

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      logger.info('shutting down');
      // The polling sessions of this worker end with it: another worker now answers them unknown.
      await closeSessionRouting();
      const metricsStopped = metricsServer ? stopMetrics(metricsServer) : Promise.resolve();
      const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      const force = setTimeout(() => httpServer.closeAllConnections(), SHUTDOWN_GRACE_MS);
      // This process's connections only (an open WebSocket holds the HTTP server open), closed
      // as a network drop closes them: socket.io-client then reconnects by itself, with its
      // backoff, to whichever process serves next ("transport close"). A DISCONNECT packet
      // (socket.disconnect(), io.disconnectSockets()) would be final for the client
      // ("io server disconnect"): the page would stay stranded until reloaded. What was sent
      // before is flushed first; a tap not yet answered is sent again by the client, under its
      // number, and counted once.
      closeConnections(io);
      await stopped;
      await metricsStopped;
      clearTimeout(force);
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await closeServices();
      logger.info('stopped');
    })();
    return closing;
  };

  return { url, port, db, redis, events, io, metrics, metricsUrl, close };
}

/** Closes every engine.io connection of this process, each once its buffered packets are sent. */
export function closeConnections(io: SocketServer): void {
  for (const namespace of io._nsps.values()) {
    for (const socket of namespace.sockets.values()) socket.conn.close();
  }
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** A scrape has nothing to finish: the metrics port closes at once, its connections with it. */
function stopMetrics(server: http.Server): Promise<void> {
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  return stopped;
}
