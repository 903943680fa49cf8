import { loadConfigOrExit, runCli } from './cli';
import { openDatabase } from './db';
import { createLogger } from './logger';
import { runMigrations } from './migrate';

runCli(async () => {
  const config = loadConfigOrExit();
  const logger = createLogger(config.LOG_LEVEL);
  const db = await openDatabase(
    { databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR },
    logger,
  );
  try {
    const applied = await runMigrations(db.pool, logger);
    process.stdout.write(
      applied.length ? `Applied: ${applied.join(', ')}\n` : 'The database is up to date.\n',
    );
  } finally {
    await db.close();
  }
});
