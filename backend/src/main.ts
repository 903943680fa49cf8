import { loadConfigOrExit } from './core/cli';
import { createLogger } from './core/logger';
import { startServer } from './core/server';

async function main() {
  const config = loadConfigOrExit();
  const logger = createLogger(config.LOG_LEVEL);
  // A library promise nobody awaits (a publish on a dropped Redis connection, say) is a bug to
  // log, not a reason to drop every player's connection.
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled promise rejection'));
  const server = await startServer(config, logger);
  logger.info(
    { url: server.url, database: server.db.kind, redis: server.redis ? 'on' : 'off' },
    'listening',
  );
  process.stdout.write(`\nTapGram is running at ${server.url}\n\n`);

  let signals = 0;
  const stop = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) process.exit(1);
    logger.info({ signal }, 'signal received');
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
