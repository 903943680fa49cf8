import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createAdapter } from '@socket.io/redis-adapter';
import { Server as SocketServer } from 'socket.io';
import { createFeatures } from '../features';
import { apiSecurityHeaders, createApp } from './app';
import type { Config } from './config';
import { openDatabase, type Database } from './db';
import { captureHeaders, withFastRoutes } from './fast-route';
import type { Feature, FeatureDeps } from './feature';
import type { Logger } from './logger';
import { runMigrations } from './migrate';
import { sameOriginHandshakes } from './origin';
import type { ProxyTrust } from './proxy-trust';
import { openAdapterClients, openRedis, type Redis } from './redis';
import { resolveSessionSecret } from './secret';
import { limitSocketMessages } from './socket-limit';

export const WEB_DIR = fileURLToPath(new URL('../../../frontend/dist', import.meta.url));
const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningServer {
  url: string;
  port: number;
  db: Database;
  redis: Redis | null;
  io: SocketServer;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Extra features, for tests that need a route of their own. */
  extraFeatures?: Feature[];
  /** The clock of in-process limits; tests freeze it. */
  now?: () => number;
  /** Moderation's image classifier (null: none); tests hand in a stand-in for the model. */
  imageClassifier?: FeatureDeps['imageClassifier'];
}

/** Opens the services, applies migrations, and serves the API, the game channel and the web app. */
export async function startServer(
  config: Config,
  logger: Logger,
  options: StartOptions = {},
): Promise<RunningServer> {
  const db = await openDatabase(
    { databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR },
    logger,
  );
  let redis: Redis | null = null;
  try {
    await runMigrations(db.pool, logger);
    redis = config.REDIS_URL ? await openRedis(config.REDIS_URL, logger) : null;
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }

  const features: Feature[] = [];
  let adapterClients: Redis[] = [];
  const closeServices = async () => {
    for (const feature of features) await feature.close?.();
    for (const client of [...adapterClients, ...(redis ? [redis] : [])]) {
      await client.quit().catch(() => client.disconnect());
    }
    await db.close();
  };

  let httpServer: http.Server;
  let io: SocketServer;
  try {
    const secret = await resolveSessionSecret(config.SESSION_SECRET, config.DATA_DIR);
    features.push(
      ...(await createFeatures({
        config,
        logger,
        db,
        redis,
        secret,
        imageClassifier: options.imageClassifier,
      })),
      ...(options.extraFeatures ?? []),
    );
    const app = createApp({
      config,
      logger,
      db: db.pool,
      redis,
      features,
      secret,
      webDir: WEB_DIR,
    });
    const fastRoutes = new Map(
      features.flatMap((feature) => Object.entries(feature.fastRoutes ?? {})),
    );
    httpServer = http.createServer(
      withFastRoutes(app, fastRoutes, {
        logger,
        headers: captureHeaders(apiSecurityHeaders(config)),
      }),
    );
    io = new SocketServer(httpServer, {
      serveClient: false,
      // The rule of HTTP writes, with the same view of the scheme behind trusted proxies.
      allowRequest: sameOriginHandshakes(
        config.PUBLIC_ORIGIN,
        app.get('trust proxy fn') as ProxyTrust,
      ),
    });
    limitSocketMessages(io, { logger, now: options.now });
    if (redis) {
      adapterClients = openAdapterClients(redis, logger);
      io.adapter(
        createAdapter(adapterClients[0], adapterClients[1], {
          key: `${config.REDIS_PREFIX}:socket.io`,
        }),
      );
    }
    for (const feature of features) feature.attachSocket?.(io);
    for (const feature of features) await feature.start?.();

    const server = httpServer;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.PORT, config.HOST, () => resolve());
    });
  } catch (error) {
    // A failed start (the port in use, say) leaves nothing open behind it.
    await closeServices().catch(() => undefined);
    throw error;
  }
  const { port } = httpServer.address() as AddressInfo;
  const url = `http://localhost:${port}`;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      logger.info('shutting down');
      const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      const force = setTimeout(() => httpServer.closeAllConnections(), SHUTDOWN_GRACE_MS);
      // This process's players only: through the Redis adapter, io.disconnectSockets would drop
      // every player on every process.
      io.local.disconnectSockets(true);
      await stopped;
      clearTimeout(force);
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await closeServices();
      logger.info('stopped');
    })();
    return closing;
  };

  return { url, port, db, redis, io, close };
}
