import cluster from 'node:cluster';
import { loadConfigOrExit } from './core/cli';
import { runCluster } from './core/cluster';
import { joinCluster } from './core/cluster-worker';
import { createLogger } from './core/logger';
import { keepNewFilesPrivate } from './core/private-files';
import { runningLine } from './core/startup-line';

async function main() {
  keepNewFilesPrivate();
  const config = loadConfigOrExit();
  const logger = createLogger(config.LOG_LEVEL);
  // A library promise nobody awaits (a publish on a dropped Redis connection, say) is a bug to
  // log, not a reason to drop every player's connection.
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled promise rejection'));
  if (config.WEB_CONCURRENCY > 1 && cluster.isPrimary) {
    await runCluster(config, logger);
    return;
  }
  const worker = cluster.isWorker ? await joinCluster() : undefined;
  const log = worker ? logger.child({ worker: worker.id }) : logger;
  // Loaded here, not above: a cluster's primary never loads the app (the image model among it).
  const [{ startServer }, { createFeatures }] = await Promise.all([
    import('./core/server'),
    import('./features'),
  ]);
  const server = await startServer(config, log, createFeatures, { worker });

  let signals = 0;
  const stop = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) process.exit(1);
    log.info({ signal }, 'signal received');
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  if (worker) {
    // Ctrl-C reaches every process of the terminal: the primary stops the workers, with SIGTERM.
    process.on('SIGINT', () => undefined);
    worker.ready(server.port);
    return;
  }
  process.on('SIGINT', stop);
  log.info(
    { url: server.url, database: server.db.kind, redis: server.redis ? 'on' : 'off' },
    'listening',
  );
  process.stdout.write(`\n${runningLine(server.url, config)}\n\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
